"""Ending the game, victory, disengaging (seed 002 "Ending the Game", "Victory!",
"Disengaging"; AA-M53..M59, AA-A07, AA-A08)."""

from __future__ import annotations

import pytest
from aa_helpers import (
    clicks,
    finish_turn,
    loyle_vs_militia,
    new_game,
    of,
    plan_all_cruise,
    run,
    start,
)
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.actions import Plan
from dialtray.rules.airaction.game import SquadronPlane
from dialtray.rules.core.errors import IllegalActionError


def test_aa_m53_ends_when_one_player_has_pilots_left_aa_m54_m56_m57() -> None:
    """AA-M53(1): only one player has pilots left. AA-M54 2x shot down, AA-M56 survivors,
    AA-M57 total = 2x shot down + removed + remaining."""
    g, d = new_game({"P1": [SquadronPlane("A1", "alpha")], "P2": [SquadronPlane("B1", "bravo")]})
    start(g, d, {"A1": 5, "B1": 5})
    plan_all_cruise(g, d)
    run(g, d, "shoot A1 front B1 +rear-arc | 6 6 6 6", "pass B1")
    run(g, d, "initiative | 6 6 1 1", "throttle A1 0", "throttle B1 0")
    plan_all_cruise(g, d)
    events = run(g, d, "shoot A1 front B1 | 6 1 1")
    out = g.outcome()
    assert out is not None and out.termination.startswith("only one player")
    assert out.vp == {"P1": 2 * 50 + 50, "P2": 0} and out.winner == "P1"
    assert [e.reason for e in of(events, ev.VPScored)] == [
        "shot down",
        "remaining on the play area",
    ]
    assert g.legal_actions() == []
    with pytest.raises(IllegalActionError, match="AA-M53"):
        run(g, d, "pass A1")


def test_aa_m53_shaken_pilots_do_not_count_aa_m56_no_points_if_all_shaken() -> None:
    """AA-M53: Shaken pilots don't count for game end; AA-M56: all Shaken -> no survivor VP."""
    g, d = new_game({"P1": [SquadronPlane("A1", "alpha")], "P2": [SquadronPlane("B1", "effects")]})
    start(g, d, {"A1": 5, "B1": 1})
    plan_all_cruise(g, d)
    events = run(g, d, "shoot A1 front B1 | 6 1 1")  # B1 to click 1: Shaken shows
    assert g.shaken("B1") and g.plane("B1").in_play
    out = g.outcome()
    assert out is not None and out.vp["P2"] == 0 and out.vp["P1"] == 50
    assert not any(e.player == "P2" for e in of(events, ev.VPScored))


def test_aa_m53_time_limit_and_agreement_end() -> None:
    """AA-M53(2)(3): a time limit, or all players agree."""
    g, d = new_game()
    start(g, d)
    run(g, d, "end time | 4 2")
    out = g.outcome()
    assert out is not None and out.termination == "time limit reached"
    assert out.vp == {"P1": 100, "P2": 100}


def test_aa_m58_tie_breaks_shot_down_then_build_points_then_d6() -> None:
    """AA-M58: equal VP -> most planes shot down -> fewest build points -> a d6 roll-off."""
    g, d = new_game()
    start(g, d)
    events = run(g, d, "end agreed | 2 2 5 3")  # tie on the d6 rerolled
    out = g.outcome()
    assert out is not None and out.how == "d6 roll-off" and out.winner == "P1"
    assert [e.faces for e in of(events, ev.Rolled)] == [(2,), (2,), (5,), (3,)]


def test_aa_m58_fewest_build_points_break_equal_vp() -> None:
    """AA-M58: VP 110 each, no planes shot down: P1 built 100 points, P2 120 -> P1 wins."""
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "alpha"), SquadronPlane("A2", "bravo")],
            "P2": [
                SquadronPlane("B1", "charlie", "veteran"),
                SquadronPlane("B2", "gunner", "veteran"),
            ],
        }
    )
    start(g, d, {"A1": 2, "A2": 5, "B1": 2, "B2": 5})
    run(g, d, "plan A2 Cruise straight", "plan B2 Cruise straight", "left A2", "left B2")
    run(g, d, "end agreed")
    out = g.outcome()
    assert out is not None and out.vp == {"P1": 110, "P2": 110}
    assert out.shot_down == {"P1": 0, "P2": 0} and out.build_points == {"P1": 100, "P2": 120}
    assert out.winner == "P1" and out.how == "fewest build points"


