"""Stray shots in play (FS-M119 "Stray shots", D-FS-19).

"If the attacker is facing a zeppelin and misses a target located between the attacker and a
zeppelin, the ordnance will continue past the target in the same hexrow and hit the first
undamaged box of the gas cell on that hexrow." Applied automatically to every missed roll of a
pilot's forward guns and every missed damaging rocket (AP, HE, SK, DR) at a plane or a map
object (D-FS-47) straight ahead: the miss flies on down the attacker's hexrow past the target;
shredded cells (0 points) let it through (FS-M117), any other standing obstacle (a nacelle, a
building) stops it, and the first gas cell with points left takes the template's box count in
points (D-FS-13), as a hit would. No dice are rolled: the stray is a fact of the position.
"""

from __future__ import annotations

from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.apply import Emit
from dialtray.rules.fasa.hexmap import Hex, MapObject, MapSheet, step, straight_ahead
from dialtray.rules.fasa.state import FasaState, PlaneState

RULE = "FS-M119"


def _by_hex(sheet: MapSheet) -> dict[Hex, list[MapObject]]:
    """The sheet's objects by hex (kept per sheet: a map never changes)."""
    known = _BY_HEX.get(id(sheet))
    if known is not None and known[0] is sheet:
        return known[1]
    out: dict[Hex, list[MapObject]] = {}
    for o in sheet.objects:
        for h in o.span:  # a gas cell over several hexes (FS-M117) in each of them
            out.setdefault(h, []).append(o)
    if len(_BY_HEX) > 64:
        _BY_HEX.clear()
    _BY_HEX[id(sheet)] = (sheet, out)
    return out


_BY_HEX: dict[int, tuple[MapSheet, dict[Hex, list[MapObject]]]] = {}


def stray_cell(st: FasaState, sheet: MapSheet, src: Hex, facing: int,
               target: Hex, missed: str = "") -> str | None:
    """The gas cell a miss from ``src`` (facing ``facing``) at ``target`` flies on to hit, or
    None: the target must be straight ahead (not in the attacker's hex), and the attacker must
    face a gas cell beyond it with nothing standing in between; ``missed``: the map object the
    shot was aimed at (it flies on past all its hexes, D-FS-47)."""
    objects = _by_hex(sheet)
    if not any(o.kind == "zeppelin" for os in objects.values() for o in os):
        return None
    d = straight_ahead(src, facing, target)
    if not d:
        return None
    n = d + 1
    while True:
        h = step(src, facing, n)
        if not sheet.on_map(h):
            return None
        for o in objects.get(h, ()):
            if o.id == missed:
                continue
            if o.kind == "zeppelin":
                if st.ground.get(o.id, 0) > 0:
                    return o.id
            elif o.blocks and st.ground.get(o.id, 1) > 0:
                return None  # a nacelle, a building: the ordnance stops there
        n += 1


def strays(st: FasaState, sheet: MapSheet, emit: Emit, attacker: PlaneState, target: Hex,
           misses: list[int], missed: str = "") -> None:
    """Each missed shot's template points (``misses``) on the gas cell it flies on to."""
    for points in misses:
        cell = stray_cell(st, sheet, attacker.hex, attacker.facing, target, missed)
        if cell is None:
            return
        emit(ev.GroundHit(cell, min(points, st.ground.get(cell, 0)), RULE))


def past_object(st: FasaState, sheet: MapSheet, emit: Emit, attacker: PlaneState, rng: int,
                misses: list[int], missed: str) -> None:
    """Misses at map object ``missed`` ``rng`` hexes straight ahead fly on past it (D-FS-47)."""
    if rng:
        strays(st, sheet, emit, attacker, step(attacker.hex, attacker.facing, rng), misses,
               missed)
