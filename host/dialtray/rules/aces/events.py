"""Events of an Aces game: facts the state is folded from (``AcesGame.apply_event``).

Each event carries the data it needs to be folded without dice or decisions. Squares are stored as
names ("c5") so a log reads well; characters by their label ("charlie").
"""

from __future__ import annotations

from dataclasses import dataclass

from dialtray.rules.core.events import Event

# -- setup ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameCreated(Event):
    map_name: str
    players: tuple[str, ...]
    build_total: int
    turn_limit: int  # 0 = none (AC-M67 (2): a predetermined time limit, counted in turns)
    captives_count_on_map: bool  # AC-A09, configurable

    def text(self) -> str:
        return f"game on {self.map_name}: {', '.join(self.players)}"


@dataclass(frozen=True)
class Recruited(Event):
    label: str
    figure_id: str
    player: int

    def text(self) -> str:
        return f"P{self.player + 1} recruits {self.label} ({self.figure_id})"


@dataclass(frozen=True)
class FirstPlayerRolled(Event):
    rolls: tuple[tuple[int, ...], ...]  # each round of 2d6 sums, by player (0 = not rolling)
    first: int

    def text(self) -> str:
        return f"first player: P{self.first + 1} (rolls {list(self.rolls)})"


@dataclass(frozen=True)
class StartingAreaChosen(Event):
    player: int
    area: int

    def text(self) -> str:
        return f"P{self.player + 1} takes starting area {self.area}"


@dataclass(frozen=True)
class Placed(Event):
    label: str
    square: str

    def text(self) -> str:
        return f"{self.label} placed on {self.square}"


# -- turns and actions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionBegun(Event):
    label: str  # "" for a player's forced pass (AC-M16)
    kind: str

    def text(self) -> str:
        return f"{self.label or 'player'}: {self.kind}"


@dataclass(frozen=True)
class BreakAwayRolled(Event):
    label: str
    face: int
    success: bool
    from_labels: tuple[str, ...]

    def text(self) -> str:
        return f"{self.label} breaks away: {self.face} -> {'success' if self.success else 'fails'}"


@dataclass(frozen=True)
class Moved(Event):
    label: str
    path: tuple[str, ...]  # squares entered, the destination last; () for 0 squares

    def text(self) -> str:
        return f"{self.label} moves {' '.join(self.path) or '0 squares'}"


@dataclass(frozen=True)
class CaptiveMoved(Event):
    label: str
    square: str

    def text(self) -> str:
        return f"captive {self.label} taken to {self.square}"


@dataclass(frozen=True)
class AttackRolled(Event):
    attacker: str
    kind: str  # ranged | close | capture
    targets: tuple[str, ...]
    defenses: tuple[int, ...]  # modified and capped, per target
    faces: tuple[int, ...]
    fate_dice: int  # how many of the faces came from offensive fate
    offensive_fate: bool

    def text(self) -> str:
        return (
            f"{self.attacker} {self.kind} attack on {', '.join(self.targets)}: {list(self.faces)}"
            f" vs defense {list(self.defenses)}" + (" (fate)" if self.offensive_fate else "")
        )


@dataclass(frozen=True)
class DiceAssigned(Event):
    """AC-M34: one die per target of a multi-target attack; die numbers are 1-based."""

    assignment: tuple[tuple[str, int], ...]

    def text(self) -> str:
        return "dice assigned: " + ", ".join(f"{t}={d}" for t, d in self.assignment)


@dataclass(frozen=True)
class DefenseAwaited(Event):
    """AC-M53: these hit Aces may now declare defensive fate (in this order)."""

    labels: tuple[str, ...]

    def text(self) -> str:
        return f"defensive fate? {', '.join(self.labels)}"


@dataclass(frozen=True)
class AttackResolved(Event):
    attacker: str

    def text(self) -> str:
        return f"{self.attacker}: attack resolved"


@dataclass(frozen=True)
class FateDeclared(Event):
    label: str
    mode: str  # offensive | defensive | escape
    prevented: int = 0

    def text(self) -> str:
        extra = f", {self.prevented} hit(s) prevented" if self.mode == "defensive" else ""
        return f"{self.label} uses fate ({self.mode}{extra})"


