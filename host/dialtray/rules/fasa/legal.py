"""What may be done now: the plot and combat choices, and the checks that refuse the rest.

Every refusal names its rule (``IllegalActionError``), before anything is emitted.
"""

from __future__ import annotations

from collections.abc import Sequence

from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.fasa import guns, landing, tow
from dialtray.rules.fasa.actions import (
    Attack,
    Bomb,
    Clear,
    Cut,
    FasaAction,
    Fire,
    Harpoon,
    Land,
    Launch,
    Pass,
    Place,
    Plot,
    Rocket,
    Torpedo,
)
from dialtray.rules.fasa.combat import (
    TURRET,
    bomb_hexes,
    hexes_ahead,
    object_reach,
    target_range,
    target_why,
)
from dialtray.rules.fasa.damage import shift_allowed
from dialtray.rules.fasa.hexmap import MapSheet
from dialtray.rules.fasa.movement import caps, refusal
from dialtray.rules.fasa.rocketorder import is_rocket
from dialtray.rules.fasa.sheets import bombs, deployed
from dialtray.rules.fasa.skills import gunner_skill
from dialtray.rules.fasa.state import FasaState, PlaneState
from dialtray.rules.fasa.template import parse_plot, template

H_PLOT = "Plot notation"
H_COMBAT = "Firing order"


def plot_order(st: FasaState) -> list[str]:
    """Planes still to plot: tailed planes first, so the tailer learns what FS-M61 tells
    before plotting; then by id."""
    targets = {t for _, t, _, _ in st.tailing}
    todo = [p.id for p in st.planes.values() if p.flying and p.plot is None]
    return sorted(todo, key=lambda k: (k not in targets, k))


def plots_for(st: FasaState, p: PlaneState) -> list[Plot]:
    """Every plot the plane may record (FS-M34/FS-M35), pushes included (FS-M40)."""
    out = []
    c = caps(p, st.turn)
    for text, m in template().items():
        if refusal(c, m) is None:
            out.append(Plot(p.id, text))
        if m.direction == "S" and m.facing == 0 and refusal(c, m, bail=True) is None:
            out.append(Plot(p.id, text, True))  # FS-M62 planned bailout
    return out


def check_plot(st: FasaState, a: Plot) -> None:
    order = plot_order(st)
    if st.phase != "plot" or st.sealed:
        raise IllegalActionError(a.text(), "not an open plotting step", "FS-M33", "Simultaneous "
                                 "movement")
    if a.plane not in order:
        raise IllegalActionError(a.text(), f"{a.plane} has no plot to record", "FS-M06",
                                 "Ten-step turn")
    if a.plane != order[0]:
        raise IllegalActionError(a.text(), f"{order[0]} plots first", "FS-M61",
                                 "Information revealed")
    try:
        m = parse_plot(a.maneuver)
    except ValueError as exc:
        raise IllegalActionError(a.text(), str(exc), "FS-M35", "Legal moves") from None
    why = refusal(caps(st.planes[a.plane], st.turn), m, a.bail)
    if why is not None:
        raise IllegalActionError(a.text(), why[0], why[1], H_PLOT)


def combatant(st: FasaState) -> tuple[PlaneState, bool] | None:
    """The plane (and whether its turret) acting now; it keeps the turn while its gun hits
    wait to be placed. None if no plane acts (a gun post's turn: ``st.gunposts``)."""
    c = st.current()
    if c is None or c in st.gunposts:
        return None
    return st.planes[c.removesuffix(TURRET)], c.endswith(TURRET)


def steady_hand(p: PlaneState, turret: bool) -> int:
    s = p.sheet_data.pilot.steady_hand
    return gunner_skill(s) if turret else s


