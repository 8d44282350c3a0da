"""Missions as data (``dialtray/data/skyace/<id>.json``): 4.0 EXAMPLE MISSION "The Mugging"
(SA-M35, SA-M38, SA-M55..SA-M57).

>>> s = mission_setup("mugging")
>>> [p.id for p in s.pawns], s.victim_life, s.hostage
(['P1', 'P2', 'T1', 'T2', 'T3', 'T4'], 3, 'T1')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from dialtray.rules.core.catalogue import load_document, load_schema
from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.skyace.events import PawnSpec, Setup
from dialtray.rules.skyace.heroes import DATA_DIR, Hero, hero
from dialtray.rules.skyace.state import GM


@dataclass(frozen=True)
class Mission:
    id: str
    title: str
    heroes: tuple[str, ...]
    villain: str
    villains_per_hero: int
    gap: int
    victim_life: int | None
    hostage: str | None


@cache
def load_mission(name: str) -> Mission:
    path = DATA_DIR / f"{name}.json"
    if not name.isidentifier() or not path.is_file():
        raise KeyError(f"unknown mission {name!r} (known: mugging)")
    d = load_document(path, load_schema(DATA_DIR / "mission.schema.json"), "-")  # file, field
    try:
        v = d.get("victim")
        return Mission(d["id"], d["title"], tuple(d["heroes"]), d["villain"],
                       int(d["villains_per_hero"]), int(d["gap"]),
                       None if v is None else int(v["life"]), None if v is None else v["hostage"])
    except (KeyError, TypeError, ValueError) as exc:
        raise CatalogueError(path.name, name, str(exc), "missing or malformed") from None


def villain_count(m: Mission, heroes: int) -> int:
    """SA-M55: "There are 4 Thugs (or 2x the number of thugs as there are heroes.)" read as
    2 x the number of heroes (4 for the 2 printed heroes)."""
    return m.villains_per_hero * heroes


def mission_setup(name: str, heroes: Sequence[str] | None, physical: bool = False,
                  turn_limit: int = 60, own: Sequence[Hero] = ()) -> Setup:
    """SA-M38 "Advanced preparation": each hero at LIFE 5 (6 when Lucky, SA-M49), one villain pawn
    per villain with its printed LIFE (Thugs: 3), the GM's one deck for every villain (SA-A15)."""
    m = load_mission(name)
    mine = {h.id: h for h in own}

    def sheet(ident: str) -> Hero:
        return mine.get(ident) or hero(ident)

    ids = tuple(heroes) if heroes else m.heroes
    pawns = [PawnSpec(f"P{i + 1}", f"P{i + 1}", h, f"P{i + 1}", sheet(h).start_life())
             for i, h in enumerate(ids)]
    villain = sheet(m.villain)
    pawns += [PawnSpec(f"T{i + 1}", GM, villain.id, GM, villain.start_life())
              for i in range(villain_count(m, len(ids)))]
    seats = (*(p.seat for p in pawns if p.seat != GM), GM)
    return Setup("mission", physical, seats, tuple(pawns), turn_limit, m.id, m.victim_life,
                 m.hostage, m.gap)
