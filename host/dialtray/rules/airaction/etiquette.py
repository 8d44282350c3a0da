"""Etiquette as validation (seed 002 "Crimson Skies Etiquette", glossary "click"; AA-M81, AA-M85).

The tray reads every dial. ``dial_moves`` turns a batch of events into the clicks players must
make (dial, direction, count); ``verify`` compares a reading of the physical dials with the game
state (or a judge's check against the log) and says exactly what to put right.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.game import AirActionGame
from dialtray.rules.core.events import Event

CW = "clockwise"
CCW = "counter-clockwise"


@dataclass(frozen=True)
class DialMove:
    plane: str
    dial: str  # "combat" | "speed" | "ace"
    direction: str
    clicks: int

    def text(self) -> str:
        return f"{self.plane} {self.dial} dial: {self.clicks} click(s) {self.direction}"


def dial_moves(events: Iterable[Event]) -> list[DialMove]:
    """AA-M85: damage and fate are clockwise clicks; throttling up is counter-clockwise."""
    out: list[DialMove] = []
    for e in events:
        if isinstance(e, ev.DamageClicks):
            out.append(DialMove(e.plane, "combat", CW, e.clicks))
        elif isinstance(e, ev.FateClick):
            out.append(DialMove(e.ace, "ace", CW, 1))
        elif isinstance(e, ev.SpeedChanged) and e.old_index is not None:
            n = e.new_index - e.old_index
            if n:
                out.append(DialMove(e.plane, "speed", CCW if n > 0 else CW, abs(n)))
    return out


@dataclass(frozen=True)
class Reading:
    """What the tray sees for one plane: combat click, speed position, Ace dial click."""

    combat: int | None = None
    speed: int | None = None
    ace: int | None = None


def verify(game: AirActionGame, readings: Mapping[str, Reading]) -> list[str]:
    """AA-M81: every dial must show what the rules say; each mismatch becomes an instruction
    ("A1 combat dial: turn 1 click clockwise"). Empty list = all dials agree."""
    out: list[str] = []
    for pid, r in readings.items():
        ps = game.state.planes.get(pid)
        if ps is None:
            out.append(f"{pid}: not in this game")
            continue
        checks = (
            ("combat", r.combat, ps.combat_click, CW, CCW),
            ("speed", r.speed, ps.speed_index, CCW, CW),
            ("ace", r.ace, ps.ace_click if ps.ace else None, CW, CCW),
        )
        for dial, seen, want, forward, back in checks:
            if seen is None or want is None or seen == want:
                continue
            n = want - seen
            way = forward if n > 0 else back
            out.append(f"{pid} {dial} dial: turn {abs(n)} click(s) {way}")
    return out
