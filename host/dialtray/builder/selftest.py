"""A tray's self-test, as a builder needs it: the tray's report on every sensor, the LED lamp
walk the builder watches, and each dial turned once; every problem a row with its fix.

``Test`` runs against a live ``TraySession`` (the SELFTEST command, ``docs/protocol.md``) and
reads the builder's answers from a queue of typed lines; ``print_table`` lays the rows out.
``commands.selftest`` parses the arguments, starts the tray (or the virtual one) and prints.
"""

from __future__ import annotations

import queue
import sys
import time
from dataclasses import dataclass
from typing import Any

from dialrig import proto

from dialtray.errors import UserError
from dialtray.link.messages import (
    Booted,
    Click,
    SelfTest,
    SensorCheck,
    TrayEvent,
    dial_name,
)
from dialtray.link.session import CommandFailed, TraySession
from dialtray.ui.terminal.fit import fit


class SelfTestError(UserError):
    """The self-test could not run to its end (the tray rebooted, did not answer, is too old)."""


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


class Test:
    """One run against a live session: the tray's report, the builder's answers, the rows."""

    def __init__(self, session: TraySession, answers: queue.SimpleQueue[str | None],
                 lamps: bool = True, turn_s: float = 60.0, vtray: Any = None) -> None:
        self.session = session
        self.answers = answers
        self.lamps = lamps  # the LED lamp test too
        self.turn_s = turn_s  # how long to wait for every dial to be turned (0: not at all)
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
            raise SelfTestError("the tray rebooted during the self-test: check its power supply "
                               "(a brown-out when the LEDs light?) and run the test again")
        return ev if ev.seq >= self.mark else None

    def run(self) -> list[Row]:
        while not self.session.events.empty():  # what the connect replayed is not this test's
            self.session.events.get_nowait()
        self.mark = self.session.expected
        lamps = self.lamps
        if lamps:
            print(fit("LED lamp test: watch the dice — each die lights all its LEDs red, then "
                      "green, then blue, one die after another (die 0 first), then the d10 "
                      "ring."), flush=True)
        try:
            ack = self.session.request(proto.C_SELFTEST, proto.SELFTEST_FMT, int(lamps))
        except CommandFailed as e:
            if e.ack is not None and e.ack.status == proto.ACK_UNKNOWN:
                raise SelfTestError("the tray's firmware has no self-test command: update it "
                                   "with `dialtray flash`") from None
            raise SelfTestError(f"the tray did not start the self-test: {e}") from None
        except TimeoutError as e:
            raise SelfTestError(f"the tray did not answer the self-test command: {e}") from None
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
        raise SelfTestError(f"the tray sent no self-test report within {REPORT_S:.0f} s: is its "
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
        if self.turn_s == 0:
            return [Row(dial_name(*k), "counts", "not tested (--turn 0)") for k in sorted(todo)]
        names = ", ".join(dial_name(*k) for k in sorted(todo))
        print(fit(f"Turn every dial at least one click, in its dock: {names}. The test moves "
                  f"on when each has counted, or press Enter (at most {self.turn_s:g} s)."),
              flush=True)
        if self.vtray is not None:
            print("(virtual tray: type its console commands, e.g. `turn 0 combat 1`)", flush=True)
        counted: dict[tuple[int, int], int] = {}
        deadline = time.monotonic() + self.turn_s
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
        print(fit(f"{part:<{widths[0]}}  {check:<{widths[1]}}  {result}",
                  widths[0] + widths[1] + 4))
        if row.fix:
            print(fit(f"{'':<{widths[0]}}  fix: {row.fix}", widths[0] + 7))
    sys.stdout.flush()

