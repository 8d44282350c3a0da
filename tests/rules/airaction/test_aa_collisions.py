"""Collisions with other planes (seed 002 "Collisions with Other Planes", "Fate";
AA-M06, AA-M07, AA-M32..M35, AA-M64, AA-A04)."""

from __future__ import annotations

from typing import Any

import pytest
from aa_helpers import GD, clicks, dial, fig_doc, make_catalogue, new_game, of, run, start
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.game import SquadronPlane
from dialtray.rules.core.errors import IllegalActionError


def moved_game(**kw: Any) -> GD:
    """A1 and B1 active at speed 5 and moved; A2, B2 inactive at 2."""
    g, d = new_game(kw.pop("squadrons", None), **kw)
    start(g, d, {"A1": 5, "A2": 2, "B1": 5, "B2": 2, **kw.pop("speeds", {})})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight", "moved A1", "moved B1")
    return g, d


def test_aa_m06_pilot_check_ge_piloting() -> None:
    """AA-M06: 2d6 >= piloting succeeds (7 vs 7), lower fails (6 vs 7)."""
    g, d = moved_game()
    events = run(g, d, "overlap A1 B1", "overlaps-done | 4 3 3 3")
    checks = of(events, ev.PilotCheck)
    assert [(c.total, c.success) for c in checks] == [(7, True), (6, False)]
    assert clicks(events, "A1") == 0 and clicks(events, "B1") == 1


def test_aa_m32_collision_needs_overlapping_final_markers() -> None:
    """AA-M32: only final markers count; no overlap reported, no collision, no check."""
    g, d = moved_game()
    events = run(g, d, "overlaps-done")
    assert not of(events, ev.PilotCheck) and g.state.phase == "combat"


def test_aa_m32_same_squadron_symbol_cannot_collide() -> None:
    """AA-M32: planes sharing a squadron symbol cannot collide with each other."""
    cat = make_catalogue(
        [fig_doc("twin-a", squadron_symbol="wolves"), fig_doc("twin-b", squadron_symbol="wolves")]
    )
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "twin-a"), SquadronPlane("A2", "twin-b")],
            "P2": [SquadronPlane("B1", "alpha")],
        },
        catalogue=cat,
    )
    start(g, d, {"A1": 5, "A2": 5, "B1": 2})
    run(g, d, "plan A1 Cruise straight", "plan A2 Cruise straight", "moved A1", "moved A2")
    with pytest.raises(IllegalActionError, match="AA-M32"):
        run(g, d, "overlap A1 A2")


def test_aa_m32_once_per_maneuver_one_collision_per_plane() -> None:
    """AA-M32: a plane collides only once per maneuver: A1 overlapping B1 and B2 is one
    collision of three planes, each checked once."""
    g, d = moved_game()
    events = run(g, d, "overlap A1 B1", "overlap A1 B2", "overlaps-done | 6 6 6 6 6 6")
    assert [c.plane for c in of(events, ev.PilotCheck)] == ["A1", "B1", "B2"]
    assert len(of(events, ev.CollisionStarted)) == 1


def test_aa_m33_each_failed_check_one_click() -> None:
    """AA-M33: pilot checks for the overlapping planes; each failure is 1 click."""
    g, d = moved_game()
    events = run(g, d, "overlap A1 B1", "overlaps-done | 1 3 2 3")
    assert clicks(events, "A1") == 1 and clicks(events, "B1") == 1


def test_aa_m07_m34_serious_collision_loop_until_one_remains_aa_a04() -> None:
    """AA-M07 critical failure (total 2) -> AA-M34 serious collision. AA-A04: failed checks
    click first (A1 crit: 1; B1 fails: 1), then 1 click each per round until one remains.
    Both planes are on click 1, shot down at click 5: rounds bring both to click 5 at once."""
    g, d = moved_game()
    events = run(g, d, "overlap A1 B1", "overlaps-done | 1 1 3 3")
    assert clicks(events, "A1") == 5 and clicks(events, "B1") == 5
    assert not g.plane("A1").in_play and not g.plane("B1").in_play  # destroyed by the same click


def test_aa_m34_loop_stops_when_one_plane_left() -> None:
    """AA-M34: "until only one plane involved in the collision remains in play"."""
    cat = make_catalogue([fig_doc("fragile", combat_dial=dial(holes=[0, 1, 2, 3, 3, 3]))])
    g, d = moved_game(
        squadrons={
            "P1": [SquadronPlane("A1", "alpha"), SquadronPlane("A2", "bravo")],
            "P2": [SquadronPlane("B1", "fragile"), SquadronPlane("B2", "gunner")],
        },
        catalogue=cat,
    )
    events = run(g, d, "overlap A1 B1", "overlaps-done | 1 1 6 6")
    # A1 failed (crit) -> click 1; B1 passed. Loop: A1 2, B1 3; A1 3, B1 4; A1 4, B1 5 (down)
    assert not g.plane("B1").in_play and g.plane("A1").in_play
    assert clicks(events, "A1") == 4 and g.plane("A1").combat_click == 4
    assert g.state.vp["P1"] == g.plane_value("B1")  # AA-M55 removed by collision: 1x


def test_aa_m35_combat_after_collisions() -> None:
    """AA-M35: "Once any collisions resolve, combat occurs."""
    g, d = moved_game()
    run(g, d, "overlap A1 B1", "overlaps-done | 6 6 6 6")
    assert g.state.phase == "combat" and g.to_move() == "P1"


def ace_vs() -> GD:
    sq = {
        "P1": [
            SquadronPlane("A1", "ace-plane", "rookie", "test-ace"),
            SquadronPlane("A2", "alpha"),
        ],
        "P2": [SquadronPlane("B1", "charlie"), SquadronPlane("B2", "bravo")],
    }
    g, d = new_game(sq)
    start(g, d, {"A1": 5, "A2": 2, "B1": 5, "B2": 2})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight", "moved A1", "moved B1")
    return g, d


def test_aa_m64_collision_fate_two_planes_completely_avoided() -> None:
    """AA-M64: Ace in a serious collision uses fate: with two planes, completely avoided."""
    g, d = ace_vs()
    run(g, d, "overlap A1 B1", "overlaps-done | 1 1 3 3")
    assert g.to_move() == "P1" and g.state.collision is not None
    events = run(g, d, "collision-fate A1")
    assert clicks(events, "A1") == 0 and clicks(events, "B1") == 0
    assert of(events, ev.FateClick)[0].mode == "collision" and g.plane("A1").ace_click == 1


def test_aa_m64_collision_fate_three_planes_others_as_normal() -> None:
    """AA-M64: more than two planes: the Ace's plane takes nothing, the others as normal."""
    g, d = ace_vs()
    events = run(g, d, "overlap A1 B1", "overlap A1 B2", "overlaps-done | 1 1 6 6 6 6")
    events = run(g, d, "collision-fate A1")
    assert clicks(events, "A1") == 0
    assert clicks(events, "B1") == clicks(events, "B2") == 5  # loop until both gone at once


def test_aa_m64_declining_fate_takes_damage() -> None:
    g, d = ace_vs()
    run(g, d, "overlap A1 B1", "overlaps-done | 1 1 3 3")
    events = run(g, d, "no-collision-fate A1")
    assert clicks(events, "A1") >= 1 and not of(events, ev.FateClick)
