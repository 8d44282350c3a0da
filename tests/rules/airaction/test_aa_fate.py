"""Aces as pilots and fate (seed 002 "Using Crimson Skies: Aces Characters ...", "Fate";
AA-M10, AA-M60..M65, AA-T01, AA-T02, AA-A01, AA-A15, AA-A16)."""

from __future__ import annotations

import pytest
from aa_helpers import (
    GD,
    LOYLE,
    MILITIA,
    clicks,
    into_turn_two,
    loyle_vs_militia,
    new_game,
    of,
    plan_all_cruise,
    run,
    start,
)
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.actions import DefensiveFate, Shoot
from dialtray.rules.airaction.catalogue import builtin
from dialtray.rules.airaction.game import AirActionGame, SquadronPlane
from dialtray.rules.core.errors import IllegalActionError


def _ace(g: AirActionGame, pid: str) -> tuple[int, int, bool]:
    v = g.ace_values(pid)
    assert v is not None
    return v


CHARLIE = SquadronPlane("C", "sample-charlie-steele", "rookie", "sample-ace-charlie-steele")


def duel(p1: SquadronPlane, p2: SquadronPlane, speeds: dict[str, int]) -> GD:
    g, d = new_game({"P1": [p1], "P2": [p2]}, catalogue=builtin())
    start(g, d, speeds)
    plan_all_cruise(g, d)
    return g, d


def test_aa_t01_loyle_offensive_fate_six_dice_aa_a01_aa_m62() -> None:
    """AA-T01 (AA-M62, read per AA-A01): gunnery 3 + fate 3 = six dice vs silhouette 5; after
    the shot Loyle's Ace dial takes one click, his plane none for the fate."""
    g, d = duel(LOYLE, MILITIA, {"L": 5, "M": 5})
    assert g.combat_values("L")["front_gunnery"] == 3 and _ace(g, "L")[:2] == (3, 3)
    events = run(g, d, "shoot L front M +fate | 5 5 1 2 6 3")
    shot = of(events, ev.ShotRolled)[0]
    assert (shot.dice, shot.target_number) == (6, 5)
    assert clicks(events, "M") == 3 and clicks(events, "L") == 0
    assert [f.ace for f in of(events, ev.FateClick)] == ["L"] and g.plane("L").ace_click == 1
    assert isinstance(events[-1], ev.ShooterTurn | ev.PhaseChanged)  # click at end of action
    fate_i = next(i for i, e in enumerate(events) if isinstance(e, ev.FateClick))
    dmg_i = next(i for i, e in enumerate(events) if isinstance(e, ev.DamageClicks))
    assert dmg_i < fate_i


def test_aa_t02_charlie_defensive_fate_only_natural_six_lands() -> None:
    """AA-T02 (AA-M63): silhouette 4, enemy rolls 4 4 5 6 = 4 hits; fate 2 used defensively
    prevents three; the plane takes 1 click and, after the action, the Ace dial 1 click."""
    g, d = duel(MILITIA, CHARLIE, {"M": 5, "C": 5})
    assert g.cat.figures["sample-charlie-steele"].silhouette == 4 and _ace(g, "C")[1] == 2
    run(g, d, "shoot M front C +rear-arc | 4 4 5 6")
    assert g.to_move() == "P2" and set(g.legal_actions()) == {
        DefensiveFate("C", True),
        DefensiveFate("C", False),
    }
    events = run(g, d, "fate C")
    assert clicks(events, "C") == 1 and of(events, ev.ShotResolved)[0].prevented == 3
    assert g.plane("C").ace_click == 1
    assert isinstance(
        [e for e in events if isinstance(e, ev.DamageClicks | ev.FateClick)][-1], ev.FateClick
    )


def test_aa_m63_defensive_fate_needs_fate_above_zero() -> None:
    """AA-M63: fate value must be > 0 to be used defensively (no offer at fate 0)."""
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "alpha"), SquadronPlane("A2", "bravo")],
            "P2": [SquadronPlane("B1", "ace-plane-2", "rookie", "test-ace-2")],
        }
    )
    start(g, d, {"A1": 5, "A2": 5, "B1": 5})
    for p in ("A1", "A2", "B1"):
        run(g, d, f"plan {p} Cruise straight")
    run(g, d, "moved A1", "moved A2", "moved B1", "overlaps-done")
    # B1's Ace (fate 2) uses fate offensively: click 1 shows fate 0 ...
    run(g, d, "pass A1", "shoot B1 front A1 +fate | 1 1 1 1 1")
    assert _ace(g, "B1")[1] == 0
    # ... and fate is once per turn anyway: next shot at B1 gets no defensive offer
    events = run(g, d, "shoot A2 front B1 | 4 4 1")
    assert clicks(events, "B1") == 2 and g.state.shot is None


