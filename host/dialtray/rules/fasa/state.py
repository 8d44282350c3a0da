"""The FASA position and its fold: record sheets as they stand, the map, the phase.

Derived performance (FS-M05 "the highest unmarked box is the current capability"): FS-M88
engine caps, FS-M96 elevators, FS-M97 rudder, FS-M99 flaps, FS-M100 ailerons, FS-M101 spars.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from dialtray.rules.core.events import Event
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.damage import Box
from dialtray.rules.fasa.hexmap import Hex, straight_ahead
from dialtray.rules.fasa.sheets import Sheet, sheet

FLYING = "flying"


@dataclass
class PlaneState:
    id: str
    seat: str
    sheet: str
    hex: Hex
    facing: int
    speed: int
    home: str
    status: str = FLYING
    last_gs: int = 0
    stalled: bool = False
    marked: set[Box] = field(default_factory=set)
    lost: set[str] = field(default_factory=set)
    constitution: int = 3
    gunner_constitution: int = 3
    shocked_until: int = -1
    gunner_shocked_until: int = -1
    smoke_until: int = -1
    jammed: set[str] = field(default_factory=set)
    jam_next: set[str] = field(default_factory=set)
    bursts: dict[str, int] = field(default_factory=dict)
    rockets: dict[str, list[str]] = field(default_factory=dict)
    plot: str | None = None
    bail: bool = False
    plot_illegal: bool = False
    last_hit_by: str = ""
    glide_hang: int = 0
    tagged_until: int = -1
    burning: list[tuple[str, str, int, int]] = field(default_factory=list)
    credits: list[str] = field(default_factory=list)
    turns: list[str] = field(default_factory=list)  # the turn record (FS table 1)
    towing: str = ""  # the object on the harpoon's cable (FS-M110)
    straight_run: int = 0  # hexes flown in a continuous straight path (FS-M115)
    start: int = 0  # the speed chosen at set-up (FS-M07)
    rescue: str = ""  # FS table 9: what the pilot tries to save at a combat bailout
    pair: int = 0  # FS-M08: which of its seat's pilot/wingman pairs (in set-up order)

    @cached_property
    def sheet_data(self) -> Sheet:
        """The record sheet (never changes for a plane: looked up once; not a field, so not
        in the state's JSON)."""
        return sheet(self.sheet)

    @property
    def flying(self) -> bool:
        return self.status == FLYING

    def shocked(self, turn: int) -> bool:
        return self.shocked_until >= turn

    def engine_out(self) -> bool:
        """FS-M88 / FS-M89: the engine destroyed, or every fuel tank empty."""
        tanks = self.sheet_data.tanks
        return "engine" in self.lost or (bool(tanks) and all(t in self.lost for t in tanks))

    def max_speed(self) -> int:
        """FS-M88: the lowest "Max Speed N" engine location damaged caps the speed (FS-T28)."""
        caps = [int(loc[-1]) for loc in self.lost if loc.startswith("engine_ms")]
        top = min([self.sheet_data.max_speed, *caps])
        return max(1, top - 2) if self.towing else top  # FS-M110: towing -2, minimum 1

    def acceleration(self) -> int:
        """FS-M29: limited to max speed (FS-T28: Max Speed 1 -> acceleration 1)."""
        return min(self.sheet_data.acceleration, self.max_speed())

    def deceleration(self) -> int:
        """FS-M30 (2), FS-M99: either flap damaged -> 1."""
        flaps = any(loc in self.lost for loc in ("flap_port", "flap_starboard",
                                                  "wing_controls_port",
                                                  "wing_controls_starboard"))
        return 1 if flaps else self.sheet_data.deceleration

    def g_rating(self, side: str) -> int:
        """FS-M28 the wing's rating, -1 for the elevator (FS-M96), the aileron (FS-M100, via
        wing controls FS-M98) and each spar (FS-M101) of that side; tail controls hit both
        elevators (FS-M95)."""
        base = self.sheet_data.g_port if side == "port" else self.sheet_data.g_starboard
        tail = "tail_controls" in self.lost
        loss = 1 if (f"elevator_{side}" in self.lost or tail) else 0
        loss += 1 if (f"aileron_{side}" in self.lost or f"wing_controls_{side}" in self.lost) else 0
        loss += sum(1 for loc in self.lost if loc.startswith(f"spar_{side}"))
        return max(0, base - loss)

    def rudders(self) -> set[str]:
        """FS-M97: damaged rudder sides ("left", "right"); tail controls both (FS-M95)."""
        if "tail_controls" in self.lost:
            return {"left", "right"}
        return {s for s in ("left", "right") if f"rudder_{s}" in self.lost}

    def guns_working(self) -> list[str]:
        return [g.id for g in self.sheet_data.guns if g.id not in self.lost
                and g.id not in self.jammed and self.bursts.get(g.id, 0) > 0
                and (g.id != "turret_gun" or self.gunner_constitution > 0)]


@dataclass
class FasaState:
    map: str = ""
    seats: tuple[str, ...] = ()
    turn_limit: int = 12
    sealed: bool = False
    fractional_qd: bool = False
    collision_damage: bool = False
    start_speed: int = 2
    turn: int = 1
    phase: str = "setup"
    planes: dict[str, PlaneState] = field(default_factory=dict)
    seals: dict[str, str] = field(default_factory=dict)
    picks: dict[str, int] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    acted: set[str] = field(default_factory=set)
    counters: list[tuple[str, Hex, str, int, bool]] = field(default_factory=list)
    pending: tuple[str, str, tuple[tuple[str, str, int], ...]] | None = None
    launching: tuple[str, str] | None = None  # FS-M68: (plane, lethal target) this round
    held: tuple[str, str, tuple[tuple[str, str, int], ...]] | None = None  # FS-M82 rockets
    rescue: dict[str, str] = field(default_factory=dict)  # FS table 9, by plane
    fields: tuple[str, ...] = ()  # seats landing in a field at home (FS table 10: +2)
    ground: dict[str, int] = field(default_factory=dict)
    tailing: list[tuple[str, str, int, str]] = field(default_factory=list)
    told: dict[str, str] = field(default_factory=dict)  # FS-M61 (sealed): plane -> info
    over: tuple[str, str | None] | None = None
    gunposts: dict[str, str] = field(default_factory=dict)  # gun post id -> owner seat
    gunner_shocked: dict[str, int] = field(default_factory=dict)  # FS-M122: until turn
    cargo: dict[str, Hex | None] = field(default_factory=dict)  # None: towed or carried off

    def current(self) -> str | None:
        """The combatant whose turn it is in the combat phase (FS-M72)."""
        for p in self.order:
            if p in self.acted:
                continue
            plane = self.planes.get(p.removesuffix("-turret"))
            if plane.flying if plane is not None else self.ground.get(p, 0) > 0:
                return p  # a gun post destroyed before its turn does not fire
        return None


def fold_event(st: FasaState, e: Event) -> None:
    """Fold one event into the state (pure: no dice, no decisions)."""
    if isinstance(e, ev.Rolled):
        return  # the commonest event changes nothing: skip the chain below
    if isinstance(e, ev.Acted):  # the next commonest, ahead of the chain
        st.acted.add(e.plane)
        st.launching = None
        return
    if isinstance(e, ev.Launching):
        st.launching = (e.plane, e.target)
        return
    if isinstance(e, ev.GameSetup):
        st.map, st.seats, st.turn_limit = e.map, e.seats, e.turn_limit
        st.sealed, st.fractional_qd, st.collision_damage = (e.sealed, e.fractional_qd,
                                                            e.collision_damage)
        st.start_speed = e.start_speed
        st.rescue = dict(e.rescue)
        st.fields = e.fields
        from dialtray.rules.fasa.tables import active

        objects = active().map(e.map).objects
        st.ground = {o.id: o.points for o in objects if o.points > 0}
        st.gunposts = {o.id: o.owner for o in objects if o.owner and o.kind != "hook"}
        st.cargo = {o.id: o.hex for o in objects if o.kind == "cargo"}
    elif isinstance(e, ev.PlanePlaced):
        sh = sheet(e.sheet)
        st.planes[e.plane] = plane = PlaneState(
            e.plane, e.seat, e.sheet, e.hex, e.facing, e.speed, e.home,
            constitution=sh.pilot.constitution, start=e.speed,
            rescue=st.rescue.get(e.plane, ""),
            pair=sum(1 for q in st.planes.values() if q.seat == e.seat) // 2,
            bursts={g.id: g.bursts for g in sh.guns},
            rockets={hp: list(load) for hp, load in sh.hardpoints})
        plane.__dict__["sheet_data"] = sh  # the game's own sheet (its tables), looked up once
    elif isinstance(e, ev.Phase):
        st.phase, st.turn = e.phase, e.turn
        if e.phase == "plot":
            st.seals, st.told = {}, {}
            st.order, st.acted, st.pending = (), set(), None
        st.launching = None
        if e.phase == "combat":
            st.order, st.acted = e.order, set()
            st.tailing = []
        if e.phase == "pick":
            st.order, st.picks, st.seals = e.order, {}, {}
    elif isinstance(e, ev.Told):
        st.told[e.plane] = e.info
    elif isinstance(e, ev.Picked):
        st.picks[e.plane] = e.number
    elif isinstance(e, ev.PlotSealed):
        st.seals[e.seat] = e.digest
    elif isinstance(e, ev.PlotRecorded):
        p = st.planes[e.plane]
        p.plot, p.bail, p.plot_illegal = e.maneuver, e.bail, e.illegal
    elif isinstance(e, ev.TailingInfo):
        st.tailing.append((e.tailer, e.target, e.number, e.revealed))
    elif isinstance(e, ev.Moved):
        p = st.planes[e.plane]
        straight = e.speed > 0 and e.facing == p.facing and straight_ahead(
            p.hex, p.facing, e.hex) == e.speed
        p.straight_run = p.straight_run + e.speed if straight else 0  # FS-M115
        p.hex, p.facing, p.speed, p.last_gs = e.hex, e.facing, e.speed, e.gs
        p.stalled = e.speed == 0
        p.glide_hang = p.glide_hang + 1 if (e.speed == 0 and p.engine_out()) else 0
        p.turns.append(e.maneuver + (" push" if e.pushed else ""))
        p.plot, p.bail, p.plot_illegal = None, False, False
    elif isinstance(e, ev.Marked):
        st.planes[e.plane].marked.update(e.boxes)
        if e.attacker:
            st.planes[e.plane].last_hit_by = e.attacker
    elif isinstance(e, ev.LocationLost):
        st.planes[e.plane].lost.add(e.location)
    elif isinstance(e, ev.Wounded):
        p = st.planes[e.plane]
        if e.crew == "pilot":
            p.constitution = max(0, p.constitution - e.amount)
        else:
            p.gunner_constitution = max(0, p.gunner_constitution - e.amount)
    elif isinstance(e, ev.Shocked):
        p = st.planes[e.plane]
        if e.crew == "pilot":
            p.shocked_until = max(p.shocked_until, e.until)
        else:
            p.gunner_shocked_until = max(p.gunner_shocked_until, e.until)
    elif isinstance(e, ev.Smoking):
        p = st.planes[e.plane]
        p.smoke_until = max(p.smoke_until, e.until)
    elif isinstance(e, ev.GunState):
        _gun(st.planes[e.plane], e)
    elif isinstance(e, ev.RocketUsed):
        st.planes[e.plane].rockets[e.hardpoint].remove(e.code)
    elif isinstance(e, ev.Counter):
        if e.turn < 0:
            st.counters = [c for c in st.counters if not (c[0] == e.kind and c[1] == e.hex)]
        else:
            st.counters.append((e.kind, e.hex, e.owner, e.turn, e.tow))
    elif isinstance(e, ev.Burning):
        p = st.planes[e.plane]
        item = (e.kind, e.table, e.col, e.range)
        if e.active:
            p.burning.append(item)
        elif item in p.burning:
            p.burning.remove(item)
    elif isinstance(e, ev.Tagged):
        st.planes[e.plane].tagged_until = e.until
    elif isinstance(e, ev.PlaneOut):
        p = st.planes[e.plane]
        p.status = e.status
        if p.towing:  # FS-M110: the object falls where the plane went down, or leaves with it
            st.cargo[p.towing] = None if e.status in ("withdrawn", "fled") else p.hex
            p.towing = ""
    elif isinstance(e, ev.Tow):
        p = st.planes[e.plane]
        p.towing = e.obj if e.what == "grabbed" else ""
        st.cargo[e.obj] = e.hex
    elif isinstance(e, ev.GunnerShocked):
        st.gunner_shocked[e.post] = max(st.gunner_shocked.get(e.post, -1), e.until)
    elif isinstance(e, ev.Credit):
        st.planes[e.plane].credits.append(e.what)
    elif isinstance(e, ev.Pending):
        st.pending = (e.plane, e.target, e.hits) if e.hits else None
    elif isinstance(e, ev.Held):
        st.held = (e.plane, e.target, e.hits) if e.hits else None
    elif isinstance(e, ev.GroundHit):
        st.ground[e.target] = max(0, st.ground.get(e.target, 0) - e.points)
    elif isinstance(e, ev.Over):
        st.over = (e.termination, e.winner)
        st.phase = "over"


def _gun(p: PlaneState, e: ev.GunState) -> None:
    if e.bursts_used:
        p.bursts[e.gun] = max(0, p.bursts.get(e.gun, 0) - e.bursts_used)
    if e.state == "jam-next":
        p.jam_next.add(e.gun)
    elif e.state == "jammed":
        p.jam_next.discard(e.gun)
        p.jammed.add(e.gun)
    elif e.state == "cleared":
        p.jammed.discard(e.gun)
