"""The Combat Phase (FS-M06 steps 3..8): order, targets, to-hit, damage, counters, bombs.

FS-M18/FS-M19/FS-M72 firing order, FS-M68 weapon choice, FS-M69 valid target, FS-M70 same-hex
firing, FS-M71 line of sight, FS-M73..FS-M75 to-hit, FS-M77 doubling down, FS-M78 clearing
jams, FS-M79/FS-M80 hit location and column, FS-M102..FS-M114 weapons, FS-M120 turrets.
"""

from __future__ import annotations

from dialtray.rules.core.dice import DiceSource
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.apply import Damage, Emit
from dialtray.rules.fasa.damage import gun_shape, hit_table, shape, shift_allowed
from dialtray.rules.fasa.hexmap import (
    Hex,
    MapObject,
    MapSheet,
    bearing,
    distance,
    in_arc,
    neighbours,
    step,
    straight_ahead,
)
from dialtray.rules.fasa.rocketorder import apply_hit, hold, is_rocket
from dialtray.rules.fasa.sheets import Gun, bombs, deployed
from dialtray.rules.fasa.skills import QuickDraw, gunner_skill
from dialtray.rules.fasa.state import FasaState, PlaneState
from dialtray.rules.fasa.stray import past_object
from dialtray.rules.fasa.tables import active
from dialtray.rules.fasa.tn import (
    bomb_tn,
    gas_cell_tn,
    jam_clear_tn,
    nacelle_tn,
    roll_d10,
    seeker_tn,
    succeeds,
    to_hit_tn,
)

TURRET = "-turret"
ON_GROUND = ("ground", "building", "train", "ground-turret")  # FS-M114: a scattered bomb hits
BOMB_SKIPS = ("turret", "main-gun", "hook", "cargo")  # a post on a mount: the mount is hit
TAG_TURNS = 4  # FS-M111: the rest of this turn and 4 more


def deflection(attacker_facing: int, target_facing: int) -> int:
    """FS-M74 / FS table 13 (diagram missing: ``arcs.json``, SAMPLE by facing difference,
    D-FS-03: same direction 0, one hexside off 1, nose to nose 2, two hexsides off 3)."""
    return active().deflection[(target_facing - attacker_facing) % 6]


def side_of(target: PlaneState, src: Hex) -> int | None:
    """The hexside of the target (relative to its facing) a shot from ``src`` comes in by."""
    if src == target.hex:
        return None
    return round(bearing(target.hex, src) - target.facing) % 6


def same_hex_fire(a: PlaneState, t: PlaneState) -> bool:
    """FS-M70: head-on both fire; same direction the slower fires at the faster; same speed
    the higher Natural Touch fires; any other orientation, nobody."""
    if (a.facing - t.facing) % 6 == 3:
        return True
    if a.facing != t.facing:
        return False
    if a.speed != t.speed:
        return a.speed < t.speed
    return a.sheet_data.pilot.natural_touch > t.sheet_data.pilot.natural_touch


def in_sight(sheet: MapSheet, a: Hex, b: Hex) -> bool:
    return sheet.line_of_sight(a, b)


def target_range(sheet: MapSheet, a: PlaneState, t: PlaneState, reach: int,
                 turret: bool = False, wide: bool = False) -> int | None:
    """The range if ``t`` is a valid target for ``a`` at ``reach`` hexes, else None."""
    if not t.flying or t.seat == a.seat:
        return None
    if a.hex == t.hex:
        return 0 if not turret and same_hex_fire(a, t) else None
    if turret:  # FS-M120 / D-FS-05 SAMPLE: an aircraft turret covers the rear half
        rng = distance(a.hex, t.hex)
        ok = in_arc(a.hex, a.facing + 3, t.hex, active().turret_half) and rng <= reach
    elif wide:  # FS-M112: a seeker against a tagged target: the V of three hexrows
        rng = distance(a.hex, t.hex)
        ok = in_arc(a.hex, a.facing, t.hex, active().front_half) and rng <= reach
    else:
        r = straight_ahead(a.hex, a.facing, t.hex)
        rng = r if r is not None else 0
        ok = r is not None and r <= reach
    return rng if ok and in_sight(sheet, a.hex, t.hex) else None


