"""Movement (seed 002 "Movement", "Obstacles"; AA-M28..M31, AA-M50, AA-M52, AA-A19)."""

from __future__ import annotations

import pytest
from aa_helpers import GD, clicks, new_game, of, run, start
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.game import SquadronPlane
from dialtray.rules.core.errors import IllegalActionError


def effects_game(speed: int) -> GD:
    g, d = new_game({"P1": [SquadronPlane("A1", "effects")], "P2": [SquadronPlane("B1", "alpha")]})
    start(g, d, {"A1": speed, "B1": 1})
    return g, d


def test_aa_m28_speed_effect_damage_before_moving() -> None:
    """AA-M28: a speed effect on the speed dial is resolved before moving (damage hook)."""
    g, d = effects_game(3)  # speed 3 shows t-strain: 1 damage click
    events = run(g, d, "plan A1 Cruise straight")
    assert clicks(events, "A1") == 1 and of(events, ev.EffectApplied)[0].hook == "movement_damage"


def test_aa_m28_speed_effect_modifies_speed() -> None:
    """AA-M28: "Modify the active plane's speed" (speed-change hook)."""
    g, d = effects_game(2)  # t-stall: -1 click
    run(g, d, "plan A1 Cruise straight")
    assert g.speed_of("A1") == 1


def test_aa_m03_unknown_speed_effect_colour_reported_not_guessed() -> None:
    """AA-M03/M28: a colour missing from the Skills & Equipment map is reported, no effect."""
    g, d = effects_game(6)  # 'mauve' is not in the map (max speed 6: no redline)
    events = run(g, d, "plan A1 Cruise straight")
    unk = of(events, ev.UnknownEffect)
    assert unk and unk[0].colour == "mauve" and g.speed_of("A1") == 6 and clicks(events, "A1") == 0


def test_aa_m29_redline_check_success_keeps_speed() -> None:
    """AA-M29: current speed > max speed -> pilot check; success keeps the speed."""
    g, d = new_game()
    start(g, d, {"A1": 8, "A2": 1, "B1": 1, "B2": 1})
    events = run(g, d, "plan A1 Cruise straight | 5 2")
    assert of(events, ev.PilotCheck)[0].purpose == "redlining" and g.speed_of("A1") == 8


def test_aa_m29_redline_failure_click_and_speed_to_max() -> None:
    """AA-M29: failure: 1 damage click and the speed dial down to the max speed."""
    g, d = new_game()
    start(g, d, {"A1": 8, "A2": 1, "B1": 1, "B2": 1})
    events = run(g, d, "plan A1 Cruise straight | 1 2")
    assert clicks(events, "A1") == 1
    assert g.speed_of("A1") == g.combat_values("A1")["max_speed"] == 6
    sc = of(events, ev.SpeedChanged)[0]
    assert sc.old_index - sc.new_index == 2  # two clockwise clicks


def test_aa_m30_simultaneous_move_reports_then_overlaps() -> None:
    """AA-M30: every active plane moves (reported), then final markers are compared."""
    g, d = new_game()
    start(g, d, {"A1": 5, "A2": 2, "B1": 5, "B2": 2})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight", "moved A1")
    assert g.state.phase == "move"
    with pytest.raises(IllegalActionError, match="AA-M22"):
        run(g, d, "moved A2")
    run(g, d, "moved B1")
    assert g.state.phase == "overlaps"


def test_aa_m31_leaving_the_area_removes_and_scores_aa_m55() -> None:
    """AA-M31: a plane that leaves the play area is removed for good; AA-M55: 1x VP."""
    g, d = new_game()
    start(g, d, {"A1": 5, "A2": 2, "B1": 5, "B2": 2})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight")
    events = run(g, d, "left A1")
    assert not g.plane("A1").in_play and g.state.vp["P2"] == g.plane_value("A1") == 50
    assert of(events, ev.PlaneRemoved)[0].reason == "left the play area"
    with pytest.raises(IllegalActionError):
        run(g, d, "overlap A1 B1")


def test_aa_a19_plane_that_left_cannot_collide() -> None:
    """AA-A19: leaving is checked during movement, before collisions and daring feats."""
    g, d = new_game()
    start(g, d, {"A1": 5, "A2": 2, "B1": 5, "B2": 2})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight", "left A1", "moved B1")
    with pytest.raises(IllegalActionError, match="AA-M32"):
        run(g, d, "overlap B1 A1")


def test_aa_m50_obstacles_only_when_agreed() -> None:
    """AA-M50: obstacles are optional; without agreement an obstacle report is refused."""
    g, d = new_game()
    start(g, d, {"A1": 5, "A2": 2, "B1": 5, "B2": 2})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight")
    with pytest.raises(IllegalActionError, match="AA-M50"):
        run(g, d, "obstacle A1")


def test_aa_m52_obstacle_check_success_one_click_speed_minus_one() -> None:
    """AA-M52: success: 1 click; if not destroyed, speed -1 and the maneuver is over."""
    g, d = new_game(obstacles=True)
    start(g, d, {"A1": 5, "A2": 2, "B1": 5, "B2": 2})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight")
    events = run(g, d, "obstacle A1 | 4 4")
    assert clicks(events, "A1") == 1 and g.speed_of("A1") == 4 and g.plane("A1").in_play


def test_aa_m52_obstacle_check_failure_clicks_equal_speed() -> None:
    """AA-M52: failure: clicks equal to current speed (here 5 -> destroyed; 1x VP, AA-M55)."""
    g, d = new_game(obstacles=True)
    start(g, d, {"A1": 5, "A2": 2, "B1": 5, "B2": 2})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight")
    events = run(g, d, "obstacle A1 | 1 2")
    assert clicks(events, "A1") == 5 and not g.plane("A1").in_play
    assert g.state.vp["P2"] == 50 and g.speed_of("A1") == 5
