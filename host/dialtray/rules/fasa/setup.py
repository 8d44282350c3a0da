"""Setting up a FASA engagement (FS-M07 "Set-up", FS-M08): the setup events a game starts from.

Kept apart from ``game.py`` (the turn machinery) as MegaMek keeps game set-up apart from its
phase handlers: a front end, a bot runner or a log reader builds these events, the engine
folds them. ``tables`` names the owner's tables directory (``tables.load_tables``); its
problems are ``CatalogueError``s naming the file and the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dialtray.rules.core.events import Event
from dialtray.rules.core.game import Seat
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.hexmap import from_offset
from dialtray.rules.fasa.tables import load_tables, using

SEATS = ("P1", "P2")


@dataclass(frozen=True)
class Outcome:
    termination: str
    winner: Seat | None
    vp: dict[Seat, int] = field(default_factory=dict)
    how: str = ""


def start_events(map_name: str, planes: Sequence[tuple[str, str, str]], turn_limit: int,
                 sealed: bool = False, fractional: bool = False,
                 collision_damage: bool = False, speed: int = 2, tables: str = "",
                 speeds: dict[str, int] | None = None,
                 rescue: dict[str, str] | None = None,
                 fields: Sequence[str] = ()) -> list[Event]:
    """FS-M07 "Set-up": P1 on the south edge facing A, P2 on the north edge facing D, home
    sides behind them; ``planes`` are (seat, plane id, sheet id). "Pilots may start at any
    speed <= their plane's max speed": ``speeds`` sets a plane's own, ``speed`` the rest (a
    plane slower than ``speed`` at most starts at its max); a chosen speed above a plane's max
    is refused (``ValueError`` naming FS-M07). ``tables``: the owner's tables directory."""
    with using(load_tables(tables or None)) as t:
        sheet = t.map(map_name)
        out: list[Event] = [ev.GameSetup(map_name, SEATS, turn_limit, sealed, fractional,
                                         collision_damage, speed, tables,
                                         tuple(sorted((rescue or {}).items())),
                                         tuple(fields))]
        count = {s: 0 for s in SEATS}
        for seat, pid, sid in planes:
            i = count[seat]
            count[seat] += 1
            col = sheet.cols // 2 - 2 + 3 * (i % 2)  # FS-M08: a pair side by side ...
            south = seat == "P1"
            row = i // 2  # ... and each further pair one row further in
            h = from_offset(col, sheet.rows - 2 - row if south else 1 + row)
            top = t.sheet(sid).max_speed
            chosen = (speeds or {}).get(pid)
            if chosen is not None and not 0 <= chosen <= top:
                raise ValueError(f"{pid} ({sid}) cannot start at speed {chosen}: pilots start "
                                 f"at any speed up to their plane's max speed {top} (FS-M07)")
            v = chosen if chosen is not None else min(speed, top)
            out.append(ev.PlanePlaced(pid, seat, sid, h, 0 if south else 3, v,
                                      "south" if south else "north"))
    return out
