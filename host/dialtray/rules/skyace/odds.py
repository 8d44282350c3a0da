"""Exact odds of a Sky Ace attack: the distribution of LIFE lost, counted over every hand the
attacker and the defender could hold from their unseen decks (no sampling).

The attacker plays every card that matches (playing more never lowers the successes, SA-M23);
the defender must play every matching card (SA-M27). With ``K`` matching cards among the ``N``
unseen cards of a deck, the number of ``n``-card hands holding exactly ``k`` of them is
``C(K, k) * C(N - K, n - k)``: every hand is counted once, so the result is exact (fractions).
``brute_force`` enumerates the hands one by one, for the tests.

>>> o = attack_odds(AttackSpec("R", "E", 5, 5))
>>> sum(o.damage.values()) == 1
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from math import comb

from dialtray.rules.skyace.cards import DECK, matches
from dialtray.rules.skyace.combat import attack_successes, damage, defence_successes


@dataclass(frozen=True)
class AttackSpec:
    """What decides an attack: the attacker's frequency for the attack type and the defender's for
    the same type (SA-A04), hand sizes, the cards under the pawns, the fixed bonuses."""

    attack_frequency: str
    defence_frequency: str
    attack_hand: int
    defence_hand: int
    attacker_card: str | None = None
    target_card: str | None = None
    attack_bonus: int = 0  # attribute level + Powerful (SA-M43, SA-M50)
    defence_bonus: int = 0  # attribute level + Unbreakable (SA-M44, SA-M53)
    advanced: bool = False
    preferred: bool = False
    attacker_seen: tuple[str, ...] = ()  # cards of the attacker's deck not in its draw pile
    defender_seen: tuple[str, ...] = ()
    attacker_hand: tuple[str, ...] | None = None  # the attacker's own hand, when known


@dataclass(frozen=True)
class AttackOdds:
    damage: dict[int, Fraction]
    attack_successes: dict[int, Fraction]
    defence_successes: dict[int, Fraction]
    hands: int = 0  # pairs of hands counted
    expected: Fraction = field(default=Fraction(0))

    def at_least(self, k: int) -> Fraction:
        return sum((p for d, p in self.damage.items() if d >= k), Fraction(0))


def unseen(seen: Iterable[str]) -> list[str]:
    """The deck minus the cards known to be elsewhere; ValueError for a card seen too often."""
    left = Counter(DECK)
    left.subtract(Counter(seen))
    bad = sorted(c for c, n in left.items() if n < 0)
    if bad:
        raise ValueError(f"seen more often than a deck holds: {' '.join(bad)}")
    out: list[str] = []
    for c in DECK:
        if left[c] > 0:
            out.append(c)
            left[c] -= 1
    return out


def _count_matching(deck: Sequence[str], freq: str, hand: int) -> dict[int, int]:
    """Hands of ``hand`` cards from ``deck`` by the number of cards matching ``freq``."""
    n, k = len(deck), sum(1 for c in deck if matches(c, freq))
    if hand > n:
        raise ValueError(f"a hand of {hand} from {n} unseen cards")
    return {i: comb(k, i) * comb(n - k, hand - i) for i in range(min(k, hand) + 1)
            if comb(k, i) * comb(n - k, hand - i)}


def _fixed(spec: AttackSpec) -> tuple[int, int]:
    a = attack_successes([], spec.attack_frequency, spec.attacker_card, spec.target_card,
                         spec.attack_bonus)
    d = defence_successes([], spec.defence_frequency, spec.target_card, spec.attacker_card,
                          spec.defence_bonus)
    return a, d


def _combine(spec: AttackSpec, att: dict[int, int], dfn: dict[int, int]) -> AttackOdds:
    fa, fd = _fixed(spec)
    total = sum(att.values()) * sum(dfn.values())
    dmg: Counter[int] = Counter()
    for ka, na in att.items():
        for kd, nd in dfn.items():
            dmg[damage(ka + fa, kd + fd, spec.advanced, spec.preferred)] += na * nd
    ta, td = sum(att.values()), sum(dfn.values())
    dist = {d: Fraction(n, total) for d, n in sorted(dmg.items())}
    return AttackOdds(dist, {k + fa: Fraction(n, ta) for k, n in sorted(att.items())},
                      {k + fd: Fraction(n, td) for k, n in sorted(dfn.items())}, total,
                      sum((d * p for d, p in dist.items()), Fraction(0)))


def attack_odds(spec: AttackSpec) -> AttackOdds:
    if spec.attacker_hand is not None:  # the attacker knows its hand: one outcome, weight 1
        att = {sum(1 for c in spec.attacker_hand if matches(c, spec.attack_frequency)): 1}
    else:
        att = _count_matching(unseen(spec.attacker_seen), spec.attack_frequency,
                              spec.attack_hand)
    dfn = _count_matching(unseen(spec.defender_seen), spec.defence_frequency, spec.defence_hand)
    return _combine(spec, att, dfn)


def brute_force(spec: AttackSpec, attacker_deck: Sequence[str],
                defender_deck: Sequence[str]) -> AttackOdds:
    """The same distribution by listing every hand (small decks only: tests)."""
    def by_hand(deck: Sequence[str], freq: str, n: int) -> dict[int, int]:
        out: Counter[int] = Counter()
        for hand in combinations(range(len(deck)), n):
            out[sum(1 for i in hand if matches(deck[i], freq))] += 1
        return dict(out)

    return _combine(spec, by_hand(attacker_deck, spec.attack_frequency, spec.attack_hand),
                    by_hand(defender_deck, spec.defence_frequency, spec.defence_hand))


def matching_counts(deck: Sequence[str], spec: AttackSpec) -> tuple[int, int]:
    """(attacker matches, defender matches) in ``deck`` (for reports)."""
    return (sum(1 for c in deck if matches(c, spec.attack_frequency)),
            sum(1 for c in deck if matches(c, spec.defence_frequency)))