def test_aa_m61_fate_once_per_turn() -> None:
    """AA-M61: each Ace may use fate only once per turn: after a front shot with fate, the
    rear shot of the same turn cannot use it again."""
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "ace-plane", "rookie", "test-ace")],
            "P2": [SquadronPlane("B1", "alpha"), SquadronPlane("B2", "bravo")],
        }
    )
    start(g, d, {"A1": 5, "B1": 5, "B2": 5})
    plan_all_cruise(g, d)
    run(g, d, "shoot A1 front B1 +fate | 1 1 1 1 1 1", "pass B1")
    assert g.plane("A1").fate_used and g.to_move() == "P1"
    assert {(a.weapon, a.fate) for a in g.legal_actions() if isinstance(a, Shoot)} == {
        ("rear", False)
    }
    with pytest.raises(IllegalActionError, match="AA-M61"):
        run(g, d, "shoot A1 rear B2 +fate | 1 1 1 1")


def test_aa_m65_fate_zero_offensive_adds_no_dice_but_clicks() -> None:
    """AA-M65: an Ace at fate 0 may use fate offensively: no dice, still the Ace-dial click."""
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "ace-plane-2", "rookie", "test-ace-2")],
            "P2": [SquadronPlane("B1", "alpha")],
        }
    )
    start(g, d, {"A1": 5, "B1": 5})
    into_turn_two(g, d, "shoot A1 front B1 +fate | 1 1 1 1 1", "pass B1")
    assert _ace(g, "A1")[1] == 0
    events = run(g, d, "shoot A1 front B1 +fate | 1 1 1")
    assert of(events, ev.ShotRolled)[0].dice == 3 and g.plane("A1").ace_click == 2
    assert _ace(g, "A1")[1] == 1  # "a point on the dial where fate is greater than 0"


def test_aa_m60_ace_only_attack_and_fate_used_plane_dial_takes_damage() -> None:
    """AA-M60: the Ace stays off the table; only its attack and fate are used; damage goes on
    the plane's dial, never the Ace's."""
    g, d = duel(MILITIA, CHARLIE, {"M": 5, "C": 5})
    run(g, d, "shoot M front C | 6 4 4")
    events = run(g, d, "no-fate C")
    assert clicks(events, "C") == 3 and g.plane("C").ace_click == 0


def test_aa_m10_aces_need_build_total_300_and_their_own_plane() -> None:
    """AA-M10: with Aces the build total should be >= 300 (an error when strict, else a
    warning: test_aa_rule_followups); an Ace flies its corresponding plane and its points are
    added to the plane's."""
    with pytest.raises(IllegalActionError, match="AA-M10"):
        loyle_vs_militia(build_total=200, strict_build_total=True)
    with pytest.raises(IllegalActionError, match="AA-M10"):
        new_game(
            {
                "P1": [
                    SquadronPlane(
                        "X", "sample-militia-fighter", "rookie", "sample-ace-loyle-crawford"
                    )
                ],
                "P2": [MILITIA],
            },
            catalogue=builtin(),
        )
    g, _ = loyle_vs_militia()
    assert g.build_points("P1") == 53 + g.cat.aces["sample-ace-loyle-crawford"].points


def test_aa_a15_ko_ace_can_no_longer_use_fate() -> None:
    """AA-A15: once the Ace dial shows KO, no more fate; the plane keeps flying."""
    g, _d = duel(LOYLE, MILITIA, {"L": 5, "M": 5})
    g.state.planes["L"].ace_click = len(g.cat.aces["sample-ace-loyle-crawford"].dial) - 1
    assert _ace(g, "L")[2] is True
    assert not g.ace_can_use_fate("L", defensive=False)
    assert not any(isinstance(a, Shoot) and a.fate for a in g.legal_actions())


def test_aa_a16_no_defensive_fate_against_non_shot_damage() -> None:
    """AA-A16: defensive fate only against a shot (and serious collisions): a failed
    two-click throttle check on an Ace's plane offers no fate."""
    g, d = duel(CHARLIE, MILITIA, {"C": 5, "M": 5})
    run(g, d, "pass C", "pass M")
    assert g.state.turn == 2
    run(g, d, "initiative | 6 6 1 1")
    events = run(g, d, "throttle C +2 | 1 1")
    assert clicks(events, "C") == 1 and not of(events, ev.FateClick) and g.to_move() == "P2"
