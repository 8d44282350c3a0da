"""Record sheets as data (FS-M05 "Record sheet"): aircraft statistics, loadout and the pilot.

A sheet is a JSON document checked against ``data/fasa/sheet.schema.json`` plus the semantic
checks below; a malformed sheet is a ``CatalogueError`` naming the file and the field. The
shipped sheets are SAMPLES (the box's 14 filled-out sheets are not in the seed). FS-M27..FS-M32
bound the statistics; FS-M102 gun ranges (only 70 cal = 3 is given; the rest is a SAMPLE,
D-FS-04); FS-M103/FS-M104 hardpoints and FS table 16 "Deployed Weapons".
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dialtray.rules.core.catalogue import FieldError, load_document, load_schema
from dialtray.rules.fasa.hexmap import DATA
from dialtray.rules.fasa.tables import FasaTables, active


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


class _ActiveDeployed(Mapping[str, Deployed]):
    """``DEPLOYED[code]``: the game's weapons table, for callers written before it was data."""

    def __getitem__(self, code: str) -> Deployed:
        return active().deployed[code]

    def __iter__(self) -> Iterator[str]:
        return iter(active().deployed)

    def __len__(self) -> int:
        return len(active().deployed)


DEPLOYED: Mapping[str, Deployed] = _ActiveDeployed()


def deployed() -> dict[str, Deployed]:
    """FS table 16 "Deployed Weapons Table" and every bomb of FS table 17 (``weapons.json``)."""
    return active().deployed


def bombs() -> dict[str, tuple[int, int, int]]:
    """FS table 17 "Bomb Table": hardpoints, to-hit modifier, hits, by code (B100...)."""
    return active().bombs


def gun_range() -> dict[int, int]:
    """FS-M102 Machine Gun Range Table by caliber (only 70 cal = 3 is in the text)."""
    return active().gun_range


def turret_bonus() -> int:
    """FS-M120: a turret's guns reach 2 hexes past the plane version (FS-T35)."""
    return active().turret_bonus


@dataclass(frozen=True)
class Gun:
    id: str
    caliber: int
    ammo: str
    bursts: int

    @property
    def range(self) -> int:
        t = active()
        return t.gun_range[self.caliber] + (t.turret_bonus if self.id == "turret_gun" else 0)


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
    diagram: dict[str, dict[str, tuple[tuple[int, int], ...]]] = field(
        default_factory=dict, compare=False, hash=False, repr=False)
    """The damage diagram of ``layout`` in the tables the sheet was loaded with (FS-M83)."""
    tanks: tuple[str, ...] = field(default=(), compare=False, hash=False, repr=False)
    """Its fuel tank locations (FS-M89), looked up on every engine check."""

    def spans(self, hardpoint: str) -> tuple[str, ...]:
        """The hardpoint and those its load also occupies (an aerial torpedo needs 2,
        FS-M115): a hit on any of them destroys the load (FS-M94)."""
        return (hardpoint, *dict(self.joined).get(hardpoint, ()))


def _semantic(doc: dict[str, Any], tables: FasaTables) -> None:
    if doc["layout"] not in tables.layouts:
        raise FieldError("layout", f"no layout {doc['layout']!r} in "
                         f"{tables.files['layouts']} (known: {', '.join(sorted(tables.layouts))})")
    locs = {loc for t in tables.layouts[doc["layout"]].values() for loc in t}
    seen: set[str] = set()
    for i, g in enumerate(doc["guns"]):
        if g["id"] in seen:
            raise FieldError(f"guns[{i}].id", f"{g['id']} given twice")
        seen.add(g["id"])
        if g["caliber"] not in tables.gun_range:
            raise FieldError(f"guns[{i}].caliber", f"no {g['caliber']} cal row in the Machine "
                             f"Gun Range Table {tables.files['weapons']} (FS-M102)")
        if g["id"] not in locs:
            raise FieldError(f"guns[{i}].id", f"layout {doc['layout']} has no {g['id']} location")
    for i, hp in enumerate(doc["hardpoints"]):
        if hp["id"] not in locs:
            raise FieldError(f"hardpoints[{i}].id", f"layout {doc['layout']} has no {hp['id']}")
        for j, x in enumerate(hp["load"]):
            if x not in tables.deployed:
                raise FieldError(f"hardpoints[{i}].load[{j}]", f"no {x} in "
                                 f"{tables.files['weapons']} (FS table 16, FS table 17)")
        used = sum(tables.deployed[x].hardpoints for x in hp["load"])
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


def sheet_from(doc: dict[str, Any], tables: FasaTables | None = None) -> Sheet:
    p = doc["pilot"]
    t = tables or active()
    return Sheet(doc["id"], doc["name"], doc["sample"], doc["base_to_hit"], doc["layout"],
                 doc["max_speed"], doc["acceleration"], doc["deceleration"], doc["g_port"],
                 doc["g_starboard"],
                 tuple(Gun(g["id"], g["caliber"], g["ammo"], g["bursts"]) for g in doc["guns"]),
                 tuple((h["id"], tuple(h["load"])) for h in doc["hardpoints"]),
                 Pilot(p["name"], p["quick_draw"], p["dead_eye"], p["steady_hand"],
                       p["natural_touch"], p["sixth_sense"], p["constitution"],
                       p.get("quick_draw_points", 0), p.get("previous_bailouts", 0)),
                 tuple((h["id"], tuple(h["joined"])) for h in doc["hardpoints"]
                       if h.get("joined")), t.layout(doc["layout"]),
                 tuple(loc for tb in t.layout(doc["layout"]).values() for loc in tb
                       if loc.startswith("fuel")))


def load_sheet(path: str | Path, tables: FasaTables | None = None) -> Sheet:
    """One record sheet checked against ``tables`` (default: the game's, ``active``);
    ``CatalogueError(file, sheet, field, message)`` if it is malformed."""
    t = tables or active()
    doc = load_document(path, load_schema(DATA / "sheet.schema.json"),
                        semantic=lambda d: _semantic(d, t))
    return sheet_from(doc, t)


def sheet(name: str) -> Sheet:
    """A sheet by id: the owner's (``Tables: DIR``'s ``sheets/``) or a shipped SAMPLE."""
    return active().sheet(name)


def shipped() -> list[str]:
    return sorted(p.stem for p in (DATA / "sheets").glob("*.json"))