def combat_actions(st: FasaState, sheet: MapSheet) -> list[FasaAction]:
    """FS-M68: guns at one target (or doubling down), one launched weapon, clearing jams,
    or nothing; rolled gun hits are placed first, in any order (FS-M82), a Steady Hand
    shifting them (FS-M21). Harpoons, torpedoes, cutting a tow (``tow.options``); a gun
    post's choices (``guns.post_actions``)."""
    c = st.current()
    if c is not None and c in st.gunposts:
        return guns.post_actions(st, sheet, c)
    who = combatant(st)
    if who is None:
        return []
    p, turret = who
    if st.pending is not None:
        _, _, hits = st.pending
        k = shift_allowed(steady_hand(p, turret))
        return [Place(p.id, c, i) for i, (hid, _, col) in enumerate(hits, start=1)
                for c in _columns(hid, col, k)]
    out: list[FasaAction] = [Pass(p.id)]
    if any((g == "turret_gun") == turret for g in p.jammed):
        out.append(Clear(p.id))
    working = [g for g in p.sheet_data.guns if g.id in p.guns_working()
               and (g.id == "turret_gun") == turret]
    for t in sorted(st.planes):
        if working and any(target_range(sheet, p, st.planes[t], g.range, turret) is not None
                           for g in working):
            out += [Fire(p.id, t), Fire(p.id, t, True)]
            if st.planes[t].towing:  # FS-M110: or at the object it tows
                out += [Fire(p.id, t, False, True), Fire(p.id, t, True, True)]
    for o in sheet.objects:
        if st.ground.get(o.id, 0) > 0 and working and any(
                object_reach(st, sheet, p, o, g.range) is not None for g in working):
            out.append(Attack(p.id, o.id))
    if turret:
        return out
    for hp, load in sorted(p.rockets.items()):
        if hp in p.lost:
            continue  # FS-M94: the rocket there is destroyed
        for code in dict.fromkeys(load):
            d = deployed()[code]
            if code in bombs():
                out += [Bomb(p.id, hp, h) for h in bomb_hexes(sheet, p)]
            elif d.at_hex:
                out += [Launch(p.id, hp, code, h) for h in hexes_ahead(sheet, p, d.range)]
                if code == "FK" and tow.foe_tows(st, p.seat):  # FS-M110: at towed objects
                    out += [Launch(p.id, hp, code, h, True)
                            for h in hexes_ahead(sheet, p, d.range)]
            elif code not in ("HP", "TP"):  # objects only (FS-M108, FS-M115): ``tow``
                if code in OBJECT_ROCKETS:  # D-FS-42: at a map object straight ahead
                    out += [Rocket(p.id, hp, code, o) for o in objects_ahead(st, sheet, p,
                                                                            d.range)]
                for t in sorted(st.planes):
                    tp = st.planes[t]
                    wide = code == "SK" and tp.tagged_until >= st.turn
                    if target_range(sheet, p, tp, d.range, wide=wide) is not None:
                        out.append(Rocket(p.id, hp, code, t))
                        if tp.towing and code in tow.TOW_ROCKETS:  # FS-M110
                            out.append(Rocket(p.id, hp, code, t, True))
    if st.launching is not None and st.launching[0] == p.id:
        return [x for x in out if launch_why(st, x) is None]
    return out + tow.options(st, sheet, p) + landing.options(st, sheet, p)


OBJECT_ROCKETS = ("AP", "HE", "DR", "SK")  # the damaging rockets (D-FS-42)


def objects_ahead(st: FasaState, sheet: MapSheet, p: PlaneState, reach: int) -> list[str]:
    """Map objects with points left straight ahead within ``reach`` and in sight (FS-M69)."""
    out = []
    for o in sheet.objects:
        if st.ground.get(o.id, 0) > 0 and o.kind != "cargo" \
                and object_reach(st, sheet, p, o, reach) is not None:
            out.append(o.id)
    return out


def launch_why(st: FasaState, a: FasaAction) -> tuple[str, str, str] | None:
    """FS-M68 after a launched weapon this round: more launched weapons (lethal ones at the
    same target) or pass; nothing else."""
    if st.launching is None or isinstance(a, Pass):
        return None
    heading = "Weapon choice per combat round"
    if not isinstance(a, Rocket | Launch | Bomb):
        return ("this round it launches weapons: guns or launched weapons, not both "
                "(more launched weapons, or pass)", "FS-M68", heading)
    target = st.launching[1]
    if isinstance(a, Rocket) and deployed()[a.code].lethal and target and a.target != target:
        return (f"lethal launched weapons go at one target ({target}) this round", "FS-M68",
                heading)
    return None


