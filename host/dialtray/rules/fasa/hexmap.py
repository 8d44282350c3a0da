"""The hex map: coordinates, facings A..F, mapsheets (data files), arcs and line of sight.

Geometry: flat-topped hexes in axial coordinates ``(q, r)``; a mapsheet names its hexes by
column and row (``"5,7"``, odd columns shifted half a hex down). Facing A points up the sheet
and the letters run clockwise: A north, B north-east, C south-east, D south, E south-west,
F north-west, so F is one hexside left of A (the template's 3L2F ends facing F, FS-T04).

FS-M03 "Mapsheets" (mega-hex = a hex and its 6 neighbours), FS-M04 "Terrain" (only impassable
dotted hexes matter), FS-M69 "Valid target" (the hex column straight ahead), FS-M71 "Line of
sight", FS-M59 "Tailing conditions" (front and rear arcs; the arcs diagram is missing, the
60-degree arcs here are a documented sample, docs/rules-decisions.md D-FS-03).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from dialtray.rules.core.catalogue import load_document, load_schema
from dialtray.rules.core.errors import CatalogueError

Hex = tuple[int, int]
FACINGS = "ABCDEF"
DIRS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
SQRT3 = math.sqrt(3)
DATA = Path(__file__).resolve().parents[2] / "data" / "fasa"


def facing_index(letter: str) -> int:
    return FACINGS.index(letter)


def step(h: Hex, facing: int, n: int = 1) -> Hex:
    dq, dr = DIRS[facing % 6]
    return (h[0] + n * dq, h[1] + n * dr)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> list[Hex]:
    return [step(h, f) for f in range(6)]


def mega_hex(h: Hex) -> list[Hex]:
    """FS-M03: a hex and the six around it."""
    return [h, *neighbours(h)]


def from_offset(col: int, row: int) -> Hex:
    return (col, row - (col - (col & 1)) // 2)


def to_offset(h: Hex) -> tuple[int, int]:
    q, r = h
    return q, r + (q - (q & 1)) // 2


def hex_text(h: Hex) -> str:
    c, r = to_offset(h)
    return f"{c},{r}"


def parse_hex(text: str) -> Hex:
    col, sep, row = text.partition(",")
    if not sep or not all(x.strip().lstrip("-").isdigit() for x in (col, row)):
        raise ValueError(f"{text!r} is not a hex (COL,ROW)")
    return from_offset(int(col), int(row))


def decompose(v: Hex) -> tuple[int, int, int] | None:
    """``v = a*DIRS[i] + b*DIRS[i+1]`` with a > 0, b >= 0: the sextant i and (a, b)."""
    if v == (0, 0):
        return None
    for i in range(6):
        (x1, y1), (x2, y2) = DIRS[i], DIRS[(i + 1) % 6]
        det = x1 * y2 - x2 * y1
        a = (v[0] * y2 - x2 * v[1]) // det
        b = (x1 * v[1] - v[0] * y1) // det
        if a > 0 and b >= 0 and a * x1 + b * x2 == v[0] and a * y1 + b * y2 == v[1]:
            return i, a, b
    raise AssertionError(v)


def bearing(src: Hex, dst: Hex) -> float:
    """The direction from ``src`` to ``dst`` in hexsides (0.0 = A, clockwise, 0.5 = the
    corner between A and B), measured between hex centres."""
    dq, dr = dst[0] - src[0], dst[1] - src[1]
    if not dq and not dr:
        return 0.0
    x, y = 1.5 * dq, SQRT3 * (dr + dq / 2)
    return (math.degrees(math.atan2(x, -y)) / 60.0) % 6


def in_arc(src: Hex, facing: int, dst: Hex, half_width: float = 0.5) -> bool:
    """``dst`` within ``half_width`` hexsides of ``src``'s facing (0.5: the 60-degree front arc
    of the SAMPLE arcs diagram; facing+3 gives the rear arc)."""
    if src == dst:
        return False
    diff = (bearing(src, dst) - facing) % 6
    return min(diff, 6 - diff) <= half_width + 1e-9


def straight_ahead(src: Hex, facing: int, dst: Hex) -> int | None:
    """FS-M69: the range to ``dst`` if it lies in the hex column straight ahead, else None."""
    dq, dr = dst[0] - src[0], dst[1] - src[1]
    fq, fr = DIRS[facing % 6]
    n = dq * fq if fq else dr * fr
    if n <= 0 or (dq, dr) != (n * fq, n * fr):
        return None
    return n


def line(a: Hex, b: Hex, nudge: float) -> list[Hex]:
    """The hexes a straightedge from ``a``'s centre to ``b``'s crosses (nudged sideways)."""
    n = distance(a, b)
    ax, az = a[0] + nudge, a[1] + nudge
    bx, bz = b[0] + nudge, b[1] + nudge
    out: list[Hex] = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        x, z = ax + (bx - ax) * t, az + (bz - az) * t
        out.append(_round(x, z))
    return out


def _round(x: float, z: float) -> Hex:
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return int(rx), int(rz)


@dataclass(frozen=True)
class MapObject:
    """An impassable dotted hex (FS-M04), a ground target with its base TN (FS table 8), cargo
    a harpoon may grab (FS-M108), or a gun post that shoots: a zeppelin turret (FS-M120), a
    main gun (FS-M121), a ground turret (FS-M06 step 3) with its owner seat, hexrows and
    gunner (``guns``, D-FS-15)."""

    id: str
    hex: Hex
    kind: str  # building | nacelle | train | zeppelin | ground | cargo | turret | main-gun
    #            | ground-turret | hook (a zeppelin's landing hook, D-FS-18)
    base_tn: int
    points: int = 0  # damage points a ground target takes before it is destroyed
    blocks: bool = True
    owner: str = ""  # the seat a gun post fights for
    rows: tuple[int, ...] = ()  # the hexrows (facings) a gun post can fire down (FS-M120)
    guns: tuple[tuple[int, str], ...] = ()  # (caliber, ammunition) of a turret's guns
    flak: bool = False  # a flak cannon / main gun: fires flak rounds at a hex (FS-M121)
    quick_draw: int = 0  # the gunner's (SAMPLE) skills
    dead_eye: int = 0
    on: str = ""  # the object the gun sits on (a nacelle, a gas cell): gone with it
    more: tuple[Hex, ...] = ()  # FS-M117: the other hexes of a gas cell over several hexes

    @property
    def span(self) -> tuple[Hex, ...]:
        """Every hex the object covers, its own ``hex`` first."""
        return (self.hex, *self.more)


@dataclass(frozen=True)
class MapSheet:
    id: str
    title: str
    cols: int
    rows: int
    sample: bool
    objects: tuple[MapObject, ...] = field(default=())
    military: bool = False  # FS-M117: its zeppelin takes the second "Zep. Dmg." number

    def on_map(self, h: Hex) -> bool:
        c, r = to_offset(h)
        return 0 <= c < self.cols and 0 <= r < self.rows

    def edge_left(self, h: Hex) -> str:
        """The side a hex off the sheet lies beyond: north, south, west, east."""
        c, r = to_offset(h)
        if r < 0:
            return "north"
        if r >= self.rows:
            return "south"
        return "west" if c < 0 else "east"

    def blockers(self) -> dict[Hex, MapObject]:
        return {h: o for o in self.objects if o.blocks for h in o.span}

    def object_at(self, h: Hex) -> MapObject | None:
        for o in self.objects:
            if o.hex == h or h in o.more:
                return o
        return None

    def line_of_sight(self, a: Hex, b: Hex, blocked: set[Hex] | None = None) -> bool:
        """FS-M71: a straightedge between the centres; a dotted hex it passes through blocks,
        one it only runs along the side of does not (so both nudged lines must be blocked)."""
        if blocked is None:  # the sheet's own dots: the answer never changes, keep it
            key = (id(self), a, b)
            known = _LOS.get(key)
            if known is not None and known[0] is self:
                return known[1]
        walls = set(self.blockers()) if blocked is None else set(blocked)
        walls -= {a, b}

        def hit(nudge: float) -> bool:
            return any(h in walls for h in line(a, b, nudge))

        seen = not (hit(1e-6) and hit(-1e-6))
        if blocked is None:
            if len(_LOS) > 200_000:
                _LOS.clear()
            _LOS[key] = (self, seen)
        return seen

    def hexes(self) -> Iterator[Hex]:
        for c in range(self.cols):
            for r in range(self.rows):
                yield from_offset(c, r)


_LOS: dict[tuple[int, Hex, Hex], tuple[MapSheet, bool]] = {}


def load_map(name: str, directory: Path | None = None) -> MapSheet:
    """A mapsheet by name (shipped ones are read once per process)."""
    if directory is None:
        return _shipped_map(name)
    return _load_map(name, directory)


@lru_cache(maxsize=32)
def _shipped_map(name: str) -> MapSheet:
    return _load_map(name, None)


def _load_map(name: str, directory: Path | None) -> MapSheet:
    """A mapsheet from ``data/fasa/maps/<name>.json`` (schema ``mapsheet.schema.json``)."""
    base = directory or DATA / "maps"
    path = base / f"{name}.json"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in base.glob("*.json")))
        raise CatalogueError(str(path), "-", "id", f"no mapsheet {name!r} (known: {known})")
    doc = load_document(path, load_schema(DATA / "mapsheet.schema.json"))
    objs = []
    for i, o in enumerate(doc["objects"]):
        h = from_offset(*o["hex"])
        if not (0 <= o["hex"][0] < doc["cols"] and 0 <= o["hex"][1] < doc["rows"]):
            raise CatalogueError(str(path), doc["id"], f"objects[{i}].hex", "off the sheet")
        objs.append(MapObject(o["id"], h, o["kind"], o["base_tn"], o.get("points", 0),
                              o.get("blocks", True), o.get("owner", ""),
                              tuple(FACINGS.index(x) for x in o.get("rows", FACINGS)),
                              tuple((g["caliber"], g["ammo"]) for g in o.get("guns", ())),
                              o.get("flak", False), o.get("quick_draw", 0),
                              o.get("dead_eye", 0), o.get("on", ""),
                              tuple(from_offset(*x) for x in o.get("more", ()))))
        for j, x in enumerate(o.get("more", ())):
            if not (0 <= x[0] < doc["cols"] and 0 <= x[1] < doc["rows"]):
                raise CatalogueError(str(path), doc["id"], f"objects[{i}].more[{j}]",
                                     "off the sheet")
            if o["kind"] != "zeppelin" or not any(
                    distance(from_offset(*x), q) == 1 for q in objs[-1].span if q !=
                    from_offset(*x)):
                raise CatalogueError(str(path), doc["id"], f"objects[{i}].more[{j}]",
                                     "only a gas cell spans hexes, each next to another of "
                                     "its hexes (FS-M117)")
    _check_guns(path, doc["id"], objs)
    return MapSheet(doc["id"], doc["title"], doc["cols"], doc["rows"], doc["sample"], tuple(objs),
                    bool(doc.get("military", False)))


GUN_POSTS = ("turret", "main-gun", "ground-turret")


def _check_guns(path: Path, map_id: str, objs: list[MapObject]) -> None:
    """What the schema cannot say about gun posts and cargo: FS-M120's hexrow counts, the
    object a gun sits on, a seat to fight for, points to lose (CatalogueError names the
    field)."""
    ids = {o.id: o for o in objs}
    if len(ids) != len(objs):
        raise CatalogueError(str(path), map_id, "objects", "an object id is given twice")
    for i, o in enumerate(objs):
        where = f"objects[{i}]"
        if o.kind == "cargo" and (o.blocks or o.points <= 0):
            raise CatalogueError(str(path), map_id, where, "cargo has points and does not "
                                 "block (FS-M108)")
        if o.kind == "hook":  # D-FS-18: a zeppelin's landing hook (FS-M66)
            mount = ids.get(o.on)
            if o.owner not in ("P1", "P2") or o.blocks or mount is None \
                    or mount.kind != "zeppelin":
                raise CatalogueError(str(path), map_id, f"{where}.on", "a landing hook has an "
                                     "owner seat, does not block and hangs from a gas cell")
            continue
        if o.kind not in GUN_POSTS:
            continue
        if o.owner not in ("P1", "P2") or o.points <= 0:
            raise CatalogueError(str(path), map_id, f"{where}.owner",
                                 "a gun post needs an owner seat (P1/P2) and points > 0")
        if len(set(o.rows)) != len(o.rows):
            raise CatalogueError(str(path), map_id, f"{where}.rows", "a hexrow given twice")
        if o.kind == "turret":
            mount = ids.get(o.on)
            if mount is None or mount.kind not in ("nacelle", "zeppelin"):
                raise CatalogueError(str(path), map_id, f"{where}.on",
                                     "a zeppelin turret sits on a nacelle or a gas cell")
            want = 3 if mount.kind == "nacelle" else 4
            if len(o.rows) != want:
                raise CatalogueError(str(path), map_id, f"{where}.rows", f"a "
                                     f"{'nacelle' if want == 3 else 'bow/stern'} turret covers "
                                     f"{want} hexrows (FS-M120)")
        if o.kind == "main-gun" and (not o.flak or o.guns or ids.get(o.on) is None):
            raise CatalogueError(str(path), map_id, f"{where}.flak", "a main gun fires flak "
                                 "rounds (FS-M121) and sits on a gas cell ('on')")
        if o.kind != "main-gun" and bool(o.guns) == o.flak:
            raise CatalogueError(str(path), map_id, f"{where}.guns", "a turret carries one or "
                                 "two machine guns or a flak cannon (FS-M120)")


def dump(sheet: MapSheet) -> str:
    return json.dumps({"id": sheet.id, "cols": sheet.cols, "rows": sheet.rows})
