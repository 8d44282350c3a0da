"""The tables the FASA seed refers to but does not print, as schema-checked data files.

The maneuver template (FS-M34), the Hit Location Table (FS-M79, FS-A08), the damage templates
(FS-M81), the damage-diagram layouts (FS-M05, FS-M83), the Machine Gun Range Table with the
Deployed Weapons and Bomb Tables (FS-M102, FS tables 16 and 17) and the arcs and deflection
diagrams (FS-M59, FS table 13) live in ``data/fasa/tables/*.json`` (each ``"sample": true``:
dialtray's own numbers, not the box's). Record sheets and maps live in ``data/fasa/sheets`` and
``data/fasa/maps``.

An owner with the box loads their own: a directory holding any of ``template.json``,
``hit_location.json``, ``damage_templates.json``, ``layouts.json``, ``weapons.json``,
``arcs.json``, ``scatter.json`` (the bomb scatter diagram, FS-M114), ``sheets/*.json`` and
``maps/*.json``; each file it holds replaces the shipped one (sheets and maps are added to
the shipped ones, an owner's file of the same id wins). A game's log names that directory
(``Tables: DIR``) so a replay reads the same files.

Every problem is a ``CatalogueError`` naming the file and the field; never a traceback.
"""

from __future__ import annotations

import functools
import json
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dialtray.rules.core.catalogue import FieldError, load_document, load_schema
from dialtray.rules.core.errors import CatalogueError

if TYPE_CHECKING:
    from dialtray.rules.fasa.hexmap import MapSheet
    from dialtray.rules.fasa.sheets import Deployed, Sheet
    from dialtray.rules.fasa.template import Maneuver

DATA = Path(__file__).resolve().parents[2] / "data" / "fasa"
SHIPPED = DATA / "tables"
SCHEMAS = DATA / "schemas"
FILES = ("template", "hit_location", "damage_templates", "layouts", "weapons", "arcs",
         "scatter")
TABLE_NAMES = ("nose", "port_leading", "starboard_leading", "tail", "port_trailing",
               "starboard_trailing")
FACING_LETTERS = "ABCDEF"
Cell = tuple[int, int]
Shape = tuple[tuple[int, int], ...]


def _template(doc: dict[str, Any]) -> None:
    """FS-M34/FS-M35: each arrowhead's notation agrees with its fields and its path."""
    seen: set[str] = set()
    for i, a in enumerate(doc["arrowheads"]):
        where = f"arrowheads[{i}]"
        stall = a["direction"] == "stall"
        if stall != (a["speed"] == 0):
            raise FieldError(f"{where}.direction", "a stall (FS-M41) and only a stall has "
                             "speed 0")
        row = "" if a["direction"] in ("S", "stall") else str(a["hexrow"])
        want = a["facing"] if stall else f"{a['speed']}{a['direction']}{row}{a['facing']}"
        if a["plot"] != want:
            raise FieldError(f"{where}.plot", f"{a['plot']!r} does not match its fields "
                             f"(speed, direction, hexrow, facing give {want!r}; FS-M34)")
        if a["plot"] in seen:
            raise FieldError(f"{where}.plot", f"{a['plot']} given twice")
        seen.add(a["plot"])
        if len(a["path"]) != a["speed"]:
            raise FieldError(f"{where}.path", f"{len(a['path'])} hexes for speed {a['speed']} "
                             "(one hex entered per point of speed, FS-M34)")
    if not any(a["direction"] == "S" and a["facing"] == "A" for a in doc["arrowheads"]):
        raise FieldError("arrowheads", "no straight ahead (nSA) arrowhead: random movement "
                         "(FS-M44) has nothing to fly")


def _hit_location(doc: dict[str, Any]) -> None:
    """FS-M79: each side's d10 ranges rise and end at 10."""
    for side, rows in doc["sides"].items():
        tops = [r["up_to"] for r in rows]
        if tops != sorted(set(tops)) or tops[-1] != 10:
            raise FieldError(f"sides.{side}", "the d10 ranges' up_to values must rise and the "
                             "last be 10 (every roll finds a table)")


