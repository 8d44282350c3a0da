"""Record sheets as data (FS-M05 "Record sheet"): aircraft statistics, loadout and the pilot.

A sheet is a JSON document checked against ``data/fasa/sheet.schema.json`` plus the semantic
checks below; a malformed sheet is a ``CatalogueError`` naming the file and the field. The
shipped sheets are SAMPLES (the box's 14 filled-out sheets are not in the seed). FS-M27..FS-M32
bound the statistics; FS-M102 gun ranges (only 70 cal = 3 is given; the rest is a SAMPLE,
D-FS-04); FS-M103/FS-M104 hardpoints and FS table 16 "Deployed Weapons".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from dialtray.rules.core.catalogue import FieldError, load_document, load_schema
from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.fasa.hexmap import DATA
from dialtray.rules.fasa.layouts import layout

GUN_RANGE = {30: 1, 40: 2, 50: 2, 60: 3, 70: 3}  # FS-M102: 70 cal = 3 given, rest SAMPLE
TURRET_RANGE_BONUS = 2  # FS-M120 (FS-T35)


@dataclass(frozen=True)
class Deployed:
    """FS table 16 "Deployed Weapons Table": range, to-hit modifier, hardpoints."""

    code: str
    name: str
    range: int
    modifier: int
    hardpoints: float
    lethal: bool
    at_hex: bool  # fired at a hex (auto-hit counters) rather than at a target


DEPLOYED = {d.code: d for d in (
    Deployed("AP", "armor-piercing rocket", 4, 1, 1, True, False),
    Deployed("HE", "high-explosive rocket", 4, 1, 1, True, False),
    Deployed("FK", "flak rocket", 7, 0, 0.5, True, True),
    Deployed("FL", "flare rocket", 7, 0, 0.5, False, True),
    Deployed("SS", "sonic rocket", 7, 0, 0.5, False, True),
    Deployed("HP", "harpoon rocket", 1, 2, 0.5, True, False),
    Deployed("BP", "beeper", 7, 1, 0.5, False, False),
    Deployed("SK", "seeker", 4, 1, 1, True, False),
    Deployed("DR", "drill rocket", 7, 1, 1, True, False),
    Deployed("B100", "100 lb bomb", 1, 5, 1, True, True),
    # FS-M115: range and to-hit are "variable" (tn.torpedo_tn); 2 hardpoints (``joined``)
    Deployed("TP", "aerial torpedo", 0, 5, 2, True, False),
)}
BOMBS = {"B100": (1, 5, 1), "B250": (2, 6, 3), "B500": (4, 7, 6), "B1000": (8, 8, 12)}
"""FS table 17 "Bomb Table": hardpoints, to-hit modifier, hits."""


@dataclass(frozen=True)
class Gun:
    id: str
    caliber: int
    ammo: str
    bursts: int

    @property
    def range(self) -> int:
        base = GUN_RANGE[self.caliber]
        return base + (TURRET_RANGE_BONUS if self.id == "turret_gun" else 0)


@dataclass(frozen=True)
class Pilot:
    name: str
    quick_draw: int
    dead_eye: int
    steady_hand: int
    natural_touch: int
    sixth_sense: int
    constitution: int
    quick_draw_points: int = 0
    previous_bailouts: int = 0


@dataclass(frozen=True)
class Sheet:
    id: str
    name: str
    sample: bool
    base_to_hit: int
    layout: str
    max_speed: int
    acceleration: int
    deceleration: int
    g_port: int
    g_starboard: int
    guns: tuple[Gun, ...]
    hardpoints: tuple[tuple[str, tuple[str, ...]], ...]
    pilot: Pilot
    joined: tuple[tuple[str, tuple[str, ...]], ...] = ()  # a load spanning more hardpoints

    def spans(self, hardpoint: str) -> tuple[str, ...]:
        """The hardpoint and those its load also occupies (an aerial torpedo needs 2,
        FS-M115): a hit on any of them destroys the load (FS-M94)."""
        return (hardpoint, *dict(self.joined).get(hardpoint, ()))


def _semantic(doc: dict[str, Any]) -> None:
    locs = {loc for t in layout(doc["layout"]).values() for loc in t}
    seen: set[str] = set()
    for i, g in enumerate(doc["guns"]):
        if g["id"] in seen:
            raise FieldError(f"guns[{i}].id", f"{g['id']} given twice")
        seen.add(g["id"])
        if g["id"] not in locs:
            raise FieldError(f"guns[{i}].id", f"layout {doc['layout']} has no {g['id']} location")
    for i, hp in enumerate(doc["hardpoints"]):
        if hp["id"] not in locs:
            raise FieldError(f"hardpoints[{i}].id", f"layout {doc['layout']} has no {hp['id']}")
        used = sum(DEPLOYED[x].hardpoints for x in hp["load"])
        has = 1 + len(hp.get("joined", []))
        for j in hp.get("joined", []):
            if j not in locs or j == hp["id"] or j in {h["id"] for h in doc["hardpoints"]}:
                raise FieldError(f"hardpoints[{i}].joined", f"{j} is not a free hardpoint "
                                 f"location of layout {doc['layout']}")
        if used > has:  # FS-M103: two non-lethal rockets (0.5 each) per hardpoint, else one
            raise FieldError(f"hardpoints[{i}].load",
                             f"needs {used} hardpoints, has {has} (FS-M103, FS-M115)")
    if doc["acceleration"] > doc["max_speed"]:
        raise FieldError("acceleration", "more than max speed (FS-M29)")


def sheet_from(doc: dict[str, Any]) -> Sheet:
    p = doc["pilot"]
    return Sheet(doc["id"], doc["name"], doc["sample"], doc["base_to_hit"], doc["layout"],
                 doc["max_speed"], doc["acceleration"], doc["deceleration"], doc["g_port"],
                 doc["g_starboard"],
                 tuple(Gun(g["id"], g["caliber"], g["ammo"], g["bursts"]) for g in doc["guns"]),
                 tuple((h["id"], tuple(h["load"])) for h in doc["hardpoints"]),
                 Pilot(p["name"], p["quick_draw"], p["dead_eye"], p["steady_hand"],
                       p["natural_touch"], p["sixth_sense"], p["constitution"],
                       p.get("quick_draw_points", 0), p.get("previous_bailouts", 0)),
                 tuple((h["id"], tuple(h["joined"])) for h in doc["hardpoints"]
                       if h.get("joined")))


def load_sheet(path: str | Path) -> Sheet:
    """One record sheet; ``CatalogueError(file, sheet, field, message)`` if it is malformed."""
    doc = load_document(path, load_schema(DATA / "sheet.schema.json"), semantic=_semantic)
    return sheet_from(doc)


@cache
def sheet(name: str) -> Sheet:
    """A shipped (SAMPLE) sheet by id."""
    path = DATA / "sheets" / f"{name}.json"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in (DATA / "sheets").glob("*.json")))
        raise CatalogueError(str(path), "-", "id", f"no record sheet {name!r} (known: {known})")
    return load_sheet(path)


def shipped() -> list[str]:
    return sorted(p.stem for p in (DATA / "sheets").glob("*.json"))
