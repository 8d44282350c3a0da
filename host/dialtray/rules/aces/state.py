"""The state of an Aces game: what ``AcesGame.apply_event`` folds the events into.

Plain mutable dataclasses, rebuilt from the event log on undo (``core.events``). Nothing here rolls
dice or makes decisions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.figures import Click, Figure
from dialtray.rules.aces.grid import Square
from dialtray.rules.aces.maps import AcesMap
from dialtray.rules.core.events import Event


@dataclass
class CharState:
    label: str
    figure: Figure
    player: int
    square: int | None = None  # None: not on the map (knocked out, withdrawn, not placed yet)
    click: int = 0
    captor: str | None = None  # the character holding this one captive (AC-M39)
    captive: str | None = None  # the one captive this character holds (AC-M41)
    knocked_out: bool = False

    @property
    def on_map(self) -> bool:
        return self.square is not None

    @property
    def values(self) -> Click:
        return self.figure.dial[min(self.click, len(self.figure.dial) - 1)]

    @property
    def is_captive(self) -> bool:
        return self.captor is not None


@dataclass
class PendingAttack:
    attacker: str
    kind: str
    targets: tuple[str, ...]
    defenses: tuple[int, ...]
    faces: tuple[int, ...]
    assignment: dict[str, int] | None = None  # target -> 0-based die index (multi-target)
    awaiting: list[str] = field(default_factory=list)  # targets still to decide defensive fate
    defended: set[str] = field(default_factory=set)  # targets that used defensive fate

    def faces_for(self, target: str) -> tuple[int, ...]:
        if len(self.targets) == 1:
            return self.faces
        assert self.assignment is not None
        i = self.assignment.get(target)
        return () if i is None else (self.faces[i],)


@dataclass
class TurnState:
    player: int
    label: str | None = None  # the character given the action
    phase: str = "choose"  # choose | broke | failed | moved | assign | defend | attacked
    broken_from: tuple[str, ...] = ()
    break_failed: bool = False  # AC-A15: after a failed break away, close combat only
    attacks_made: int = 0
    fate_uses: dict[str, int] = field(default_factory=dict)  # per Ace, this turn (AC-M49)
    fate_clicks: list[str] = field(default_factory=list)  # due at the end of the action (AC-M50)
    pending: PendingAttack | None = None
    acted: list[str] = field(default_factory=list)  # characters given an action this turn
    extra_for: str | None = None  # a character that escaped and may act again (AC-M47)


@dataclass
class AcesState:
    map_name: str = ""
    players: tuple[str, ...] = ()
    build_total: int = 100
    turn_limit: int = 0
    captives_count_on_map: bool = False
    chars: dict[str, CharState] = field(default_factory=dict)
    first_player: int = 0
    areas: dict[int, int] = field(default_factory=dict)  # player -> starting area number
    turn_number: int = 0  # turns begun so far
    turn: TurnState | None = None
    last_acted: dict[int, tuple[str, ...]] = field(default_factory=dict)  # AC-M15
    vp: list[int] = field(default_factory=list)  # scored during play (AC-M56, AC-M68)
    withdrawn: set[int] = field(default_factory=set)
    over: bool = False
    end_reason: str = ""
    final_vp: tuple[int, ...] = ()
    winner: int = -1
    tiebreak: str = ""

    def by_square(self) -> dict[int, str]:
        return {c.square: c.label for c in self.chars.values() if c.square is not None}

    def team(self, player: int) -> list[CharState]:
        return [c for c in self.chars.values() if c.player == player]

    def recruited_points(self, player: int) -> int:
        return sum(c.figure.points for c in self.team(player))


def current_turn(s: AcesState) -> TurnState:
    if s.turn is None:
        raise RuntimeError("no turn in progress")
    return s.turn


def apply_event(
    state: AcesState, event: Event, game_map: AcesMap, catalogue: Mapping[str, Figure]
) -> None:
    """Fold one event into ``state`` (in place): the only code that changes an ``AcesState``."""
    s = state
    if isinstance(event, ev.GameCreated):
        s.map_name, s.players = event.map_name, event.players
        s.build_total, s.turn_limit = event.build_total, event.turn_limit
        s.captives_count_on_map = event.captives_count_on_map
        s.vp = [0] * len(event.players)
    elif isinstance(event, ev.FirstPlayerRolled):
        s.first_player = event.first
    elif isinstance(event, ev.StartingAreaChosen):
        s.areas[event.player] = event.area
    elif isinstance(event, ev.Recruited):
        fig = catalogue[event.figure_id]
        s.chars[event.label] = CharState(event.label, fig, event.player, click=fig.starting_click)
    elif isinstance(event, ev.Placed):
        s.chars[event.label].square = game_map.index(Square.parse(event.square))
    elif isinstance(event, ev.TurnPassed):
        if s.turn is not None:
            s.last_acted[s.turn.player] = tuple(s.turn.acted)
        s.turn = TurnState(event.to_player)
        s.turn_number += 1
    elif isinstance(event, ev.ActionBegun):
        t = current_turn(s)
        t.label = event.label or None
        t.phase = "choose"
        t.broken_from = ()
        t.break_failed = False
        t.attacks_made = 0
        t.pending = None
        if event.label:
            t.acted.append(event.label)
        t.extra_for = None
    elif isinstance(event, ev.BreakAwayRolled):
        t = current_turn(s)
        t.phase = "broke" if event.success else "failed"
        t.break_failed = not event.success
        t.broken_from = event.from_labels if event.success else ()
    elif isinstance(event, ev.Moved):
        if event.path:
            s.chars[event.label].square = game_map.index(Square.parse(event.path[-1]))
        current_turn(s).phase = "moved"
    elif isinstance(event, ev.CaptiveMoved):
        s.chars[event.label].square = game_map.index(Square.parse(event.square))
    elif isinstance(event, ev.AttackRolled):
        t = current_turn(s)
        t.pending = PendingAttack(
            event.attacker, event.kind, event.targets, event.defenses, event.faces
        )
        t.phase = "assign" if len(event.targets) > 1 else "defend"
    elif isinstance(event, ev.DiceAssigned):
        t = current_turn(s)
        assert t.pending is not None
        t.pending.assignment = {tg: d - 1 for tg, d in event.assignment}
        t.phase = "defend"
    elif isinstance(event, ev.FateDeclared):
        t = current_turn(s)
        t.fate_uses[event.label] = t.fate_uses.get(event.label, 0) + 1
        t.fate_clicks.append(event.label)
        if event.mode == "defensive" and t.pending is not None:
            t.pending.defended.add(event.label)
    elif isinstance(event, ev.DefenseAwaited):
        t = current_turn(s)
        assert t.pending is not None
        t.pending.awaiting.extend(event.labels)
    elif isinstance(event, ev.AttackResolved):
        t = current_turn(s)
        t.attacks_made += 1
        t.pending = None
        t.phase = "attacked"
    elif isinstance(event, ev.HitsResolved):
        t = current_turn(s)
        if t.pending is not None and event.target in t.pending.awaiting:
            t.pending.awaiting.remove(event.target)
    elif isinstance(event, ev.Damaged):
        s.chars[event.label].click = event.to_click
    elif isinstance(event, ev.FateClicked):
        s.chars[event.label].click = event.to_click
        t = current_turn(s)
        if event.label in t.fate_clicks:
            t.fate_clicks.remove(event.label)
    elif isinstance(event, ev.Healed):
        s.chars[event.label].click = event.to_click
    elif isinstance(event, ev.Eliminated):
        c = s.chars[event.label]
        c.square = None
        c.knocked_out = True
        for p, v in event.awards:
            s.vp[p] += v
        if s.turn is not None and event.label in s.turn.fate_clicks:
            s.turn.fate_clicks = [x for x in s.turn.fate_clicks if x != event.label]
    elif isinstance(event, ev.Captured):
        s.chars[event.captor].captive = event.captive
        s.chars[event.captive].captor = event.captor
    elif isinstance(event, ev.Freed):
        c = s.chars[event.captive]
        if c.captor is not None:
            s.chars[c.captor].captive = None
        c.captor = None
        if event.reason == "escape" and s.turn is not None:
            s.turn.extra_for = event.captive
    elif isinstance(event, ev.EscapeRolled):
        pass
    elif isinstance(event, ev.ActionEnded):
        t = current_turn(s)
        t.phase = "choose"
        t.label = None
        t.pending = None
        t.attacks_made = 0
        t.broken_from = ()
        t.break_failed = False
    elif isinstance(event, ev.Withdrew):
        s.withdrawn.add(event.player)
        for lab in event.removed:
            s.chars[lab].square = None
    elif isinstance(event, ev.GameEnded):
        s.over = True
        s.end_reason = event.reason
        s.final_vp = event.vp
        s.winner = event.winner
        s.tiebreak = event.tiebreak
    elif isinstance(event, ev.PositionSet):
        for cp in event.chars:
            c = s.chars[cp.label]
            c.square = None if cp.square is None else game_map.index(Square.parse(cp.square))
            c.click, c.knocked_out, c.captor, c.captive = cp.click, cp.knocked_out, None, None
        for cp in event.chars:
            if cp.captor is not None:
                s.chars[cp.label].captor = cp.captor
                s.chars[cp.captor].captive = cp.label
        s.vp = list(event.vp)
        s.withdrawn = set(event.withdrawn)
        s.last_acted = dict(event.last_acted)
        s.turn_number = event.turn_number
        s.turn = TurnState(event.player)
    else:  # pragma: no cover - a new event without a fold is a programming error
        raise TypeError(f"no fold for {type(event).__name__}")
