"""What the tracker hands out: expectations (clicks the rules made), flags (what is wrong and how
to put it right) and confirmations. Plain values with their words; the tracker decides when.

Directions are physical: positive clicks are clockwise, the way the tray counts them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dialtray.rules.core.dials import Dial, DialChange

# Flag kinds: every way the dials can disagree with the rules.
TOO_FEW = "too-few"
TOO_MANY = "too-many"
WRONG_DIRECTION = "wrong-direction"
WRONG_DIAL = "wrong-dial"
UNEXPECTED = "unexpected"  # a spin nobody caused (AA-M81)
PEEK = "peek"  # ahead and back (AA-M81): recorded for the judge, does not stop the game
AWAY = "away"  # moved while the host was not listening (snapshot / recovered clicks)
REFUSED = "refused"  # a dial turned as a decision the rules refuse (red line, failed check)
FAULT = "fault"  # the sensor cannot see the dial
CHECK = "check"  # restored from the sensor: its clicks while the host was away were not
#                  replayed (the tray's ring log overflowed); players confirm it (restored.py)
FLAG_KINDS = (TOO_FEW, TOO_MANY, WRONG_DIRECTION, WRONG_DIAL, UNEXPECTED, PEEK, AWAY, REFUSED,
              FAULT, CHECK)


def turn_words(clicks: int) -> str:
    """``+2`` → ``2 clicks clockwise``; ``-1`` → ``1 click counter-clockwise``."""
    n = abs(clicks)
    way = "clockwise" if clicks > 0 else "counter-clockwise"
    return f"{n} click{'' if n == 1 else 's'} {way}"


@dataclass
class Expectation:
    """Clicks due on one reader: ``total`` signed clicks from ``start`` (the sensed position when
    the rules made them). Several changes on one dial in one action add up."""

    label: str  # "dock 4 combat dial (B2)"
    dial: Dial
    start: int
    total: int
    causes: list[DialChange] = field(default_factory=list)
    opened: float = 0.0

    def cause_text(self) -> str:
        parts = []
        for ch in self.causes:
            why = ch.cause_event.text() if ch.cause_event is not None else "the rules"
            parts.append(f"{why}, {ch.rule_id}")
        return "; ".join(parts)

    def text(self, remaining: int | None = None) -> str:
        """``dock 4 combat dial (B2): 3 clicks clockwise — B2 takes 3 hits, AA-M45``."""
        todo = self.total if remaining is None else remaining
        more = "" if remaining is None or remaining == self.total else " more"
        return f"{self.label}: {turn_words(todo)}{more} — {self.cause_text()}"


@dataclass
class Flag:
    """A disagreement between the dials and the rules, with the instruction that ends it."""

    kind: str
    label: str
    text: str
    raised: float
    resolved: float | None = None
    resolution: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "dial": self.label, "text": self.text, "raised": self.raised,
                "resolved": self.resolved, "resolution": self.resolution}


@dataclass(frozen=True)
class Confirmation:
    """An expectation met: the sensed clicks agree with the rules again."""

    text: str
    dial: Dial
    clicks: int
    at: float  # host time of the click that completed it
    seq: int  # the tray's sequence number of that click (0: from a snapshot)
    free: bool = False  # a free setting (first-turn speed), not a count of clicks


@dataclass(frozen=True)
class EyeCheck:
    """A player's word that a dial whose encoder lost track shows ``click`` (``tracker.eye``):
    a player action the judge sees, never a game decision. ``boot``: the tray boot it holds
    for; ``count``: the encoder's count then (relative to that boot); ``shift``: what the
    tracker adds to that boot's counts from now on."""

    label: str
    dock: int
    reader: int
    figure: str
    kind: str
    click: int
    rules: int | None  # the click the rules put it at then (None: not set yet)
    boot: int | None
    count: int
    shift: int
    by: str
    at: float

    def text(self) -> str:
        said = "where the rules put it" if self.rules == self.click else \
            "the rules have not set it yet" if self.rules is None else \
            f"the rules put it at click {self.rules}"
        return f"{self.label}: confirmed by eye at click {self.click} by {self.by} ({said})"

    def to_dict(self) -> dict[str, object]:
        return {"dial": self.label, "dock": self.dock, "reader": self.reader,
                "figure": self.figure, "kind": self.kind, "click": self.click,
                "rules": self.rules, "boot": self.boot, "count": self.count,
                "shift": self.shift, "by": self.by, "at": self.at}
