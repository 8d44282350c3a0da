"""`dialtray selftest`: what a builder needs to know about every part of a tray, with the fix.

The tray's SELFTEST command (``dialrig.selftest``) probes each AS5600 — does its multiplexer
answer, does the chip, is a magnet detected, too far (STATUS.ML) or too close (STATUS.MH), and
its AGC — and walks every LED die in red, green and blue. What only a person can see or do is
asked for: whether every LED lit, and turning each dial once so the test sees it count.
"""

from __future__ import annotations

import argparse
import queue
import sys
import textwrap
import threading
import time
from dataclasses import dataclass
from typing import Any

from dialrig import config, proto

from dialtray.commands._args import float_range, int_range
from dialtray.commands._common import MAX_DOCKS, CommandError, require_sim, resolve_port
from dialtray.link.messages import (
    Booted,
    Click,
    SelfTest,
    SensorCheck,
    TrayEvent,
    dial_name,
)
from dialtray.link.session import CommandFailed, TraySession

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
REPORT_S = 20.0  # the sensor report and the lamp walk (12 dice x 3 colours x 0.12 s) arrive
LAMP_FIX = ("a die (and every one after it) stayed dark: check the DOUT -> DIN joint before its "
            "first LED, and its 5 V and GND; one colour missing on a LED: that LED is damaged, "
            "replace it")
TURN_FIX_AS5600 = ("the dial did not reach a new click: turn it a whole click in the dock; if "
                   "the sensor reads but no click comes, the coupler is not keyed to the dial "
                   "(its pins in the ring's recesses) or the tray needs `dialtray calibrate`")
TURN_FIX_QUAD = ("the encoder did not count: check its A, B and common pins against wiring.md "
                 "and the dial's `quad` and `pulses` in the tray's config")


TURNABLE = (proto.SENSE_OK, proto.SENSE_WEAK, proto.SENSE_STRONG, proto.SENSE_COUNTER)


@dataclass
class Row:
    part: str
    check: str
    result: str
    fix: str = ""
    failed: bool = False


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
        require_sim(args.rp2040)
        from dialtray.virtual.factory import virtual_tray
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
            rows = Test(session, answers, args, vtray).run()
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


