"""Plot checks and movement resolution (FS-M33..FS-M52, FS-M54..FS-M58, FS-M62, FS-M88).

``refusal`` names the rule that forbids a plot outright (a shocked pilot's turn, a locked
rudder, a glide, a stall twice); ``pushes`` lists the envelope a legal plot pushes, each with
its TN; ``resolve`` moves every plane: non-pushing planes first, pushing ones after, Gs last
(FS-M43, FS-M46), then same-hex collisions and exploding flak.
"""

from __future__ import annotations

from dataclasses import dataclass

from dialtray.rules.core.dice import DiceSource
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa import projectile
from dialtray.rules.fasa.apply import Damage, Emit, combat_bailout
from dialtray.rules.fasa.damage import shape
from dialtray.rules.fasa.hexmap import Hex, MapSheet, step
from dialtray.rules.fasa.projectile import PROJECTILE, aimed
from dialtray.rules.fasa.state import FasaState, PlaneState
from dialtray.rules.fasa.template import Maneuver, flown_randomly, parse_plot
from dialtray.rules.fasa.tn import (
    avoid_object_tn,
    collision_hits,
    landing_mishap,
    landing_needs_roll,
    landing_tn,
    push_tn,
    restricted_tn,
    roll_d10,
    succeeds,
)

SIDE = {"L": "port", "R": "starboard"}


@dataclass(frozen=True)
class Push:
    kind: str  # speed | accel | decel | gs | restricted
    over: int
    tn: int
    rule: str


@dataclass(frozen=True)
class Caps:
    """A plane's current capabilities, read once from its record sheet (FS-M05)."""

    speed: int
    max_speed: int
    acceleration: int
    deceleration: int
    g_port: int
    g_starboard: int
    last_gs: int
    natural_touch: int
    shocked: bool
    engine_out: bool
    stalled: bool
    rudders: frozenset[str]


def caps(p: PlaneState, turn: int) -> Caps:
    return Caps(p.speed, p.max_speed(), p.acceleration(), p.deceleration(), p.g_rating("port"),
                p.g_rating("starboard"), p.last_gs, p.sheet_data.pilot.natural_touch,
                p.shocked(turn), p.engine_out(), p.stalled, frozenset(p.rudders()))


def refusal(c: Caps, m: Maneuver, bail: bool = False) -> tuple[str, str] | None:
    """Why the plot may not be flown at all, with the rule id; None if it may."""
    if bail and (m.direction != "S" or m.facing != 0):
        return "a bail-out plot flies straight on (vSA)", "FS-M62"
    if c.engine_out:
        want = max(0, c.speed - 1)
        if m.speed != want or (m.speed and m.text() != f"{want}SA") or (not m.speed and m.facing):
            shown = f"{want}SA" if want else "A"
            return f"engine destroyed: the plane glides at speed {want} ({shown})", "FS-M88"
    if c.shocked and (m.direction in ("L", "R") or m.immelmann or m.facing):
        return "a pilot in shock must fly a straight maneuver, not 1SD", "FS-M17"
    if c.stalled and m.speed == 0 and not c.engine_out:
        return "a plane may stall for one turn only (FS-A20)", "FS-M41"
    if len(c.rudders) == 2 and m.direction in ("L", "R"):
        return "both rudders damaged: only S maneuvers", "FS-M97"
    if len(c.rudders) == 1 and m.direction in ("L", "R"):
        allowed = "R" if "right" in c.rudders else "L"
        if m.direction != allowed:
            return f"rudder locked: only {allowed} maneuvers", "FS-M97"
    return None


def pushes(c: Caps, m: Maneuver) -> list[Push]:
    """Every capability the plot exceeds (FS-M36, FS-M39..FS-M42, FS-M46..FS-M51)."""
    nt, sh = c.natural_touch, c.shocked
    out: list[Push] = []
    if m.speed > c.max_speed:
        over = m.speed - c.max_speed
        out.append(Push("speed", over, push_tn(over, nt, sh), "FS-M49"))
    if m.speed - c.speed > c.acceleration:
        over = m.speed - c.speed - c.acceleration
        out.append(Push("accel", over, push_tn(over, nt, sh), "FS-M49"))
    if c.speed - m.speed > c.deceleration:
        over = c.speed - m.speed - c.deceleration
        out.append(Push("decel", over, push_tn(over, nt, sh), "FS-M51"))
    rating = g_rating(c, m)
    if m.gs > rating:
        out.append(Push("gs", m.gs - rating, push_tn(m.gs - rating, nt, sh), "FS-M46"))
    if m.restricted and c.last_gs >= 3:
        out.append(Push("restricted", m.gs, restricted_tn(m.gs, nt, sh), "FS-M48"))
    return out


