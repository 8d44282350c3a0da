"""Combat: AC-M11..M13, AC-M28..M38, AC-M60..M62, AC-M73 and worked example AC-T04 ("Combat",
"Ranged Combat", "Close Combat", "Resolving an Attack")."""

from __future__ import annotations

import pytest
from aces_helpers import catalogue_with, feed, make_game
from dialtray.rules.aces import events as ev
from dialtray.rules.aces.figures import Click
from dialtray.rules.core.errors import IllegalActionError


def illegal(g: object, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        g.push_text(text)  # type: ignore[attr-defined]
    return info.value


def test_T04_two_pistols_one_die_per_target() -> None:
    """AC-T04: Charlie (attack 3, two pistols) shoots Show-stopper and Genghis; dice 2, 3, 5; the
    5 goes to Show-stopper (one hit); neither the 2 nor the 3 hits Genghis."""
    cat = catalogue_with(charlie={"pistols": 2})
    g = make_game({"charlie": "c3"}, {"show-stopper": "e6", "genghis": "b7"}, catalogue=cat)
    feed(g, 2, 3, 5)
    g.push_text("shoot charlie show-stopper,genghis")
    assert g.turn.phase == "assign"
    with pytest.raises(IllegalActionError):
        g.push_text("assign show-stopper=3 genghis=3")  # one die per target
    g.push_text("assign show-stopper=3 genghis=1")
    g.push_text("nofate show-stopper")  # he could prevent the 5
    assert g.char("show-stopper").click == 1
    assert g.char("genghis").click == 0


def test_M34_multi_target_never_more_than_one_click_each() -> None:
    """AC-M34: a target of a multiple attack never takes more than 1 click from it."""
    cat = catalogue_with(charlie={"pistols": 2})
    g = make_game({"charlie": "c3"}, {"show-stopper": "e6", "genghis": "b7"}, catalogue=cat)
    feed(g, 6, 6, 6)
    g.push_text("shoot charlie show-stopper,genghis")
    g.push_text("assign show-stopper=1 genghis=2")
    for ace in ("show-stopper", "genghis"):  # natural sixes: fate is pointless (D-AC-05)
        assert g.fate_would_prevent(ace) == 0
        g.push_text(f"nofate {ace}")
    assert g.char("show-stopper").click == 1 and g.char("genghis").click == 1
    g2 = make_game({"charlie": "c3"}, {"show-stopper": "e6", "genghis": "b7"}, catalogue=cat)
    assert illegal(g2, "shoot charlie show-stopper,show-stopper").mechanic == "AC-M34"
    g3 = make_game({"charlie": "c3"}, {"show-stopper": "e6", "genghis": "b7"})
    assert illegal(g3, "shoot charlie show-stopper,genghis").mechanic == "AC-M34"  # 1 pistol


def test_M28_one_attack_per_action_and_M38_turn_passes() -> None:
    """AC-M28 one attack per action; AC-M38 once combat resolves the turn passes."""
    g = make_game({"charlie": "c3", "vigilante": "j10"}, {"genghis": "c6"})
    feed(g, 1, 1, 1)
    g.push_text("shoot charlie genghis")
    assert g.turn.player == 1 and g.state.turn_number == 2


def test_M29_no_friendly_or_self_target() -> None:
    """AC-M29 (Combat): "A character may not target a friendly character with a damaging attack",
    nor "target itself with an attack"."""
    g = make_game({"charlie": "c3", "vigilante": "c5"}, {"genghis": "j10"})
    assert illegal(g, "shoot charlie vigilante").mechanic == "AC-M29"
    assert illegal(g, "shoot charlie charlie").mechanic == "AC-M29"


def test_M30_ranged_needs_range_and_no_adjacent_enemy() -> None:
    """AC-M30: range > 0 and not adjacent to any enemy character."""
    g = make_game({"charlie": "c3", "ruffian": "h3"}, {"genghis": "c4", "louis": "c8"})
    assert illegal(g, "shoot charlie louis").mechanic == "AC-M30"  # Genghis is adjacent
    assert illegal(g, "shoot ruffian louis").mechanic == "AC-M30"  # range 0


def test_M31_M32_line_of_fire_and_range_in_the_engine() -> None:
    """AC-M31 a character in the way blocks; AC-M32 the target must be within range."""
    g = make_game({"charlie": "c1", "vigilante": "c4"}, {"genghis": "c7", "louis": "j10"})
    assert illegal(g, "shoot charlie genghis").mechanic == "AC-M31"
    g2 = make_game({"charlie": "a1"}, {"genghis": "a8"})
    assert g2.char("charlie").figure.range == 6
    assert illegal(g2, "shoot charlie genghis").mechanic == "AC-M32"  # 7 squares away


def test_M33_may_shoot_an_enemy_adjacent_to_a_friend() -> None:
    """AC-M33 (Ranged Combat): "You may use a ranged combat attack to target an enemy figure that
    is adjacent to a friendly character": Genghis, next to the Vigilante, is a legal target and
    takes the hits."""
    g = make_game({"charlie": "c1", "vigilante": "f6"}, {"genghis": "e6", "ruffian": "j10"})
    assert g.adjacent(g.char("vigilante"), g.char("genghis"))
    assert g.line_of_fire("charlie", "genghis").clear
    assert "shoot charlie genghis" in {a.text() for a in g.legal_actions()}
    feed(g, 4, 4, 1)
    out = g.push_text("shoot charlie genghis")
    roll = next(e for e in out if isinstance(e, ev.AttackRolled))
    assert (roll.kind, roll.targets) == ("ranged", ("genghis",))
    out += g.push_text("nofate genghis")
    assert next(e for e in out if isinstance(e, ev.Damaged)).label == "genghis"
    assert g.char("genghis").click == 2 and g.turn.player == 1


def test_M35_close_combat_needs_adjacency_not_across_a_wall() -> None:
    """AC-M35 / AC-M65: adjacent only; figures across blocking terrain are not adjacent."""
    rows = [". . . .", "", ". .|. .", "", ". . . ."]
    g = make_game({"genghis": "b2"}, {"vigilante": "c2"}, rows=rows)
    assert illegal(g, "close genghis vigilante").mechanic == "AC-M35"
    g2 = make_game({"genghis": "b2"}, {"vigilante": "c3"})
    feed(g2, 1, 1, 1, 1)
    g2.push_text("close genghis vigilante")
    assert g2.char("vigilante").on_map


def test_M36_hits_are_dice_at_least_defense_capped_at_six() -> None:
    """AC-M36: each die >= defense hits; a defense over 6 counts as 6 (AC-A11 after +1)."""
    cat = catalogue_with(
        show_stopper={"dial": (Click(6, 3, 8, 0), Click(6, 3, 8, 0), Click(6, 3, 8, 0))}
    )
    g = make_game({"charlie": "c3"}, {"show-stopper": "c5", "ruffian": "j10"}, catalogue=cat)
    feed(g, 6, 6, 5)
    out = g.push_text("shoot charlie show-stopper")
    assert next(e for e in out if isinstance(e, ev.AttackRolled)).defenses == (6,)
    assert g.char("show-stopper").click == 2  # M73: one clockwise click per hit


def test_M60_M62_hindering_modifier_ranged_only() -> None:
    """AC-M60 +1 for hindering on the line (target's square included); AC-M62 not in close
    combat."""
    rows = [". . . . .", "", ". . . . .", "", ". . ~ . .", "", ". . ~ . .", "", ". . . . ."]
    g = make_game({"charlie": "c1"}, {"genghis": "c4", "ruffian": "e5"}, rows=rows)
    feed(g, 1, 1, 1)
    out = g.push_text("shoot charlie genghis")
    assert next(e for e in out if isinstance(e, ev.AttackRolled)).defenses == (5,)
    g2 = make_game({"genghis": "c3"}, {"vigilante": "c4", "ruffian": "e5"}, rows=rows)
    feed(g2, 1, 1, 1, 1)
    out = g2.push_text("close genghis vigilante")
    assert next(e for e in out if isinstance(e, ev.AttackRolled)).defenses == (4,)


def test_M61_attacker_in_hindering_alone_gives_no_bonus() -> None:
    rows = [". . ~ . .", "", ". . . . .", "", ". . . . .", "", ". . . . ."]
    g = make_game({"charlie": "c1"}, {"genghis": "c4", "ruffian": "e4"}, rows=rows)
    feed(g, 1, 1, 1)
    out = g.push_text("shoot charlie genghis")
    assert next(e for e in out if isinstance(e, ev.AttackRolled)).defenses == (4,)


def test_M37_ko_ace_after_last_click_token_on_first_click() -> None:
    """AC-M37: an Ace is removed when the KO symbols show; a token on its first click."""
    g = make_game({"genghis": "c3", "charlie": "j1"}, {"vigilante": "c4", "show-stopper": "j10"})
    feed(g, 5, 1, 1, 1)
    out = g.push_text("close genghis vigilante")
    assert any(isinstance(e, ev.Eliminated) and e.label == "vigilante" for e in out)
    assert not g.char("vigilante").on_map and g.state.vp[0] == 11  # AC-M68 scored at once
    cat = catalogue_with(show_stopper={"starting_click": 3})  # 2 clicks from KO (5 clicks)
    g2 = make_game(
        {"genghis": "c3", "charlie": "j1"}, {"show-stopper": "c4", "ruffian": "j10"}, catalogue=cat
    )
    feed(g2, 4, 4, 1, 1)
    g2.push_text("close genghis show-stopper")
    assert g2.char("show-stopper").knocked_out


def test_M11_M13_values_and_abilities_follow_the_dial_range_does_not() -> None:
    """AC-M11: speed/attack/defense/fate change with clicks, range is printed; AC-M13 abilities
    come and go with the clicks (Louis's Old One-Two shows on clicks 0-1 only)."""
    g = make_game({"genghis": "c3", "charlie": "j1"}, {"louis": "c4", "ruffian": "j10"})
    louis = g.char("louis")
    assert "old_one_two" in g.abilities(louis)
    feed(g, 4, 4, 4, 1)
    g.push_text("close genghis louis")
    g.push_text("nofate louis")
    assert louis.click == 3 and "old_one_two" not in g.abilities(louis)
    assert louis.values.attack == 2 and louis.figure.range == 5


def test_M12_token_has_one_click() -> None:
    g = make_game({"sergeant": "c3"}, {"genghis": "j10"})
    assert g.char("sergeant").figure.ko_click == 1