def allowed(st: FasaState, sheet: MapSheet, p: PlaneState, turret: bool,
            a: FasaAction) -> bool:
    """``a in combat_actions(...)`` without listing them all (replay checks each line)."""
    if st.pending is not None:
        k = shift_allowed(steady_hand(p, turret))
        hits = st.pending[2]
        if not isinstance(a, Place) or not 1 <= a.hit <= len(hits):
            return False
        return a.column in _columns(hits[a.hit - 1][0], hits[a.hit - 1][2], k)
    if isinstance(a, Pass):
        return True
    if st.launching is not None and st.launching[0] == p.id and launch_why(st, a) is not None:
        return False
    if isinstance(a, Clear):
        return any((g == "turret_gun") == turret for g in p.jammed)
    if isinstance(a, Fire):
        return fire_why(st, sheet, p, turret, a) is None
    if isinstance(a, Attack):
        obj = next((o for o in sheet.objects if o.id == a.target), None)
        working = [g for g in p.sheet_data.guns if g.id in p.guns_working()
                   and (g.id == "turret_gun") == turret]
        return obj is not None and st.ground.get(a.target, 0) > 0 and any(
            object_reach(st, sheet, p, obj, g.range) is not None for g in working)
    if isinstance(a, Harpoon | Torpedo | Cut):
        return not turret and tow.why(st, sheet, p, a) is None
    if isinstance(a, Land):
        return not turret and landing.land_why(st, sheet, p) is None
    if turret or not isinstance(a, Rocket | Launch | Bomb):
        return False
    load = p.rockets.get(a.hardpoint)
    if load is None or a.hardpoint in p.lost:
        return False
    if isinstance(a, Bomb):
        return any(c in bombs() for c in load) and a.hex in bomb_hexes(sheet, p)
    if a.code not in load or a.code in bombs() or a.code == "TP":
        return False
    d = deployed()[a.code]
    if isinstance(a, Launch):
        return d.at_hex and a.hex in hexes_ahead(sheet, p, d.range) and (
            not a.tow or (a.code == "FK" and tow.foe_tows(st, p.seat)))
    if a.target not in st.planes and not d.at_hex and a.code in OBJECT_ROCKETS \
            and not a.tow:
        return a.target in objects_ahead(st, sheet, p, d.range)
    t = st.planes.get(a.target)
    if t is None or d.at_hex or a.code == "HP" or (a.tow and not (
            t.towing and a.code in tow.TOW_ROCKETS)):
        return False
    wide = a.code == "SK" and t.tagged_until >= st.turn
    return target_range(sheet, p, t, d.range, wide=wide) is not None


def fire_why(st: FasaState, sheet: MapSheet, p: PlaneState, turret: bool,
             a: Fire) -> tuple[str, str, str] | None:
    """Why ``a`` may not be fired (message, mechanic, heading), or None. FS-M68: any or all
    of the guns at a single target; FS-M77: double down on guns that fire."""
    choice = "Weapon choice per combat round"
    t = st.planes.get(a.target)
    if t is None:
        return f"no plane {a.target}", "FS-M69", "Valid target"
    if a.tow and not t.towing:
        return f"{a.target} tows nothing", "FS-M110", "Towing"
    mine = {g.id: g for g in p.sheet_data.guns if (g.id == "turret_gun") == turret}
    working = set(p.guns_working())
    for gid in a.guns:
        if gid not in mine:
            return (f"{p.id}{' turret' if turret else ''} has no {gid}", "FS-M68", choice)
        if gid in p.lost:
            return f"{gid} is destroyed", "FS-M90", "Guns"
        if gid in p.jammed:
            return f"{gid} is jammed (clear it: FS-M78)", "FS-M77", "Doubling down"
        if gid not in working:
            return f"{gid} has no ammunition left", "FS-M32", "Guns and ordnance"
    firing = [mine[g] for g in a.guns] if a.guns else [g for g in mine.values()
                                                       if g.id in working]
    if not firing:
        return "no gun can fire", "FS-M68", choice
    if any(d not in {g.id for g in firing} for d in a.doubled) or (a.doubled and not a.double):
        return "only guns that fire can double down", "FS-M77", "Doubling down"
    reach = [target_range(sheet, p, t, g.range, turret) is not None for g in firing]
    if a.guns and not all(reach):
        far = next(g for g, ok in zip(firing, reach, strict=True) if not ok)
        msg, rule, heading = target_why(sheet, p, t, far.range, turret)
        if rule == "FS-M104":
            rule, heading = "FS-M102", "Machine guns"
        return f"{far.id}: {msg}", rule, heading
    if not any(reach):
        best = max(firing, key=lambda g: g.range)
        msg, rule, heading = target_why(sheet, p, t, best.range, turret)
        if rule == "FS-M104":
            rule, heading = "FS-M102", "Machine guns"
        return msg, rule, heading
    return None


