"""One dial vocabulary for every rule set: what the click tracker talks to.

A *dial* is a figure's dial of one kind (``Dial("B1", "combat")``). The tracker needs two answers
from an engine, and only these two:

- **What every dial must show now** — ``game.dials()`` maps each ``Dial`` to a ``DialSetting``:
  the click index, the values printed in that click's window and their colours (and whether the
  figure is still in play).
- **Which clicks an applied action caused** — ``game.dial_changes()`` (or ``Entry.dial_changes``
  of any history entry): ``DialChange`` values in the order the rules made them, each saying on
  which dial, from which click to which, how many clicks in which direction, the event that caused
  it and the rule id behind it.

Click indexes count from 0. Directions are physical: a *click* is a clockwise turn (AA-M85,
AC-M73); Air Action's speed dial throttles up counter-clockwise (AA-M02). ``direction == "set"``
marks a dial set freely with no click count (Air Action's first-turn speed, AA-M18).

>>> d = DialChange("B1", "combat", 0, 2, 2, CLOCKWISE, None, "AA-M45")
>>> d.text()
'B1 combat dial: 2 clicks clockwise (click 0 -> 2) [AA-M45]'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dialtray.rules.core.events import Event

COMBAT = "combat"
SPEED = "speed"
ACE = "ace"
DIAL_KINDS = (COMBAT, SPEED, ACE)
"""Dial kinds: the combat dial (both games), Air Action's speed dial and the Ace's dial that an
Air Action Ace figure keeps off the play area (AA-M60)."""

CLOCKWISE = "clockwise"
COUNTER_CLOCKWISE = "counter-clockwise"
SET = "set"


@dataclass(frozen=True, order=True)
class Dial:
    """One physical dial: a figure id (a plane or character label) and a dial kind."""

    figure: str
    kind: str

    def text(self) -> str:
        return f"{self.figure} {self.kind} dial"


@dataclass(frozen=True)
class DialSetting:
    """What one dial must show now: its click index (None: not set yet), the values printed in
    that click's window and their colours. ``in_play`` is False once the figure has left the
    game (shot down, knocked out, withdrawn): its dial still shows its last click."""

    dial: Dial
    click: int | None
    values: Mapping[str, int] = field(default_factory=dict)
    colours: Mapping[str, str] = field(default_factory=dict)
    in_play: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "figure": self.dial.figure,
            "dial": self.dial.kind,
            "click": self.click,
            "values": dict(self.values),
            "colours": dict(self.colours),
            "in_play": self.in_play,
        }


@dataclass(frozen=True)
class DialChange:
    """Clicks the rules made on one dial, caused by one event under one rule.

    ``clicks`` is the number of clicks to turn (``abs(to_click - from_click)``; 0 for a free
    ``set``); ``direction`` is ``clockwise``, ``counter-clockwise`` or ``set``.
    """

    figure: str
    dial: str
    from_click: int | None
    to_click: int
    clicks: int
    direction: str
    cause_event: Event | None
    rule_id: str

    @property
    def key(self) -> Dial:
        return Dial(self.figure, self.dial)

    @property
    def delta(self) -> int:
        """The change of click index (0 for a free ``set``)."""
        return 0 if self.from_click is None else self.to_click - self.from_click

    def text(self) -> str:
        if self.direction == SET:
            return f"{self.figure} {self.dial} dial: set to click {self.to_click} [{self.rule_id}]"
        s = "" if self.clicks == 1 else "s"
        return (
            f"{self.figure} {self.dial} dial: {self.clicks} click{s} {self.direction} "
            f"(click {self.from_click} -> {self.to_click}) [{self.rule_id}]"
        )

    def to_dict(self) -> dict[str, Any]:
        ev = self.cause_event
        return {
            "figure": self.figure,
            "dial": self.dial,
            "from_click": self.from_click,
            "to_click": self.to_click,
            "clicks": self.clicks,
            "direction": self.direction,
            "cause_event": None if ev is None else type(ev).__name__,
            "cause": None if ev is None else ev.text(),
            "rule_id": self.rule_id,
        }


def click_change(
    figure: str,
    dial: str,
    from_click: int | None,
    to_click: int,
    cause: Event | None,
    rule_id: str,
    up: str = CLOCKWISE,
) -> DialChange:
    """A change from ``from_click`` to ``to_click``; ``up`` is the physical direction of a rising
    click index (clockwise for combat dials, counter-clockwise for Air Action's speed dial)."""
    if from_click is None:
        return DialChange(figure, dial, None, to_click, 0, SET, cause, rule_id)
    n = to_click - from_click
    down = COUNTER_CLOCKWISE if up == CLOCKWISE else CLOCKWISE
    return DialChange(
        figure, dial, from_click, to_click, abs(n), up if n >= 0 else down, cause, rule_id
    )


def instructions(
    want: Mapping[Dial, DialSetting], seen: Mapping[Dial, int], up: Mapping[str, str] | None = None
) -> list[str]:
    """What to put right when the dials ``seen`` differ from what the rules say (AA-M81):
    ``"B1 combat dial: turn 2 clicks clockwise"``. ``up`` maps a dial kind to the direction of a
    rising click index (default clockwise). Empty list: every dial agrees."""
    out: list[str] = []
    for dial, click in sorted(seen.items()):
        setting = want.get(dial)
        if setting is None:
            out.append(f"{dial.figure}: not in this game")
            continue
        if setting.click is None or setting.click == click:
            continue
        ch = click_change(
            dial.figure,
            dial.kind,
            click,
            setting.click,
            None,
            "",
            (up or {}).get(dial.kind, CLOCKWISE),
        )
        s = "" if ch.clicks == 1 else "s"
        out.append(f"{dial.text()}: turn {ch.clicks} click{s} {ch.direction}")
    return out


def replay_changes(
    start: Mapping[Dial, DialSetting], changes: Iterable[DialChange]
) -> dict[Dial, int | None]:
    """Apply ``changes`` to the clicks of ``start``; raises ``ValueError`` at the first change whose
    ``from_click`` is not where the dial is (a gap in the engine's change reports)."""
    clicks: dict[Dial, int | None] = {d: s.click for d, s in start.items()}
    for ch in changes:
        cur = clicks.get(ch.key)
        if ch.from_click is not None and cur != ch.from_click:
            raise ValueError(f"{ch.text()}: the dial is at click {cur}")
        if ch.from_click is not None and ch.clicks != abs(ch.to_click - ch.from_click):
            raise ValueError(f"{ch.text()}: click count does not match the click indexes")
        clicks[ch.key] = ch.to_click
    return clicks