def g_rating(c: Caps, m: Maneuver) -> int:
    """FS-M36: the wing on the turn side; FS-M47: the Immelmann uses the weaker wing."""
    if m.immelmann:
        return min(c.g_port, c.g_starboard)
    if m.direction == "S":
        return (c.g_starboard if m.facing == 1 else c.g_port) if m.facing else 99
    if m.direction == "":
        return 99  # FS-M41: a stall is 0 G
    return c.g_port if m.direction == "L" else c.g_starboard


class Mover:
    """Resolves one turn's movement (FS-M06 step 2)."""

    def __init__(self, st: FasaState, sheet: MapSheet, dice: DiceSource, emit: Emit) -> None:
        self.st, self.map, self.dice, self.emit = st, sheet, dice, emit

    def roll(self, plane: str, purpose: str, tn: int, rule: str) -> bool:
        (r,) = roll_d10(self.dice, f"{plane} {purpose}")
        ok = succeeds(r, tn)
        self.emit(ev.Rolled(plane, purpose, r, tn, ok, rule))
        return ok

    def fracture(self, plane: str, table: str, count: int, rule: str) -> None:
        """``count`` fracture hits (one box each, FS table 20), each in a rolled column."""
        dmg = Damage(self.st, self.dice, self.emit, plane, None)
        for _ in range(count):
            (col,) = roll_d10(self.dice, f"{plane} fracture column")
            dmg.hit(table, col - 1, shape("fracture"), "fracture hit", rule)
        dmg.finish()

    def resolve(self) -> None:
        st = self.st
        flying = [p for p in st.planes.values() if p.flying]
        planned = {p.id: flown_randomly(p.plot, p.speed) if p.plot_illegal
                   else parse_plot(p.plot) for p in flying if p.plot is not None}
        order = sorted(planned, key=lambda k: (self._rank(st.planes[k], planned[k]), k))
        abandoned: list[PlaneState] = []
        for p in sorted(st.planes.values(), key=lambda x: x.id):
            if p.status == PROJECTILE and projectile.fly_on(self, p):  # FS-M63 over several turns
                abandoned.append(p)
        for pid in order:
            p = st.planes[pid]
            if p.bail:
                if projectile.abandon(self, p, planned[pid]):
                    abandoned.append(p)
            elif p.flying and p.plot_illegal:  # FS-M44: an illegal recorded move
                self.random_move(p, planned[pid])
            elif p.flying:
                self.fly(p, planned[pid])
        for p in abandoned:
            if not projectile.strike(self, p) and aimed(st, p, self.map):
                if p.status != PROJECTILE:
                    self.emit(ev.PlaneOut(p.id, PROJECTILE, "the empty plane flies on at a "
                                          "target straight ahead", "FS-M63"))
            elif p.status == PROJECTILE:
                self.emit(ev.PlaneOut(p.id, "bailed", "the empty plane is out of play",
                                      "FS-M62"))
        for p in sorted(st.planes.values(), key=lambda x: x.id):
            if p.flying and p.towing and p.speed < 1:
                # FS-M110: below speed 1 the pilot cuts the cable or crashes; the engine cuts
                # it (a crash loses the plane and the object falls all the same, D-FS-16)
                from dialtray.rules.fasa.tow import drop

                drop(st, self.map, self.emit, p, "FS-M110")

    def _rank(self, p: PlaneState, m: Maneuver) -> int:
        kinds = {x.kind for x in pushes(caps(p, self.st.turn), m)}
        return 2 if kinds & {"gs", "restricted"} else 1 if kinds else 0

    def fly(self, p: PlaneState, m: Maneuver) -> None:
        turn = self.st.turn
        if p.engine_out() and p.glide_hang >= 1 and m.speed == 0:
            self.emit(ev.PlaneOut(p.id, "crashed", "glided to 0 and dived for the ground",
                                  "FS-M88"))
            return
        from dialtray.rules.fasa.tow import overstress

        stress = overstress(self.st, self.map, self.emit, p, m.gs)
        for wing in ("port_leading", "starboard_leading") if stress else ():
            self.fracture(p.id, wing, stress, "FS-M110")  # the cable breaks: stress damage
        if not p.flying:
            return
        ps = pushes(caps(p, turn), m)
        engine = [x for x in ps if x.kind in ("speed", "accel")]
        if engine:  # FS-M49: both redline rolls must succeed
            results = [self.roll(p.id, f"redline {x.kind} +{x.over}", x.tn, x.rule)
                       for x in engine]
            if not all(results):
                self.flareout(p, sum(x.over for x in engine))
                return
        gs = [x for x in ps if x.kind in ("gs", "restricted")]
        if gs:  # FS-A02: one roll against the higher TN
            worst = max(gs, key=lambda x: x.tn)
            if not self.roll(p.id, f"push {worst.kind}", worst.tn, worst.rule):
                self.random_move(p, m)
                return
        decel = [x for x in ps if x.kind == "decel"]
        if decel and not self.roll(p.id, "stall push", decel[0].tn, "FS-M51"):
            for wing in ("port_leading", "starboard_leading"):
                self.fracture(p.id, wing, decel[0].over, "FS-M51")
            if not p.flying:
                return
        self.travel(p, m.path(p.hex, p.facing), (p.facing + m.facing) % 6, m.text(), m.speed,
                    m.gs, bool(ps), "pushed" if ps else "plotted", ps[0].rule if ps else "FS-M33")

    def flareout(self, p: PlaneState, over: int) -> None:
        """FS-M50: speed 1, smoke this turn and next, 1 nose fracture per point over (FS-A09),
        forward 1 hex with no facing change."""
        self.emit(ev.Smoking(p.id, self.st.turn + 1))
        self.fracture(p.id, "nose", over, "FS-M50")
        if p.flying:
            self.travel(p, [step(p.hex, p.facing)], p.facing, "1SA", 1, 0, True, "flareout",
                        "FS-M50")

    def random_move(self, p: PlaneState, m: Maneuver) -> None:
        """FS-M52: per point of speed, 1 hex forward then the Facing Change Table (FS table
        7); L/R turn the failed way, S by even (right) / odd (left) each time (FS-A10); each
        hexside costs the outside wing's leading edge a fracture hit (FS-A21)."""
        h, f = p.hex, p.facing
        fractures = {"port_leading": 0, "starboard_leading": 0}
        for _ in range(m.speed):
            h = step(h, f)
            if self.blocked_or_off(p, h):
                return
            (r,) = roll_d10(self.dice, f"{p.id} random movement facing")
            turn = 0 if r <= 3 else 1 if r <= 7 else 2
            if turn:
                way = m.direction
                if way not in ("L", "R"):
                    (e,) = roll_d10(self.dice, f"{p.id} random movement even/odd")
                    way = "R" if e % 2 == 0 else "L"
                f = (f + (turn if way == "R" else -turn)) % 6
                fractures["port_leading" if way == "R" else "starboard_leading"] += turn
        self.emit(ev.Moved(p.id, m.text(), h, f, m.speed, m.gs, True, "random movement",
                           "FS-M52"))
        for wing, n in fractures.items():
            if n and p.flying:
                self.fracture(p.id, wing, n, "FS-M52")

    def blocked_or_off(self, p: PlaneState, h: Hex) -> bool:
        """Leaving the sheet (FS-M09/FS-M12) or hitting an object (FS-M37/FS-M56); True if
        the plane's move ends here."""
        if not self.map.on_map(h):
            side = self.map.edge_left(h)
            if side == p.home:
                if p.towing:  # FS-M108: the prize brought home
                    self.emit(ev.Credit(p.id, f"cargo {p.towing}"))
                self.emit(ev.PlaneOut(p.id, "withdrawn", f"left by its home side ({side})",
                                      "FS-M12"))
                self.land(p)
            else:
                self.emit(ev.Credit(p.id, "fled"))
                if p.last_hit_by and p.last_hit_by in self.st.planes:  # FS-M10
                    self.emit(ev.Credit(p.last_hit_by, "half-kill"))
                self.emit(ev.PlaneOut(p.id, "fled", f"left the map by the {side} side",
                                      "FS-M09"))
            return True
        obj = self.map.object_at(h)
        standing = obj is not None and obj.blocks and self.st.ground.get(obj.id, 1) > 0
        tn = avoid_object_tn(obj.base_tn) if obj is not None and standing else None
        if obj is not None and tn is not None and not self.roll(p.id, f"avoid {obj.id}", tn,
                                                                 "FS-M56"):
            self.collide(p, obj.base_tn, f"hit {obj.id}")
            return True
        return False

    def land(self, p: PlaneState) -> None:
        """Home: the landing (D-FS-14: on a runway, or in a field, D-FS-40): FS-M66 TN 4 + FS
        table 10 - Natural Touch, no roll at <= 0 unless Natural Touch <= 3 or any damage;
        FS-M67 a failure reads the Ground Landing Table at TN - roll (FS-A04) and its row is
        done to the sheet; FS table 6: 10 XP for landing."""
        lost = p.lost
        nt = p.sheet_data.pilot.natural_touch
        tn = landing_tn(nt, gear_damaged=any(x.startswith("landing_gear") for x in lost),
                        rudders_damaged=len(p.rudders()),
                        off_runway=p.seat in self.st.fields,
                        flaps_damaged=any(x.startswith(("flap", "wing_controls")) for x in lost),
                        wounds=p.sheet_data.pilot.constitution - p.constitution)
        if not landing_needs_roll(tn, nt, bool(p.marked)):
            self.emit(ev.Credit(p.id, "landed"))
            return
        (r,) = roll_d10(self.dice, f"{p.id} landing")
        ok = succeeds(r, tn)
        self.emit(ev.Rolled(p.id, "landing", r, tn, ok, "FS-M66"))
        index, _ = landing_mishap(tn, r)
        if ok or index == 0:
            self.emit(ev.Credit(p.id, "landed"))
            return
        loss = 2 if index >= 5 else 1 if index >= 3 else 0
        self.emit(ev.Credit(p.id, f"landing mishap {index}"))
        for loc in _mishap_losses(p, index):  # FS table 11's row, on the record sheet
            self.emit(ev.LocationLost(p.id, loc, "FS-M67"))
        if index >= 5:
            self.emit(ev.PlaneOut(p.id, "crashed", "landing mishap: the plane flips and is "
                                  "destroyed", "FS-M67"))
        if loss:
            self.emit(ev.Wounded(p.id, "pilot", loss))

    def travel(self, p: PlaneState, path: list[Hex], facing: int, text: str, speed: int,
               gs: int, pushed: bool, how: str, rule: str) -> None:
        for h in path:
            if self.blocked_or_off(p, h):
                return
        dest = path[-1] if path else p.hex
        self.emit(ev.Moved(p.id, text, dest, facing, speed, gs, pushed, how, rule))

    def collide(self, p: PlaneState, other_base: int, reason: str) -> None:
        """FS-M57 destroyed (bail out at 18), or FS-M58's optional flak hits on the nose."""
        if self.st.collision_damage:
            dmg = Damage(self.st, self.dice, self.emit, p.id, None)
            for _ in range(collision_hits(other_base)):
                (col,) = roll_d10(self.dice, f"{p.id} collision column")
                dmg.hit("nose", col - 1, shape("flak"), reason, "FS-M58")
            dmg.finish()
            return
        combat_bailout(self.st, self.dice, self.emit, p.id, "collision", reason, "FS-M57")

    def collisions(self) -> None:
        """FS-M54/FS-M55: the planes checking in one hex have each a number 1..10 (picked by
        enemies, rolled by teammates: ``Picked``); equal numbers collide (FS-M57, or FS-M58's
        damage); a pilot and their own wingman never do (FS-M08)."""
        for group in crowded(self.st):
            picks = self.st.picks
            for p in group:
                foes = [q for q in group if (q.seat, q.pair) != (p.seat, p.pair)
                        and q.id in picks and picks.get(q.id) == picks.get(p.id)]
                if foes and p.flying:
                    self.collide(p, foes[0].sheet_data.base_to_hit, f"mid-air with {foes[0].id}")

    def flak(self) -> None:
        """FS-M105 / FS-M121: last turn's flak explodes at the end of this Movement Phase."""
        from dialtray.rules.fasa.aftermath import flak_burst

        for kind, h, owner, turn, tow in list(self.st.counters):
            if kind == "FK" and turn == self.st.turn - 1:
                flak_burst(self.st, self.map, self.dice, self.emit, h, owner, tow)
                self.emit(ev.Counter(kind, h, owner, -1))


