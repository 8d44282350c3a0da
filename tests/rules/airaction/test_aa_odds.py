"""Exact shot odds (AA-M42..M46, AA-M62, AA-M63; `dialtray odds`)."""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import pytest
from dialtray.cli import main
from dialtray.rules.airaction.odds import shot_modifiers, shot_odds


def brute(dice: int, tn: int, fate: bool, cap: int | None) -> list[Fraction]:
    out = [Fraction(0)] * (dice + 1)
    for faces in itertools.product(range(1, 7), repeat=dice):
        hits = sum(1 for f in faces if f >= min(6, max(1, tn)))
        landed = sum(1 for f in faces if f == 6) if fate else hits
        out[landed if cap is None else min(landed, cap)] += Fraction(1, 6**dice)
    return out


@pytest.mark.parametrize("dice", [0, 1, 3, 5])
@pytest.mark.parametrize("tn", [1, 4, 6])
@pytest.mark.parametrize("fate", [False, True])
def test_shot_odds_match_enumeration(dice: int, tn: int, fate: bool) -> None:
    o = shot_odds(dice, tn, defensive_fate=fate, clicks_to_shot_down=2)
    assert list(o.hits) == brute(dice, tn, fate, None)
    assert list(o.clicks) == brute(dice, tn, fate, 2)[: len(o.clicks)]
    assert sum(o.clicks) == 1


def test_aa_t01_six_dice_and_aa_m44_cap() -> None:
    assert shot_modifiers(3, 5, fate=3) == (6, 5)
    assert shot_modifiers(3, 8, point_blank=True) == (3, 6)
    assert shot_odds(6, 5).expected_hits == 2


def test_twelve_dice_under_a_millisecond() -> None:
    shot_odds(12, 4, clicks_to_shot_down=5)
    t0 = time.perf_counter()
    for _ in range(50):
        shot_odds(12, 4, defensive_fate=True, clicks_to_shot_down=5)
    assert (time.perf_counter() - t0) / 50 < 1e-3


def test_odds_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--gunnery", "3", "--silhouette", "5", "--fate", "3"]) == 0
    out = capsys.readouterr().out
    assert "6 dice, hit on 5+" in out and "expected hits 2.0000" in out
