"""Campaign (seed 002 "Playing a Crimson Skies: Air Action Campaign", "Gaining Experience",
"Bailing Out", "Heroic Acts"; AA-M71..M80, AA-T03, AA-T04, AA-A09, AA-A10)."""

from __future__ import annotations

from pathlib import Path

import pytest
from aa_helpers import (
    CAT,
    clicks,
    dial,
    fig_doc,
    make_catalogue,
    new_game,
    of,
    plan_all_cruise,
    run,
    start,
)
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.actions import BailOut
from dialtray.rules.airaction.campaign import Campaign, advance, apply_game, xp_to_advance
from dialtray.rules.airaction.catalogue import builtin
from dialtray.rules.airaction.game import AirActionGame, SquadronPlane
from dialtray.rules.core.dice import ManualDice
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Event


def test_aa_t03_aa_m73_advancement_threshold() -> None:
    """AA-T03 / AA-M73: Veteran (x4) needs 400 XP; Rookie 100, Ace 500, Double Ace 1000."""
    fig = CAT.figures["alpha"]
    assert [xp_to_advance(fig, lv) for lv in ("rookie", "veteran", "ace", "double_ace")] == [
        100,
        400,
        500,
        1000,
    ]
    assert xp_to_advance(fig, "legend") is None  # AA-A09: Legend is terminal


def test_aa_t04_aa_m72_show_stopper_card_pv_and_multipliers() -> None:
    """AA-T04 / AA-M72: Show-stopper PV 53/60/70/80 with multipliers x1/x4/x5/x10, #009."""
    fig = builtin().figures["sample-loyle-crawford"]
    levels = ("rookie", "veteran", "ace", "double_ace")
    assert [fig.levels[lv].points for lv in levels] == [53, 60, 70, 80]
    assert [fig.levels[lv].multiplier for lv in levels] == [1, 4, 5, 10]
    assert fig.collector_number == "009"


def test_aa_m71_campaign_starts_rookie_aa_a09_carry_over(tmp_path: Path) -> None:
    """AA-M71: pilots start as Rookies. AA-A09: XP resets on advancement, excess carries."""
    camp = Campaign()
    rec = camp.add_pilot("Ann", "alpha")
    assert rec.level == "rookie"
    rec.xp = 100 + 400 + 30
    assert advance(rec, CAT) == ["veteran", "ace"] and rec.xp == 30
    camp.save(tmp_path / "c.json")
    again = Campaign.load(tmp_path / "c.json")
    assert again.pilots["Ann"].level == "ace" and again.pilots["Ann"].xp == 30


def shot_down_in_campaign(bail: str, faces: str) -> tuple[AirActionGame, ManualDice, list[Event]]:
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "alpha"), SquadronPlane("A2", "bravo")],
            "P2": [SquadronPlane("B1", "charlie", "veteran"), SquadronPlane("B2", "gunner")],
        },
        campaign=True,
    )
    start(g, d, {"A1": 5, "A2": 5, "B1": 5, "B2": 2})
    plan_all_cruise(g, d)
    events = run(g, d, "shoot A1 front B1 +rear-arc +point-blank | 6 6 6 6", "pass B1")
    events += run(g, d, "shoot A2 front B1 +rear-arc +point-blank | 6 6 6 6")
    assert g.legal_actions()[0] == BailOut("B1", "none")
    events += run(g, d, f"bail-out B1 {bail} | {faces}")
    return g, d, events


def test_aa_m77_campaign_overflow_until_structural_limit_aa_m76_bail_out_value() -> None:
    """AA-M77: in a campaign, hits keep clicking after three bullet holes until all are assigned
    or the structural limit line shows (click 7 here); AA-M76: bail out value of that click."""
    g, _d, events = shot_down_in_campaign("none", "6 6")
    assert g.plane("B1").combat_click == 7  # 4 + 4 hits, stopped at the limit line
    assert clicks(events, "B1") == 7
    assert of(events, ev.BailedOut)[0].needed == CAT.figures["charlie"].combat_dial[7].bail_out


def test_aa_m78_m79_bail_out_roll_with_level_modifier() -> None:
    """AA-M78: 2d6 (+ AA-M79 Veteran +1) >= bail out value (10 at click 7) survives, 25 XP."""
    g, _d, events = shot_down_in_campaign("none", "5 4")  # 9 + 1 = 10
    b = of(events, ev.BailedOut)[0]
    assert (b.total, b.needed, b.success) == (10, 10, True) and g.state.xp["B1"] == 25
    g2, _d2, events2 = shot_down_in_campaign("none", "4 4")  # 8 + 1 = 9 < 10
    assert not of(events2, ev.BailedOut)[0].success and "B1" in g2.state.dead
    assert g2.state.xp["A2"] == 100  # AA-M74 shot down by the pilot's shot


