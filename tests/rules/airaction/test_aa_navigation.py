"""Navigation (seed 002 "Navigation"; AA-M23..M27, AA-T07, AA-M15)."""

from __future__ import annotations

import pytest
from aa_helpers import BASIC_DECK, new_game, of, run, start
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.actions import Plan
from dialtray.rules.airaction.game import SquadronPlane
from dialtray.rules.core.errors import IllegalActionError


def test_aa_m23_basic_deck_of_twelve_per_player_aa_m15() -> None:
    """AA-M23: each player has their own basic deck of 12 (AA-M15: set aside at setup)."""
    g, _ = new_game()
    for p in ("P1", "P2"):
        assert g.deck(p) == BASIC_DECK and sum(g.deck(p).values()) == 12


def test_aa_t07_ace_adds_two_cards_deck_of_fourteen() -> None:
    """AA-T07: one Ace plane with its own navigation cards: 12 + 2 = 14."""
    g, _ = new_game(
        {
            "P1": [SquadronPlane("A1", "ace-plane", "rookie", "test-ace")],
            "P2": [SquadronPlane("B1", "alpha")],
        }
    )
    assert sum(g.deck("P1").values()) == 14 and sum(g.deck("P2").values()) == 12
    # the same plane without its Ace brings no Ace cards
    g2, _ = new_game(
        {"P1": [SquadronPlane("A1", "ace-plane")], "P2": [SquadronPlane("B1", "alpha")]}
    )
    assert sum(g2.deck("P1").values()) == 12


def test_aa_t07_single_snap_roll_one_per_speed_step_aa_m26() -> None:
    """AA-T07 / AA-M26: two active planes can never both take the single Snap Roll; the deck
    is rebuilt when a new speed is announced."""
    g, d = new_game()
    start(g, d, {"A1": 6, "A2": 6, "B1": 4, "B2": 4})
    run(g, d, 'plan A1 "Snap Roll" left')
    with pytest.raises(IllegalActionError, match="AA-M26"):
        run(g, d, 'plan A2 "Snap Roll" right')
    assert not any(isinstance(a, Plan) and a.card == "Snap Roll" for a in g.legal_actions())
    run(
        g,
        d,
        "plan A2 Cruise straight",
        "moved A1",
        "moved A2",
        "overlaps-done",
        "pass A1",
        "pass A2",
    )
    assert g.state.speed == 4
    assert g.available_cards("P1")["Snap Roll"] == 1  # rebuilt
    run(g, d, 'plan B1 "Snap Roll" left')


def test_aa_m24_speed_must_reach_card_speed_rating() -> None:
    """AA-M24: current speed must equal or exceed the card's speed rating."""
    g, d = new_game()
    start(g, d, {"A1": 2, "A2": 2, "B1": 1, "B2": 1})
    rating = g.cat.cards["Half Loop"].speed_rating
    assert rating > 2
    with pytest.raises(IllegalActionError, match="AA-M24"):
        run(g, d, 'plan A1 "Half Loop" left')
    legal = {a.card for a in g.legal_actions() if isinstance(a, Plan)}
    assert legal == {n for n, c in g.cat.cards.items() if c.speed_rating <= 2 and n in BASIC_DECK}


def test_aa_m25_path_must_be_on_card() -> None:
    """AA-M25: the card points left, right or straight to choose one of its paths."""
    g, d = new_game()
    start(g, d)
    with pytest.raises(IllegalActionError, match="AA-M25"):
        run(g, d, "plan A1 Cruise left")
    run(g, d, "plan A1 Turn left")
    assert g.state.plans["A1"] == ("Turn", "left")


def test_aa_m26_one_card_per_active_plane_only_active_planes() -> None:
    """AA-M26: each active plane has its own card; inactive planes plan nothing."""
    g, d = new_game()
    start(g, d, {"A1": 6, "A2": 6, "B1": 3, "B2": 3})
    with pytest.raises(IllegalActionError, match="AA-M22"):
        run(g, d, "plan B1 Cruise straight")
    run(g, d, "plan A1 Cruise straight")
    with pytest.raises(IllegalActionError, match="AA-M26"):
        run(g, d, "plan A1 Glide straight")


def test_aa_m27_reveal_after_all_cards_aggressor_first() -> None:
    """AA-M27: cards are revealed (movement begins) once every active plane has its card;
    AA-M17: the aggressor places cards first."""
    g, d = new_game()
    start(g, d, {"A1": 5, "A2": 2, "B1": 5, "B2": 2})
    assert g.to_move() == "P1"
    with pytest.raises(IllegalActionError, match="AA-M17"):
        run(g, d, "plan B1 Cruise straight")
    run(g, d, "plan A1 Cruise straight")
    assert g.state.phase == "plan" and g.to_move() == "P2"
    assert g.visible_plans("P2") == {"A1": None}  # face down (AA-M25)
    assert g.visible_plans("P1") == {"A1": ("Cruise", "straight")}
    events = run(g, d, "plan B1 Glide left")
    assert g.state.phase == "move" and of(events, ev.PhaseChanged)[-1].phase == "move"
    assert g.visible_plans("P2")["A1"] == ("Cruise", "straight")  # revealed


def test_d_aa_09_no_legal_card_left_plans_none() -> None:
    """AA-M26 with decision D-AA-09: five planes at speed 1 share four rating-1 cards; the fifth
    may only plan `none`, and only then."""
    figs = ["alpha", "bravo", "charlie", "gunner", "effects"]
    g, d = new_game(
        {
            "P1": [SquadronPlane(f"A{i}", f) for i, f in enumerate(figs)],
            "P2": [SquadronPlane("B1", "alpha")],
        }
    )
    start(g, d, {**{f"A{i}": 1 for i in range(5)}, "B1": 1})
    with pytest.raises(IllegalActionError, match="AA-M26"):
        run(g, d, "plan A0 none")
    run(g, d, "plan A0 Cruise straight", "plan A1 Cruise straight")
    run(g, d, "plan A2 Glide left", "plan A3 Glide right")
    assert g.legal_actions() == [Plan("A4", "none")]
    run(g, d, "plan A4 none")
    assert g.state.plans["A4"] == ("none", "")