def _layouts(doc: dict[str, Any]) -> None:
    """FS-M83: a box belongs to one damage location of its table."""
    for name, tables in doc["layouts"].items():
        for table, locs in tables.items():
            seen: dict[tuple[int, int], str] = {}
            for loc, cells in locs.items():
                for j, (r, c) in enumerate(cells):
                    if (r, c) in seen:
                        raise FieldError(f"layouts.{name}.{table}.{loc}[{j}]",
                                         f"box [{r}, {c}] is also in {seen[(r, c)]}")
                    seen[(r, c)] = loc
        if not any(loc == "pilot" for locs in tables.values() for loc in locs):
            raise FieldError(f"layouts.{name}", "no pilot location (FS-M92)")
        if not any(loc == "engine" for locs in tables.values() for loc in locs):
            raise FieldError(f"layouts.{name}", "no engine location (FS-M88)")


def _weapons(doc: dict[str, Any]) -> None:
    codes = [d["code"] for d in doc["deployed"]]
    need = ("AP", "HE", "FK", "FL", "SS", "HP", "BP", "SK", "DR", "TP")
    for i, c in enumerate(codes):
        if codes.index(c) != i:
            raise FieldError(f"deployed[{i}].code", f"{c} given twice")
    missing = [c for c in need if c not in codes]
    if missing:
        raise FieldError("deployed", f"no {', '.join(missing)} (FS table 16 names them)")
    bombs = [b["code"] for b in doc["bombs"]]
    for i, b in enumerate(doc["bombs"]):
        if b["code"] != f"B{b['pounds']}" or bombs.index(b["code"]) != i:
            raise FieldError(f"bombs[{i}].code", f"must be B{b['pounds']}, once")


def _scatter(doc: dict[str, Any]) -> None:
    """FS-M114: a roll that moves the bomb says toward which facing."""
    for r, row in doc["d10"].items():
        if row["hexes"] and "facing" not in row:
            raise FieldError(f"d10.{r}.facing", f"the bomb moves {row['hexes']} hex(es): toward "
                             "which facing (A-F)?")


SEMANTIC = {"template": _template, "hit_location": _hit_location, "layouts": _layouts,
            "weapons": _weapons, "scatter": _scatter}


@dataclass
class FasaTables:
    """One game's tables, sheets and maps (see the module docstring)."""

    source: str  # "" for the shipped samples, else the owner's directory
    files: dict[str, Path]
    template: dict[str, Maneuver]
    same_hex: str
    hit_location: dict[int, tuple[tuple[int, str], ...]]
    shapes: dict[str, Shape]
    deeper_from: int
    zep_damage: dict[str, tuple[int, int]]
    layouts: dict[str, dict[str, dict[str, tuple[Cell, ...]]]]
    gun_range: dict[int, int]
    turret_bonus: int
    deployed: dict[str, Deployed]
    bombs: dict[str, tuple[int, int, int]]
    front_half: float
    rear_half: float
    turret_half: float
    deflection: dict[int, int]
    sample: dict[str, bool]
    scatter: dict[int, tuple[int, int]] = field(default_factory=dict)  # d10: (facing, hexes)
    _sheets: dict[str, Sheet] = field(default_factory=dict)
    _maps: dict[str, MapSheet] = field(default_factory=dict)
    _where: dict[str, dict[tuple[str, Cell], str]] = field(default_factory=dict)

    # -- layouts --------------------------------------------------------------------------
    def layout(self, name: str) -> dict[str, dict[str, tuple[Cell, ...]]]:
        found = self.layouts.get(name)
        if found is None:
            raise KeyError(f"no damage-diagram layout {name!r} in {self.files['layouts']} "
                           f"(known: {', '.join(sorted(self.layouts))})")
        return found

    def location_of(self, name: str) -> dict[tuple[str, Cell], str]:
        """Each (table, cell) of a layout that belongs to a damage location."""
        got = self._where.get(name)
        if got is None:
            got = {(t, c): loc for t, locs in self.layout(name).items()
                   for loc, cells in locs.items() for c in cells}
            self._where[name] = got
        return got

    # -- damage -----------------------------------------------------------------------------
    def gun_shape(self, ammo: str, caliber: int) -> Shape:
        """One gun hit's template: the ammunition's, one box deeper from ``deeper_from``."""
        base = self.shapes[ammo]
        if caliber >= self.deeper_from:
            deepest = max(r for r, _ in base)
            base = (*base, (deepest + 1, 0))
        return base

    def hit_table(self, side: int | None, roll: int) -> str:
        """FS-M79: the damage table for a location roll from ``side`` (None: same hex)."""
        if side is None:
            return self.same_hex
        for top, table in self.hit_location[side % 6]:
            if roll <= top:
                return table
        raise ValueError(roll)

    def zep_points(self, shape: str, boxes: int, military: bool) -> int:
        """FS-M117: a template's "Zep. Dmg." number (the first against a commercial zeppelin,
        the second against a military one); a template without one does its box count."""
        pair = self.zep_damage.get(shape)
        return boxes if pair is None else pair[1 if military else 0]

    # -- sheets and maps --------------------------------------------------------------------
    def sheet(self, name: str) -> Sheet:
        got = self._sheets.get(name)
        if got is None:
            from dialtray.rules.fasa.sheets import load_sheet

            dirs = [Path(self.source) / "sheets"] if self.source else []
            dirs.append(DATA / "sheets")
            path = next((d / f"{name}.json" for d in dirs if (d / f"{name}.json").is_file()),
                        None)
            if path is None:
                known = ", ".join(sorted({p.stem for d in dirs for p in d.glob("*.json")}))
                raise CatalogueError(str(dirs[0] / f"{name}.json"), "-", "id",
                                     f"no record sheet {name!r} (known: {known})")
            got = load_sheet(path, self)
            self._sheets[name] = got
        return got

    def map(self, name: str) -> MapSheet:
        got = self._maps.get(name)
        if got is None:
            from dialtray.rules.fasa.hexmap import load_map

            own = Path(self.source) / "maps" if self.source else None
            got = (load_map(name, own) if own is not None and (own / f"{name}.json").is_file()
                   else load_map(name))
            self._maps[name] = got
        return got