@dataclass(frozen=True)
class HitsResolved(Event):
    target: str
    hits: int

    def text(self) -> str:
        return f"{self.target}: {self.hits} hit(s)"


@dataclass(frozen=True)
class Damaged(Event):
    label: str
    clicks: int
    to_click: int

    def text(self) -> str:
        return f"{self.label} takes {self.clicks} click(s) of damage (dial -> {self.to_click})"


@dataclass(frozen=True)
class FateClicked(Event):
    label: str
    to_click: int

    def text(self) -> str:
        return f"{self.label}: fate click (dial -> {self.to_click})"


@dataclass(frozen=True)
class Healed(Event):
    label: str
    clicks: int
    to_click: int

    def text(self) -> str:
        return f"{self.label} heals {self.clicks} click(s) (dial -> {self.to_click})"


@dataclass(frozen=True)
class Eliminated(Event):
    label: str
    cause: str  # damage | fate
    awards: tuple[tuple[int, int], ...]  # (player, VP) scored at once (AC-M56, AC-M68)

    def text(self) -> str:
        vp = ", ".join(f"P{p + 1} +{v} VP" for p, v in self.awards)
        return f"{self.label} knocked out ({self.cause}){': ' + vp if vp else ''}"


@dataclass(frozen=True)
class Captured(Event):
    captor: str
    captive: str

    def text(self) -> str:
        return f"{self.captor} captures {self.captive}"


@dataclass(frozen=True)
class EscapeRolled(Event):
    captive: str
    captor: str
    captive_faces: tuple[int, ...]
    captor_faces: tuple[int, ...]
    captive_hits: int
    captor_hits: int
    escaped: bool

    def text(self) -> str:
        return (
            f"{self.captive} tries to escape {self.captor}: {self.captive_hits} hit(s) "
            f"{list(self.captive_faces)} vs {self.captor_hits} {list(self.captor_faces)} -> "
            + ("escapes" if self.escaped else "still captive")
        )


@dataclass(frozen=True)
class Freed(Event):
    captive: str
    reason: str

    def text(self) -> str:
        return f"{self.captive} is free ({self.reason})"


@dataclass(frozen=True)
class ActionEnded(Event):
    label: str

    def text(self) -> str:
        return f"{self.label or 'player'}: action over"


@dataclass(frozen=True)
class TurnPassed(Event):
    to_player: int

    def text(self) -> str:
        return f"turn passes to P{self.to_player + 1}"


@dataclass(frozen=True)
class Withdrew(Event):
    player: int
    removed: tuple[str, ...]

    def text(self) -> str:
        return f"P{self.player + 1} withdraws ({', '.join(self.removed) or 'nobody left'})"


@dataclass(frozen=True)
class GameEnded(Event):
    reason: str
    vp: tuple[int, ...]
    winner: int
    tiebreak: str

    def text(self) -> str:
        table = ", ".join(f"P{i + 1} {v}" for i, v in enumerate(self.vp))
        won = f"winner P{self.winner + 1} {self.tiebreak}".strip()
        return f"game over ({self.reason}): {table}; {won}"


@dataclass(frozen=True)
class CharPosition:
    """One character in a ``PositionSet`` (docs/notation.md, "Position header")."""

    label: str
    square: str | None  # None: off the map
    click: int
    captor: str | None = None
    knocked_out: bool = False


@dataclass(frozen=True)
class PositionSet(Event):
    """A mid-game position from a log's ``Position:`` header: turn ``turn_number`` of
    ``player`` begins with these characters, VP, withdrawals and last turns' actors (AC-M15)."""

    turn_number: int
    player: int
    chars: tuple[CharPosition, ...]
    vp: tuple[int, ...]
    withdrawn: tuple[int, ...] = ()
    last_acted: tuple[tuple[int, tuple[str, ...]], ...] = ()

    def text(self) -> str:
        return f"position: turn {self.turn_number}, P{self.player + 1} to act"
