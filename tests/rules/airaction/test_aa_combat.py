"""Combat (seed 002 "Combat"; AA-M36..M47, AA-M49, AA-T06, AA-A02, AA-A03, AA-A13)."""

from __future__ import annotations

import pytest
from aa_helpers import GD, clicks, new_game, of, plan_all_cruise, run, start
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.actions import PassShot, Shoot
from dialtray.rules.airaction.game import SquadronPlane
from dialtray.rules.core.errors import IllegalActionError


def combat_game(
    squadrons: dict[str, list[SquadronPlane]] | None = None, speeds: dict[str, int] | None = None
) -> GD:
    """Both sides' first planes active at 5, moved, no overlaps -> combat, P1 shoots first."""
    g, d = new_game(squadrons)
    sp = {"A1": 5, "A2": 2, "B1": 5, "B2": 2}
    sp.update(speeds or {})
    start(g, d, sp)
    plan_all_cruise(g, d)
    return g, d


def test_aa_m45_each_die_ge_silhouette_hits_one_click() -> None:
    """AA-M45: each die >= silhouette (5) is a hit and one clockwise click."""
    g, d = combat_game()
    events = run(g, d, "shoot A1 front B1 | 5 6 4")
    shot = of(events, ev.ShotRolled)[0]
    assert (shot.dice, shot.target_number) == (3, 5)
    assert clicks(events, "B1") == 2 and g.plane("B1").combat_click == 2


def test_aa_m37_target_must_be_opposing_in_play() -> None:
    """AA-M37: the shot needs an opposing target (range is a reported fact)."""
    g, d = combat_game()
    with pytest.raises(IllegalActionError, match="AA-M37"):
        run(g, d, "shoot A1 front A2")


def test_aa_m40_firing_order_aggressor_then_clockwise() -> None:
    """AA-M40: the aggressor shoots first, then one plane at a time clockwise."""
    g, d = combat_game()
    assert g.to_move() == "P1"
    with pytest.raises(IllegalActionError, match="AA-M40"):
        run(g, d, "shoot B1 front A1 | 1 1 1")
    run(g, d, "pass A1")
    assert g.to_move() == "P2"
    run(g, d, "pass B1")
    assert g.state.speed == 2  # AA-M48 next speed


def test_aa_m36_one_shot_per_plane_per_turn() -> None:
    """AA-M36: a front-only plane shoots once."""
    g, d = combat_game(speeds={"A2": 5})
    run(g, d, "shoot A1 front B1 | 1 1 1", "pass B1")
    assert g.to_move() == "P1"
    with pytest.raises(IllegalActionError, match="AA-M36"):
        run(g, d, "shoot A1 front B1 | 1 1 1")


def test_aa_m38_aa_a02_rear_gunner_second_shot_at_next_opportunity() -> None:
    """AA-M38 / AA-A02: both weapons non-0: two shots, one per weapon, separate opportunities."""
    sq = {
        "P1": [SquadronPlane("A1", "gunner"), SquadronPlane("A2", "bravo")],
        "P2": [SquadronPlane("B1", "charlie"), SquadronPlane("B2", "alpha")],
    }
    g, d = combat_game(sq)
    run(g, d, "shoot A1 front B1 | 1 1")
    assert g.to_move() == "P2"
    run(g, d, "pass B1")
    assert g.to_move() == "P1"
    assert {a.weapon for a in g.legal_actions() if isinstance(a, Shoot)} == {"rear"}
    run(g, d, "shoot A1 rear B1 | 6 5")
    assert g.plane("B1").combat_click == 2


def test_aa_m38_rear_gunnery_zero_cannot_fire_rear() -> None:
    """AA-M38: only a plane with non-0 rear gunnery has a rear gunner."""
    g, d = combat_game()
    with pytest.raises(IllegalActionError, match="AA-M38"):
        run(g, d, "shoot A1 rear B1 | 1 1")


def test_aa_m39_rear_arc_bonus_die() -> None:
    """AA-M39: the whole firing marker in the target's rear arc: +1 attack die."""
    g, d = combat_game()
    events = run(g, d, "shoot A1 front B1 +rear-arc | 1 1 1 1")
    assert of(events, ev.ShotRolled)[0].dice == 4


