"""Gun posts that shoot: zeppelin turrets (FS-M120 "Turrets"), main guns (FS-M121 "Main
guns"), their gunners (FS-M122 "Zeppelin gunners"), and ground turrets (FS-M06 "Ten-step turn",
step 3: "then zeppelin turrets, then ground turrets").

A gun post is a map object with an owner seat (``hexmap.MapObject``): it joins the Combat
Phase after the aircraft turrets (zeppelin posts, then ground turrets, each group by its
gunner's Quick Draw, ties rolled: FS-M72), and its seat decides for it: ``gun POST PLANE``
(machine guns), ``barrage POST HEX`` (a flak round, FS-M121) or ``pass POST``. Rotation
(FS-M06 step 2: "Rotate all turrets") is folded into the shot: a post fires down any one of
its hexrows (D-FS-15). The text gives these gunners no ammunition count, jams or doubling
down, and no Steady Hand shift: they have none here.
"""

from __future__ import annotations

from dialtray.rules.core.dice import DiceSource
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Barrage, FasaAction, Gun, Pass
from dialtray.rules.fasa.apply import Damage, Emit
from dialtray.rules.fasa.damage import gun_shape, hit_table
from dialtray.rules.fasa.hexmap import Hex, MapObject, MapSheet, mega_hex, step, straight_ahead
from dialtray.rules.fasa.sheets import deployed, gun_range, turret_bonus
from dialtray.rules.fasa.skills import QuickDraw
from dialtray.rules.fasa.state import FasaState
from dialtray.rules.fasa.tn import roll_d10, succeeds, to_hit_tn
from dialtray.rules.fasa.tow import at_tow, foe_tows, gun_points
from dialtray.rules.fasa.zeppelin import FALLS_AT, MAIN_GUN_RANGE, gunner_shock_tn

ZEPPELIN_POSTS = ("turret", "main-gun")


def post(sheet: MapSheet, pid: str) -> MapObject:
    return next(o for o in sheet.objects if o.id == pid)


def gun_reach(caliber: int) -> int:
    """FS-M120 / FS-T35: a turret's gun reaches 2 hexes further than the plane version."""
    return gun_range()[caliber] + turret_bonus()


def flak_reach(o: MapObject) -> int:
    """FS-M121: a main gun's round flies 8 hexes; a turret's flak cannon is the flak rocket's
    7 + 2 (FS-M120, D-FS-15)."""
    return MAIN_GUN_RANGE if o.kind == "main-gun" else deployed()["FK"].range + turret_bonus()


def falling(st: FasaState, sheet: MapSheet) -> bool:
    """FS-M117: the zeppelin plummets once its gas cells total 120 or less."""
    cells = [o.id for o in sheet.objects if o.kind == "zeppelin"]
    return bool(cells) and sum(st.ground.get(c, 0) for c in cells) <= FALLS_AT


def silenced(st: FasaState, sheet: MapSheet, o: MapObject) -> str | None:
    """Why the post cannot fire this turn, or None."""
    if st.ground.get(o.id, 0) <= 0:
        return "destroyed"
    if o.on and st.ground.get(o.on, 1) <= 0:
        return f"{o.on} destroyed"
    if o.kind in ZEPPELIN_POSTS and falling(st, sheet):
        return "the zeppelin is falling (FS-M117)"
    if st.gunner_shocked.get(o.id, -1) >= st.turn:
        return "its gunner is in shock (FS-M122)"
    return None


def post_order(st: FasaState, sheet: MapSheet, dice: DiceSource, emit: Emit) -> list[str]:
    """FS-M06 step 3 / FS-M72: zeppelin turrets and main guns, then ground turrets, each
    group by Quick Draw (ties rolled, FS-A14); silenced posts sit the turn out (FS-M122: the
    counter is turned over). A machine-gun post with no enemy plane down its hexrows now has
    only ``pass`` all phase (planes do not move in the Combat Phase, they only fall): it is
    left out rather than asked."""
    from dialtray.rules.fasa.combat import by_quick_draw

    out: list[str] = []
    for zeppelin in (True, False):
        group = [o for o in sheet.objects if o.owner and o.kind != "hook"
                 and (o.kind in ZEPPELIN_POSTS) == zeppelin
                 and silenced(st, sheet, o) is None
                 and (o.flak or gun_targets(st, sheet, o))]
        out += by_quick_draw([(QuickDraw(o.quick_draw), o.id) for o in group], dice, emit)
    return out


