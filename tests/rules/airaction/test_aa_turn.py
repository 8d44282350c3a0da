"""Turn sequence: initiative, Set Throttle, the countdown (seed 002 "Determine Initiative",
"Set Throttle"; AA-M16..M22, AA-M48, AA-A12, AA-A17, AA-A18, AA-A20)."""

from __future__ import annotations

import pytest
from aa_helpers import GD, clicks, finish_turn, new_game, of, quiet_step, run, start
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.actions import SetSpeed, Throttle
from dialtray.rules.core.errors import IllegalActionError


def to_turn_two(speeds: dict[str, int] | None = None) -> GD:
    g, d = new_game()
    start(g, d, speeds or {"A1": 5, "A2": 4, "B1": 3, "B2": 2})
    finish_turn(g, d)  # everybody moves, nobody overlaps or shoots
    run(g, d, "initiative | 6 6 1 1")
    return g, d


def test_aa_m16_initiative_ties_reroll_highest_is_aggressor() -> None:
    """AA-M16 "Determine Initiative": 2d6 each, reroll ties."""
    g, d = new_game()
    run(g, d, "first-player | 3 3 2 2", "deploy P1", "deploy P2")
    events = run(g, d, "initiative | 4 3 5 2 1 1 6 5")
    assert [e.faces for e in of(events, ev.Rolled)] == [(4, 3), (5, 2), (1, 1), (6, 5)]
    assert g.state.aggressor == "P2"


def test_aa_m13_first_player_and_aa_m14_deploy_order() -> None:
    """AA-M13 first player by 2d6 (ties reroll); AA-M14 first player deploys first."""
    g, d = new_game()
    run(g, d, "first-player | 2 2 3 1 1 2 6 6")
    assert g.state.first_player == "P2"
    with pytest.raises(IllegalActionError, match="AA-M14"):
        run(g, d, "deploy P1")
    run(g, d, "deploy P2", "deploy P1")
    assert g.state.phase == "initiative" and g.state.turn == 1


def test_aa_m17_aggressor_sets_speed_first_aa_a17() -> None:
    """AA-M17 / AA-A17: throttle settings in turn order, aggressor first."""
    g, d = new_game()
    run(g, d, "first-player | 6 6 1 1", "deploy P1", "deploy P2", "initiative | 1 1 6 6")
    assert g.to_move() == "P2"
    with pytest.raises(IllegalActionError, match="AA-M17"):
        run(g, d, "speed A1 5")
    run(g, d, "speed B1 5", "speed B2 5")
    assert g.to_move() == "P1"


def test_aa_m18_first_turn_any_speed_on_dial_aa_a20_even_above_max() -> None:
    """AA-M18: any value on the speed dial; AA-A20: above max speed is allowed."""
    g, d = new_game()
    run(g, d, "first-player | 6 6 1 1", "deploy P1", "deploy P2", "initiative | 6 6 1 1")
    assert {
        a.speed for a in g.legal_actions() if isinstance(a, SetSpeed) and a.plane == "A1"
    } == set(range(1, 9))
    run(g, d, "speed A1 8")  # max speed on the dial is 6
    assert g.speed_of("A1") == 8
    with pytest.raises(IllegalActionError, match="AA-M18"):
        run(g, d, "speed A2 9")


def test_aa_m19_safe_throttle_one_click() -> None:
    """AA-M19: one click up or down per turn, no check, no dice."""
    g, d = to_turn_two()
    before = g.speed_of("A1")
    assert before is not None
    events = run(g, d, "throttle A1 +1")
    assert g.speed_of("A1") == before + 1 and not of(events, ev.PilotCheck)
    with pytest.raises(IllegalActionError, match="AA-M19"):
        run(g, d, "throttle A1 -1")


def test_aa_m20_two_clicks_pilot_check_success_and_failure() -> None:
    """AA-M20: two clicks need a pilot check; failure: no change and 1 damage click."""
    g, d = to_turn_two()
    events = run(g, d, "throttle A1 +2 | 4 3")  # 7 >= piloting 7
    assert g.speed_of("A1") == 7 and of(events, ev.PilotCheck)[0].success
    events = run(g, d, "throttle A2 -2 | 3 3")  # 6 < 7
    assert g.speed_of("A2") == 4 and clicks(events, "A2") == 1
    assert g.plane("A2").combat_click == 1


def test_aa_m21_never_past_red_line_aa_a18_no_check_either() -> None:
    """AA-M21 / AA-A18: a change that would cross the red line is refused, no check rolled."""
    g, d = to_turn_two({"A1": 8, "A2": 1, "B1": 3, "B2": 2})
    for bad in ("throttle A1 +1", "throttle A1 +2"):
        with pytest.raises(IllegalActionError, match="AA-M21"):
            run(g, d, bad)
    assert not any(
        isinstance(a, Throttle) and a.plane == "A1" and a.clicks > 0 for a in g.legal_actions()
    )
    run(g, d, "throttle A1 0")
    with pytest.raises(IllegalActionError, match="AA-M21"):
        run(g, d, "throttle A2 -1")


def test_aa_m22_countdown_active_planes_aa_a12() -> None:
    """AA-M22: count down from 10; planes at the announced speed are active (AA-A12)."""
    g, d = new_game()
    start(g, d, {"A1": 7, "A2": 4, "B1": 7, "B2": 2})
    assert g.state.speed == 7 and g.state.active == ("A1", "B1")
    assert not g.plane("A2").activated


def test_aa_m48_next_lower_speed_then_new_turn() -> None:
    """AA-M48: after the active planes shoot, announce the next lower speed; then a new turn."""
    g, d = new_game()
    start(g, d, {"A1": 7, "A2": 4, "B1": 7, "B2": 2})
    seen = []
    while g.state.turn == 1:
        if g.state.phase == "plan" and g.state.speed not in seen:
            seen.append(g.state.speed)
        quiet_step(g, d)
    assert seen == [7, 4, 2]
    assert g.state.turn == 2 and g.state.phase == "initiative"
