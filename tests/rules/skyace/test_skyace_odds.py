"""Exact attack odds over the unseen decks (issue 16: `dialtray odds` for Sky Ace)."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from math import comb

import pytest
from dialtray.rules.skyace.cards import DECK
from dialtray.rules.skyace.odds import AttackSpec, attack_odds, brute_force, unseen


def test_sa_m29_odds_equal_brute_force_enumeration_of_every_hand() -> None:
    """SA-M29 damage over every pair of hands: the counting formula equals listing the hands one
    by one (decks of 14 cards: 2002 x 1001 pairs)."""
    a_deck = ["2C", "4C", "JC", "QC", "KC", "AC", "3C", "5C", "7C", "9C", "JK", "6C", "8C", "10C"]
    d_deck = ["2D", "4D", "6D", "8D", "10D", "3D", "5D", "7D", "JD", "QD", "KD", "AD", "9D", "JK"]
    spec = AttackSpec("E", "O", 5, 4, attacker_card="4H", target_card="KS", attack_bonus=1)
    seen_a = [c for c in DECK if c not in a_deck] + ["JK"]
    seen_d = [c for c in DECK if c not in d_deck] + ["JK"]
    spec2 = AttackSpec(**{**spec.__dict__, "attacker_seen": tuple(seen_a),
                          "defender_seen": tuple(seen_d)})
    assert sorted(unseen(seen_a)) == sorted(a_deck)
    exact = attack_odds(spec2)
    slow = brute_force(spec2, a_deck, d_deck)
    assert exact.damage == slow.damage and exact.hands == comb(14, 5) * comb(14, 4)
    assert sum(exact.damage.values()) == 1


def test_sa_t01_odds_of_royals_against_evens_full_deck() -> None:
    """SA-T01's attack (Stealth at Rarely, target on a King) against a defender at Every Chance:
    12 Royals in 54 cards; P(0 Royals in 5) = C(42,5)/C(54,5)."""
    o = attack_odds(AttackSpec("R", "E", 5, 5, target_card="KS"))
    assert o.attack_successes[1] == Fraction(comb(42, 5), comb(54, 5))
    assert sum(o.damage.values()) == 1 and o.expected > 0


def test_sa_m45_preferred_advanced_odds_never_zero_at_a_tie() -> None:
    """SA-M45: a preferred advanced attack always does at least 1 at difference >= 0."""
    o = attack_odds(AttackSpec("E", "E", 0, 0, advanced=True, preferred=True))
    assert o.damage == {1: Fraction(1)}


def test_sa_m01_a_card_seen_twice_is_refused() -> None:
    """SA-M01: one of each card (two Jokers) per deck."""
    with pytest.raises(ValueError, match="seen more often"):
        unseen(["QH", "QH"])
    assert len(unseen(["JK", "JK"])) == 52


def test_sa_m23_dialtray_odds_skyace_prints_the_exact_table() -> None:
    """``dialtray odds --skyace``: the damage table, exact; bad input exits 2 in one line."""
    run = [sys.executable, "-m", "dialtray.cli", "odds", "--skyace"]
    ok = subprocess.run([*run, "--attack-freq", "R", "--defence-freq", "E", "--attack-hand", "5",
                         "--defence-hand", "5", "--target-card", "KS"],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "LIFE lost" in ok.stdout and "exact" in ok.stdout
    bad = subprocess.run([*run, "--attack-freq", "X", "--defence-freq", "E", "--attack-hand", "5",
                          "--defence-hand", "5"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "--attack-freq" in bad.stderr
    bad2 = subprocess.run([*run, "--attack-freq", "R", "--defence-freq", "E", "--attack-hand", "5",
                           "--defence-hand", "5", "--target-card", "ZZ"],
                          capture_output=True, text=True, timeout=120)
    assert bad2.returncode == 2 and "--target-card" in bad2.stderr


def test_sa_t01_known_hand_odds_only_the_defender_unknown() -> None:
    """SA-T01 with the attacker's own hand known (Jack, Queen and three others, target on a King):
    3 attack successes; Twilight at Every Chance, her 5 cards from the 52 unseen (KS and 2D seen):
    LIFE lost 1 when she holds at most one Even (difference 3 or 2), else 0."""
    from dialtray.rules.skyace.odds import attack_odds as odds

    spec = AttackSpec("R", "E", 5, 5, target_card="KS", defender_seen=("KS", "2D"),
                      attacker_hand=("JD", "QD", "4C", "5C", "7H"))
    o = odds(spec)
    assert o.attack_successes == {3: 1} and o.hands == comb(52, 5)
    assert o.damage[1] == Fraction(comb(33, 5) + 19 * comb(33, 4), comb(52, 5))