def down_row(o: MapObject, h: Hex) -> tuple[int, int] | None:
    """(the hexrow's facing, range) if ``h`` lies straight down one of the post's hexrows."""
    for f in o.rows:
        r = straight_ahead(o.hex, f, h)
        if r is not None:
            return f, r
    return None


def gun_targets(st: FasaState, sheet: MapSheet, o: MapObject) -> list[str]:
    """Enemy planes straight down a hexrow, in range of a gun and in sight (FS-M69, FS-M71)."""
    if not o.guns:
        return []
    reach = max(gun_reach(c) for c, _ in o.guns)
    out = []
    for t in sorted(st.planes.values(), key=lambda x: x.id):
        if not t.flying or t.seat == o.owner:
            continue
        row = down_row(o, t.hex)
        if row is not None and row[1] <= reach and sheet.line_of_sight(o.hex, t.hex):
            out.append(t.id)
    return out


def barrage_hexes(sheet: MapSheet, o: MapObject) -> list[Hex]:
    """FS-M121: any hex down the post's hexrows to its reach, on the map and in sight (the
    map's blockers never change: worked out once per post)."""
    if not o.flak:
        return []
    key = (id(sheet), o.id)
    hit = _BARRAGE.get(key)
    if hit is not None and hit[0] is sheet:
        return hit[1]
    out = []
    for f in o.rows:
        for n in range(1, flak_reach(o) + 1):
            h = step(o.hex, f, n)
            if sheet.on_map(h) and sheet.line_of_sight(o.hex, h):
                out.append(h)
    _BARRAGE[key] = (sheet, out)
    return out


_BARRAGE: dict[tuple[int, str], tuple[MapSheet, list[Hex]]] = {}


def post_actions(st: FasaState, sheet: MapSheet, pid: str) -> list[FasaAction]:
    o = post(sheet, pid)
    out: list[FasaAction] = [Pass(pid)]
    for t in gun_targets(st, sheet, o):
        out.append(Gun(pid, t))
        if st.planes[t].towing:  # FS-M110: or at the object it tows
            out.append(Gun(pid, t, True))
    out += [Barrage(pid, h) for h in barrage_hexes(sheet, o)]
    if foe_tows(st, o.owner):  # FS-M110: the burst may go at the objects foes tow
        out += [Barrage(pid, h, True) for h in barrage_hexes(sheet, o)]
    return out


def post_allowed(st: FasaState, sheet: MapSheet, pid: str, a: FasaAction) -> bool:
    o = post(sheet, pid)
    if isinstance(a, Pass):
        return True
    if isinstance(a, Gun):
        t = st.planes.get(a.target)
        return (t is not None and (t.towing or not a.tow)
                and a.target in gun_targets(st, sheet, o))
    if isinstance(a, Barrage):
        return a.hex in barrage_hexes(sheet, o) and (not a.tow or foe_tows(st, o.owner))
    return False


def why_not(st: FasaState, sheet: MapSheet, pid: str, a: FasaAction) -> tuple[str, str, str]:
    """The refusal (reason, rule id, heading) of an action the post may not take."""
    o = post(sheet, pid)
    if isinstance(a, Gun):
        if not o.guns:
            return f"{pid} carries a flak cannon, not machine guns", "FS-M120", "Turrets"
        if a.tow and a.target in gun_targets(st, sheet, o):
            return f"{a.target} tows nothing", "FS-M110", "Towing"
        return (f"{a.target} is not an enemy plane down one of {pid}'s hexrows "
                f"({' '.join('ABCDEF'[f] for f in o.rows)}) in range and sight", "FS-M120",
                "Turrets")
    if isinstance(a, Barrage):
        if not o.flak:
            return f"{pid} has no flak gun", "FS-M121", "Main guns"
        if a.tow and a.hex in barrage_hexes(sheet, o):
            return "no enemy plane tows an object", "FS-M110", "Towing"
        return (f"not a hex down {pid}'s hexrows within {flak_reach(o)} and in sight",
                "FS-M121", "Main guns")
    return f"a gun post fires (gun, barrage) or passes, not {a.text()!r}", "FS-M120", "Turrets"