def target_why(sheet: MapSheet, a: PlaneState, t: PlaneState, reach: int,
               turret: bool = False, wide: bool = False) -> tuple[str, str, str]:
    """Why ``t`` is no target for ``a`` at ``reach`` (``target_range`` said None): the rule
    that forbids it, most specific first."""
    if not t.flying:
        return f"{t.id} is not flying", "FS-M69", "Valid target"
    if t.seat == a.seat:
        return f"{t.id} is on your side", "FS-M69", "Valid target"
    if a.hex == t.hex:
        return (f"{t.id} shares the hex and this orientation does not allow a shot", "FS-M70",
                "Same-hex firing")
    if turret or wide:
        arc = "the turret's arc" if turret else "the seeker's V"
        if distance(a.hex, t.hex) > reach:
            return f"{t.id} is beyond the range of {reach}", "FS-M102", "Machine guns"
        if not in_sight(sheet, a.hex, t.hex):
            return f"a dotted hex blocks the line to {t.id}", "FS-M71", "Line of sight"
        return f"{t.id} is outside {arc}", "FS-M120" if turret else "FS-M112", (
            "Turrets" if turret else "Seeker (SK)")
    r = straight_ahead(a.hex, a.facing, t.hex)
    if r is None:
        return (f"{t.id} is not in the hex column straight ahead (targets left or right "
                "cannot be attacked directly)", "FS-M69", "Valid target")
    if r > reach:
        return f"{t.id} is {r} hexes ahead, beyond the range of {reach}", "FS-M104" if \
            not turret else "FS-M102", "Deployed weapons"
    return f"a dotted hex blocks the line to {t.id}", "FS-M71", "Line of sight"


def quick_draw(p: PlaneState, turret: bool, fractional: bool) -> QuickDraw:
    pilot = p.sheet_data.pilot
    if turret:
        return QuickDraw(gunner_skill(pilot.quick_draw))
    return QuickDraw(pilot.quick_draw, pilot.quick_draw_points if fractional else 0)


def combat_order(st: FasaState, dice: DiceSource, emit: Emit,
                 sheet: MapSheet | None = None) -> tuple[str, ...]:
    """FS-M72: pilots by Quick Draw (FS-M19 fractions if on), ties rolled (FS-A14); then the
    aircraft turrets the same way; then the map's gun posts (``guns.post_order``: zeppelin
    turrets and main guns, then ground turrets). Returns the combatants in order."""
    out: list[str] = []
    for turret in (False, True):
        group = [p for p in st.planes.values() if p.flying and (
            not turret or (any(g.id == "turret_gun" for g in p.sheet_data.guns)
                           and p.gunner_constitution > 0))]
        keyed = [(quick_draw(p, turret, st.fractional_qd), p.id) for p in group]
        out.extend(pid + (TURRET if turret else "") for pid in by_quick_draw(keyed, dice, emit))
    if sheet is not None:
        from dialtray.rules.fasa.guns import post_order

        out += post_order(st, sheet, dice, emit)
    return tuple(out)


def by_quick_draw(keyed: list[tuple[QuickDraw, str]], dice: DiceSource,
                  emit: Emit) -> list[str]:
    """Highest Quick Draw first; equal ones roll a d10 until the rolls differ (FS-M72)."""
    out: list[str] = []
    ties: dict[QuickDraw, list[str]] = {}
    for q, pid in keyed:
        ties.setdefault(q, []).append(pid)
    for q in sorted(ties, reverse=True):
        ids = sorted(ties[q])
        while len(ids) > 1:
            rolls = {pid: roll_d10(dice, f"{pid} Quick Draw tie")[0] for pid in ids}
            for pid in ids:
                emit(ev.Rolled(pid, "Quick Draw tie", rolls[pid], 0, True, "FS-M72"))
            if len(set(rolls.values())) == len(ids):
                ids.sort(key=lambda k: -rolls[k])
                break
        out.extend(ids)
    return out


