"""Cards, values, frequencies and power codes (Sky Ace 1.0-1.3, inventory §6)."""

from __future__ import annotations

from collections import Counter

import pytest
from dialtray.rules.core.errors import InvalidActionError
from dialtray.rules.skyace.cards import (
    DECK,
    JOKER,
    card,
    colour,
    matches,
    parse_power,
    preferred_of,
    rank,
    value,
)
from dialtray.rules.skyace.heroes import Hero, check_hero, hero


def test_sa_m01_per_player_kit_is_a_54_card_deck() -> None:
    """SA-M01 "Per-player kit": 13 cards x 4 suits + 2 Jokers = 54 cards."""
    assert len(DECK) == 54 and Counter(DECK)[JOKER] == 2 and len(set(DECK)) == 53


def test_sa_m03_rank_order_joker_high_two_low() -> None:
    """SA-M03 "Rank order": Joker, Ace, King, Queen, Jack, 10 ... 2."""
    order = ["JK", "AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]
    assert [rank(c) for c in order] == sorted((rank(c) for c in order), reverse=True)
    assert len({rank(c) for c in order}) == 14


def test_sa_m04_values_and_sa_t10_counts_per_deck() -> None:
    """SA-M04 "Values": Evens 2 4 6 8 10, Odds 3 5 7 9, Royals J Q K, Aces = Aces and Jokers;
    SA table 2's counts in a 54-card deck: 20, 16, 12, 6."""
    assert [value(c) for c in ("2H", "10C", "3D", "9S", "JH", "KC", "AD", "JK")] == \
        ["E", "E", "O", "O", "R", "R", "A", "A"]
    assert Counter(value(c) for c in DECK) == {"E": 20, "O": 16, "R": 12, "A": 6}


def test_sa_m05_frequency_matches_its_value() -> None:
    """SA-M05 "Frequencies": Every Chance <-> Evens, Occasionally <-> Odds, Rarely <-> Royals,
    Almost Never <-> Aces and Jokers."""
    assert matches("4S", "E") and matches("7S", "O") and matches("QD", "R")
    assert matches("JK", "A") and matches("AH", "A") and not matches("QD", "E")


def test_sa_m06_colours_and_joker_has_none() -> None:
    """SA-M06 "Colors": red = Diamonds, Hearts; black = Clubs, Spades; a Joker has no suit."""
    assert colour("5D") == colour("KH") == "red"
    assert colour("5C") == colour("KS") == "black"
    assert colour("JK") is None


def test_sa_t10_power_code_mapping_and_sa_m07_hero_creation() -> None:
    """SA-T10 / SA-M07: "HE" is Hand-to-Hand on Evens, "CO" Charge on Odds, "SR" Stealth on
    Royals (SA-A02: the gloss's "Surprise Attack"), "DA" Distance on Aces and Jokers; "(XY+n)"
    adds the attribute level."""
    got = [parse_power(t) for t in ("Super Strength (HE)", "Flight (CO)", "Super Speed (SR)",
                                    "Laser Vision (DA)", "Flight (CO+2)")]
    assert [(p.attack, p.frequency, p.level) for p in got] == [
        ("H", "E", 0), ("C", "O", 0), ("S", "R", 0), ("D", "A", 0), ("C", "O", 2)]
    with pytest.raises(ValueError, match="attack letter"):
        parse_power("Zap (XE)")
    with pytest.raises(ValueError, match="frequency letter"):
        parse_power("Zap (HZ)")


def test_sa_a03_frequencies_are_a_permutation_unless_allowed() -> None:
    """SA-A03: every printed hero uses E O R A once; the check can be switched off."""
    h = hero("sky-ace-1.3")
    twice = Hero("x", "X", tuple(parse_power(t) for t in ("a (HE)", "b (SE)", "c (DR)", "d (CA)")))
    check_hero(h)
    with pytest.raises(ValueError, match="SA-A03"):
        check_hero(twice)
    check_hero(twice, permutation=False)


def test_sa_a01_head_card_mnemonic_and_card_text() -> None:
    """SA-A01: Hand-to-Hand goes with the Head card (the mnemonic's "High" is a typo): the letter H
    is both; card text reads back, ``T`` is ten, anything else is refused."""
    assert parse_power("Punch (HE)").attack == "H"
    assert card("th") == "10H" and card("joker") == JOKER
    with pytest.raises(InvalidActionError):
        card("1H")
    assert preferred_of("9H") == "H"
