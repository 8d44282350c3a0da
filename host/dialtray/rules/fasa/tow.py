"""Harpoons, towing and aerial torpedoes in play.

FS-M108 "Harpoon (HP)": AP/HE rocket rules at +2, only at objects on the ground, a building or
a zeppelin (map ``cargo``), never aircraft; a miss loses harpoon and cable. FS-M109 "Lifting an
object": rolled at once after the grab. FS-M110 "Towing": top speed -2 (``PlaneState.
max_speed``), speed 3 needed to tow, a maneuver of 2 G or more breaks the cable with stress
damage, an attacker may shoot at the towed object (1-6 object, 7-10 cable), a dropped object
lands in the hex behind. FS-M115 "Aerial torpedo": stationary objects straight ahead, TN from
``tn.torpedo_tn`` with the straight run flown before release (``PlaneState.straight_run``).

Every ``*_why`` returns ``(reason, rule id, heading)`` for a refusal, or None when legal: the
legal-action list and the refusal share one test.
"""

from __future__ import annotations

from dialtray.rules.core.dice import DiceSource
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Cut, FasaAction, Harpoon, Torpedo
from dialtray.rules.fasa.apply import Emit
from dialtray.rules.fasa.damage import gun_shape, shape
from dialtray.rules.fasa.hexmap import Hex, MapObject, MapSheet, step, straight_ahead
from dialtray.rules.fasa.sheets import deployed
from dialtray.rules.fasa.state import FasaState, PlaneState
from dialtray.rules.fasa.tn import lift_tn, roll_d10, succeeds, to_hit_tn, torpedo_tn

Why = tuple[str, str, str] | None
TOW_SPEED = 3  # FS-M110: "a plane must be capable of a speed of 3" to tow
TORPEDO_HITS = 4  # FS-M115: four AP rocket hits


def where(st: FasaState, o: MapObject) -> Hex | None:
    """An object's hex now: cargo moves when towed (None) and dropped."""
    return st.cargo.get(o.id, o.hex)


def _load(p: PlaneState, hardpoint: str, code: str) -> Why:
    if code not in p.rockets.get(hardpoint, []):
        return f"no {deployed()[code].name} on {hardpoint}", "FS-M103", "Rockets"
    if any(h in p.lost for h in p.sheet_data.spans(hardpoint)):
        return f"{hardpoint} is destroyed", "FS-M94", "Rockets location"
    return None


def _sight(sheet: MapSheet, p: PlaneState, h: Hex) -> int | None:
    r = straight_ahead(p.hex, p.facing, h)
    return r if r is not None and sheet.line_of_sight(p.hex, h) else None


def harpoon_why(st: FasaState, sheet: MapSheet, p: PlaneState, hardpoint: str, obj: str) -> Why:
    bad = _load(p, hardpoint, "HP")
    if bad:
        return bad
    o = next((x for x in sheet.objects if x.id == obj), None)
    if o is None or o.kind != "cargo" or st.ground.get(obj, 0) <= 0:
        return (f"{obj} is not cargo on the ground, a building or a zeppelin: the harpoon "
                "grabs only such objects, never aircraft", "FS-M108", "Harpoon (HP)")
    h = where(st, o)
    if h is None or _sight(sheet, p, h) != deployed()["HP"].range:
        return (f"{obj} is not 1 hex straight ahead in sight (harpoon range 1)", "FS-M104",
                "Deployed weapons")
    if p.towing:
        return f"{p.id} already tows {p.towing}", "FS-M110", "Towing"
    if p.max_speed() < TOW_SPEED:
        return (f"{p.id} cannot reach speed {TOW_SPEED} (max {p.max_speed()}): it could not "
                "tow", "FS-M110", "Towing")
    return None


def torpedo_why(st: FasaState, sheet: MapSheet, p: PlaneState, hardpoint: str, obj: str) -> Why:
    bad = _load(p, hardpoint, "TP")
    if bad:
        return bad
    o = next((x for x in sheet.objects if x.id == obj), None)
    if o is None or st.ground.get(obj, 0) <= 0:
        return (f"{obj} is not a standing object: a torpedo is launched only at stationary "
                "objects, never aircraft", "FS-M115", "Aerial torpedo")
    h = where(st, o)
    if h is None or _sight(sheet, p, h) is None:
        return (f"{obj} is not straight ahead and in sight (the torpedo flies on the plane's "
                "line of travel)", "FS-M115", "Aerial torpedo")
    return None


def cut_why(p: PlaneState) -> Why:
    if not p.towing:
        return f"{p.id} tows nothing", "FS-M110", "Towing"
    return None


def options(st: FasaState, sheet: MapSheet, p: PlaneState) -> list[FasaAction]:
    """The harpoon, torpedo and cut choices open to the plane now."""
    out: list[FasaAction] = []
    for hp, load in sorted(p.rockets.items()):
        if "HP" in load:
            out += [Harpoon(p.id, hp, o.id) for o in sheet.objects
                    if o.kind == "cargo" and harpoon_why(st, sheet, p, hp, o.id) is None]
        if "TP" in load:
            out += [Torpedo(p.id, hp, o.id) for o in sheet.objects
                    if torpedo_why(st, sheet, p, hp, o.id) is None]
    if p.towing:
        out.append(Cut(p.id))
    return out


def why(st: FasaState, sheet: MapSheet, p: PlaneState, a: Harpoon | Torpedo | Cut) -> Why:
    if isinstance(a, Harpoon):
        return harpoon_why(st, sheet, p, a.hardpoint, a.obj)
    if isinstance(a, Torpedo):
        return torpedo_why(st, sheet, p, a.hardpoint, a.obj)
    return cut_why(p)


