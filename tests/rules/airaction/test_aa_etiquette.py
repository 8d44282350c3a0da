"""Etiquette as validation, optional skills, disputes (seed 002 "Crimson Skies Etiquette",
"Pilot and Plane", glossary "click"; AA-M04, AA-M81, AA-M84, AA-M85, AA-A11)."""

from __future__ import annotations

import pytest
from aa_helpers import finish_turn, new_game, of, plan_all_cruise, run, start
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.dials import verify
from dialtray.rules.airaction.game import SquadronPlane
from dialtray.rules.core.dials import Dial
from dialtray.rules.core.errors import IllegalActionError


def test_aa_m84_dispute_die_1_3_not_allowed_4_6_allowed() -> None:
    """AA-M84 Etiquette 4: roll 1d6; 1-3 the order is not allowed, 4-6 allowed."""
    g, d = new_game()
    start(g, d)
    for face in range(1, 7):
        events = run(g, d, f"dispute shot nicks the marker | {face}")
        assert g.dispute_allowed(events) is (face >= 4)
    assert g.state.phase == "plan"  # a dispute changes nothing else


def test_aa_m85_click_directions_damage_cw_throttle_up_ccw() -> None:
    """AA-M85: a click is clockwise; throttling up is counter-clockwise (AA-M02)."""
    g, d = new_game()
    start(g, d)
    finish_turn(g, d)
    run(g, d, "initiative | 6 6 1 1", "throttle A1 +1")
    (up,) = g.dial_changes()
    assert (up.figure, up.dial, up.direction, up.clicks, up.rule_id) == (
        "A1",
        "speed",
        "counter-clockwise",
        1,
        "AA-M19",
    )
    run(g, d, "throttle A2 -2 | 1 1")  # failed two-click check: 1 damage click, speed unchanged
    assert [(c.figure, c.dial, c.direction, c.clicks, c.rule_id) for c in g.dial_changes()] == [
        ("A2", "combat", "clockwise", 1, "AA-M20")
    ]


def test_aa_m81_verify_dials_says_what_to_put_right() -> None:
    """AA-M81: dials show only what the rules clicked; a mismatch becomes an instruction."""
    g, d = new_game()
    start(g, d)
    plan_all_cruise(g, d)
    run(g, d, "shoot A1 front B1 | 6 5 1")
    want = g.plane("B1").combat_click
    assert want == 2
    b1_speed = g.plane("B1").speed_index
    assert b1_speed is not None
    dials = g.dials()
    assert verify(dials, {Dial("B1", "combat"): 2, Dial("B1", "speed"): b1_speed}) == []
    assert verify(dials, {Dial("B1", "combat"): 0}) == ["B1 combat dial: turn 2 clicks clockwise"]
    assert verify(dials, {Dial("B1", "combat"): 3}) == [
        "B1 combat dial: turn 1 click counter-clockwise"
    ]
    idx = g.plane("A1").speed_index
    assert idx is not None
    assert verify(g.dials(), {Dial("A1", "speed"): idx - 1}) == [
        "A1 speed dial: turn 1 click counter-clockwise"
    ]


def test_aa_m04_cancel_optional_until_turn_end_aa_a11_reactivates() -> None:
    """AA-M04: cancel an optional skill at any time; AA-A11: it reactivates at the start of the
    next game turn."""
    g, d = new_game({"P1": [SquadronPlane("A1", "effects")], "P2": [SquadronPlane("B1", "alpha")]})
    start(g, d, {"A1": 1, "B1": 1})
    assert g.gunnery_modifiers("A1", "front")[0] == 1
    events = run(g, d, "cancel A1 front_gunnery")
    assert of(events, ev.OptionalCanceled) and g.gunnery_modifiers("A1", "front")[0] == 0
    with pytest.raises(IllegalActionError, match="AA-M04"):
        run(g, d, "cancel A1 front_gunnery")
    with pytest.raises(IllegalActionError, match="AA-M04"):
        run(g, d, "cancel A1 piloting")  # mauve: unknown colour, not a known optional effect
    finish_turn(g, d)
    run(g, d, "initiative | 6 6 1 1")
    assert g.gunnery_modifiers("A1", "front")[0] == 1