class Attack:
    """One combatant's action this round."""

    def __init__(self, st: FasaState, sheet: MapSheet, dice: DiceSource, emit: Emit,
                 plane: str, turret: bool) -> None:
        self.st, self.map, self.dice, self.emit = st, sheet, dice, emit
        self.p = st.planes[plane]
        self.turret = turret

    def roll(self, purpose: str, tn: int, rule: str) -> bool:
        (r,) = roll_d10(self.dice, f"{self.p.id} {purpose}")
        ok = succeeds(r, tn)
        self.emit(ev.Rolled(self.p.id, purpose, r, tn, ok, rule))
        return ok

    def skills(self) -> tuple[int, int, bool]:
        """Dead Eye, Steady Hand and shock of the shooter (the gunner's one below, FS-M16)."""
        pilot = self.p.sheet_data.pilot
        if self.turret:
            return (gunner_skill(pilot.dead_eye), gunner_skill(pilot.steady_hand),
                    self.p.gunner_shocked_until >= self.st.turn)
        return pilot.dead_eye, pilot.steady_hand, self.p.shocked(self.st.turn)

    def guns(self) -> list[Gun]:
        working = set(self.p.guns_working())
        return [g for g in self.p.sheet_data.guns if g.id in working
                and (g.id == "turret_gun") == self.turret]

    def fire_guns(self, target: str, double: bool, tow: bool = False,
                  chosen: tuple[str, ...] = (), doubled: tuple[str, ...] = ()) -> None:
        """FS-M73 one roll per gun (two doubling down, FS-M77: a jam from next turn if either
        misses, every hit counts, FS-A19); one location roll for all the hits (FS-M79), a
        column per hit (FS-M80), Steady Hand may shift gun hits (FS-M21)."""
        t = self.st.planes[target]
        dead_eye, steady, shocked = self.skills()
        hits: list[Gun] = []
        misses: list[int] = []  # FS-M119: each miss's template points, for a stray shot
        for g in self.guns():
            if chosen and g.id not in chosen:
                continue  # FS-M68: any or all of the guns
            twice = double and (not doubled or g.id in doubled)  # FS-M77: the chosen guns
            reach = g.range
            rng = target_range(self.map, self.p, t, reach, self.turret)
            if rng is None:
                continue
            tn = to_hit_tn(t.sheet_data.base_to_hit, deflection(self.p.facing, t.facing), rng,
                           dead_eye, 0, shocked)
            shots = [self.roll(f"{g.id} to-hit on {target}", tn, "FS-M73")
                     for _ in range(2 if twice else 1)]
            self.emit(ev.GunState(self.p.id, g.id, "jam-next" if twice and not all(shots)
                                  else "fired", len(shots)))
            hits.extend(g for s in shots if s)
            misses += [active().zep_points(g.ammo, len(gun_shape(g.ammo, g.caliber)),
                                           self.map.military) for s in shots if not s]
        if misses and not self.turret:
            from dialtray.rules.fasa.stray import strays

            strays(self.st, self.map, self.emit, self.p, t.hex, misses)
        if not hits:
            return
        if tow:  # FS-M110: the hits go at the object the target tows
            from dialtray.rules.fasa.tow import at_tow, gun_points

            at_tow(self.st, self.map, self.dice, self.emit, self.p.id, t,
                   gun_points([(g.caliber, g.ammo) for g in hits]))
            return
        (loc,) = roll_d10(self.dice, f"{self.p.id} hit location on {target}")
        table = hit_table(side_of(t, self.p.hex), loc)
        cols = roll_d10(self.dice, f"{self.p.id} hit columns", len(hits))
        placed = tuple((g.id, table, c) for g, c in zip(hits, cols, strict=True))
        if shift_allowed(steady) or len(placed) > 1:  # FS-M21 shift, FS-M82 any order
            self.emit(ev.Pending(self.p.id, target, placed))
            return
        dmg = Damage(self.st, self.dice, self.emit, target, self.p.id)
        for gid, tbl, col in placed:
            self.gun_hit(dmg, gid, tbl, col)
        dmg.finish()

    def gun_hit(self, dmg: Damage, gun_id: str, table: str, col: int) -> None:
        g = next(x for x in self.p.sheet_data.guns if x.id == gun_id)
        dmg.hit(table, col - 1, gun_shape(g.ammo, g.caliber), f"{g.caliber} cal {g.ammo} hit",
                "FS-M81", g.ammo)
        if g.ammo == "MG" and dmg.p.flying:  # D-FS-07: magnesium burns on at step 8
            self.emit(ev.Burning(dmg.plane, "MG", table, col, 0, True))

    def place(self, column: int, hit: int = 1) -> None:
        """Put pending gun hit number ``hit`` in ``column`` (checked by the game); widowing
        after the last (FS-M84)."""
        assert self.st.pending is not None
        _, target, hits = self.st.pending
        gid, table, _ = hits[hit - 1]
        self.emit(ev.Pending(self.p.id, target, hits[:hit - 1] + hits[hit:]))
        dmg = Damage(self.st, self.dice, self.emit, target, self.p.id)
        if is_rocket(gid):  # FS-M82: a held rocket hit, at its rolled column
            apply_hit(dmg, gid, table, column)
        else:
            self.gun_hit(dmg, gid, table, column)
        if len(hits) == 1:
            dmg.touched = True  # earlier placements marked boxes too: widowing looks at all
            dmg.finish()

    def strafe(self, target: str) -> None:
        """Guns at a map object straight ahead: a gas cell hits on anything but a 1 (3 when
        shocked, FS-M117), a nacelle on 7 + range - Dead Eye with no deflection (FS-M118), a
        ground object on its base TN + range - Dead Eye (FS-M73); each hit takes the
        template's box count in points (FS-M64), a gas cell the template's "Zep. Dmg." number
        when the damage templates give one (FS-M117, D-FS-41)."""
        obj = next(o for o in self.map.objects if o.id == target)
        dead_eye, _, shocked = self.skills()
        points = 0
        for g in self.guns():
            rng = object_reach(self.st, self.map, self.p, obj, g.range)
            if rng is None:
                continue
            if obj.kind == "zeppelin":
                tn, rule = gas_cell_tn(shocked), "FS-M117"
            elif obj.kind == "nacelle":
                tn, rule = nacelle_tn(rng, dead_eye, 0, shocked), "FS-M118"
            else:
                tn, rule = to_hit_tn(obj.base_tn, 0, rng, dead_eye, 0, shocked), "FS-M73"
            self.emit(ev.GunState(self.p.id, g.id, "fired", 1))
            boxes = len(gun_shape(g.ammo, g.caliber))  # FS-M64: the template's boxes
            zep = active().zep_points(g.ammo, boxes, self.map.military)  # FS-M117: "Zep. Dmg."
            if self.roll(f"{g.id} to-hit on {target}", tn, rule):
                points += zep if obj.kind == "zeppelin" else boxes
            else:  # FS-M119: the miss flies on past the object (D-FS-47)
                past_object(self.st, self.map, self.emit, self.p, rng, [zep], target)
        if points:
            self.emit(ev.GroundHit(target, min(points, self.st.ground.get(target, 0))))

    def rocket(self, hardpoint: str, code: str, target: str, tow: bool = False) -> None:
        """FS-M103/FS-M104 one lethal rocket: its own location and column (FS-M79), no shift
        (FS-M21). BP tags (FS-M111), SK (FS-M112), DR drills on (FS-M113); ``tow``: at the
        object the target tows (FS-M110, no drilling on into an object). A map object as the
        target: ``rocket_at``."""
        if target not in self.st.planes:
            self.rocket_at(hardpoint, code, target)
            return
        t = self.st.planes[target]
        dead_eye, _, shocked = self.skills()
        d = deployed()[code]
        self.emit(ev.RocketUsed(self.p.id, hardpoint, code))
        wide = code == "SK" and t.tagged_until >= self.st.turn
        rng = target_range(self.map, self.p, t, d.range, wide=wide) or 0
        if code == "SK" and wide:
            tn = seeker_tn(t.sheet_data.base_to_hit, rng, dead_eye, t.last_gs, shocked)
        else:
            tn = to_hit_tn(t.sheet_data.base_to_hit, deflection(self.p.facing, t.facing), rng,
                           dead_eye, d.modifier, shocked)
        rule = {"BP": "FS-M111", "SK": "FS-M112", "DR": "FS-M113"}.get(code, "FS-M104")
        if not self.roll(f"{code} rocket to-hit on {target}", tn, rule):
            if code != "BP":  # FS-M119: a damaging rocket flies on down the hexrow
                from dialtray.rules.fasa.stray import strays
                from dialtray.rules.fasa.tow import rocket_points

                kind = "HE" if code == "HE" else "rocket"
                strays(self.st, self.map, self.emit, self.p, t.hex,
                       [active().zep_points(kind, rocket_points(code), self.map.military)])
            return
        if code == "BP":
            self.emit(ev.Tagged(target, self.st.turn + TAG_TURNS))
            return
        if tow:
            from dialtray.rules.fasa.tow import at_tow, rocket_points

            at_tow(self.st, self.map, self.dice, self.emit, self.p.id, t, rocket_points(code))
            return
        (loc,) = roll_d10(self.dice, f"{self.p.id} {code} hit location")
        table = hit_table(side_of(t, self.p.hex), loc)
        (col,) = roll_d10(self.dice, f"{self.p.id} {code} column")
        hold(self.st, self.emit, self.p.id, target, code, rng, rule, table, col)  # FS-M82

    def rocket_at(self, hardpoint: str, code: str, target: str) -> None:
        """A lethal rocket at a map object straight ahead in range (D-FS-42): a gas cell hits
        on anything but a 1 (3 when shocked, FS-M117) and loses the template's "Zep. Dmg."
        (D-FS-41); a nacelle on 7 + range - Dead Eye + the rocket's modifier, no deflection
        (FS-M118); a ground object on its base TN + range - Dead Eye + modifier (FS-M73,
        FS-M104); the others lose the template's box count (FS-M64)."""
        from dialtray.rules.fasa.tow import rocket_points

        obj = next(o for o in self.map.objects if o.id == target)
        d = deployed()[code]
        dead_eye, _, shocked = self.skills()
        rng = object_reach(self.st, self.map, self.p, obj, d.range) or 0
        self.emit(ev.RocketUsed(self.p.id, hardpoint, code))
        if obj.kind == "zeppelin":
            tn, rule = gas_cell_tn(shocked), "FS-M117"
        elif obj.kind == "nacelle":
            tn, rule = nacelle_tn(rng, dead_eye, d.modifier, shocked), "FS-M118"
        else:
            tn, rule = to_hit_tn(obj.base_tn, 0, rng, dead_eye, d.modifier, shocked), "FS-M104"
        kind = "HE" if code == "HE" else "rocket"
        boxes = rocket_points(code)
        if not self.roll(f"{code} rocket to-hit on {target}", tn, rule):  # FS-M119: flies on
            past_object(self.st, self.map, self.emit, self.p, rng,
                        [active().zep_points(kind, boxes, self.map.military)], target)
            return
        points = (active().zep_points(kind, boxes, self.map.military)
                  if obj.kind == "zeppelin" else boxes)
        self.emit(ev.GroundHit(target, min(points, self.st.ground.get(target, 0)), rule))

    def launch(self, hardpoint: str, code: str, h: Hex, tow: bool = False) -> None:
        """FS-M105..FS-M107: auto-hit at a hex; flak explodes after the next Movement Phase,
        flare and sonic rolls come at step 7 of this Combat Phase. ``tow``: the flak's hits on
        a towing enemy go at its object (FS-M110, D-FS-48)."""
        self.emit(ev.RocketUsed(self.p.id, hardpoint, code))
        self.emit(ev.Counter(code, h, self.p.id, self.st.turn, tow))

    def bomb(self, hardpoint: str, h: Hex) -> None:
        """FS-M114: own hex or adjacent, TN from the object in the aimed hex (D-FS-50): a hit
        damages it (a gas cell or nacelle next to the plane too), each of the Bomb Table's
        hits the flak template's boxes in points (a gas cell its "Zep. Dmg."); a miss
        scatters (``scatter.json``, D-FS-46) and still damages a ground object where it
        lands. Cargo on the ground is such an object where it lies now; an object in tow has
        no hex and no bomb reaches it (D-FS-48)."""
        code = next(c for c in self.p.rockets[hardpoint] if c in bombs())
        _, modifier, hits = bombs()[code]
        self.emit(ev.RocketUsed(self.p.id, hardpoint, code))
        obj = self.bombed(h, aimed=True)
        dead_eye, _, shocked = self.skills()
        base = obj.base_tn if obj is not None else 1
        tn = bomb_tn(base, modifier, h != self.p.hex, dead_eye, shocked)
        if not self.roll(f"{code} bomb on {h}", tn, "FS-M114"):
            (r,) = roll_d10(self.dice, f"{self.p.id} bomb scatter")
            facing, hexes = active().scatter[r]  # the scatter diagram (scatter.json)
            obj = self.bombed(step(h, facing, hexes), aimed=False)
        left = self.st.ground.get(obj.id, 0) if obj is not None else 0
        if obj is not None and left > 0:
            boxes = len(shape("flak"))
            each = (active().zep_points("flak", boxes, self.map.military)
                    if obj.kind == "zeppelin" else boxes)
            self.emit(ev.GroundHit(obj.id, min(hits * each, left), "FS-M114"))

    def bombed(self, h: Hex, aimed: bool) -> MapObject | None:
        """The object a bomb in hex ``h`` damages (FS-M114): cargo where it lies now (never
        in tow: ``st.cargo`` None), else a standing object there: any on the aimed hex (a gas
        cell, a nacelle, a building), only one on the ground where a scattered bomb lands."""
        for o in self.map.objects:
            if o.kind == "cargo" and self.st.cargo.get(o.id, o.hex) == h:
                return o
        for o in self.map.objects:
            if h in o.span and o.kind not in BOMB_SKIPS \
                    and self.st.ground.get(o.id, 0) > 0 and (aimed or o.kind in ON_GROUND):
                return o
        return None

    def clear(self) -> None:
        """FS-M78: TN 8 - Steady Hand per jammed gun; the shooter's only action."""
        _, steady, _ = self.skills()
        for gid in sorted(self.p.jammed):
            if (gid == "turret_gun") != self.turret:
                continue
            if self.roll(f"clear {gid}", jam_clear_tn(steady), "FS-M78"):
                self.emit(ev.GunState(self.p.id, gid, "cleared"))


