"""`dialtray monitor`: watch a tray's events live, each dial in calibrated clicks; with a dock
file, each bound dock's figure and the values its dial shows."""

from __future__ import annotations

import argparse
import queue
import sys
import time
from pathlib import Path

from dialtray.builder.calibration_check import check_on_connect
from dialtray.builder.calibration_view import TrayView, host_copy
from dialtray.commands._args import int_range, positive_seconds
from dialtray.commands._common import CommandError
from dialtray.link.messages import LinkState, TrayEvent
from dialtray.link.port import resolve_port
from dialtray.link.session import TraySession
from dialtray.link.state import SessionState
from dialtray.tracker.binding import BindingError
from dialtray.ui.terminal import dialvalues
from dialtray.ui.terminal.monitor_view import link_text, show

EPILOG = """\
With no PORT, the one Raspberry Pi Pico on USB (VID:PID 2E8A:0005) is used; with two, name one.
Each click is shown as the players read it: the click from the dial's zero, its direction and
the dock's name, from the host's copy of the tray's calibration (`dialtray calibrate` writes it
to the data directory). Dials without a calibration are marked UNCALIBRATED.
With --docks-file (the dock file `play --docks-file` reads: `dock 0: A1`, one dock a line), each
bound dock's clicks also name the figure and the values printed in its dial's window at that
click, from the game's catalogue (--game; the figures `play` sets up).

examples:
  dialtray monitor                      the tray on USB
  dialtray monitor /dev/ttyACM0
  dialtray monitor /tmp/dialtray-sim-x/ttyDIALTRAY0 --stats 5   a virtual tray
  dialtray monitor PORT --diag 100      raw sensor readings every 100 ms (calibration)
  dialtray monitor --docks-file docks.txt --game aces    figures and their current values
"""

WAIT_NOTE_S = 5.0  # while no tray answers, say so this often


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("monitor", help="show a tray's events as they happen",
                       description="Connect to a tray and print every event it reports.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", nargs="?", help="serial port (default: find the tray on USB)")
    p.add_argument("--stats", type=positive_seconds, metavar="S",
                   help="print link statistics (both sides) every S seconds")
    p.add_argument("--diag", type=int_range(5, 10_000), metavar="MS",
                   help="diagnostics mode: stream raw sensor readings every MS ms (5..10000)")
    p.add_argument("--seconds", type=positive_seconds,
                   help="stop after this long (default: until Ctrl-C)")
    p.add_argument("--count", type=int_range(1), help="stop after this many events")
    p.add_argument("--calibration", type=Path, metavar="FILE",
                   help="the tray's calibration file (default: the host's copy in the data "
                        "directory, calibration/tray-<board uid>.json)")
    p.add_argument("--docks-file", type=Path, metavar="FILE",
                   help="which figure sits on which dock (the tracker's dock file): show each "
                        "bound dial's figure and values")
    p.add_argument("--game", choices=("airaction", "aces"), default="airaction",
                   help="the game whose figures the dock file names (default airaction)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    figures = None
    if getattr(args, "docks_file", None) is not None:
        try:
            figures = dialvalues.load(args.docks_file, args.game)
        except BindingError as e:
            raise CommandError(f"argument --docks-file: {e}", 2) from None
    port = resolve_port(args.port)
    start = time.monotonic()
    seen = 0
    view: TrayView | None = None
    with TraySession(port, name="monitor") as session:
        print(f"waiting for the tray on {port} to answer … (Ctrl-C to stop)", flush=True)
        if figures is not None:
            print(f"          figures ({args.game}, from {args.docks_file}):", flush=True)
            for line in figures.lines():
                print(f"            {line}", flush=True)
        last_stats = last_note = time.monotonic()
        diag_on = False
        said: set[str] = set()  # link messages shown since the tray last answered
        cal_checked = False
        try:
            while True:
                now = time.monotonic()
                if args.seconds is not None and now - start >= args.seconds:
                    break
                if args.count is not None and seen >= args.count:
                    break
                synced = session.synced.is_set()
                if synced:
                    said.clear()
                    if not cal_checked:  # once the tray answers: is its calibration ours?
                        cal_checked = True
                        cal_warning(args, session)
                if session.state is SessionState.FAILED:
                    raise CommandError(f"the link to the tray on {port} stopped: "
                                       f"{session.error or 'no reason given'}")
                if view is None and session.hello is not None:
                    view = open_view(args, session.hello.uid)
                if not synced and now - last_note >= WAIT_NOTE_S:
                    last_note = now
                    print(f"          still waiting for the tray on {port} "
                          f"({now - start:.0f} s, link {session.state.value}): is it powered "
                          "and running the dialtray firmware? (`dialtray flash` installs it)",
                          flush=True)
                try:
                    ev: TrayEvent = session.events.get(timeout=0.1)
                    seen += 1
                    if view is None and session.hello is not None:  # before the connect snapshot
                        view = open_view(args, session.hello.uid)
                    if isinstance(ev, LinkState):
                        text = link_text(ev, port, session.synced.is_set())
                        if text in said:
                            continue  # the same reconnect cycle again: the note says it waits
                        said.add(text)
                    else:
                        text = show(ev, view, figures)
                    print(f"{time.monotonic() - start:8.3f}  {text}", flush=True)
                except queue.Empty:
                    pass
                if args.diag and synced and not diag_on:
                    session.diagnostics(True, args.diag)
                    diag_on = True
                if args.stats and now - last_stats >= args.stats and synced:
                    last_stats = now
                    print_stats(session)
        except KeyboardInterrupt:
            pass
        if args.stats and session.synced.is_set():
            print_stats(session)
    return 0


def cal_warning(args: argparse.Namespace, session: TraySession) -> None:
    """Say whether the tray's stored calibration is the copy monitor reads (a warning if not)."""
    hello = session.hello
    if hello is None:
        return
    check = check_on_connect(session, args.calibration or host_copy(args.data_dir, hello.uid))
    print(f"          {check.line()}", flush=True)


def open_view(args: argparse.Namespace, uid: str) -> TrayView:
    path = args.calibration or host_copy(args.data_dir, uid)
    view = TrayView.load(path)
    if view.cal is None:
        print(f"          tray {uid}: {view.problem}; every dial is shown UNCALIBRATED "
              f"(`dialtray calibrate --dock N` measures a dock)", flush=True)
    else:
        print(f"          tray {uid}: calibration from {path}", flush=True)
    return view


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
    sys.stdout.flush()
