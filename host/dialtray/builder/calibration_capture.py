"""Live capture for calibration: one settled raw reading per click, from the tray's diagnostics.

The builder turns a dial clockwise through one revolution, one click at a time, pausing on each.
The tray streams raw readings (diagnostics mode); a reading counts as *settled* once several in a
row agree within the sensor's noise, and a settled reading that differs from the last captured
one by more than a fraction of the smallest possible detent is the next click. No key presses:
the dial itself is the interface. The readings go to calibration.fit_dial, and a dock's fitted
dials into the tray's calibration file (:func:`add_dock`).
"""

from __future__ import annotations

import datetime
import queue
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dialtray.builder.calibration import (
    AS5600,
    AS5600_COUNTS,
    MAX_DETENTS,
    CalibrationError,
    CalibrationFile,
    DialCalibration,
    load_calibration,
    save_calibration,
)
from dialtray.link.messages import Diag, TrayEvent
from dialtray.link.session import TraySession

DIAG_PERIOD_MS = 20


@dataclass(frozen=True)
class CaptureRules:
    """How a settled reading and a new click are recognised, per sensor."""

    settle_samples: int  # consecutive readings that must agree
    noise: int  # how far they may disagree (raw units)
    click: int  # a settled change larger than this is a click

    @classmethod
    def for_sensor(cls, sensor: str) -> CaptureRules:
        if sensor == AS5600:
            # A quarter of the smallest detent the firmware accepts (64 per turn = 64 LSB).
            return cls(settle_samples=5, noise=3, click=AS5600_COUNTS // MAX_DETENTS // 4)
        return cls(settle_samples=5, noise=0, click=2)  # quadrature: counts are exact


def wrap(delta: int, sensor: str) -> int:
    """A raw difference, the short way round for an absolute sensor."""
    if sensor != AS5600:
        return delta
    delta %= AS5600_COUNTS
    return delta - AS5600_COUNTS if delta > AS5600_COUNTS // 2 else delta


class CaptureTimeout(TimeoutError):
    """The dial did not settle or click within the time allowed."""


@dataclass(frozen=True)
class CaptureStatus:
    """Where a capture stands, for a live display: what was measured, and what to do next."""

    clicks: int  # clicks captured since click 0; -1 while waiting for click 0 to settle
    raw: int | None  # the last settled reading
    direction: int  # +1: a clockwise click raises the reading, -1: lowers it, 0: not seen yet
    expected: int | None  # clicks per revolution, when known (given, or an incremental dial)
    done: bool = False

    @property
    def direction_text(self) -> str:
        return {1: "reading rises clockwise (+1)", -1: "reading falls clockwise (-1)"}.get(
            self.direction, "not seen yet")

    @property
    def next_step(self) -> str:
        if self.done:
            return "done: back on click 0"
        if self.clicks < 0:
            return "put the dial on click 0 and hold still"
        return "click once clockwise, then pause"

    def __str__(self) -> str:
        if self.clicks < 0:
            return f"waiting for click 0 to settle: {self.next_step}"
        of = f" of {self.expected}" if self.expected else ""
        where = "click 0" if self.clicks == 0 else f"click {self.clicks}{of}"
        return (f"{where}: raw {self.raw}, direction {self.direction_text}; "
                f"next: {self.next_step}")


def capture_revolution(session: TraySession, dock: int, dial: int, sensor: str,
                       clicks: int | None = None,
                       progress: Callable[[CaptureStatus], None] = print,
                       timeout_s: float = 60.0) -> list[int]:
    """Settled raw readings from click 0, each click, and click 0 again.

    With ``clicks`` unknown the capture stops as soon as an absolute dial is back where it
    started; an incremental encoder never comes back to its first count, so it needs ``clicks``.
    ``progress`` hears of every step (a CaptureStatus), starting with the wait for click 0.
    """
    if clicks is None and sensor != AS5600:
        raise ValueError("an incremental encoder needs the number of clicks per revolution")
    rules = CaptureRules.for_sensor(sensor)
    k = dock * 2 + dial
    raw: queue.Queue[int] = queue.Queue()

    def listen(ev: TrayEvent) -> None:
        if isinstance(ev, Diag) and k < len(ev.raw):
            raw.put(ev.raw[k])

    session.subscribe(listen)
    session.diagnostics(True, DIAG_PERIOD_MS)
    try:
        progress(CaptureStatus(-1, None, 0, clicks))
        readings = [_settled(raw, rules, sensor, None, timeout_s)]
        progress(CaptureStatus(0, readings[0], 0, clicks))
        direction = 0
        while True:
            value = _settled(raw, rules, sensor, readings[-1], timeout_s)
            readings.append(value)
            n = len(readings) - 1
            if direction == 0:
                direction = 1 if wrap(value - readings[0], sensor) > 0 else -1
            if clicks is not None:
                done = n == clicks
            else:
                done = n >= 2 and abs(wrap(value - readings[0], sensor)) <= rules.click
            progress(CaptureStatus(n, value, direction, clicks, done))
            if done:
                return readings
    finally:
        session.unsubscribe(listen)
        session.diagnostics(False)


def _settled(raw: queue.Queue[int], rules: CaptureRules, sensor: str, last: int | None,
             timeout_s: float) -> int:
    """The next settled reading (differing from ``last`` by more than a click's threshold)."""
    window: deque[int] = deque(maxlen=rules.settle_samples)
    deadline = time.monotonic() + timeout_s
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            what = "settle on click 0" if last is None else "move to the next click"
            raise CaptureTimeout(f"the dial did not {what} within {timeout_s:.0f} s")
        try:
            window.append(raw.get(timeout=min(remaining, 0.5)))
        except queue.Empty:
            continue
        if len(window) < rules.settle_samples:
            continue
        first = window[0]
        if any(abs(wrap(v - first, sensor)) > rules.noise for v in window):
            continue
        value = window[-1]
        if last is None or abs(wrap(value - last, sensor)) > rules.click:
            return value


def add_dock(out: Path, uid: str, firmware: str, dock: int,
             results: dict[str, DialCalibration], name: str | None = None) -> None:
    """Add this dock's dials (and name) to the tray's calibration file (created if new)."""
    if out.exists():
        cal = load_calibration(out)
        if cal.board_uid != uid:
            raise CalibrationError([f"{out}: belongs to tray {cal.board_uid}, not {uid}"])
    else:
        cal = CalibrationFile(board_uid=uid, date="", firmware=firmware)
    cal.date = datetime.date.today().isoformat()
    cal.docks.setdefault(dock, {}).update(results)
    if name:
        cal.names[dock] = name
    out.parent.mkdir(parents=True, exist_ok=True)
    save_calibration(out, cal)
