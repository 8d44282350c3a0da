"""`dialtray selftest`: what a builder needs to know about every part of a tray, with the fix.

The tray's SELFTEST command (``dialrig.selftest``) probes each AS5600 — does its multiplexer
answer, does the chip, is a magnet detected, too far (STATUS.ML) or too close (STATUS.MH), and
its AGC — and walks every LED die in red, green and blue. What only a person can see or do is
asked for: whether every LED lit, and turning each dial once so the test sees it count.
The run itself is ``dialtray.builder.selftest``'s; this module parses the arguments and starts
the tray.
"""

from __future__ import annotations

import argparse
import queue
import sys
import textwrap
import threading
from typing import Any

from dialrig import config

from dialtray.builder.selftest import Test, print_table
from dialtray.commands._args import float_range, int_range
from dialtray.commands._common import MAX_DOCKS, CommandError
from dialtray.link.port import resolve_port
from dialtray.link.session import TraySession

EPILOG = """\
The test runs in three parts:
  1. sensors: each AS5600 is read (magnet detected, too far, too close, AGC 0..128) and a
     multiplexer or sensor that does not answer is named with its channel;
  2. LEDs: every die lights all its LEDs red, then green, then blue, one die after another,
     then the d10 ring's ten;
     say whether they all did (y), or type the numbers of the dice that did not (die 0 first);
  3. dials: turn every dial at least one click, in its dock; the test moves on as soon as each
     has counted (or press Enter, or wait --turn seconds).
Every failure gets its fix. Exit status 0: all good; 1: something to fix; 2: bad arguments.

examples:
  dialtray selftest                         the tray on USB
  dialtray selftest /dev/ttyACM0 --turn 0   sensors and LEDs only, no dial turning
  dialtray selftest --sim --sim-do "gap 0 combat 4" --sim-do "nak 1 speed on"
                                            the virtual tray with a magnet too far and a loose
                                            sensor cable (see `dialtray sim`'s console commands)
"""

DESCRIPTION = ("Check every part of a tray the way a builder needs: each AS5600's magnet "
               "(detected, too far, too close) and AGC, which multiplexer or channel does not "
               "answer, every LED, every dial; a table with the fix for each failure.")
SYNC_S = 30.0
def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("selftest", help="test every sensor, LED and dial of a tray, with fixes",
                       description=textwrap.fill(DESCRIPTION, width=78), epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", nargs="?", help="serial port (default: find the tray on USB)")
    p.add_argument("--sim", action="store_true", help="test the virtual tray (no hardware)")
    p.add_argument("--rp2040", action="store_true",
                   help="with --sim: the virtual tray on an emulated Pico (official MicroPython)")
    p.add_argument("--docks", type=int_range(1, MAX_DOCKS), default=2,
                   help=f"--sim: the virtual tray's docks, 1..{MAX_DOCKS} (default 2)")
    p.add_argument("--sim-do", action="append", default=[], metavar="LINE",
                   help="--sim: a sim console command before the test, e.g. 'gap 0 combat 4' "
                        "(repeatable)")
    p.add_argument("--turn", type=float_range(0, 600), default=60.0, metavar="S",
                   help="seconds to wait for every dial to be turned, 0..600 (0: skip; "
                        "default 60)")
    p.add_argument("--no-lamps", dest="lamps", action="store_false",
                   help="skip the LED lamp test")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.sim and args.port:
        raise CommandError("argument PORT: not with --sim (the virtual tray has its own)", 2)
    if args.rp2040 and not args.sim:
        raise CommandError("argument --rp2040: only with --sim", 2)
    if args.sim_do and not args.sim:
        raise CommandError("argument --sim-do: only with --sim", 2)
    vtray: Any = None
    if args.sim:
        from dialtray.virtual.factory import require_sim, virtual_tray  # not at start-up

        require_sim(args.rp2040)
        from dialtray.virtual.script import ScriptError, run_line

        vtray = virtual_tray(config.default_config(args.docks), rp2040=args.rp2040,
                             report=lambda _note: None)
        try:
            vtray.start()
            for line in args.sim_do:
                try:
                    run_line(vtray, line, "--sim-do")
                except ScriptError as e:
                    raise CommandError(f"argument {e}", 2) from None
            port = vtray.port
        except BaseException:
            vtray.close()
            raise
    else:
        port = resolve_port(args.port)
    answers: queue.SimpleQueue[str | None] = queue.SimpleQueue()
    threading.Thread(target=_read_stdin, args=(answers,), daemon=True,
                     name="selftest-input").start()
    try:
        with TraySession(port, name="selftest") as session:
            try:
                session.wait_synced(SYNC_S)
            except TimeoutError as e:
                raise CommandError(f"the tray did not answer on {port}: {e}") from e
            rows = Test(session, answers, args.lamps, args.turn, vtray).run()
    finally:
        if vtray is not None:
            vtray.close()
    print_table(rows)
    bad = sum(r.failed for r in rows)
    print(f"\n{bad} problem(s) to fix." if bad else "\nall good.", flush=True)
    return 1 if bad else 0


def _read_stdin(out: queue.SimpleQueue[str | None]) -> None:
    try:
        for line in sys.stdin:
            out.put(line.strip())
    except (OSError, ValueError):
        pass
    out.put(None)
