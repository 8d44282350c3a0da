"""The damage diagram: 6 tables x 10 columns of boxes and its bold damage locations (FS-M83).

The box's filled-out sheets and the plastic template are not in the seed (FS-M05, FS-M81 DATA
MISSING). The layouts (FS-M05: front- and rear-engine fighters, each with or without a turret)
are data: ``data/fasa/tables/layouts.json`` (a SAMPLE drawn for dialtray, docs/rules-decisions.md
D-FS-02) or the owner's own file (``tables``): six rows per table, row 0 the outer edge and row 5
next to the centre of the plane; cells are (row, column 0..9). A box in no location is armour.
"""

from __future__ import annotations

from dialtray.rules.fasa.tables import active

Cell = tuple[int, int]
TABLES = ("nose", "port_leading", "starboard_leading", "tail", "port_trailing",
          "starboard_trailing")
FRONT = ("nose", "port_leading", "starboard_leading")
OPPOSITE = {"nose": "tail", "port_leading": "port_trailing",
            "starboard_leading": "starboard_trailing", "tail": "nose",
            "port_trailing": "port_leading", "starboard_trailing": "starboard_leading"}
ROWS, COLS = 6, 10
LAYOUTS = ("front-engine", "rear-engine", "front-engine-turret", "rear-engine-turret")
"""The shipped layouts' names."""


def layout(name: str) -> dict[str, dict[str, tuple[Cell, ...]]]:
    """``{table: {location: cells}}`` of one layout; a ``KeyError`` for an unknown one."""
    return active().layout(name)


def location_of(name: str) -> dict[tuple[str, Cell], str]:
    """Each (table, cell) of a layout that belongs to a damage location (read only: cached
    per game's tables, it is looked up on every hit)."""
    return active().location_of(name)
