"""Playing cards as Sky Ace reads them: rank, value, colour, and the hero's power codes.

Source: ``004_6593e8b5f90f4d60.txt`` §1.0-1.3 (inventory §6, SA-M01..SA-M07). A card is its text:
rank then suit (``"10H"``, ``"QS"``, ``"AC"``), and ``"JK"`` for a Joker (a deck holds two, which
are the same card for every rule). Letters follow the rulebook's mnemonic (1.2 ABBREVIATIONS):
values/frequencies ``E O R A`` and attack types/positions ``H S D C``.

>>> value("QS"), colour("QS"), rank("JK") > rank("AC")
('R', 'black', True)
>>> parse_power("Super Speed (SR+1)")
Power(name='Super Speed', attack='S', frequency='R', level=1)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from dialtray.rules.core.errors import InvalidActionError

SUITS = ("C", "D", "H", "S")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKER = "JK"
DECK: tuple[str, ...] = (*(r + s for s in SUITS for r in RANKS), JOKER, JOKER)
"""SA-M01 "Per-player kit": 13 cards x 4 suits + 2 Jokers = 54 cards, in a fixed order."""
DECK_COUNTS: Counter[str] = Counter(DECK)

# SA-M03 "Rank order": Joker > Ace > King > Queen > Jack > 10 > ... > 2.
_RANK = {r: i for i, r in enumerate(RANKS)} | {"JK": len(RANKS)}

VALUES = ("E", "O", "R", "A")
"""SA-M04 "Values" (Evens, Odds, Royals, Aces+Jokers) and SA-M05 "Frequencies" (Every Chance,
Occasionally, Rarely, Almost Never) share these letters: a frequency matches its value."""
VALUE_NAMES = {"E": "Evens", "O": "Odds", "R": "Royals", "A": "Aces and Jokers"}
FREQUENCY_NAMES = {"E": "Every Chance", "O": "Occasionally", "R": "Rarely", "A": "Almost Never"}
ATTACKS = ("H", "S", "D", "C")
ATTACK_NAMES = {"H": "Hand-to-Hand", "S": "Stealth", "D": "Distance", "C": "Charge"}
POSITION_NAMES = {"H": "Head", "S": "Side", "D": "Digit", "C": "Clear"}
# SA-M39 "Establish Preferred Attack": the suit's letter is the attack's letter.
SUIT_ATTACK = {"H": "H", "S": "S", "D": "D", "C": "C"}
ALL_PREFERRED = "*"  # a Joker revealed: every attack is preferred (SA-M39, SA-T08)

RED, BLACK = "red", "black"


def is_card(text: str) -> bool:
    return text in DECK_COUNTS


def card(text: str) -> str:
    """The card named by ``text`` (case-insensitive; ``T`` for ten); InvalidActionError if none."""
    t = text.strip().upper()
    if t.startswith("T") and len(t) == 2:
        t = "10" + t[1]
    if t in ("JOKER", "JK", "X"):
        return JOKER
    if t not in DECK_COUNTS:
        raise InvalidActionError(
            f"{text!r} is not a card (rank 2-10 J Q K A + suit C D H S, or JK)")
    return t


def suit(c: str) -> str | None:
    """The suit letter; None for a Joker (it "has no specific suit", SA-M20)."""
    return None if c == JOKER else c[-1]


def rank(c: str) -> int:
    """SA-M03 "Rank order": a higher number is a higher card (2 lowest, Joker highest)."""
    return _RANK[JOKER if c == JOKER else c[:-1]]


def value(c: str) -> str:
    """SA-M04 "Values": E (2 4 6 8 10), O (3 5 7 9), R (J Q K), A (Ace, Joker)."""
    if c == JOKER:
        return "A"
    r = c[:-1]
    if r == "A":
        return "A"
    if r in ("J", "Q", "K"):
        return "R"
    return "E" if int(r) % 2 == 0 else "O"


def matches(c: str, frequency: str) -> bool:
    """SA-M05 "Frequencies": a card scores when its value is the frequency's value."""
    return value(c) == frequency


def colour(c: str) -> str | None:
    """SA-M06 "Colors": red = Diamonds, Hearts; black = Clubs, Spades; a Joker takes the colour of
    the cell it is played on (None here)."""
    s = suit(c)
    if s is None:
        return None
    return RED if s in ("D", "H") else BLACK


def preferred_of(c: str) -> str:
    """SA-M39 "Establish Preferred Attack": Hearts -> H, Spades -> S, Diamonds -> D, Clubs -> C;
    a Joker -> every attack (``ALL_PREFERRED``)."""
    s = suit(c)
    return ALL_PREFERRED if s is None else SUIT_ATTACK[s]


def cards(texts: Iterable[str]) -> tuple[str, ...]:
    return tuple(card(t) for t in texts)


def sort_cards(cs: Iterable[str]) -> list[str]:
    """A canonical order (the deck's): equal hands give equal state."""
    return sorted(cs, key=_ORDER.__getitem__)


_ORDER = {c: i for i, c in enumerate(DECK)}


def contains(pile: Iterable[str], wanted: Iterable[str]) -> bool:
    """Whether the multiset ``pile`` holds every card of ``wanted`` (with repeats)."""
    have = Counter(pile)
    have.subtract(Counter(wanted))
    return all(n >= 0 for n in have.values())


def remove(pile: list[str], gone: Iterable[str]) -> None:
    for c in gone:
        pile.remove(c)


@dataclass(frozen=True)
class Power:
    """SA-M07 "Hero creation": a power named for one attack action with its frequency and, in
    the advanced game, the related attribute's level (``(XY+n)``)."""

    name: str
    attack: str
    frequency: str
    level: int = 0

    def code(self) -> str:
        return f"{self.name} ({self.attack}{self.frequency}+{self.level})"


_POWER = re.compile(
    r"^\s*(?P<name>.*?)\s*\(\s*(?P<a>[A-Za-z])(?P<f>[A-Za-z])\s*(?:\+\s*(?P<n>\d+))?\s*\)\s*$")


def parse_power(text: str) -> Power:
    """SA-M07 / SA-T10: ``"Super Strength (HE)"`` is a Hand-to-Hand attack that succeeds on Evens;
    ``"(CO+2)"`` adds an attribute level of 2. ValueError names what is wrong."""
    m = _POWER.match(text)
    if m is None:
        raise ValueError(f"{text!r}: a power is 'Name (XY)' or 'Name (XY+n)', e.g. 'Flight (CO)'")
    a, f = m.group("a").upper(), m.group("f").upper()
    if a not in ATTACKS:
        raise ValueError(f"{text!r}: {a!r} is not an attack letter (H S D C)")
    if f not in VALUES:
        raise ValueError(f"{text!r}: {f!r} is not a frequency letter (E O R A)")
    return Power(m.group("name") or ATTACK_NAMES[a], a, f, int(m.group("n") or 0))