class Test:
    """One run against a live session: the tray's report, the builder's answers, the rows."""

    def __init__(self, session: TraySession, answers: queue.SimpleQueue[str | None],
                 args: argparse.Namespace, vtray: Any = None) -> None:
        self.session = session
        self.answers = answers
        self.args = args
        self.vtray = vtray  # --sim: the virtual tray, whose console commands may be typed
        self.mark = 0  # events from this sequence number on are this test's
        self.boot = session.boot_id
        self.stdin_done = False

    def next_event(self, timeout: float) -> TrayEvent | None:
        """The next event of this test (None on timeout); a reboot ends the test."""
        try:
            ev = self.session.events.get(timeout=timeout)
        except queue.Empty:
            return None
        if self.session.boot_id != self.boot or (isinstance(ev, Booted) and ev.seq >= self.mark):
            raise CommandError("the tray rebooted during the self-test: check its power supply "
                               "(a brown-out when the LEDs light?) and run the test again")
        return ev if ev.seq >= self.mark else None

    def run(self) -> list[Row]:
        while not self.session.events.empty():  # what the connect replayed is not this test's
            self.session.events.get_nowait()
        self.mark = self.session.expected
        lamps = self.args.lamps
        if lamps:
            print("LED lamp test: watch the dice — each die lights all its LEDs red, then green, "
                  "then blue, one die after another (die 0 first), then the d10 ring.", flush=True)
        try:
            ack = self.session.request(proto.C_SELFTEST, proto.SELFTEST_FMT, int(lamps))
        except CommandFailed as e:
            if e.ack is not None and e.ack.status == proto.ACK_UNKNOWN:
                raise CommandError("the tray's firmware has no self-test command: update it "
                                   "with `dialtray flash`") from None
            raise CommandError(f"the tray did not start the self-test: {e}") from None
        except TimeoutError as e:
            raise CommandError(f"the tray did not answer the self-test command: {e}") from None
        if ack.status == proto.ACK_REJECTED:
            print("(a self-test was already running on the tray: reading its report)")
        checks, walked = self.collect()
        rows = [sensor_row(c) for c in checks]
        if lamps:
            rows.append(self.lamp_row(walked))
        rows.extend(self.turn_rows(checks))
        return rows

    def collect(self) -> tuple[list[SensorCheck], int]:
        checks: dict[tuple[int, int], SensorCheck] = {}
        deadline = time.monotonic() + REPORT_S
        while time.monotonic() < deadline:
            ev = self.next_event(0.2)
            if isinstance(ev, SensorCheck):
                checks[(ev.dock, ev.dial)] = ev
            elif isinstance(ev, SelfTest) and checks:
                # Every run logs a SENSOR per dial (a tray has 1..16 docks) before its SELFTEST:
                # one before them is the boot self-test's, when we connected during boot
                # (firmware before the run waited for it logged it after our SELFTEST's ack).
                return [checks[k] for k in sorted(checks)], ev.dice_walked
        raise CommandError(f"the tray sent no self-test report within {REPORT_S:.0f} s: is its "
                           "firmware older than this dialtray? (`dialtray flash` updates it)")

    def lamp_row(self, walked: int) -> Row:
        part, check = "LED dice", f"lamp test ({walked} dice)"
        if walked == 0:
            return Row(part, check, "no dice configured", "", False)
        if self.vtray is not None:
            return Row(part, check, "virtual tray: no LEDs to look at (not judged)")
        print(f"Did every LED of all {walked} dice light red, green and blue? "
              "[y / the numbers of the dice that did not, e.g. 3 4]: ", end="", flush=True)
        answer = self.answers.get()
        if answer is None:
            self.stdin_done = True
            print()
            return Row(part, check, "not confirmed (nobody answered)")
        if answer.lower() in ("y", "yes"):
            return Row(part, check, "ok: every LED lit")
        dice = sorted({int(w) for w in answer.replace(",", " ").split() if w.isdigit()})
        bad = [d for d in dice if 0 <= d < walked]
        if not bad:
            return Row(part, check, f"answer {answer!r} not understood: not confirmed")
        return Row(part, check, "did not light: " + ", ".join(f"die {d}" for d in bad),
                   LAMP_FIX, True)

    def turn_rows(self, checks: list[SensorCheck]) -> list[Row]:
        # A magnet too far or too close still gives an angle (noisier): those dials are turned
        # too; one with no magnet, or not answering, cannot count.
        todo = {(c.dock, c.dial): c for c in checks if c.check in TURNABLE}
        if not todo:
            return []
        if self.args.turn == 0:
            return [Row(dial_name(*k), "counts", "not tested (--turn 0)") for k in sorted(todo)]
        names = ", ".join(dial_name(*k) for k in sorted(todo))
        print(f"Turn every dial at least one click, in its dock: {names}. The test moves on "
              f"when each has counted, or press Enter (at most {self.args.turn:g} s).",
              flush=True)
        if self.vtray is not None:
            print("(virtual tray: type its console commands, e.g. `turn 0 combat 1`)", flush=True)
        counted: dict[tuple[int, int], int] = {}
        deadline = time.monotonic() + self.args.turn
        while time.monotonic() < deadline and len(counted) < len(todo):
            line = self.typed()
            if line == "":
                break  # Enter: done turning
            if line:
                self.sim_line(line)
            ev = self.next_event(0.1)
            if isinstance(ev, Click) and (ev.dock, ev.dial) in todo:
                key = (ev.dock, ev.dial)
                if key not in counted:
                    print(f"  {dial_name(*key)} counts", flush=True)
                counted[key] = counted.get(key, 0) + abs(ev.delta)
        rows = []
        for key in sorted(todo):
            if key in counted:
                rows.append(Row(dial_name(*key), "counts", f"ok ({counted[key]} click(s))"))
            else:
                quad = todo[key].check == proto.SENSE_COUNTER
                rows.append(Row(dial_name(*key), "counts", "no click seen",
                                TURN_FIX_QUAD if quad else TURN_FIX_AS5600, True))
        return rows


    def typed(self) -> str | None:
        """A line typed since the last look ('' for Enter), or None: nothing (or stdin ended)."""
        if self.stdin_done:
            return None
        try:
            line = self.answers.get_nowait()
        except queue.Empty:
            return None
        if line is None:
            self.stdin_done = True
        return line

    def sim_line(self, line: str) -> None:
        if self.vtray is None:
            print(f"  (ignored {line!r}: press Enter alone when done)", flush=True)
            return
        from dialtray.virtual.script import ScriptError, run_line

        try:
            print(f"  sim: {run_line(self.vtray, line) or 'done'}", flush=True)
        except ScriptError as e:
            print(f"  sim: {e}", flush=True)


def sensor_row(c: SensorCheck) -> Row:
    kind = {proto.SENSOR_CODES["as5600"]: "AS5600", proto.SENSOR_CODES["quadrature"]: "encoder"}
    check = kind.get(c.sensor, "sensor")
    if c.sensor == proto.SENSOR_CODES["as5600"]:
        check += f" (mux 0x{c.mux:02x} ch {c.channel})"
    return Row(dial_name(c.dock, c.dial), check, c.result, c.fix(), c.failed)


def print_table(rows: list[Row]) -> None:
    """Part, check and result in columns; each failure's fix on the line below it."""
    heads = ("part", "check", "result")
    cells = [(r.part, r.check, ("FAIL: " if r.failed else "") + r.result) for r in rows]
    widths = [max(len(x[i]) for x in [heads, *cells]) for i in range(2)]
    print()
    print(f"{heads[0]:<{widths[0]}}  {heads[1]:<{widths[1]}}  {heads[2]}")
    for row, (part, check, result) in zip(rows, cells, strict=True):
        print(f"{part:<{widths[0]}}  {check:<{widths[1]}}  {result}")
        if row.fix:
            print(f"{'':<{widths[0]}}  fix: {row.fix}")
    sys.stdout.flush()
