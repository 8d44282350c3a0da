"""Damage on the diagram: hit location, column, the template, widowing and cutting in half.

FS-M79 "Hit location", FS-M80 "Column hit", FS-M81 "Damage template", FS-M83 "Damage diagram",
FS-M84 "Widowing", FS-M85 "Cut in half", FS-M86 "Internal locations". The Hit Location Table
and the template shapes are missing from the seed (FS-A08, FS-M81 DATA MISSING): the tables and
shapes are data files (``data/fasa/tables/hit_location.json``, ``damage_templates.json``; SAMPLE,
docs/rules-decisions.md D-FS-02) an owner may replace with the box's (``tables``).

The diagram is one grid: the front tables (port leading | nose | starboard leading) on top with
row 5 next to the centre line, the rear tables (port trailing | tail | starboard trailing)
below, mirrored, so a template that runs past the centre continues into the opposite table
("boxes covered in another table also count"). Off the diagram (beyond columns 1 or 10 of a
table) a box is lost.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from dialtray.rules.fasa.layouts import COLS, FRONT, OPPOSITE, ROWS, TABLES
from dialtray.rules.fasa.tables import active

Box = tuple[str, int, int]  # table, row (0 outer .. 5 centre), column 0..9

def shape(kind: str) -> tuple[tuple[int, int], ...]:
    """FS-M81: the boxes one ``kind`` of hit marks (``damage_templates.json``): (rows inward
    from the top box, column offset)."""
    return active().shapes[kind]


def gun_shape(ammo: str, caliber: int) -> tuple[tuple[int, int], ...]:
    """One gun hit's template (the ammunition's, deeper from the file's caliber)."""
    return active().gun_shape(ammo, caliber)


def hit_table(side: int | None, roll: int) -> str:
    """FS-M79: the damage table for a location roll from ``side`` (the hexside of the target,
    relative to its facing, the shot comes in by; None: same hex) by ``hit_location.json``."""
    return active().hit_table(side, roll)


def first_open_row(marked: set[Box], table: str, col: int) -> int:
    """FS-M81/FS-T25: the first undamaged box of the column, counted from the outer edge."""
    for row in range(ROWS):
        if (table, row, col) not in marked:
            return row
    return ROWS


def _place(table: str, row: int, col: int) -> Box | None:
    if not 0 <= col < COLS:
        return None  # off the diagram: lost
    if row < ROWS:
        return (table, row, col)
    over = row - ROWS  # past the centre: the opposite table, from its centre row outward
    if over >= ROWS:
        return None
    return (OPPOSITE[table], ROWS - 1 - over, col)


def template_boxes(marked: set[Box], table: str, col: int,
                   shape: Iterable[tuple[int, int]]) -> list[Box]:
    """FS-M81: the boxes a template marks with its top on the column's first open box; boxes
    already destroyed or off the diagram are lost."""
    top = first_open_row(marked, table, col)
    out: list[Box] = []
    for dr, dc in shape:
        box = _place(table, top + dr, col + dc)
        if box is not None and box not in marked and box not in out:
            out.append(box)
    return out


def _grid(box: Box) -> tuple[int, int]:
    table, row, col = box
    band = TABLES.index(table) % 3  # port/nose/starboard -> 1, 0, 2 in the picture
    x = {0: 10, 1: 0, 2: 20}[band] + col
    y = row if table in FRONT else 2 * ROWS - 1 - row
    return x, y


_ALL: list[Box] = [(t, r, c) for t in TABLES for r in range(ROWS) for c in range(COLS)]
_AT = {_grid(b): b for b in _ALL}
CENTRE = {b for b in _ALL if b[0] in ("nose", "tail") and b[1] == ROWS - 1}


def _around(box: Box, diagonal: bool) -> tuple[Box, ...]:
    x, y = _grid(box)
    steps = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)
             and (diagonal or dx == 0 or dy == 0)]
    return tuple(_AT[(x + dx, y + dy)] for dx, dy in steps if (x + dx, y + dy) in _AT)


NEAR8 = {b: _around(b, True) for b in _ALL}
NEAR4 = {b: _around(b, False) for b in _ALL}


def widowed(marked: set[Box]) -> list[Box]:
    """FS-M84: open boxes with no path of open boxes to the centre of the plane. Open paths
    may pass diagonally between two marked boxes that only touch at a corner (FS-T26): open
    boxes connect 8-ways, walls of damage 4-ways. (It runs after every attacker's hits, so the
    flood fill is done on a bitboard of the diagram: each round grows the reached boxes by
    their 8 neighbours; a spare column stops a row running into the next.)"""
    if not marked:
        return []
    open_ = _FULL & ~sum(_BIT[b] for b in set(marked) if b in _BIT)
    reached = _CENTRE_BITS & open_
    while True:
        grow = reached | (reached << 1) | (reached >> 1)
        grow = (grow | (grow << _W) | (grow >> _W)) & open_
        if grow == reached:
            break
        reached = grow
    lost = open_ & ~reached
    return [b for b in _ALL if _BIT[b] & lost] if lost else []


_W = 3 * COLS + 1  # the picture's width (_grid) and a spare column
_BIT = {b: 1 << (_grid(b)[1] * _W + _grid(b)[0]) for b in _ALL}
_FULL = sum(_BIT.values())
_CENTRE_BITS = sum(_BIT[b] for b in CENTRE)


def cut_in_half(marked: set[Box]) -> str | None:
    """FS-M85: edge-connected damage from a front table to a rear table destroys the plane;
    the situation for the combat bailout (FS table 9): "wing" sheared off or fuselage "cored"."""
    seen: set[Box] = set()
    for box in marked:
        if box in seen:
            continue
        comp = {box}
        todo = deque([box])
        while todo:
            for nb in NEAR4[todo.popleft()]:
                if nb in marked and nb not in comp:
                    comp.add(nb)
                    todo.append(nb)
        seen |= comp
        tables = {b[0] for b in comp}
        if tables & set(FRONT) and tables - set(FRONT):
            fuselage = {"nose", "tail"} <= tables
            return "cored" if fuselage else "wing"
    return None


def shift_allowed(steady_hand: int) -> int:
    """FS-M21/FS table 15: columns a hit may be shifted: 0-5 none, 6-8 one, 9-10 two."""
    return 2 if steady_hand >= 9 else 1 if steady_hand >= 6 else 0
