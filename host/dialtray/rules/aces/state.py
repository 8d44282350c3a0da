"""The state of an Aces game: what ``AcesGame.apply_event`` folds the events into.

Plain mutable dataclasses, rebuilt from the event log on undo (``core.events``). Nothing here rolls
dice or makes decisions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dialtray.rules.aces.figures import Click, Figure


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
