"""Where every figure is, as plain data the page draws: the Aces map (its squares, terrain and
walls) with each character on its square; Air Action's planes with their place and facing on
the 3' play area.

Read-only and engine-specific only here (the page draws what this says, and knows no rules).
Air Action's engine keeps no positions (the players' table does, AA-M11): the places come from
the bots' approximate digital table (``rules.airaction.table``), which the table's bots keep
for every plane; without it the planes are listed with no place. Every figure carries its seat,
its name and the values its dial shows now.
"""

from __future__ import annotations

from typing import Any

TERRAIN_CODE = {"clear": ".", "hindering": "~", "blocking": "#"}


def board(game: Any, brain: Any = None) -> dict[str, Any]:
    """The board of ``game`` (``{"kind": "grid" | "area" | "none", …}``)."""
    kind = getattr(game, "kind", "")
    if kind == "aces":
        return _aces(game)
    if kind == "airaction":
        return _airaction(game, getattr(brain, "table", None))
    return {"kind": "none", "figures": []}


def _aces(game: Any) -> dict[str, Any]:
    m, s = game.map, game.state
    seats = game.seats()
    figures = []
    for label, c in s.chars.items():
        v = c.values
        where = None
        if c.square is not None:
            where = [c.square % m.width, c.square // m.width]
        state = "knocked out" if c.knocked_out else \
            f"captive of {c.captor}" if c.captor else "" if where else "off the map"
        figures.append({
            "label": label, "name": c.figure.name, "seat": seats[c.player], "at": where,
            "square": None if where is None else _square(where[0], where[1]),
            "click": c.click, "state": state,
            "values": {"speed": v.speed, "attack": v.attack, "defense": v.defense,
                       "fate": v.fate}})
    areas = [{"number": a.number, "from": [a.top_left.x, a.top_left.y],
              "to": [a.bottom_right.x, a.bottom_right.y]} for a in m.starting_areas]
    return {"kind": "grid", "name": getattr(m, "name", ""), "w": m.width, "h": m.height,
            "terrain": "".join(TERRAIN_CODE.get(t.value, ".") for t in m.terrain),
            "walls": [[i, j] for i, j in sorted(m.walls)], "areas": areas,
            "figures": figures}


def _square(x: int, y: int) -> str:
    """The notation's name of a square (``a1`` is x 0, y 0)."""
    from dialtray.rules.aces.grid import Square

    return Square(x, y).name()


def _airaction(game: Any, table: Any) -> dict[str, Any]:
    s = game.state
    poses = getattr(table, "poses", {}) if table is not None else {}
    size = float(getattr(table, "size", 36.0)) if table is not None else 36.0
    figures = []
    for pid, p in s.planes.items():
        spec = s.specs.get(pid)
        pose = poses.get(pid)
        state = "" if p.in_play else str(p.removed or "out of play")
        figures.append({
            "label": pid, "name": _plane_name(game, spec), "seat": p.owner,
            "at": None if pose is None or not p.in_play else [round(pose.x, 2), round(pose.y, 2)],
            "heading": None if pose is None else round(pose.heading, 1),
            "click": p.combat_click, "speed": p.speed_index, "state": state, "values": {}})
    return {"kind": "area", "w": size, "h": size, "unit": "inch", "figures": figures,
            "places": "the bots' approximate table" if table is not None else ""}


def _plane_name(game: Any, spec: Any) -> str:
    if spec is None:
        return ""
    try:
        return str(game.cat.figure(spec.figure).name)
    except (AttributeError, KeyError, TypeError):
        return str(getattr(spec, "figure", "")).replace("sample-", "").replace("-", " ")