def _mishap_losses(p: PlaneState, index: int) -> list[str]:
    """FS table 11: 1-2 the nose weapons and the engine; 3-4 the wings and every component in
    them; 5+ the plane (``crashed``)."""
    if index >= 5:
        return []
    tables = ("nose",) if index <= 2 else ("port_leading", "port_trailing",
                                           "starboard_leading", "starboard_trailing")
    out = [loc for t in tables for loc in p.sheet_data.diagram.get(t, {})
           if loc not in p.lost and (index >= 3 or loc.startswith(("gun", "rockets", "engine")))]
    return sorted(out)


def crowded(st: FasaState) -> list[list[PlaneState]]:
    """Hexes where planes must check for collisions (FS-M55): planes of different seats, or
    teammates of different pairs when a radio there is damaged (FS-M54: teammates with working
    radios avoid each other; an enemy in the hex makes every aircraft check). A pilot and
    their own wingman never collide (FS-M08), so a pair alone in a hex is no group."""
    by_hex: dict[Hex, list[PlaneState]] = {}
    for p in st.planes.values():
        if p.flying:
            by_hex.setdefault(p.hex, []).append(p)
    out = []
    for h in sorted(by_hex):
        g = by_hex[h]
        if len({(p.seat, p.pair) for p in g}) < 2:
            continue
        if len({p.seat for p in g}) > 1 or any("radio" in p.lost for p in g):
            out.append(sorted(g, key=lambda x: x.id))
    return out
