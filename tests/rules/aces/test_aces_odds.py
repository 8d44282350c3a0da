"""Exact odds of attacks, captures and escapes, checked against brute-force enumeration of every
die outcome run through the engine's own hit rules (AC-M34, AC-M36, AC-M39, AC-M47, AC-M53)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from dialtray.rules.aces.combat import after_defensive_fate, count_hits
from dialtray.rules.aces.odds import (
    attack_distribution,
    capture_chance,
    escape_chance,
    expected_hits,
    multi_target_distribution,
)


def brute(n: int, fn: object) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    total = 6**n
    for faces in product(range(1, 7), repeat=n):
        k = fn(faces)  # type: ignore[operator]
        out[k] = out.get(k, Fraction(0)) + Fraction(1, total)
    return out


@pytest.mark.parametrize(("n", "d"), [(3, 4), (5, 5), (4, 6), (2, 1), (3, 7)])
def test_attack_distribution_matches_enumeration(n: int, d: int) -> None:
    dist = attack_distribution(n, d)
    b = brute(n, lambda f: count_hits(f, d))
    assert {k: p for k, p in enumerate(dist) if p} == b
    fated = attack_distribution(n, d, defender_uses_fate=True)
    b2 = brute(n, lambda f: after_defensive_fate(f, d))
    assert {k: p for k, p in enumerate(fated) if p} == b2


def test_T02_expected_hits_five_dice_defense_five() -> None:
    assert expected_hits(5, 5) == Fraction(5, 3)  # 5 dice x P(5 or 6) = 5 x 1/3


def test_capture_chance_two_fewer_dice() -> None:
    # Genghis attack 4 -> 2 dice against defense 4: 1 - (1/2)^2
    assert capture_chance(4, 4) == Fraction(3, 4)
    assert capture_chance(2, 4) == 0  # AC-A08: no dice, no capture
    assert capture_chance(4, 4, defender_uses_fate=True) == 1 - Fraction(25, 36)


def test_escape_chance_strictly_more_hits() -> None:
    want = brute(5, lambda f: int(count_hits(f[:2], 4) > count_hits(f[2:], 3)))
    assert escape_chance(2, 4, 3, 3) == want.get(1, 0)


def test_multi_target_distribution_best_assignment() -> None:
    def best(faces: tuple[int, ...]) -> int:
        from itertools import permutations

        defs = (5, 4)
        return max(
            sum(1 for f, d in zip(p, defs, strict=False) if f >= d) for p in permutations(faces, 2)
        )

    b = brute(3, best)
    dist = multi_target_distribution(3, (5, 4))
    assert {k: p for k, p in enumerate(dist) if p} == b