def resolve(st: FasaState, sheet: MapSheet, dice: DiceSource, emit: Emit,
            a: FasaAction) -> None:
    """One post's shot (checked by the game first)."""
    if not isinstance(a, Gun | Barrage):
        return  # pass
    o = post(sheet, a.plane)
    if isinstance(a, Barrage):  # FS-M121: auto-hits the hex, explodes after next movement
        emit(ev.Counter("FK", a.hex, o.id, st.turn, a.tow))
        return
    t = st.planes[a.target]
    from dialtray.rules.fasa.combat import deflection, side_of

    face, rng = down_row(o, t.hex) or (0, 0)
    hits: list[tuple[int, str]] = []
    for cal, ammo in o.guns:
        if rng > gun_reach(cal):
            continue
        tn = to_hit_tn(t.sheet_data.base_to_hit, deflection(face, t.facing), rng, o.dead_eye)
        (r,) = roll_d10(dice, f"{o.id} {cal} cal to-hit on {t.id}")
        ok = succeeds(r, tn)
        emit(ev.Rolled(o.id, f"{cal} cal to-hit on {t.id}", r, tn, ok, "FS-M120"))
        if ok:
            hits.append((cal, ammo))
    if not hits:
        return
    if a.tow:  # FS-M110: at the object the plane tows
        at_tow(st, sheet, dice, emit, o.id, t, gun_points(hits))
        return
    (loc,) = roll_d10(dice, f"{o.id} hit location on {t.id}")
    table = hit_table(side_of(t, o.hex), loc)
    cols = roll_d10(dice, f"{o.id} hit columns", len(hits))
    dmg = Damage(st, dice, emit, t.id, None)
    for (cal, ammo), col in zip(hits, cols, strict=True):
        dmg.hit(table, col - 1, gun_shape(ammo, cal), f"{o.id} {cal} cal {ammo} hit", "FS-M120",
                ammo)
        if ammo == "MG" and dmg.p.flying:  # D-FS-07 as for planes' guns
            emit(ev.Burning(t.id, "MG", table, col, 0, True))
    dmg.finish()


def gunner_shock(st: FasaState, sheet: MapSheet, dice: DiceSource, emit: Emit) -> None:
    """FS-M122 at step 7: gunners face their hexrows, so a flare down one of them (or in the
    post's hex) and a sonic rocket whose mega-hex holds the post call for a Constitution roll
    at the gunners' 2 + 3 = 5 (FS-M106, FS-M107, FS-T39); a failure silences the gun until
    the end of the next turn (FS-A06)."""
    for kind, h, _owner, turn, _tow in st.counters:
        if kind not in ("FL", "SS") or turn != st.turn:
            continue
        for o in sheet.objects:
            if not o.owner or st.ground.get(o.id, 0) <= 0:
                continue
            near = (o.hex == h or down_row(o, h) is not None) if kind == "FL" else (
                o.hex in mega_hex(h))
            if not near:
                continue
            tn = gunner_shock_tn(st.gunner_shocked.get(o.id, -1) >= st.turn)
            (r,) = roll_d10(dice, f"{o.id} gunner Constitution ({kind})")
            ok = succeeds(r, tn)
            emit(ev.Rolled(o.id, f"gunner Constitution vs {kind}", r, tn, ok, "FS-M122"))
            if not ok:
                emit(ev.GunnerShocked(o.id, st.turn + 1))
