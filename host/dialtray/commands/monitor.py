"""`dialtray monitor`: watch a tray's events live."""

from __future__ import annotations

import argparse
import queue
import sys
import time

from dialtray.link.messages import TrayEvent
from dialtray.link.session import TraySession
from dialtray.link.transport import discover

EPILOG = """\
With no PORT, the one Raspberry Pi Pico on USB (VID:PID 2E8A:0005) is used.

examples:
  dialtray monitor                      the tray on USB
  dialtray monitor /dev/ttyACM0
  dialtray monitor /tmp/dialtray-sim-x/ttyDIALTRAY0 --stats 5   a virtual tray
  dialtray monitor PORT --diag 100      raw sensor readings every 100 ms (calibration)
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("monitor", help="show a tray's events as they happen",
                       description="Connect to a tray and print every event it reports.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", nargs="?", help="serial port (default: find the tray on USB)")
    p.add_argument("--stats", type=float, metavar="S",
                   help="print link statistics (both sides) every S seconds")
    p.add_argument("--diag", type=int, metavar="MS",
                   help="diagnostics mode: stream raw sensor readings every MS ms")
    p.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    p.add_argument("--count", type=int, help="stop after this many events")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.port is None and not discover():
        print("dialtray monitor: no tray found on USB (VID:PID 2E8A:0005). Plug it in, name "
              "the port, or start a virtual one with `dialtray sim`.", file=sys.stderr)
        return 1
    start = time.monotonic()
    seen = 0
    with TraySession(args.port, name="monitor") as session:
        print(f"connecting to {args.port or 'the tray on USB'} … (Ctrl-C to stop)", flush=True)
        last_stats = time.monotonic()
        diag_on = False
        try:
            while True:
                if args.seconds is not None and time.monotonic() - start >= args.seconds:
                    break
                if args.count is not None and seen >= args.count:
                    break
                try:
                    ev: TrayEvent = session.events.get(timeout=0.1)
                    seen += 1
                    print(f"{time.monotonic() - start:8.3f}  {ev}", flush=True)
                except queue.Empty:
                    pass
                if args.diag and session.synced.is_set() and not diag_on:
                    session.diagnostics(True, args.diag)
                    diag_on = True
                if args.stats and time.monotonic() - last_stats >= args.stats and \
                        session.synced.is_set():
                    last_stats = time.monotonic()
                    print_stats(session)
        except KeyboardInterrupt:
            pass
        if args.stats and session.synced.is_set():
            print_stats(session)
    return 0


def print_stats(session: TraySession) -> None:
    try:
        dev = session.stats(timeout=2)
    except (TimeoutError, RuntimeError) as e:
        print(f"          stats: no answer from the tray ({e})")
        return
    host = dict(session.counters) | session.rejection_counts()
    print(f"          device: frames ok {dev.frames_ok}, corrupt {dev.corrupt}, noise {dev.noise}, "
          f"unknown {dev.unknown}, bad args {dev.bad_args}, sent {dev.tx_frames}")
    print("          host:   " + ", ".join(f"{k} {v}" for k, v in sorted(host.items())), flush=True)