def _read(name: str, directory: Path | None) -> tuple[Path, dict[str, Any]]:
    path = (directory / f"{name}.json") if directory is not None else SHIPPED / f"{name}.json"
    if directory is not None and not path.is_file():
        path = SHIPPED / f"{name}.json"
    if path.parent == SHIPPED:
        return _shipped(name)
    return _checked(path, name)


@functools.lru_cache(maxsize=len(FILES))
def _shipped(name: str) -> tuple[Path, dict[str, Any]]:
    """A shipped table, read and checked once per process (callers do not modify it)."""
    return _checked(SHIPPED / f"{name}.json", name)


def _checked(path: Path, name: str) -> tuple[Path, dict[str, Any]]:
    schema = load_schema(SCHEMAS / f"{name}.schema.json")
    return path, load_document(path, schema, semantic=SEMANTIC.get(name))


def build(docs: dict[str, tuple[Path, dict[str, Any]]], source: str) -> FasaTables:
    """The tables from their checked documents (``FILES`` each)."""
    from dialtray.rules.fasa.hexmap import FACINGS
    from dialtray.rules.fasa.sheets import Deployed
    from dialtray.rules.fasa.template import Maneuver

    t = docs["template"][1]
    template = {a["plot"]: Maneuver(a["speed"], "" if a["direction"] == "stall"
                                    else a["direction"], a["hexrow"], FACINGS.index(a["facing"]),
                                    a["gs"], tuple(a["path"]), a["plot"])
                for a in t["arrowheads"]}
    h = docs["hit_location"][1]
    hit = {FACING_LETTERS.index(s): tuple((r["up_to"], r["table"]) for r in rows)
           for s, rows in h["sides"].items()}
    d = docs["damage_templates"][1]
    shapes = {k: tuple((b[0], b[1]) for b in v["boxes"]) for k, v in d["templates"].items()}
    zep = {k: (v["zep_damage"]["commercial"], v["zep_damage"]["military"])
           for k, v in d["templates"].items() if "zep_damage" in v}
    lay = docs["layouts"][1]
    layouts = {n: {tb: {loc: tuple((c[0], c[1]) for c in cells) for loc, cells in locs.items()}
                   for tb, locs in tables.items()} for n, tables in lay["layouts"].items()}
    w = docs["weapons"][1]
    deployed = {x["code"]: Deployed(x["code"], x["name"], x["range"], x["modifier"],
                                    x["hardpoints"], x["lethal"], x["at_hex"])
                for x in w["deployed"]}
    bombs = {b["code"]: (b["hardpoints"], b["modifier"], b["hits"]) for b in w["bombs"]}
    for code, (hp, mod, _) in bombs.items():  # FS-M114: a bomb drops in or next to its hex
        deployed.setdefault(code, Deployed(code, f"{code[1:]} lb bomb", 1, mod, hp, True, True))
    a = docs["arcs"][1]
    return FasaTables(
        source, {k: p for k, (p, _) in docs.items()}, template, h["same_hex"], hit, shapes,
        d["deeper_from_caliber"], zep, layouts, {int(k): v for k, v in w["gun_range"].items()},
        w["turret_range_bonus"], deployed, bombs, a["front_arc_half_width"],
        a["rear_arc_half_width"], a["turret_rear_half_width"],
        {int(k): v for k, v in a["deflection"].items()},
        {k: bool(doc.get("sample")) for k, (_, doc) in docs.items()},
        {int(r): (FACING_LETTERS.index(x.get("facing", "A")), x["hexes"])
         for r, x in docs["scatter"][1]["d10"].items()})


