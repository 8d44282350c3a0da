"""The damage diagram: 6 tables x 10 columns of boxes and its bold damage locations (FS-M83).

The box's filled-out sheets and the plastic template are not in the seed (FS-M05, FS-M81 DATA
MISSING). These four layouts (FS-M05: front- and rear-engine fighters, each with or without a
turret) are a SAMPLE drawn for dialtray (docs/rules-decisions.md D-FS-02): six rows per table,
row 0 the outer edge and row 5 next to the centre of the plane; cells are (row, column 0..9).
"""

from __future__ import annotations

from functools import cache

Cell = tuple[int, int]
TABLES = ("nose", "port_leading", "starboard_leading", "tail", "port_trailing",
          "starboard_trailing")
FRONT = ("nose", "port_leading", "starboard_leading")
OPPOSITE = {"nose": "tail", "port_leading": "port_trailing",
            "starboard_leading": "starboard_trailing", "tail": "nose",
            "port_trailing": "port_leading", "starboard_trailing": "starboard_leading"}
ROWS, COLS = 6, 10
LAYOUTS = ("front-engine", "rear-engine", "front-engine-turret", "rear-engine-turret")


def _mirror(cells: list[Cell]) -> list[Cell]:
    return [(r, COLS - 1 - c) for r, c in cells]


def _block(rows: range, cols: range) -> list[Cell]:
    return [(r, c) for r in rows for c in cols]


ENGINE = {  # FS-M88: "Max Speed N" locations and the 8-box Engine Destroyed (FS-T27)
    "engine_ms4": [(1, 3), (1, 4)], "engine_ms3": [(1, 5), (1, 6)],
    "engine_ms2": [(2, 3), (2, 4)], "engine_ms1": [(2, 5), (2, 6)],
    "engine": _block(range(3, 5), range(3, 7)),
}
NOSE_REST = {"gun1": [(1, 0), (1, 1)], "gun2": [(1, 8), (1, 9)],
             "fuel_nose": _block(range(2, 4), range(0, 2)), "radio": [(5, 8), (5, 9)],
             "canopy": _block(range(5, 6), range(3, 7)),
             "zeppelin_gear": [(4, 8)]}  # FS-M91: the hook eye on top of the plane (SAMPLE)
TAIL_REST = {"pilot": [(5, 4), (5, 5)], "elevator_port": [(1, 1)], "elevator_starboard": [(1, 8)],
             "rudder_left": [(1, 3)], "rudder_right": [(1, 6)],
             "tail_controls": [(3, 4), (3, 5)], "fuel_tail": [(2, 0), (2, 1), (3, 0), (3, 1)],
             "landing_gear_tail": [(4, 8)]}
PORT_LEADING = {"gun3": [(1, 5), (1, 6)], "fuel_port_wing": _block(range(3, 4), range(3, 6)),
                "rockets_p1": [(0, 2)], "rockets_p2": [(0, 7)], "spar_port_1": [(5, 2)],
                "spar_port_2": [(5, 7)], "wing_controls_port": [(2, 8), (2, 9)]}
PORT_TRAILING = {"flap_port": [(1, 4), (1, 5)], "aileron_port": [(1, 1), (1, 2)],
                 "spar_port_3": [(4, 4)], "landing_gear_port": [(3, 7)]}


def _swap_side(name: str) -> str:
    return (name.replace("port", "STAR").replace("_p", "_S").replace("starboard", "port")
            .replace("STAR", "starboard").replace("_S", "_s").replace("gun3", "gun4"))


def _build(layout: str) -> dict[str, dict[str, list[Cell]]]:
    rear = layout.startswith("rear")
    nose = dict(NOSE_REST)
    tail = dict(TAIL_REST)
    if rear:  # the engine and its fuel sit behind the pilot
        tail.update(ENGINE)
        tail.pop("tail_controls")
        tail["tail_controls"] = [(0, 4), (0, 5)]
        tail.pop("fuel_tail")
        nose["fuel_nose"] = _block(range(2, 4), range(0, 2))
    else:
        nose.update(ENGINE)
    if layout.endswith("turret"):  # FS-M87: rear canopy hits affect the gunner
        tail["gunner"] = [(5, 7)]
        tail["rear_canopy"] = [(4, 3), (4, 4)] if not rear else [(5, 2), (5, 3)]
        tail["turret_gun"] = [(0, 1), (0, 2)] if not rear else [(0, 7), (0, 8)]
    out = {"nose": nose, "tail": tail, "port_leading": dict(PORT_LEADING),
           "port_trailing": dict(PORT_TRAILING)}
    out["starboard_leading"] = {_swap_side(k): _mirror(v) for k, v in PORT_LEADING.items()}
    out["starboard_trailing"] = {_swap_side(k): _mirror(v) for k, v in PORT_TRAILING.items()}
    return out


@cache
def layout(name: str) -> dict[str, dict[str, tuple[Cell, ...]]]:
    """``{table: {location: cells}}`` of one SAMPLE layout; a ``KeyError`` for an unknown one."""
    if name not in LAYOUTS:
        raise KeyError(f"no damage-diagram layout {name!r} (known: {', '.join(LAYOUTS)})")
    built = _build(name)
    out: dict[str, dict[str, tuple[Cell, ...]]] = {}
    for table in TABLES:
        seen: set[Cell] = set()
        out[table] = {}
        for loc, cells in built[table].items():
            fresh = tuple(c for c in cells if c not in seen)
            seen.update(fresh)
            out[table][loc] = fresh
    return out


@cache
def location_of(name: str) -> dict[tuple[str, Cell], str]:
    """Each (table, cell) of a layout that belongs to a damage location (read only: cached,
    it is looked up on every hit)."""
    return {(t, c): loc for t, locs in layout(name).items() for loc, cells in locs.items()
            for c in cells}
