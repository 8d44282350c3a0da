"""Where every figure is, as plain data the page draws: the Aces map (its squares, terrain and
walls) with each character on its square; Air Action's planes with their place and facing on
the 3' play area.

FASA's planes on the hex mapsheet with their facing (A..F, A up the sheet, FS-M03); Sky Ace's
playmat (the cards laid on each cell, the pawns on their cells) and the hands (``hands``).

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
        observe = getattr(brain, "observe", None)
        if callable(observe):  # people's deployments and reported moves, laid out too
            observe(game)
        return _airaction(game, getattr(brain, "table", None))
    if kind == "fasa":
        return _fasa(game)
    if kind == "skyace":
        return _skyace(game)
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


def _fasa(game: Any) -> dict[str, Any]:
    from dialtray.rules.fasa.hexmap import FACINGS, to_offset

    s, m = game.state, game.map
    figures = []
    for pid, p in s.planes.items():
        flying = p.status == "flying"
        figures.append({
            "label": pid, "name": str(p.sheet).replace("sample-", "").replace("-", " "),
            "seat": p.seat, "at": list(to_offset(p.hex)) if flying and m.on_map(p.hex) else None,
            "heading": p.facing * 60, "facing": FACINGS[p.facing % 6], "speed": p.speed,
            "state": "" if flying else str(p.status).replace("_", " "),
            "values": {"speed": p.speed, "constitution": p.constitution}})
    objects = [{"at": list(to_offset(o.hex)), "blocks": bool(o.blocks),
                "name": str(getattr(o, "name", "") or getattr(o, "kind", ""))}
               for o in m.objects]
    return {"kind": "hex", "name": m.title, "w": m.cols, "h": m.rows, "objects": objects,
            "figures": figures}


def _skyace(game: Any) -> dict[str, Any]:
    d = game.state_dict()
    cells = []
    for key, cards in d.get("mat", {}).items():
        x, y = (int(v) for v in key.split(","))
        cells.append({"at": [x, y], "cell": key,
                      "cards": [{"owner": c[0], "card": c[1], "colour": c[2]} for c in cards]})
    figures = [{"label": pid, "name": str(p["hero"]).replace("-", " "), "seat": p["seat"],
                "at": p["cell"], "cell": None if p["cell"] is None else
                f"{p['cell'][0]},{p['cell'][1]}", "state": "knocked out" if p["out"] else "",
                "values": {"life": p["life"], "max life": p["max_life"]}}
               for pid, p in d.get("pawns", {}).items()]
    hands = [{"seat": seat, "cards": list(cards)} for seat, cards in d.get("hands", {}).items()]
    return {"kind": "mat", "cells": cells, "figures": figures, "hands": hands,
            "draw": {seat: len(p.get("draw", [])) for seat, p in d.get("piles", {}).items()}}