def behind(p: PlaneState, sheet: MapSheet) -> Hex | None:
    """FS-M110 "Dropping objects": the hex behind the towing plane (None: off the sheet)."""
    h = step(p.hex, p.facing + 3)
    return h if sheet.on_map(h) else None


def drop(st: FasaState, sheet: MapSheet, emit: Emit, p: PlaneState, why: str) -> None:
    emit(ev.Tow(p.id, p.towing, "dropped", behind(p, sheet), why))


def harpoon(st: FasaState, sheet: MapSheet, dice: DiceSource, emit: Emit, p: PlaneState,
            hardpoint: str, obj: str, dead_eye: int, shocked: bool) -> None:
    """FS-M108 to-hit (object base + range - Dead Eye + 2, shock +2), then FS-M109's lift at
    the plane's current speed; a failed lift leaves the object where it was."""
    o = next(x for x in sheet.objects if x.id == obj)
    h = where(st, o)
    emit(ev.RocketUsed(p.id, hardpoint, "HP"))
    hp = deployed()["HP"]
    tn = to_hit_tn(o.base_tn, 0, hp.range, dead_eye, hp.modifier, shocked)
    if not _roll(dice, emit, p.id, f"harpoon at {obj}", tn, "FS-M108"):
        return  # the harpoon and cable are lost
    lift = lift_tn(o.base_tn, p.speed, p.sheet_data.pilot.natural_touch, shocked)
    if _roll(dice, emit, p.id, f"lift {obj}", lift, "FS-M109"):
        emit(ev.Tow(p.id, obj, "grabbed", None, "FS-M109"))
    else:
        emit(ev.Tow(p.id, obj, "dropped", h, "FS-M109"))


def torpedo(st: FasaState, sheet: MapSheet, dice: DiceSource, emit: Emit, p: PlaneState,
            hardpoint: str, obj: str, dead_eye: int, shocked: bool) -> None:
    """FS-M115: TN = base + 5 + 3 per hex to the target - the straight run - Dead Eye (+2 in
    shock, FS-M76); a hit is 4 AP rocket templates, each its box count in points (D-FS-13)."""
    o = next(x for x in sheet.objects if x.id == obj)
    h = where(st, o)
    assert h is not None
    rng = straight_ahead(p.hex, p.facing, h) or 1
    emit(ev.RocketUsed(p.id, hardpoint, "TP"))
    tn = torpedo_tn(o.base_tn, rng, p.straight_run, dead_eye) + (2 if shocked else 0)
    if _roll(dice, emit, p.id, f"torpedo at {obj}", tn, "FS-M115"):
        points = TORPEDO_HITS * len(shape("rocket"))
        emit(ev.GroundHit(obj, min(points, st.ground.get(obj, 0)), "FS-M115"))


TOW_ROCKETS = ("AP", "HE", "SK", "DR")  # the rockets that do damage (a beeper only tags)


def foe_tows(st: FasaState, seat: str) -> bool:
    """FS-M110: an enemy of ``seat`` flies with an object in tow (a shot may go at it)."""
    return any(p.flying and p.towing and p.seat != seat for p in st.planes.values())


def seat_of(st: FasaState, sheet: MapSheet, who: str) -> str:
    """The seat a plane or a gun post fights for ("" for nobody's)."""
    if who in st.planes:
        return st.planes[who].seat
    return next((o.owner for o in sheet.objects if o.id == who), "")


def gun_points(guns: list[tuple[int, str]]) -> int:
    """The template boxes of these (caliber, ammunition) hits: points on an object (D-FS-13)."""
    return sum(len(gun_shape(ammo, cal)) for cal, ammo in guns)


def rocket_points(code: str) -> int:
    return len(shape("HE" if code == "HE" else "rocket"))


def at_tow(st: FasaState, sheet: MapSheet, dice: DiceSource, emit: Emit, attacker: str,
           target: PlaneState, points: int) -> None:
    """FS-M110: hits on a towing plane aimed at its object (guns, a rocket, a gun post's
    guns): one location roll, 1-6 the object takes the templates' box count in ``points``,
    7-10 the cable breaks; an object shot to 0 points falls off the cable. Either way it lands
    behind the plane."""
    (loc,) = roll_d10(dice, f"{attacker} tow location")
    obj = target.towing
    if loc >= 7:
        emit(ev.Rolled(attacker, f"tow location on {target.id}: the cable", loc, 0, True,
                       "FS-M110"))
        drop(st, sheet, emit, target, "FS-M110")
        return
    emit(ev.Rolled(attacker, f"tow location on {target.id}: {obj}", loc, 0, True, "FS-M110"))
    left = st.ground.get(obj, 0)
    emit(ev.GroundHit(obj, min(points, left), "FS-M110"))
    if points >= left:
        drop(st, sheet, emit, target, "FS-M110")


def overstress(st: FasaState, sheet: MapSheet, emit: Emit, p: PlaneState, gs: int) -> int:
    """FS-M110: a maneuver of 2 G or more breaks the cable (the object drops behind) and does
    ``gs - 1`` stress hits to each forward wing table; returns that count (0: no break)."""
    if not p.towing or gs < 2:
        return 0
    drop(st, sheet, emit, p, "FS-M110")
    return gs - 1


def _roll(dice: DiceSource, emit: Emit, who: str, purpose: str, tn: int, rule: str) -> bool:
    (r,) = roll_d10(dice, f"{who} {purpose}")
    ok = succeeds(r, tn)
    emit(ev.Rolled(who, purpose, r, tn, ok, rule))
    return ok