def object_range(sheet: MapSheet, p: PlaneState, h: Hex, reach: int) -> int | None:
    """FS-M69 for an object: straight ahead, within ``reach``, in sight (its own hex does not
    block the shot at it)."""
    r = straight_ahead(p.hex, p.facing, h)
    if r is None or r > reach or not in_sight(sheet, p.hex, h):
        return None
    return r


def object_reach(st: FasaState, sheet: MapSheet, p: PlaneState, o: MapObject,
                 reach: int) -> int | None:
    """The range to object ``o`` straight ahead within ``reach`` and in sight, at the nearest
    of its hexes (a gas cell may span several, FS-M117); cargo where it is now (FS-M110)."""
    if o.kind == "cargo":
        h = st.cargo.get(o.id, o.hex)
        return None if h is None else object_range(sheet, p, h, reach)
    ranges = [r for h in o.span if (r := object_range(sheet, p, h, reach)) is not None]
    return min(ranges) if ranges else None


def hexes_ahead(sheet: MapSheet, p: PlaneState, reach: int) -> list[Hex]:
    """The hex column straight ahead up to ``reach`` (FS-M69), on the map and in sight."""
    out = []
    for n in range(1, reach + 1):
        h = step(p.hex, p.facing, n)
        if sheet.on_map(h) and in_sight(sheet, p.hex, h):
            out.append(h)
    return out


def bomb_hexes(sheet: MapSheet, p: PlaneState) -> list[Hex]:
    """FS-M114: the plane's own hex or an adjacent one."""
    return [h for h in [p.hex, *neighbours(p.hex)] if sheet.on_map(h)]