_LOADED: dict[str, FasaTables] = {}


def load_tables(directory: str | Path | None = None) -> FasaTables:
    """The shipped tables overlaid with the owner's ``directory`` (read once per process and
    directory; ``CatalogueError`` naming the file and field when one is malformed)."""
    key = "" if not directory else str(Path(directory).resolve())
    d = Path(key) if key else None
    sig = key + _signature(d)  # an edited file is read again
    got = _LOADED.get(sig)
    if got is not None:
        return got
    if d is not None:
        if not d.is_dir():
            raise CatalogueError(key, "-", "(directory)", "no such directory")
        known = [f"{n}.json" for n in FILES] + ["sheets/", "maps/"]
        if not any((d / k.rstrip("/")).exists() for k in known):
            raise CatalogueError(key, "-", "(directory)", f"holds none of {', '.join(known)}")
    got = build({name: _read(name, d) for name in FILES}, key)
    _LOADED[sig] = got
    return got


def _signature(d: Path | None) -> str:
    """The owner's files' sizes and times: a changed file is a new set of tables."""
    if d is None or not d.is_dir():
        return ""
    files = [d / f"{n}.json" for n in FILES] + sorted(d.glob("sheets/*.json")) \
        + sorted(d.glob("maps/*.json"))
    out = []
    for f in files:
        try:
            st = f.stat()
        except OSError:
            continue
        out.append(f"{f.name}:{st.st_size}:{st.st_mtime_ns}")
    return "|" + ",".join(out)


def check_documents(docs: dict[str, dict[str, Any]], source: str = "owner") -> FasaTables:
    """Tables from documents in memory (``FILES`` names; the missing ones shipped), checked as
    files are: ``CatalogueError`` naming ``<source>/<name>.json`` and the field."""
    from dialtray.rules.core.catalogue import validate_document

    out: dict[str, tuple[Path, dict[str, Any]]] = {}
    for name in FILES:
        if name in docs:
            path = Path(source) / f"{name}.json"
            out[name] = (path, validate_document(docs[name], load_schema(
                SCHEMAS / f"{name}.schema.json"), str(path), semantic=SEMANTIC.get(name)))
        else:
            out[name] = _read(name, None)
    return build(out, "")


def check_file(path: str | Path) -> str:
    """Check one table file by its name (``template.json`` ...); the kind it is, or
    ``CatalogueError`` naming the file and field."""
    p = Path(path)
    if p.stem not in FILES:
        raise CatalogueError(str(p), "-", "(file name)",
                             f"a table file is one of {', '.join(f + '.json' for f in FILES)}")
    load_document(p, load_schema(SCHEMAS / f"{p.stem}.schema.json"),
                  semantic=SEMANTIC.get(p.stem))
    return p.stem


def dump_json(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1) + "\n"


_ACTIVE: ContextVar[FasaTables | None] = ContextVar("fasa_tables", default=None)


def active() -> FasaTables:
    """The tables of the game being played: ``FasaGame`` binds its own on every call into it
    (``using``), so two games with different tables in one process never see each other's;
    outside a game, the shipped samples."""
    got = _ACTIVE.get()
    return got if got is not None else load_tables()


class using:  # lower case: it reads as a function, ``with using(tables):``
    """Bind ``tables`` for the rules code called inside the block (a plain class: it is
    entered on every call into a game, where ``contextlib``'s generator costs showed)."""

    __slots__ = ("tables", "token")

    def __init__(self, tables: FasaTables) -> None:
        self.tables = tables

    def __enter__(self) -> FasaTables:
        self.token = _ACTIVE.set(self.tables)
        return self.tables

    def __exit__(self, *exc: object) -> None:
        _ACTIVE.reset(self.token)
