"""The tracker's vocabulary and what it keeps per reader: phases, timing, a decision's answer,
``SlotState`` (where a reader is, where the rules put it, its open expectation and flag) and the
sensed click as a log comment. Plain data; the modules beside it decide what to do with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from dialtray.rules.core.dials import COUNTER_CLOCKWISE, SPEED, Dial
from dialtray.tracker import marks as mk
from dialtray.tracker.binding import Slot

START = "start-check"
PLAY = "play"
OVER = "over"
DEFAULT_DETENTS = 12
DEFAULT_UP = {SPEED: COUNTER_CLOCKWISE}
"""Physical direction of a rising click index per dial kind (default clockwise): Air Action's
speed dial throttles up counter-clockwise (AA-M02, core.dials)."""


@dataclass(frozen=True)
class Timing:
    judge_s: float = 0.6  # a dial must rest this long before it is judged (a person's pause)
    grace_s: float = 1.5  # a click just after a confirmation, same way, is "too many"


@dataclass(frozen=True)
class Result:
    """The answer to a typed decision or a dispute."""

    ok: bool
    message: str
    events: tuple[str, ...] = ()
    retry: bool = False  # not the rules' refusal: the same decision may simply be tried again


@dataclass
class SlotState:
    slot: Slot
    dial: Dial
    label: str
    up: int  # +1: a rising click index is clockwise
    detents: int = DEFAULT_DETENTS
    seen: int | None = None  # sensed position, unwrapped (clockwise clicks)
    want: int | None = None  # where the rules put it (None: anywhere yet)
    exp: mk.Expectation | None = None
    flag: mk.Flag | None = None
    moved_at: float = 0.0
    judged: bool = True  # judged since it last moved
    excursion: int = 0  # furthest offset since it last agreed
    away: bool = False
    after_confirm: bool = False
    grace_until: float = 0.0
    grace_sign: int = 0
    free: bool = False  # not set yet (Air Action speed before the first turn): any place will do
    refused: str = ""  # why this dial decision is refused (judged afresh each time)
    failed: str = ""  # the engine took the decision but not the dial's new place
    fault: str = ""
    restored: bool = False  # read from the sensor after a refused replay: to be checked
    lost: bool = False  # its encoder lost track (this tray boot): to be confirmed by eye
    shift: int = 0  # added to the tray's count (an encoder confirmed by eye: ``eye.py``)
    eye_boot: int | None = None  # the tray boot the eye confirmation holds for
    count_boot: int | None = None  # the tray boot whose counts ``seen - shift`` is
    eyed: int | None = None  # confirmed by eye at this click, not the rules': until it agrees

    @property
    def offset(self) -> int:
        if self.seen is None or self.want is None:
            return 0
        return self.seen - self.want

    def phys(self, click: int) -> int:
        return click * self.up


def nearest(st: SlotState, pos: int, ref: int | None = None) -> int:
    """The unwrapped position equal to ``pos`` modulo the detents nearest ``ref`` (None: the
    sensed one)."""
    if ref is None:
        ref = st.seen if st.seen is not None else 0
    d = (pos - ref) % st.detents
    if d > st.detents // 2:
        d -= st.detents
    return ref + d


class ClickNote:
    """A sensed click in the log (a comment), formatted only when the log is written: the
    tracker sees every click and must stay cheap per event."""

    __slots__ = ("away", "delta", "slot")

    def __init__(self, st: SlotState, delta: int, away: bool) -> None:
        self.slot, self.delta, self.away = st, delta, away

    def __str__(self) -> str:
        st = self.slot
        return (f"# click {st.slot.text()} {self.delta:+d}"
                f"{' (recovered)' if self.away else ''} [{st.dial.figure} {st.dial.kind}]")


def turn(n: int) -> str:
    return mk.turn_words(n)


def clicks(n: int) -> str:
    return f"{abs(n)} click{'' if abs(n) == 1 else 's'}"


__all__ = ["DEFAULT_DETENTS", "DEFAULT_UP", "OVER", "PLAY", "START", "ClickNote", "Result",
           "SlotState", "Timing", "clicks", "nearest", "turn"]
