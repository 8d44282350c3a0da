"""Daring feats (seed 002 "Performing a Daring Feat", "Daring Feat Table"; AA-M66..M70,
AA-T05, AA-A05, AA-A06, AA-A14)."""

from __future__ import annotations

import pytest
from aa_helpers import GD, clicks, new_game, of, run, start
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.actions import DaringFeat, FeatChoice, Plan
from dialtray.rules.airaction.game import SquadronPlane
from dialtray.rules.core.errors import IllegalActionError


def overlapping(target: SquadronPlane | None = None, campaign: bool = False) -> GD:
    g, d = new_game(
        {
            "P1": [
                SquadronPlane("A1", "ace-plane", "rookie", "test-ace"),
                SquadronPlane("A2", "alpha"),
            ],
            "P2": [target or SquadronPlane("B1", "charlie"), SquadronPlane("B2", "bravo")],
        },
        campaign=campaign,
    )
    start(g, d, {"A1": 5, "A2": 2, "B1": 5, "B2": 2})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight", "moved A1", "moved B1")
    return g, d


def test_aa_t05_daring_feat_table_boundaries() -> None:
    """AA-T05 / AA table 1: totals 8, 9, 12, 13, 14, 15."""
    g, _ = overlapping()
    got = [g.feat_result("A1", "B1", t)[0] for t in (8, 9, 12, 13, 14, 15)]
    assert got == [
        "Missed Opportunity",
        "Winged 'Em",
        "Winged 'Em",
        "Timely Distraction",
        "Timely Distraction",
        "Enjoy the Ride",
    ]


def test_aa_m66_feat_only_after_overlap_without_collision_aa_a05() -> None:
    """AA-M66 / AA-A05: overlapping an opposing final marker and every check passed."""
    g, d = overlapping()
    run(g, d, "overlap A1 B1", "overlaps-done | 4 4 4 4")
    assert g.state.phase == "feats" and DaringFeat("A1", "B1") in g.legal_actions()


def test_aa_a05_failed_check_means_collision_no_feat() -> None:
    g, d = overlapping()
    run(g, d, "overlap A1 B1", "overlaps-done | 4 4 1 2")
    assert g.state.phase == "combat"
    with pytest.raises(IllegalActionError, match="AA-M66"):
        run(g, d, "feat A1 B1 | 6 6")


def test_aa_a05_fate_avoided_two_plane_collision_counts_as_no_collision() -> None:
    g, d = overlapping()
    run(g, d, "overlap A1 B1", "overlaps-done | 1 1 4 4", "collision-fate A1")
    assert g.state.phase == "feats"


def test_aa_m67_m68_winged_em_one_click() -> None:
    """AA-M67: 2d6 + attack (3). AA-M68: 9-12 Winged 'Em, 1 click to the target."""
    g, d = overlapping()
    run(g, d, "overlap A1 B1", "overlaps-done | 4 4 4 4")
    events = run(g, d, "feat A1 B1 | 3 3")  # 6 + 3 = 9
    assert of(events, ev.FeatRolled)[0].total == 9 and clicks(events, "B1") == 1
    assert g.state.phase == "combat"


def test_aa_m67_missed_opportunity() -> None:
    g, d = overlapping()
    run(g, d, "overlap A1 B1", "overlaps-done | 4 4 4 4")
    events = run(g, d, "feat A1 B1 | 2 3")  # 8
    assert of(events, ev.FeatRolled)[0].result == "Missed Opportunity" and clicks(events, "B1") == 0


def test_aa_m69_timely_distraction_random_next_card_aa_a14() -> None:
    """AA-M69: the target's next card is chosen at random (AA-A14: uniformly among its legal
    cards and paths, by d6 rolls); the Ace may take Winged 'Em instead."""
    g, d = overlapping()
    run(g, d, "overlap A1 B1", "overlaps-done | 4 4 4 4", "feat A1 B1 | 5 5")  # 13
    assert set(g.legal_actions()) == {FeatChoice("A1", "distraction"), FeatChoice("A1", "winged")}
    run(g, d, "feat-choice A1 distraction")
    assert g.plane("B1").random_card_next
    run(g, d, "pass A1", "pass B1", "plan A2 Cruise straight", "plan B2 Cruise straight")
    run(g, d, "moved A2", "moved B2", "overlaps-done", "pass A2", "pass B2")
    run(
        g,
        d,
        "initiative | 6 6 1 1",
        "throttle A1 0",
        "throttle A2 0",
        "throttle B1 0",
        "throttle B2 0",
    )
    run(g, d, "plan A1 Cruise straight")
    assert g.legal_actions() == [Plan("B1", "random")]
    with pytest.raises(IllegalActionError, match="AA-M69"):
        run(g, d, "plan B1 Cruise straight")
    legal = g.legal_cards("B1")
    assert len(legal) == 16  # every basic card/path legal at speed 5: two d6 choose
    events = run(g, d, "plan B1 random | 1 2")  # (1-1)*6 + (2-1) = 1 -> the second option
    planned = of(events, ev.CardPlanned)[0]
    assert planned.random and (planned.card, planned.path) == legal[1]
    assert not g.plane("B1").random_card_next


def test_aa_m70_enjoy_the_ride_commandeers_aa_a06() -> None:
    """AA-M70 / AA-A06: 15+: the Ace takes the enemy plane with its current values; its own
    plane leaves play with no VP; the capture scores as shot down (2x)."""
    g, d = overlapping(campaign=True)
    run(g, d, "overlap A1 B1", "overlaps-done | 4 4 4 4", "feat A1 B1 | 6 6")  # 15
    assert FeatChoice("A1", "ride") in g.legal_actions()
    events = run(g, d, "feat-choice A1 ride")
    assert g.plane("B1").owner == "P1" and g.plane("B1").ace == "test-ace"
    assert not g.plane("A1").in_play and g.state.vp["P1"] == 2 * g.plane_value("B1")
    assert g.state.shot_down["P1"] == 1 and g.state.vp["P2"] == 0
    assert g.state.xp["A1"] == 150  # AA-M74: 50 + 100 as if shot down
    thrown = of(events, ev.BailedOut)[0]
    assert thrown.success and thrown.needed == 0 and g.state.xp["B1"] == 25


def test_aa_m70_ride_becomes_distraction_rear_gunnery_zero_or_enemy_ace() -> None:
    """AA-M70: rear gunnery 0, or an enemy plane with an associated Ace: Timely Distraction."""
    g, d = overlapping(SquadronPlane("B1", "ace-plane-2", "rookie", "test-ace-2"))
    run(g, d, "overlap A1 B1", "overlaps-done | 4 4 4 4", "feat A1 B1 | 6 6")
    assert FeatChoice("A1", "ride") not in g.legal_actions()
    assert FeatChoice("A1", "distraction") in g.legal_actions()
    with pytest.raises(IllegalActionError, match="AA-M70"):
        run(g, d, "feat-choice A1 ride")
