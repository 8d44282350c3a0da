"""Successes and damage, with the rulebook's worked examples (SA-T01..SA-T04, SA-T11)."""

from __future__ import annotations

from dialtray.rules.core.game import state_json
from dialtray.rules.skyace import SkyAceGame
from dialtray.rules.skyace import events as ev
from dialtray.rules.skyace.combat import attack_successes, damage, defence_successes, forced_defence
from dialtray.rules.skyace.heroes import hero
from skyace_helpers import attack, duel

# Sky Ace (1.3) first (AS outranks KS), Twilight's start card KS at Sky Ace's Digit card; Sky Ace's
# hand: 7H to maneuver with, the Jack and Queen of the example, two Clubs.
SKY = ["AS", "7H", "JD", "QD", "4C", "5C"]
TWI = ["KS", "3C", "5D", "7C", "9C", "AC"]


def _stealth_position() -> SkyAceGame:
    g = duel(SKY, TWI, layout="1,1")
    g.apply("move 0,1 7H")  # Twilight (1,1) is now on Sky Ace's Side card
    return g


def test_sa_t01_basic_stealth_attack_three_successes() -> None:
    """SA-T01 (1.4 "FOR EXAMPLE"): Stealth at Rarely; the Jack and the Queen are 2 successes and
    the King under the target 1 more: 3. Played through the engine: SA-M22 (Side -> Stealth),
    SA-M23 (played cards), SA-M24 (the target's card counts; Sky Ace's own 7H does not)."""
    g = _stealth_position()
    events = g.apply("attack P2 JD QD")
    att = next(e for e in events if isinstance(e, ev.Attacked))
    assert (att.attack_type, att.successes) == ("S", 3)
    assert attack_successes(["JD", "QD"], "R", own_card="7H", other_card="KS") == 3


def test_sa_t03_continued_three_against_nothing_costs_one_life_and_sa_m29() -> None:
    """SA-T03 [derived]: 3 attack successes against 0 defence successes is difference 3: 1 LIFE.
    SA-M26: the defence type is Stealth too; Twilight's Stealth is (SE): no Evens in hand."""
    g = _stealth_position()
    events = attack(g, "attack P2 JD QD")  # SA-M25: Sky Ace redraws, then Twilight defends
    d = next(e for e in events if isinstance(e, ev.Defended))
    assert d.played == () and d.successes == 0
    assert g.state.pawns["P2"].life == 4
    assert [c.text() for c in g.dial_changes()] == [
        "P2 life dial: 1 click counter-clockwise (click 5 -> 4) [SA-M29]"]


def test_sa_t02_advanced_stealth_attack_with_sense_level_one() -> None:
    """SA-T02 (2.1 "FOR EXAMPLE"): the same attack with (SR+1): + 1 for Sense level 1 = 4."""
    h = hero("sky-ace-2.1")
    assert h.frequency("S") == "R" and h.attribute("S") == 1
    assert attack_successes(["JD", "QD"], h.frequency("S"), "7H", "KS", h.attribute("S")) == 4


def test_sa_t03_basic_damage_table() -> None:
    """SA-T03 / SA-M29 "Damage" (table 5): differences -1..9 lose 0 0 0 1 1 2 2 3 3 4 4."""
    diffs = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert [damage(d, 0) if d >= 0 else damage(0, -d) for d in diffs] == \
        [0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4]


def test_sa_t04_advanced_damage_with_preferred_bonus_sa_m45_sa_m40() -> None:
    """SA-T04 / SA-M45 "Advanced damage" with SA-M40 "Preferred-attack bonus": preferred
    differences -1, 0, 1, 2, 5 lose 0, 1, 1, 2, 3; not preferred 0, 0, 0, 1, 2."""
    def lost(diff: int, pref: bool) -> int:
        return damage(max(diff, 0), max(-diff, 0), advanced=True, preferred=pref)

    assert [lost(d, True) for d in (-1, 0, 1, 2, 5)] == [0, 1, 1, 2, 3]
    assert [lost(d, False) for d in (-1, 0, 1, 2, 5)] == [0, 0, 0, 1, 2]


def test_sa_t11_defender_must_play_every_matching_card_sa_m27() -> None:
    """SA-T11 / SA-M27 "Defender's cards": at Every Chance with 2, 7, 10 in hand the defender
    plays the 2 and the 10 (2 successes), the 7 stays. In the engine the defence is automatic."""
    assert forced_defence(["2H", "7S", "10C"], "E") == ["2H", "10C"]
    twi = ["KS", "2C", "7C", "10C", "9C", "AC"]  # Twilight's Stealth is (SE): Evens
    g = duel(SKY, twi, layout="1,1")
    g.apply("move 0,1 7H")
    d = next(e for e in attack(g, "attack P2 JD QD") if isinstance(e, ev.Defended))
    assert d.played == ("2C", "10C") and d.successes == 2
    assert "7C" in g.state.hands["P2"] or g.state.pawns["P2"].life < 5


def test_sa_m28_defender_bonuses_and_sa_m24_attacker_bonuses() -> None:
    """SA-M28: the defender's card and the attacker's card each add 1 when they match the defence
    frequency; SA-M24: likewise for the attack."""
    assert defence_successes([], "E", own_card="4H", other_card="8S") == 2
    assert attack_successes([], "E", own_card="4H", other_card="8S") == 2
    assert attack_successes(["3H"], "E", own_card=None, other_card=None) == 0


def test_sa_m50_powerful_and_sa_m53_unbreakable_and_sa_m43_sa_m44_attributes() -> None:
    """SA-M50 Powerful +1 attacking, SA-M53 Unbreakable +1 defending; SA-M43 / SA-M44 add one
    success per attribute level."""
    assert attack_successes([], "E", None, None, attribute=2, powerful=True) == 3
    assert defence_successes([], "E", None, None, attribute=1, unbreakable=True) == 2


def test_sa_m23_non_matching_cards_are_simply_discarded_and_sa_m25_attacker_redraw() -> None:
    """SA-M23: cards that do not match are discarded; SA-M25: the attacker then draws up to LIFE
    (the 5 typed-in redraws are asked for before the game goes on)."""
    g = _stealth_position()
    before = state_json(g)
    g.apply("attack P2 4C")
    st = g.state
    assert "4C" in st.piles["P1"].discard and "7H" not in st.hands["P1"]
    assert st.pending[:2] == [("P1", "hand", "P1"), ("P1", "hand", "P1")]
    assert before != state_json(g)
