"""Exact dice odds for "roll N d6, each die >= target is a hit" (both clix games).

Everything is counted in integers over ``6**n`` and turned into ``Fraction``s at the end, so the
answer is exact and fast (12 dice: 91 multinomial terms).

The joint distribution of (natural sixes, other hits) is what defensive fate needs: fate prevents
every hit except natural sixes (AA-M63, AC fate rules).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

FACES = 6


def effective_target(target: int) -> int:
    """A target above 6 counts as 6 (AA-M44); below 1 every face hits."""
    return max(1, min(FACES, target))


def joint_counts(dice: int, target: int) -> dict[tuple[int, int], int]:
    """Number of the ``6**dice`` outcomes with exactly (natural sixes, other hitting dice)."""
    if dice < 0:
        raise ValueError("dice must be >= 0")
    t = effective_target(target)
    other_hit_faces = FACES - t  # faces t..5 (the six is counted on its own)
    miss_faces = t - 1
    out: dict[tuple[int, int], int] = {}
    for sixes in range(dice + 1):
        rest = dice - sixes
        c_six = comb(dice, sixes)
        for hits in range(rest + 1):
            misses = rest - hits
            if (hits and not other_hit_faces) or (misses and not miss_faces):
                continue
            n = c_six * comb(rest, hits) * other_hit_faces**hits * miss_faces**misses
            out[(sixes, hits)] = out.get((sixes, hits), 0) + n
    return out


def hit_distribution(dice: int, target: int) -> list[Fraction]:
    """P(exactly k hits) for k = 0..dice."""
    total = FACES**dice
    counts = [0] * (dice + 1)
    for (sixes, other), n in joint_counts(dice, target).items():
        counts[sixes + other] += n
    return [Fraction(c, total) for c in counts]


def natural_six_distribution(dice: int) -> list[Fraction]:
    """P(exactly k natural sixes) for k = 0..dice."""
    total = FACES**dice
    return [Fraction(comb(dice, k) * 5 ** (dice - k), total) for k in range(dice + 1)]


def expectation(dist: list[Fraction]) -> Fraction:
    return sum((Fraction(k) * p for k, p in enumerate(dist)), Fraction(0))


def two_d6_at_least(total: int) -> Fraction:
    """P(2d6 >= total): the pilot check of Air Action (AA-M06)."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= total)
    return Fraction(ways, 36)


# -- one die against a target number (the FASA board game, FS-M01/FS-M02) ---------------------
D10 = 10


def tn_success_faces(tn: int, sides: int = D10, automatic: bool = True) -> int:
    """How many of the ``sides`` faces succeed against ``tn`` (roll >= TN, FS-M01); with
    ``automatic`` the highest face always succeeds and a 1 always fails (FS-M02)."""
    if sides < 2:
        raise ValueError("a die has at least 2 sides")
    ok = 0
    for face in range(1, sides + 1):
        if automatic and face == sides:
            ok += 1
        elif automatic and face == 1:
            continue
        elif face >= tn:
            ok += 1
    return ok


def tn_success(tn: int, sides: int = D10, automatic: bool = True) -> Fraction:
    """P(one die succeeds against ``tn``), exact: ``tn_success(2) == 9/10`` (a 1 fails),
    ``tn_success(15) == 1/10`` (a 10 succeeds)."""
    return Fraction(tn_success_faces(tn, sides, automatic), sides)


def tn_all_succeed(tns: list[int], sides: int = D10, automatic: bool = True) -> Fraction:
    """P(every one of several independent rolls succeeds): e.g. redlining both acceleration and
    top speed (FS-M49) or doubling down without a jam (FS-M77)."""
    p = Fraction(1)
    for tn in tns:
        p *= tn_success(tn, sides, automatic)
    return p


def tn_successes(rolls: int, tn: int, sides: int = D10, automatic: bool = True) -> list[Fraction]:
    """P(exactly k of ``rolls`` independent rolls succeed), k = 0..rolls, counted exactly."""
    if rolls < 0:
        raise ValueError("rolls must be >= 0")
    good = tn_success_faces(tn, sides, automatic)
    bad = sides - good
    total = sides**rolls
    return [Fraction(comb(rolls, k) * good**k * bad ** (rolls - k), total)
            for k in range(rolls + 1)]
