"""What the players must turn: the dial clicks an Aces action caused, in order (for the tray).

AC-M73: a click is a clockwise turn of the combat dial; damage (AC-M36) and fate (AC-M50) turn it
clockwise, healing counter-clockwise (AC-A17). A knocked-out character is removed (AC-M37).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dialtray.rules.aces import events as ev
from dialtray.rules.core.events import Event


@dataclass(frozen=True)
class DialChange:
    label: str
    clicks: int  # > 0 clockwise, < 0 counter-clockwise, 0 = remove the figure
    cause: str  # damage | fate | healing | knocked out
    to_click: int = -1

    def text(self) -> str:
        if self.cause == "knocked out":
            return f"{self.label}: knocked out - take the figure off the map"
        n = abs(self.clicks)
        way = "clockwise" if self.clicks > 0 else "counter-clockwise"
        return f"{self.label}: {n} click{'s' if n != 1 else ''} {way} ({self.cause})"


def dial_changes(events: Iterable[Event]) -> list[DialChange]:
    out: list[DialChange] = []
    for e in events:
        if isinstance(e, ev.Damaged):
            out.append(DialChange(e.label, e.clicks, "damage", e.to_click))
        elif isinstance(e, ev.FateClicked):
            out.append(DialChange(e.label, 1, "fate", e.to_click))
        elif isinstance(e, ev.Healed):
            out.append(DialChange(e.label, -e.clicks, "healing", e.to_click))
        elif isinstance(e, ev.Eliminated):
            out.append(DialChange(e.label, 0, "knocked out"))
    return out
