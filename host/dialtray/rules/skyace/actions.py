"""Actions of a Sky Ace game and their notation (docs/notation.md, "Sky Ace")::

    deal                     the table shuffles and deals what must be drawn (dice decks)
    draw P1 QH               a card drawn from P1's physical deck, typed in (physical decks)
    layout 1,0               the first player puts the second start card at 1,0 (SA-M17)
    move 1,0 QH              play QH from hand to cell 1,0 and move onto it (SA-M18 / SA-M41)
    knock 2,0 QH             play QH behind the adjacent target and push it there (SA-M21)
    attack T1 JS QH          attack T1 playing JS and QH (``attack T1 -``: no cards; SA-M23)
    hold                     advanced game: no attack this turn (SA-M41 "may attack")
    discard P2 4C 7S         the defender discards down to LIFE (SA-M31)
    pass                     no card in hand can be played anywhere (engine decision, SA-M18)
"""

from __future__ import annotations

from dataclasses import dataclass

from dialtray.rules.core.errors import InvalidActionError
from dialtray.rules.skyace.cards import card, cards
from dialtray.rules.skyace.mat import Cell, cell_text, parse_cell


@dataclass(frozen=True)
class Deal:
    def text(self) -> str:
        return "deal"


@dataclass(frozen=True)
class Draw:
    deck: str
    card: str

    def text(self) -> str:
        return f"draw {self.deck} {self.card}"


@dataclass(frozen=True)
class Layout:
    cell: Cell

    def text(self) -> str:
        return f"layout {cell_text(self.cell)}"


@dataclass(frozen=True)
class Move:
    cell: Cell
    card: str

    def text(self) -> str:
        return f"move {cell_text(self.cell)} {self.card}"


@dataclass(frozen=True)
class Knock:
    cell: Cell
    card: str

    def text(self) -> str:
        return f"knock {cell_text(self.cell)} {self.card}"


@dataclass(frozen=True)
class Attack:
    target: str
    cards: tuple[str, ...]

    def text(self) -> str:
        return f"attack {self.target} {' '.join(self.cards) or '-'}"


@dataclass(frozen=True)
class Hold:
    def text(self) -> str:
        return "hold"


@dataclass(frozen=True)
class Discard:
    deck: str
    cards: tuple[str, ...]

    def text(self) -> str:
        return f"discard {self.deck} {' '.join(self.cards)}"


@dataclass(frozen=True)
class Pass:
    def text(self) -> str:
        return "pass"


SkyAceAction = Deal | Draw | Layout | Move | Knock | Attack | Hold | Discard | Pass

USAGE = ("deal | draw DECK CARD | layout X,Y | move X,Y CARD | knock X,Y CARD | "
         "attack TARGET CARD... | attack TARGET - | hold | discard DECK CARD... | pass")


def _cell(word: str, text: str) -> Cell:
    try:
        return parse_cell(word)
    except ValueError:
        raise InvalidActionError(f"{text!r}: {word!r} is not a cell 'x,y' (e.g. 1,0)") from None


def parse_action(text: str) -> SkyAceAction:
    """Read an action's notation; InvalidActionError says what the line should look like."""
    words = text.split()
    if not words:
        raise InvalidActionError(f"empty action (expected {USAGE})")
    verb, args = words[0].lower(), words[1:]
    n = len(args)
    if verb in ("deal", "hold", "pass") and n == 0:
        simple: dict[str, SkyAceAction] = {"deal": Deal(), "hold": Hold(), "pass": Pass()}
        return simple[verb]
    if verb == "draw" and n == 2:
        return Draw(args[0], card(args[1]))
    if verb == "layout" and n == 1:
        return Layout(_cell(args[0], text))
    if verb in ("move", "knock") and n == 2:
        c = _cell(args[0], text)
        return Move(c, card(args[1])) if verb == "move" else Knock(c, card(args[1]))
    if verb == "attack" and n >= 2:
        played = () if args[1:] == ["-"] else cards(args[1:])
        return Attack(args[0], played)
    if verb == "discard" and n >= 2:
        return Discard(args[0], cards(args[1:]))
    raise InvalidActionError(f"{text!r} is not a Sky Ace action (expected {USAGE})")
