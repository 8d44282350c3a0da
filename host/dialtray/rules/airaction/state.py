"""The Air Action game state and the fold that builds it from events.

``apply_event(state, event, catalogue)`` is the only code that changes a ``State``; it rolls no
dice and makes no decision, so the same events always give the same state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.catalogue import SHOT_DOWN_HOLES, Catalogue, CombatClick, Figure
from dialtray.rules.core.events import Event


@dataclass
class PlaneState:
    id: str
    owner: str
    figure: str
    level: str
    ace: str | None  # Ace figure id flying this plane (AA-M10)
    pilot: str  # pilot id for campaign XP (the plane id it started in)
    combat_click: int
    speed_index: int | None = None
    in_play: bool = True
    removed: str | None = None
    throttle_done: bool = False
    activated: bool = False  # has had its speed step this turn
    weapons_used: set[str] = field(default_factory=set)
    passed: bool = False
    random_card_next: bool = False
    canceled: set[str] = field(default_factory=set)
    ace_click: int = 0
    fate_used: bool = False


@dataclass
class PendingShot:
    plane: str
    weapon: str
    target: str
    target_number: int
    faces: tuple[int, ...]
    offensive_fate: bool


@dataclass
class Collision:
    planes: tuple[str, ...]
    totals: tuple[int, ...]
    offers: list[str]
    fate: dict[str, bool] = field(default_factory=dict)


@dataclass
class PendingFeat:
    plane: str
    target: str
    result: str
    choices: tuple[str, ...]


@dataclass
class State:
    players: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    build_total: int = 0
    campaign: bool = False
    obstacles: bool = False
    removal_vp: str = "split"
    specs: dict[str, ev.PlaneSpec] = field(default_factory=dict)
    planes: dict[str, PlaneState] = field(default_factory=dict)
    phase: str = "setup"
    first_player: str | None = None
    deployed: list[str] = field(default_factory=list)
    turn: int = 0
    aggressor: str | None = None
    disengaging: set[str] = field(default_factory=set)
    speed: int | None = None
    active: tuple[str, ...] = ()
    plans: dict[str, tuple[str, str]] = field(default_factory=dict)
    move_results: dict[str, str] = field(default_factory=dict)
    overlaps: list[tuple[str, str]] = field(default_factory=list)
    collision: Collision | None = None
    collided: set[str] = field(default_factory=set)
    clean: set[str] = field(default_factory=set)  # collided without "a collision" (AA-A05)
    feat_offers: list[str] = field(default_factory=list)
    feat: PendingFeat | None = None
    shooter: str | None = None
    shot: PendingShot | None = None
    bailouts: list[str] = field(default_factory=list)
    vp: dict[str, int] = field(default_factory=dict)
    shot_down: dict[str, int] = field(default_factory=dict)  # planes shot down, per player
    xp: dict[str, int] = field(default_factory=dict)
    dead: set[str] = field(default_factory=set)
    ended: str | None = None
    winner: str | None = None
    win_how: str | None = None


def combat(state: State, cat: Catalogue, plane: str) -> CombatClick:
    ps = state.planes[plane]
    return cat.figures[ps.figure].combat_dial[ps.combat_click]


def figure(state: State, cat: Catalogue, plane: str) -> Figure:
    return cat.figures[state.planes[plane].figure]


def apply_event(state: State, e: Event, cat: Catalogue) -> None:
    """Fold one event into ``state`` (in place)."""
    t = type(e)
    if t is ev.GameSetup:
        assert isinstance(e, ev.GameSetup)
        state.players, state.names = e.players, e.names
        state.build_total, state.campaign = e.build_total, e.campaign
        state.obstacles, state.removal_vp = e.obstacles, e.removal_vp
        state.vp = {p: 0 for p in e.players}
        state.shot_down = {p: 0 for p in e.players}
        for s in e.planes:
            fig = cat.figures[s.figure]
            ace_click = cat.aces[s.ace].start_click if s.ace else 0
            state.specs[s.id] = s
            state.planes[s.id] = PlaneState(
                s.id,
                s.owner,
                s.figure,
                s.level,
                s.ace,
                s.id,
                fig.levels[s.level].start_click,
                ace_click=ace_click,
            )
            state.xp[s.id] = 0
        state.phase = "first-player"
    elif t is ev.FirstPlayerChosen:
        assert isinstance(e, ev.FirstPlayerChosen)
        state.first_player = e.player
        state.phase = "deploy"
    elif t is ev.Deployed:
        assert isinstance(e, ev.Deployed)
        state.deployed.append(e.player)
    elif t is ev.TurnStarted:
        assert isinstance(e, ev.TurnStarted)
        start_turn(state, e.turn)
    elif t is ev.PositionSet:
        assert isinstance(e, ev.PositionSet)
        set_position(state, e)
    elif t is ev.AggressorChosen:
        assert isinstance(e, ev.AggressorChosen)
        state.aggressor = e.player
        state.phase = "throttle"
    elif t is ev.SpeedChanged:
        assert isinstance(e, ev.SpeedChanged)
        state.planes[e.plane].speed_index = e.new_index
    elif t is ev.ThrottleDone:
        assert isinstance(e, ev.ThrottleDone)
        state.planes[e.plane].throttle_done = True
    elif t is ev.DamageClicks:
        assert isinstance(e, ev.DamageClicks)
        ps = state.planes[e.plane]
        last = cat.figures[ps.figure].last_click()
        ps.combat_click = min(last, ps.combat_click + e.clicks)
    elif t is ev.FateClick:
        assert isinstance(e, ev.FateClick)
        ps = state.planes[e.ace]
        assert ps.ace is not None
        ps.ace_click = min(len(cat.aces[ps.ace].dial) - 1, ps.ace_click + 1)
        ps.fate_used = True
    elif t is ev.PlaneRemoved:
        assert isinstance(e, ev.PlaneRemoved)
        ps = state.planes[e.plane]
        ps.in_play, ps.removed = False, e.reason
    elif t is ev.VPScored:
        assert isinstance(e, ev.VPScored)
        state.vp[e.player] += e.points
        if e.reason.startswith("shot down"):
            state.shot_down[e.player] += 1
    elif t is ev.Disengaged:
        assert isinstance(e, ev.Disengaged)
        state.disengaging.add(e.player)
    elif t is ev.PhaseChanged:
        assert isinstance(e, ev.PhaseChanged)
        state.phase = e.phase
        if e.phase == "overlaps":
            state.overlaps = []
        if e.phase == "collisions":
            state.collided, state.clean = set(), set()
    elif t is ev.SpeedAnnounced:
        assert isinstance(e, ev.SpeedAnnounced)
        state.speed, state.active = e.speed, e.active
        state.plans, state.move_results = {}, {}
        state.overlaps, state.feat_offers, state.shooter = [], [], None
        for p in e.active:
            state.planes[p].activated = True
        state.phase = "plan"
    elif t is ev.CardPlanned:
        assert isinstance(e, ev.CardPlanned)
        state.plans[e.plane] = (e.card, e.path)
        if e.random:
            state.planes[e.plane].random_card_next = False
    elif t is ev.MoveReported:
        assert isinstance(e, ev.MoveReported)
        state.move_results[e.plane] = e.result
    elif t is ev.OverlapReported:
        assert isinstance(e, ev.OverlapReported)
        state.overlaps.append((e.a, e.b))
    elif t is ev.CollisionStarted:
        assert isinstance(e, ev.CollisionStarted)
        state.collision = ev_collision(e)
        state.collided.update(e.planes)
    elif t is ev.CollisionFateDecided:
        assert isinstance(e, ev.CollisionFateDecided)
        assert state.collision is not None
        state.collision.fate[e.plane] = e.use
    elif t is ev.CollisionEnded:
        assert isinstance(e, ev.CollisionEnded)
        state.collision = None
        state.clean.update(e.clean)
    elif t is ev.FeatOffered:
        assert isinstance(e, ev.FeatOffered)
        state.feat_offers = list(e.planes)
        state.phase = "feats"
    elif t is ev.FeatRolled:
        assert isinstance(e, ev.FeatRolled)
        state.feat = PendingFeat(e.plane, e.target, e.result, e.choices) if e.choices else None
    elif t is ev.FeatDone:
        assert isinstance(e, ev.FeatDone)
        state.feat = None
        if e.plane in state.feat_offers:
            state.feat_offers.remove(e.plane)
    elif t is ev.RandomCardNext:
        assert isinstance(e, ev.RandomCardNext)
        state.planes[e.plane].random_card_next = True
    elif t is ev.Commandeered:
        assert isinstance(e, ev.Commandeered)
        src, dst = state.planes[e.ace_plane], state.planes[e.target]
        dst.owner, dst.ace, dst.pilot = e.new_owner, src.ace, src.pilot
        dst.ace_click, dst.fate_used = src.ace_click, src.fate_used
        src.ace = None
    elif t is ev.ShooterTurn:
        assert isinstance(e, ev.ShooterTurn)
        state.shooter = e.player
    elif t is ev.ShotRolled:
        assert isinstance(e, ev.ShotRolled)
        state.planes[e.plane].weapons_used.add(e.weapon)
        state.shot = PendingShot(
            e.plane, e.weapon, e.target, e.target_number, e.faces, e.offensive_fate
        )
    elif t is ev.ShotResolved:
        state.shot = None
    elif t is ev.ShotPassed:
        assert isinstance(e, ev.ShotPassed)
        state.planes[e.plane].passed = True
    elif t is ev.BailOutPending:
        assert isinstance(e, ev.BailOutPending)
        state.bailouts.append(e.plane)
    elif t is ev.BailedOut:
        assert isinstance(e, ev.BailedOut)
        if e.plane in state.bailouts:
            state.bailouts.remove(e.plane)
        if not e.success:
            state.dead.add(e.pilot)
    elif t is ev.XPAwarded:
        assert isinstance(e, ev.XPAwarded)
        state.xp[e.pilot] = state.xp.get(e.pilot, 0) + e.xp
    elif t is ev.OptionalCanceled:
        assert isinstance(e, ev.OptionalCanceled)
        state.planes[e.plane].canceled.add(e.stat)
    elif t is ev.GameEnded:
        assert isinstance(e, ev.GameEnded)
        state.ended = e.reason
        state.phase = "ended"
    elif t is ev.WinnerDecided:
        assert isinstance(e, ev.WinnerDecided)
        state.winner, state.win_how = e.player, e.how
    # Rolled, PilotCheck, UnknownEffect, EffectApplied, DisputeRolled: reports only


def start_turn(state: State, turn: int) -> None:
    """AA-M16: a new game turn begins with initiative; every per-turn and per-speed record is
    cleared (so a turn start reads the same however the game got there)."""
    state.turn = turn
    state.aggressor = None
    state.speed, state.active = None, ()
    state.phase = "initiative"
    state.plans, state.move_results, state.overlaps = {}, {}, []
    state.collided, state.clean = set(), set()
    state.feat_offers, state.shooter = [], None
    for ps in state.planes.values():
        ps.throttle_done = ps.activated = ps.passed = ps.fate_used = False
        ps.weapons_used = set()
        ps.canceled = set()  # AA-M04 / AA-A11: optional effects reactivate


def set_position(state: State, e: ev.PositionSet) -> None:
    """Fold a ``Position:`` header: the planes' dials and owners, scores, then the turn start."""
    state.first_player = e.first_player
    i = state.players.index(e.first_player)
    state.deployed = list(state.players[i:] + state.players[:i])  # AA-M14: clockwise from first
    state.disengaging = set(e.disengaging)
    for pp in e.planes:
        ps = state.planes[pp.plane]
        ps.combat_click, ps.speed_index, ps.ace_click = (
            pp.combat_click,
            pp.speed_index,
            pp.ace_click,
        )
        ps.owner, ps.ace, ps.pilot = pp.owner, pp.ace, pp.pilot
        ps.random_card_next = pp.random_card_next
        ps.in_play, ps.removed = pp.removed is None, pp.removed
    state.vp = {p: 0 for p in state.players} | dict(e.vp)
    state.shot_down = {p: 0 for p in state.players} | dict(e.shot_down)
    state.xp = {p: 0 for p in state.planes} | dict(e.xp)
    state.dead = set(e.dead)
    start_turn(state, e.turn)


def ev_collision(e: ev.CollisionStarted) -> Collision:
    return Collision(e.planes, e.totals, list(e.fate_offers))


def destroyed(state: State, cat: Catalogue, plane: str) -> bool:
    """AA-M46: three bullet holes show."""
    return combat(state, cat, plane).bullet_holes >= SHOT_DOWN_HOLES