def rocket_why(st: FasaState, sheet: MapSheet, p: PlaneState, a: FasaAction
               ) -> tuple[str, str, str]:
    """Why a rocket, launch or bomb is refused, naming the rule (``allowed`` said no)."""
    assert isinstance(a, Rocket | Launch | Bomb)
    load = p.rockets.get(a.hardpoint)
    if load is None:
        return f"no hardpoint {a.hardpoint} on {p.id}'s sheet", "FS-M103", "Rockets"
    if a.hardpoint in p.lost:
        return f"{a.hardpoint} is destroyed, and its load with it", "FS-M94", "Rockets location"
    if isinstance(a, Bomb):
        if not any(c in bombs() for c in load):
            return f"no bomb on {a.hardpoint}", "FS-M103", "Rockets"
        return ("a bomb drops in the plane's own hex or an adjacent one", "FS-M114", "Bombs")
    if a.code not in load:
        return f"no {a.code} left on {a.hardpoint}", "FS-M103", "Rockets"
    if a.code in bombs():
        return f"{a.code} is a bomb: bomb {p.id} {a.hardpoint} HEX", "FS-M114", "Bombs"
    if a.code == "TP":
        return "an aerial torpedo is launched at an object: torpedo", "FS-M115", "Aerial torpedo"
    d = deployed()[a.code]
    if isinstance(a, Launch):
        if not d.at_hex:
            return (f"a {d.name} is fired at a target, not a hex", "FS-M104",
                    "Deployed weapons")
        if a.tow and a.hex in hexes_ahead(sheet, p, d.range):
            if a.code != "FK":
                return (f"a {d.name} does no damage: only a flak burst's hits go at a towed "
                        "object", "FS-M110", "Towing")
            return "no enemy plane tows an object", "FS-M110", "Towing"
        return (f"a {d.name} goes to a hex in the column straight ahead within {d.range}, on "
                "the map and in sight", "FS-M69", "Valid target")
    if d.at_hex:
        return f"a {d.name} is fired at a hex: launch", "FS-M104", "Deployed weapons"
    if a.code == "HP":
        return "a harpoon is fired at an object: harpoon", "FS-M108", "Harpoon (HP)"
    t = st.planes.get(a.target)
    if t is None:
        if any(o.id == a.target for o in sheet.objects):
            if a.code not in OBJECT_ROCKETS:
                return (f"a {d.name} does no damage to an object", "FS-M104",
                        "Deployed weapons")
            return (f"{a.target} is not straight ahead within {d.range} hexes and in sight, "
                    "or has no points left", "FS-M69", "Valid target")
        return f"no plane or map object {a.target}", "FS-M69", "Valid target"
    if a.tow and not (t.towing and a.code in tow.TOW_ROCKETS):
        return f"a {a.code} rocket does no damage to a towed object", "FS-M110", "Towing"
    wide = a.code == "SK" and t.tagged_until >= st.turn
    return target_why(sheet, p, t, d.range, wide=wide)


