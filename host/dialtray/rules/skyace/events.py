"""Events of a Sky Ace game: facts the fold (``state.fold_event``) applies, with a readable text.

Every card movement is an event (drawn, placed, played, discarded, reshuffled) so the state --
every pile, hand and playmat stack -- is the fold of the log and a replay rebuilds it exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from dialtray.rules.core.events import Event
from dialtray.rules.skyace.cards import ATTACK_NAMES
from dialtray.rules.skyace.heroes import Hero
from dialtray.rules.skyace.mat import Cell, cell_text


@dataclass(frozen=True)
class PawnSpec:
    id: str  # "P1" for a hero (its seat), "T1".. for villains
    seat: str  # who decides for it: the hero's seat, "GM" for villains
    hero: str  # hero id in the catalogue
    deck: str  # whose deck and hand it uses: its seat (heroes) or "GM"
    life: int


@dataclass(frozen=True)
class Setup(Event):
    mode: str  # "duel" (1.0 basic) or "mission" (2.0 advanced)
    physical: bool  # cards typed in by the players instead of drawn with dice
    seats: tuple[str, ...]
    pawns: tuple[PawnSpec, ...]
    turn_limit: int
    mission: str | None = None
    victim_life: int | None = None
    hostage: str | None = None
    gap: int = 2
    digits: str = "ul-lr"
    regen_cap: str = "start"
    reveal: str = "discard"
    heroes: tuple[Hero, ...] = ()  # the owner's heroes this game uses (``Hero-file:``)
    hero_files: tuple[str, ...] = ()  # where they were read from (the log names them)
    layout: tuple[tuple[str, Cell], ...] = ()  # SA-M37: the GM's start cell for each pawn

    def text(self) -> str:
        who = ", ".join(f"{p.id}={p.hero}" for p in self.pawns)
        return f"setup {self.mode} ({who})"


@dataclass(frozen=True)
class DrawsQueued(Event):
    """Cards someone must draw: (deck, destination, pawn); destinations ``start``, ``tie``,
    ``hand``, ``reveal``."""

    draws: tuple[tuple[str, str, str], ...]

    def text(self) -> str:
        return f"{len(self.draws)} card(s) to draw"


@dataclass(frozen=True)
class Drew(Event):
    deck: str
    card: str
    dest: str
    pawn: str

    def text(self) -> str:
        return f"{self.deck} draws {self.card} ({self.dest} for {self.pawn})"


@dataclass(frozen=True)
class DrawSkipped(Event):
    """SA-A12: both the draw and the discard pile are empty: the draw is not made."""

    deck: str
    dest: str
    pawn: str

    def text(self) -> str:
        return f"{self.deck} has no card left to draw ({self.dest})"


@dataclass(frozen=True)
class Reshuffled(Event):
    """SA-M33 "Empty draw pile": the discards become the new draw pile."""

    deck: str
    count: int

    def text(self) -> str:
        return f"{self.deck} shuffles {self.count} discards into a new draw pile"


@dataclass(frozen=True)
class TurnOrder(Event):
    order: tuple[str, ...]

    def text(self) -> str:
        return "turn order " + " ".join(self.order)


@dataclass(frozen=True)
class Placed(Event):
    """A card put on the playmat (start layout); the pawn goes onto it."""

    cell: Cell
    deck: str
    card: str
    pawn: str | None

    def text(self) -> str:
        return f"{self.card} placed at {cell_text(self.cell)}" + (
            f" under {self.pawn}" if self.pawn else "")


@dataclass(frozen=True)
class PhaseChanged(Event):
    phase: str
    who: str | None = None  # the deck that must discard, in phase "discard"

    def text(self) -> str:
        return f"phase {self.phase}" + (f" ({self.who})" if self.who else "")


@dataclass(frozen=True)
class TurnStarted(Event):
    pawn: str
    index: int
    round: int

    def text(self) -> str:
        return f"round {self.round}: {self.pawn}'s turn"


@dataclass(frozen=True)
class Maneuvered(Event):
    pawn: str
    deck: str
    cell: Cell
    card: str

    def text(self) -> str:
        return f"{self.pawn} plays {self.card} to {cell_text(self.cell)} and moves onto it"


@dataclass(frozen=True)
class KnockedBack(Event):
    pawn: str
    deck: str
    target: str
    cell: Cell
    card: str
    attack_type: str
    moved: bool  # False: the hostage thug stays put (SA-A20)

    def text(self) -> str:
        how = "knocks" if self.moved else "cannot move (hostage shield)"
        return f"{self.pawn} plays {self.card} to {cell_text(self.cell)}: {self.target} {how}"


@dataclass(frozen=True)
class Attacked(Event):
    attacker: str
    target: str
    attack_type: str
    played: tuple[str, ...]
    successes: int
    preferred: bool

    def text(self) -> str:
        cs = " ".join(self.played) or "no cards"
        pref = ", preferred" if self.preferred else ""
        return (f"{self.attacker} {ATTACK_NAMES[self.attack_type]} attack on {self.target} with "
                f"{cs}: {self.successes} successes{pref}")


@dataclass(frozen=True)
class Defended(Event):
    target: str
    deck: str
    played: tuple[str, ...]
    successes: int

    def text(self) -> str:
        return f"{self.target} defends with {' '.join(self.played) or 'no cards'}: {self.successes}"


@dataclass(frozen=True)
class Shielded(Event):
    """SA-M56: a non-Stealth attack on the hostage thug hurts the victim instead."""

    target: str
    before: int
    after: int

    def text(self) -> str:
        return (f"{self.target} uses the victim as a shield: victim LIFE "
                f"{self.before} -> {self.after}")


@dataclass(frozen=True)
class LifeChanged(Event):
    pawn: str
    before: int
    after: int
    rule: str

    def text(self) -> str:
        return f"{self.pawn} LIFE {self.before} -> {self.after} [{self.rule}]"


@dataclass(frozen=True)
class KnockedOut(Event):
    pawn: str

    def text(self) -> str:
        return f"{self.pawn} is knocked out"


@dataclass(frozen=True)
class Discarded(Event):
    deck: str
    cards: tuple[str, ...]

    def text(self) -> str:
        return f"{self.deck} discards {' '.join(self.cards)}"


@dataclass(frozen=True)
class GameOver(Event):
    termination: str
    winners: tuple[str, ...]

    def text(self) -> str:
        return f"game over: {self.termination}" + (
            f" ({' '.join(self.winners)} win)" if self.winners else "")
