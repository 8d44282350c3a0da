"""Exact odds of Aces attacks, captures and escapes (built on ``core.odds``).

Same arithmetic as the engine (``combat``): dice = attack (-2 for a capture, +fate offensively),
defense +1 hindering for ranged, capped at 6; defensive fate leaves only natural sixes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial

from dialtray.rules.aces.combat import CAP, attack_dice
from dialtray.rules.core.odds import hit_distribution, natural_six_distribution

FACES = 6


def attack_distribution(
    dice: int, defense: int, defender_uses_fate: bool = False
) -> list[Fraction]:
    """P(exactly k clicks of damage) for a one-target attack (AC-M36, AC-M53/M54)."""
    if defender_uses_fate:
        # a defender who uses fate whenever it prevents anything keeps only the natural sixes
        return natural_six_distribution(dice)
    return hit_distribution(dice, min(CAP, defense))


def expected_hits(dice: int, defense: int, defender_uses_fate: bool = False) -> Fraction:
    return sum(
        (
            Fraction(k) * p
            for k, p in enumerate(attack_distribution(dice, defense, defender_uses_fate))
        ),
        Fraction(0),
    )


def capture_chance(
    attack: int,
    defense: int,
    fate: bool = False,
    fate_value: int = 0,
    defender_uses_fate: bool = False,
) -> Fraction:
    """AC-M39 / AC-M55 / AC-A08: P(at least one hit) with two dice fewer (0 dice: never)."""
    n = attack_dice(attack, "capture", fate, fate_value)
    dist = attack_distribution(n, defense, defender_uses_fate)
    return 1 - dist[0]


def escape_chance(
    captive_dice: int, captor_defense: int, captor_dice: int, captive_defense: int
) -> Fraction:
    """AC-M47: P(the captive scores strictly more hits than its captor)."""
    mine = hit_distribution(captive_dice, min(CAP, captor_defense))
    theirs = hit_distribution(captor_dice, min(CAP, captive_defense))
    total = Fraction(0)
    for i, p in enumerate(mine):
        for j, q in enumerate(theirs):
            if i > j:
                total += p * q
    return total


def multi_target_distribution(dice: int, defenses: Sequence[int]) -> list[Fraction]:
    """AC-M34 / AC-A02: P(exactly k targets hit) when the attacker assigns the dice after the
    roll to hit as many targets as possible (one die, at most one click, per target)."""
    need = sorted((min(CAP, max(1, d)) for d in defenses), reverse=True)
    counts = [0] * (len(need) + 1)
    for faces in combinations_with_replacement(range(1, FACES + 1), dice):
        # number of orderings of this multiset of faces
        ways = factorial(dice)
        for f in set(faces):
            ways //= factorial(faces.count(f))
        counts[_max_hits(faces, need)] += ways
    total = FACES**dice
    return [Fraction(c, total) for c in counts]


def _max_hits(faces: Sequence[int], needs: Sequence[int]) -> int:
    """Most targets hit with one die each: the easiest target takes the smallest die that hits
    it, and so on (optimal for this threshold matching)."""
    dice = sorted(faces)
    i = hits = 0
    for d in sorted(needs):
        while i < len(dice) and dice[i] < d:
            i += 1
        if i == len(dice):
            break
        hits += 1
        i += 1
    return hits