def check_combat(st: FasaState, sheet: MapSheet, a: FasaAction,
                 legal: Sequence[FasaAction]) -> None:
    c = st.current()
    if st.phase != "combat" or c is None:
        raise IllegalActionError(a.text(), "not the Combat Phase", "FS-M06", "Ten-step turn")
    if c in st.gunposts:  # a zeppelin or ground gun post's turn (``guns``)
        if getattr(a, "plane", None) != c:
            raise IllegalActionError(a.text(), f"gun post {c} acts now (pilots, aircraft "
                                     "turrets, zeppelin turrets, ground turrets)", "FS-M72",
                                     H_COMBAT)
        if a in legal or guns.post_allowed(st, sheet, c, a):
            return
        raise IllegalActionError(a.text(), *guns.why_not(st, sheet, c, a))
    who = combatant(st)
    assert who is not None
    p, turret = who
    if getattr(a, "plane", None) != p.id:
        raise IllegalActionError(a.text(), f"{p.id}{' turret' if turret else ''} acts now "
                                 "(highest Quick Draw first)", "FS-M72", H_COMBAT)
    if a in legal or allowed(st, sheet, p, turret, a):
        return
    if isinstance(a, Place) and st.pending is None:
        raise IllegalActionError(a.text(), "no hits wait to be placed", "FS-M82",
                                 "Order of damage")
    if isinstance(a, Place) and st.pending is not None and 1 <= a.hit <= len(st.pending[2]) \
            and is_rocket(st.pending[2][a.hit - 1][0]):
        raise IllegalActionError(a.text(), f"a rocket hit stays in its rolled column "
                                 f"{st.pending[2][a.hit - 1][2]} (Steady Hand cannot shift "
                                 "rocket hits)", "FS-M21", "Steady Hand")
    if isinstance(a, Place):
        k = shift_allowed(steady_hand(p, turret))
        raise IllegalActionError(a.text(), f"Steady Hand allows a shift of {k} column(s)",
                                 "FS-M21", "Steady Hand")
    if st.pending is not None:
        raise IllegalActionError(a.text(), "place the pending hits first", "FS-M82",
                                 "Order of damage")
    if st.launching is not None and st.launching[0] == p.id:
        why = launch_why(st, a)
        if why is not None:
            raise IllegalActionError(a.text(), *why)
    if isinstance(a, Harpoon | Torpedo | Cut):
        if turret:
            raise IllegalActionError(a.text(), "a turret fires its guns only", "FS-M68",
                                     "Weapon choice per combat round")
        bad = tow.why(st, sheet, p, a)
        assert bad is not None
        raise IllegalActionError(a.text(), *bad)
    if isinstance(a, Land):
        if turret:
            raise IllegalActionError(a.text(), "a turret fires its guns only", "FS-M68",
                                     "Weapon choice per combat round")
        bad_landing = landing.land_why(st, sheet, p)
        assert bad_landing is not None
        raise IllegalActionError(a.text(), *bad_landing)
    if isinstance(a, Fire | Rocket) and a.tow and not st.planes.get(a.target, p).towing:
        raise IllegalActionError(a.text(), f"{a.target} tows nothing", "FS-M110", "Towing")
    if isinstance(a, Rocket) and a.tow and a.code not in tow.TOW_ROCKETS:
        raise IllegalActionError(a.text(), f"a {a.code} rocket does no damage to an object",
                                 "FS-M110", "Towing")
    if isinstance(a, Fire):
        why = fire_why(st, sheet, p, turret, a)
        assert why is not None
        raise IllegalActionError(a.text(), *why)
    if isinstance(a, Attack):
        raise IllegalActionError(a.text(), f"{a.target} is not straight ahead in range and in "
                                 "sight, or no gun can fire", "FS-M69", "Valid target")
    if isinstance(a, Clear):
        raise IllegalActionError(a.text(), "no jammed gun", "FS-M78", "Clearing jams")
    if isinstance(a, Rocket | Launch | Bomb):
        if turret:
            raise IllegalActionError(a.text(), "a turret fires its guns only", "FS-M68",
                                     "Weapon choice per combat round")
        raise IllegalActionError(a.text(), *rocket_why(st, sheet, p, a))
    raise IllegalActionError(a.text(), "not a combat action", "FS-M68", "Weapon choice per "
                             "combat round")


def _columns(hit_id: str, col: int, k: int) -> range:
    """The columns a pending hit may go in: Steady Hand's shift ``k`` (FS-M21), none for a
    rocket (FS-M21 "cannot be used to modify the damage of rocket hits"; FS-M82 order only)."""
    k = 0 if is_rocket(hit_id) else k
    return range(max(1, col - k), min(10, col + k) + 1)
