"""Successes and damage: pure arithmetic, no state (SA-M23..SA-M29, SA-M40, SA-M43..SA-M45,
SA-M50, SA-M53).

>>> attack_successes(["JS", "QH"], "R", own_card="7D", other_card="KC")   # SA-T01
3
>>> damage(3, 0), damage(1, 0, advanced=True, preferred=True)
(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dialtray.rules.skyace.cards import matches


def attack_successes(
    played: Iterable[str],
    frequency: str,
    own_card: str | None,
    other_card: str | None,
    attribute: int = 0,
    powerful: bool = False,
) -> int:
    """SA-M23 "Attacker's cards": one success per played card matching the frequency (others are
    simply discarded); SA-M24 "Attacker bonuses": +1 for the card under the attacker's pawn and
    +1 for the card under the target's pawn when they match; SA-M43 "Advanced attack": + the
    related attribute's level; SA-M50 "Powerful": +1."""
    n = sum(1 for c in played if matches(c, frequency))
    n += sum(1 for c in (own_card, other_card) if c is not None and matches(c, frequency))
    return n + attribute + (1 if powerful else 0)


def forced_defence(hand: Iterable[str], frequency: str) -> list[str]:
    """SA-M27 "Defender's cards": the defender plays *every* card whose value matches (SA-T11)."""
    return [c for c in hand if matches(c, frequency)]


def defence_successes(
    played: Iterable[str],
    frequency: str,
    own_card: str | None,
    other_card: str | None,
    attribute: int = 0,
    unbreakable: bool = False,
) -> int:
    """SA-M27 one per played card; SA-M28 "Defender bonuses": +1 for the defender's card, +1 for
    the attacker's card when they match; SA-M44 "Advanced defense": + attribute level; SA-M53
    "Unbreakable": +1."""
    n = sum(1 for c in played if matches(c, frequency))
    n += sum(1 for c in (own_card, other_card) if c is not None and matches(c, frequency))
    return n + attribute + (1 if unbreakable else 0)


def damage(attack: int, defence: int, advanced: bool = False, preferred: bool = False) -> int:
    """SA-M29 "Damage" (table 5): difference >= 2 loses floor(difference / 2) LIFE, otherwise
    none ("successfully resisted"). SA-M45 "Advanced damage" (table 6) with SA-M40's preferred
    bonus: +1 whenever the difference is 0 or more, none at -1 or less."""
    diff = attack - defence
    base = diff // 2 if diff >= 2 else 0
    if advanced and preferred and diff >= 0:
        base += 1
    return base


@dataclass(frozen=True)
class Resolution:
    """One attack's numbers, as the events report them."""

    attack_type: str
    attack: int
    defence: int
    life_lost: int
    preferred: bool