def test_aa_m58_most_planes_shot_down_breaks_equal_vp() -> None:
    """AA-M58: VP 150 each; P1 shot a plane down, P2 none -> P1 wins."""
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "alpha"), SquadronPlane("A2", "bravo")],
            "P2": [
                SquadronPlane("B1", "charlie"),
                SquadronPlane("B2", "gunner"),
                SquadronPlane("B3", "alpha"),
            ],
        }
    )
    start(g, d, {"A1": 5, "A2": 5, "B1": 5, "B2": 4, "B3": 2})
    run(g, d, "plan A1 Cruise straight", "plan A2 Cruise straight", "plan B1 Cruise straight")
    run(g, d, "moved A1", "moved A2", "moved B1", "overlaps-done")
    run(g, d, "shoot A1 front B1 | 6 6 6", "pass B1", "shoot A2 front B1 +rear-arc | 6 6 6 6")
    run(g, d, "plan B2 Cruise straight", "left B2", "plan B3 Cruise straight", "moved B3")
    run(g, d, "overlaps-done", "pass B3", "initiative | 6 6 1 1")
    run(g, d, "throttle A1 0", "throttle A2 0", "throttle B3 0")
    run(g, d, "plan A1 Cruise straight", "plan A2 Cruise straight", "left A1", "left A2")
    out = g.outcome()
    assert out is not None and out.vp == {"P1": 150, "P2": 150}
    assert out.shot_down == {"P1": 1, "P2": 0}
    assert out.winner == "P1" and out.how == "most planes shot down"


def test_aa_m55_aa_a08_removal_split_or_each_among_opponents() -> None:
    """AA-M55 / AA-A08: 1x point value to opponents: split evenly (default) or to each."""
    sq = {
        "P1": [SquadronPlane("A1", "alpha")],
        "P2": [SquadronPlane("B1", "bravo")],
        "P3": [SquadronPlane("C1", "charlie")],
    }
    for mode, expect in (("split", 25), ("each", 50)):
        g, d = new_game(sq, removal_vp=mode)
        start(g, d, {"A1": 5, "B1": 2, "C1": 2})
        run(g, d, "plan A1 Cruise straight", "left A1")
        assert g.state.vp == {"P1": 0, "P2": expect, "P3": expect}


def test_aa_m59_disengaging_cruise_glide_only_no_shots_no_remaining_points_aa_a07() -> None:
    """AA-M59: announce; only Cruise/Glide; no shots; ends when all have left; AA-A07:
    leaving while disengaging gives opponents nothing; no points for remaining planes."""
    g, d = new_game()
    start(g, d, {"A1": 5, "A2": 4, "B1": 3, "B2": 2})
    finish_turn(g, d)
    run(g, d, "initiative | 6 6 1 1", "disengage P1", "throttle A1 0", "throttle A2 0")
    run(g, d, "throttle B1 0", "throttle B2 0")
    assert {a.card for a in g.legal_actions() if isinstance(a, Plan)} == {"Cruise", "Glide"}
    with pytest.raises(IllegalActionError, match="AA-M59"):
        run(g, d, "plan A1 Turn left")
    run(g, d, "plan A1 Cruise straight", "moved A1", "overlaps-done")
    assert g.state.speed == 4  # A1 could not shoot: no shot opportunity offered
    run(g, d, "plan A2 Glide left", "left A2")
    assert g.state.vp["P2"] == 0
    # next turn A1 flies off
    finish_turn(g, d)
    run(g, d, "initiative | 6 6 1 1", "throttle A1 0", "throttle B1 0", "throttle B2 0")
    run(g, d, "plan A1 Cruise straight")
    events = run(g, d, "left A1")
    out = g.outcome()
    assert out is not None and out.termination == "P1 has disengaged"
    assert out.vp == {"P1": 0, "P2": 100}
    assert clicks(events, "A1") == 0


def test_aa_m59_disengaging_pilots_may_not_shoot() -> None:
    g, d = new_game()
    start(g, d, {"A1": 5, "A2": 5, "B1": 5, "B2": 5})
    g.state.disengaging.add("P1")  # direct setup: P1 announced last turn
    plan_all_cruise(g, d)
    with pytest.raises(IllegalActionError, match="AA-M"):
        run(g, d, "shoot A1 front B1 | 1 1 1")


def test_the_end_of_game_table_fits_80_columns() -> None:
    """AA-M55..M58 "Victory!": the final table (replay, demo, play) fits a terminal of 80
    columns, the sample figures' long names and a removal's reason included; it was 83-84."""
    g, _ = loyle_vs_militia()
    ps = g.state.planes["M"]
    ps.in_play, ps.removed = False, "abandoned by its Ace (Enjoy the Ride)"
    text = g.report()
    assert max(len(line) for line in text.splitlines()) <= 80, text
    assert "sample-loyle-crawford" in text and "sample-militia-fighter" in text
    joined = " ".join(text.split())
    assert "removed: abandoned by its Ace (Enjoy the Ride)" in joined