def test_aa_m43_point_blank_silhouette_minus_one() -> None:
    """AA-M43: target within one marker: silhouette -1 (5 -> 4)."""
    g, d = combat_game()
    events = run(g, d, "shoot A1 front B1 +point-blank | 4 3 1")
    assert of(events, ev.ShotRolled)[0].target_number == 4 and clicks(events, "B1") == 1


def test_aa_m44_silhouette_capped_at_six_aa_a13_order() -> None:
    """AA-M44: modified silhouette > 6 counts as 6. AA-A13: speed-effect modifier (+2) first,
    then point-blank (-1), then the cap: 6 + 2 - 1 = 7 -> 6."""
    sq = {
        "P1": [SquadronPlane("A1", "effects"), SquadronPlane("A2", "bravo")],
        "P2": [SquadronPlane("B1", "gunner"), SquadronPlane("B2", "alpha")],
    }
    g, d = combat_game(sq)  # 'effects' at speed 5 shows t-blur: target silhouette +2
    events = run(g, d, "shoot A1 front B1 +point-blank | 6 6 6 5")
    shot = of(events, ev.ShotRolled)[0]
    assert shot.target_number == 6 and clicks(events, "B1") == 3


def test_aa_m41_m42_gunnery_speed_effect_modifies_dice() -> None:
    """AA-M41/AA-M42: a gunnery speed effect (-1 die at speed 4) changes the dice count;
    the optional skill on front gunnery adds +1 (AA-M03)."""
    sq = {
        "P1": [SquadronPlane("A1", "effects"), SquadronPlane("A2", "bravo")],
        "P2": [SquadronPlane("B1", "charlie"), SquadronPlane("B2", "alpha")],
    }
    g, d = combat_game(sq, {"A1": 4, "B1": 4})
    events = run(g, d, "shoot A1 front B1 | 1 1 1")
    assert of(events, ev.ShotRolled)[0].dice == 3 + 1 - 1


def test_aa_m46_three_bullet_holes_shot_down_stop_hits_aa_m54() -> None:
    """AA-M46: at three bullet holes stop applying hits and remove; AA-M54 2x VP at once."""
    g, d = combat_game(speeds={"A2": 5})
    run(g, d, "shoot A1 front B1 | 6 6 6", "pass B1")  # B1 clicks 0 -> 3 (one hole)
    assert g.plane("B1").in_play and g.state.vp["P1"] == 0
    events = run(g, d, "shoot A2 front B1 +rear-arc | 6 6 6 6")  # 4 hits, only 2 applied
    assert clicks(events, "B1") == 2 and g.plane("B1").combat_click == 5
    assert not g.plane("B1").in_play and g.state.vp["P1"] == 2 * 50
    assert of(events, ev.PlaneRemoved)[0].reason == "shot down"
    assert g.state.shot_down["P1"] == 1


def test_aa_t06_aa_m49_aa_a03_three_hitting_dice_three_clicks() -> None:
    """AA-T06 / AA-M49 caption, AA-A03: three hitting dice deal exactly three clicks; no extra
    critical-hit rule."""
    g, d = combat_game()
    events = run(g, d, "shoot A1 front B1 | 5 6 5")
    assert clicks(events, "B1") == 3 and of(events, ev.ShotResolved)[0].hits == 3


def test_aa_m47_special_weapons_data_missing_reported() -> None:
    """AA-M47: special weapons and ammo live on the (missing) Skills & Equipment card: an
    unmapped colour on a plane's dial is reported as unknown at initiative, never guessed."""
    sq = {
        "P1": [SquadronPlane("A1", "effects"), SquadronPlane("A2", "bravo")],
        "P2": [SquadronPlane("B1", "charlie"), SquadronPlane("B2", "alpha")],
    }
    g, d = new_game(sq)
    run(g, d, "first-player | 6 6 1 1", "deploy P1", "deploy P2")
    events = run(g, d, "initiative | 6 6 1 1")
    assert [(e.plane, e.colour) for e in of(events, ev.UnknownEffect)] == [("A1", "mauve")]


def test_pass_listed_and_shoot_combinations_listed() -> None:
    g, _d = combat_game()
    acts = g.legal_actions()
    assert PassShot("A1") in acts and Shoot("A1", "front", "B2", True, True, False) in acts