def test_aa_m80_heroic_act_raises_value_and_pays_xp() -> None:
    """AA-M80: one memento +1 (25 XP), two +2 (50), crash site +3 (100), only on success."""
    g, _d, events = shot_down_in_campaign("crash-site", "6 6")  # 12 + 1 = 13 >= 10 + 3
    b = of(events, ev.BailedOut)[0]
    assert b.needed == 13 and b.success and g.state.xp["B1"] == 25 + 100
    g2, _d2, _e2 = shot_down_in_campaign("two-mementos", "5 5")  # 11 < 12
    assert g2.state.xp["B1"] == 0 and "B1" in g2.state.dead


def test_aa_m78_bail_out_must_come_first() -> None:
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "alpha"), SquadronPlane("A2", "bravo")],
            "P2": [SquadronPlane("B1", "charlie", "veteran"), SquadronPlane("B2", "gunner")],
        },
        campaign=True,
    )
    start(g, d, {"A1": 5, "A2": 5, "B1": 5, "B2": 2})
    plan_all_cruise(g, d)
    run(g, d, "shoot A1 front B1 +rear-arc +point-blank | 6 6 6 6", "pass B1")
    run(g, d, "shoot A2 front B1 +rear-arc +point-blank | 6 6 6 6")
    with pytest.raises(IllegalActionError, match="AA-M78"):
        run(g, d, "pass B2")


def test_aa_a10_bail_out_after_collision_destruction_not_after_leaving() -> None:
    """AA-A10: a campaign plane destroyed by other means bails out; one that left does not."""
    g, d = new_game(
        {
            "P1": [SquadronPlane("A1", "alpha"), SquadronPlane("A2", "bravo")],
            "P2": [SquadronPlane("B1", "charlie"), SquadronPlane("B2", "gunner")],
        },
        campaign=True,
    )
    start(g, d, {"A1": 5, "A2": 5, "B1": 5, "B2": 2})
    run(g, d, "plan A1 Cruise straight", "plan A2 Cruise straight", "plan B1 Cruise straight")
    run(g, d, "left A2", "moved A1", "moved B1")
    assert not g.state.bailouts
    run(g, d, "overlap A1 B1", "overlaps-done | 1 1 3 3")
    assert g.state.bailouts == ["A1", "B1"]


def test_aa_m74_xp_table_and_m75_survive_and_win() -> None:
    """AA-M74: 100 per shot down, 25 for remaining and winning."""
    g, d = new_game(
        {"P1": [SquadronPlane("A1", "alpha")], "P2": [SquadronPlane("B1", "bravo")]}, campaign=True
    )
    start(g, d, {"A1": 5, "B1": 5})
    plan_all_cruise(g, d)
    run(g, d, "shoot A1 front B1 +rear-arc +point-blank | 6 6 6 6", "pass B1")
    run(g, d, "initiative | 6 6 1 1", "throttle A1 0", "throttle B1 0")
    plan_all_cruise(g, d)
    run(g, d, "shoot A1 front B1 | 6 1 1", "bail-out B1 | 6 6")
    assert g.outcome() is not None
    assert g.state.xp["A1"] == 100 + 25 and g.state.xp["B1"] == 25
    camp = Campaign()
    camp.add_pilot("Ann", "alpha")
    camp.add_pilot("Bob", "bravo")
    report = apply_game(camp, g, {"A1": "Ann", "B1": "Bob"})
    assert camp.pilots["Ann"].level == "veteran" and camp.pilots["Ann"].xp == 25
    assert "Ann advances to veteran" in report


def test_aa_m78_dead_pilot_collects_no_more_xp_and_cannot_fly() -> None:
    g, _d, _e = shot_down_in_campaign("none", "1 1")
    camp = Campaign()
    for name, fig in (("a1", "alpha"), ("a2", "bravo"), ("b1", "charlie"), ("b2", "gunner")):
        camp.add_pilot(name, fig)
    g.apply(g.parse_action("end agreed"))
    apply_game(camp, g, {"A1": "a1", "A2": "a2", "B1": "b1", "B2": "b2"})
    assert not camp.pilots["b1"].alive
    with pytest.raises(ValueError, match="AA-M78"):
        camp.squadron_plane("b1", "X1")


def test_aa_m75_surviving_a_serious_collision_value_missing_no_xp() -> None:
    """AA-M75: "surviving serious collisions" earns XP but the text gives no value: the engine
    awards none (and says so in docs/rules-decisions.md) rather than invent one."""
    cat = make_catalogue([fig_doc("fragile", combat_dial=dial(holes=[0, 1, 2, 3, 3, 3]))])
    g, d = new_game(
        {"P1": [SquadronPlane("A1", "alpha")], "P2": [SquadronPlane("B1", "fragile")]},
        campaign=True,
        catalogue=cat,
    )
    start(g, d, {"A1": 5, "B1": 5})
    run(g, d, "plan A1 Cruise straight", "plan B1 Cruise straight", "moved A1", "moved B1")
    events = run(g, d, "overlap A1 B1", "overlaps-done | 1 1 6 6")
    assert g.plane("A1").in_play and not g.plane("B1").in_play  # A1 survived the loop
    assert not of(events, ev.XPAwarded) and g.state.xp["A1"] == 0
