"""The plane as a projectile (FS-M62 "Planned bailout", FS-M63 "Plane as projectile", FS-M64
"Projectile damage"; D-FS-38, D-FS-49).

An abandoned plane flies straight on; while an enemy plane or a standing map object not of its
own side lies in the hex column straight ahead it stays in play as a projectile, flying on each
Movement Phase, and strikes what it ends in: an enemy plane (flak hits on its record sheet) or
an object (FS-T17's nacelle: points equal to the damage template). A blocking object (a nacelle,
a gas cell, FS-M116) stops it in its hex. Apart from ``movement.py`` (the piloted moves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.apply import Damage
from dialtray.rules.fasa.damage import hit_table, shape
from dialtray.rules.fasa.hexmap import Hex, MapObject, MapSheet, step, straight_ahead
from dialtray.rules.fasa.state import FasaState, PlaneState
from dialtray.rules.fasa.tables import active
from dialtray.rules.fasa.tn import projectile_hits, projectile_tn, roll_d10

if TYPE_CHECKING:
    from dialtray.rules.fasa.movement import Mover
    from dialtray.rules.fasa.template import Maneuver

def abandon(mv: Mover, p: PlaneState, m: Maneuver) -> bool:
    """FS-M62: the pilot bails out safely; the empty plane flies straight on at the plotted
    speed (D-FS-09: it leaves play at the end of this Movement Phase). True if it is still
    over the map."""
    mv.emit(ev.Credit(p.id, "bailout-planned"))
    mv.emit(ev.PlaneOut(p.id, "bailed", "planned bailout", "FS-M62"))
    path = m.path(p.hex, p.facing)
    if not path or not all(mv.map.on_map(h) for h in path):
        return False
    end, n = _until_object(mv.st, mv.map, p, path)
    mv.emit(ev.Moved(p.id, m.text() if n == m.speed else f"{n}SA", end, p.facing, n, 0,
                     False, "abandoned, flying straight on", "FS-M62"))
    return True


def fly_on(mv: Mover, p: PlaneState) -> bool:
    """FS-M63: an empty plane used as a projectile flies straight on at its speed each
    Movement Phase; True while it is still over the map."""
    path = [step(p.hex, p.facing, i) for i in range(1, p.speed + 1)]
    if not path or not all(mv.map.on_map(h) for h in path):
        mv.emit(ev.PlaneOut(p.id, "bailed", "the empty plane left the map", "FS-M62"))
        return False
    end, n = _until_object(mv.st, mv.map, p, path)
    mv.emit(ev.Moved(p.id, f"{n}SA", end, p.facing, n, 0, False,
                     "abandoned, flying straight on", "FS-M63"))
    return True


def strike(mv: Mover, p: PlaneState) -> bool:
    """FS-M63: an abandoned plane ending the Movement Phase in an enemy's hex hits on
    target base + own base - hexes flown straight (over every turn it stayed on target,
    D-FS-38); FS-M64: 14 - own base flak hits, each located from the angle of the
    collision. True if it struck (it is then out of play)."""
    from dialtray.rules.fasa.combat import side_of

    own = p.sheet_data.base_to_hit
    for t in sorted(mv.st.planes.values(), key=lambda x: x.id):
        if not t.flying or t.seat == p.seat or t.hex != p.hex:
            continue
        tn = projectile_tn(t.sheet_data.base_to_hit, own, max(p.speed, p.straight_run))
        if not mv.roll(p.id, f"projectile at {t.id}", tn, "FS-M63"):
            continue
        dmg = Damage(mv.st, mv.dice, mv.emit, t.id, p.id)
        back = None if (t.facing - p.facing) % 6 == 3 else 3
        for _ in range(projectile_hits(own)):
            (loc,) = roll_d10(mv.dice, f"{t.id} projectile location")
            (col,) = roll_d10(mv.dice, f"{t.id} projectile column")
            side = side_of(t, p.hex) if back is None else back
            dmg.hit(hit_table(side, loc), col - 1, shape("flak"), "plane as projectile",
                    "FS-M64")
        dmg.finish()
        if p.status == PROJECTILE:
            mv.emit(ev.PlaneOut(p.id, "bailed", f"the empty plane struck {t.id}", "FS-M63"))
        return True
    return at_object(mv, p)


def at_object(mv: Mover, p: PlaneState) -> bool:
    """FS-M63 at a map object (FS-T17: a zeppelin's engine nacelle): an empty plane ending
    in a standing object's hex hits on object base + own base - hexes flown straight;
    FS-M64 "a non-piloted object takes points equal to the damage template": each of the
    14 - own base flak hits takes the flak template's boxes (a gas cell its "Zep. Dmg.",
    D-FS-41). Hit or miss the empty plane is out of play (D-FS-49). True if it struck."""
    o = _object_in(mv.st, mv.map, p, p.hex)
    if o is None:
        return False
    own = p.sheet_data.base_to_hit
    tn = projectile_tn(o.base_tn, own, max(p.speed, p.straight_run))
    if mv.roll(p.id, f"projectile at {o.id}", tn, "FS-M63"):
        boxes = len(shape("flak"))
        each = (active().zep_points("flak", boxes, mv.map.military)
                if o.kind == "zeppelin" else boxes)
        left = mv.st.ground.get(o.id, 0)
        mv.emit(ev.GroundHit(o.id, min(projectile_hits(own) * each, left), "FS-M64"))
    if p.status == PROJECTILE:
        mv.emit(ev.PlaneOut(p.id, "bailed", f"the empty plane flew into {o.id}", "FS-M63"))
    return True


PROJECTILE = "projectile"  # FS-M63: an empty plane flying on at a target (D-FS-38, D-FS-49)


def aimed(st: FasaState, p: PlaneState, sheet: MapSheet) -> bool:
    """An enemy flying plane, or a standing map object not of its own side (FS-T17's
    nacelle, D-FS-49), in the hex column straight ahead of the empty plane."""
    if any(t.flying and t.seat != p.seat and straight_ahead(p.hex, p.facing, t.hex)
           is not None for t in st.planes.values()):
        return True
    return any(
        straight_ahead(p.hex, p.facing, h) is not None
        for o in _targets(st, sheet, p) for h in o.span)


def _targets(st: FasaState, sheet: MapSheet, p: PlaneState) -> list[MapObject]:
    """The map objects an empty plane may fly into: points left, not its own side's, not
    cargo (which lies on the ground or hangs on a cable)."""
    return [o for o in sheet.objects if st.ground.get(o.id, 0) > 0 and o.kind != "cargo"
            and o.owner != p.seat]


def _object_in(st: FasaState, sheet: MapSheet, p: PlaneState, h: Hex) -> MapObject | None:
    return next((o for o in _targets(st, sheet, p) if h in o.span), None)


def _until_object(st: FasaState, sheet: MapSheet, p: PlaneState,
                  path: list[Hex]) -> tuple[Hex, int]:
    """Where an empty plane's straight flight ends and the hexes it flies: at the first hex
    of a standing object that blocks (it cannot fly through a nacelle or a gas cell, FS-M116),
    else the path's end."""
    for n, h in enumerate(path, 1):
        o = _object_in(st, sheet, p, h)
        if o is not None and o.blocks:
            return h, n
    return path[-1], len(path)
