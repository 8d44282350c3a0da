"""Turns and actions: AC-M14..M19, AC-M21..M27 and AC-M43/M58/M59 through the engine, AC-M74;
illegal actions leave the state unchanged; undo and the event-log fold."""

from __future__ import annotations

import pytest
from aces_helpers import catalogue_with, feed, make_game, texts
from dialtray.rules.aces import events as ev
from dialtray.rules.aces.figures import Click
from dialtray.rules.core.errors import IllegalActionError


def test_M14_one_action_per_turn_then_the_next_player() -> None:
    """AC-M14: the aggressor gives one action to one of its characters, then the turn passes."""
    g = make_game({"charlie": "c3", "vigilante": "d3"}, {"louis": "c8", "genghis": "h8"})
    assert g.turn.player == 0
    with pytest.raises(IllegalActionError) as info:
        g.push_text("pass louis")
    assert info.value.mechanic == "AC-M14"
    g.push_text("move vigilante d5")
    assert g.turn.player == 0 and g.turn.phase == "moved"  # it may still attack (AC-M18)
    g.push_text("end")
    assert g.turn.player == 1


def test_M15_not_the_same_character_two_turns_in_a_row() -> None:
    """AC-M15 (Turns and Actions: no repeats): "You may not give an action to the same character
    two turns in a row"; after another character's turn it may act again."""
    g = make_game({"charlie": "c3", "vigilante": "d3"}, {"louis": "c8", "genghis": "h8"})
    g.push_text("pass charlie")
    g.push_text("pass louis")
    with pytest.raises(IllegalActionError) as info:
        g.push_text("pass charlie")
    assert info.value.mechanic == "AC-M15"
    assert "pass charlie" not in texts(g)
    g.push_text("pass vigilante")
    g.push_text("pass genghis")
    g.push_text("pass charlie")  # fine again


def test_M16_last_character_acts_then_passes_the_round() -> None:
    """AC-M16: with one character left, the player must pass the round after an action."""
    g = make_game({"charlie": "c3"}, {"louis": "c8", "genghis": "h8"})
    g.push_text("move charlie c4")
    g.push_text("end")
    g.push_text("pass louis")
    assert texts(g) >= {"pass"} and not any(t.endswith("charlie") for t in texts(g))
    g.push_text("pass")
    g.push_text("pass genghis")
    assert "pass charlie" in texts(g)


def test_M17_action_menu() -> None:
    """AC-M17: move / move and attack / Second Wind / escape (captives only) / pass."""
    g = make_game({"charlie": "c3", "vigilante": "d3"}, {"louis": "c8", "genghis": "h8"})
    t = texts(g)
    assert {"pass charlie", "move charlie c5", "shoot charlie louis"} <= t
    assert not any(x.startswith(("escape", "secondwind")) for x in t)


def test_M17_second_wind_when_showing_heals_toward_start() -> None:
    """Second Wind (sample definition, AC-A17): heals 1 click counter-clockwise, never past the
    starting position; only while the green speed square shows (Genghis clicks 2-3)."""
    cat = catalogue_with(genghis={"starting_click": 0})
    g = make_game(
        {"genghis": "c3", "vigilante": "j1"}, {"louis": "c8", "ruffian": "j10"}, catalogue=cat
    )
    with pytest.raises(IllegalActionError) as info:
        g.push_text("secondwind genghis")
    assert info.value.mechanic == "AC-M13"
    g2 = make_game({"genghis": "c3", "vigilante": "j1"}, {"louis": "c5", "ruffian": "j10"}, first=1)
    feed(g2, 6, 6, 1)
    g2.push_text("shoot louis genghis")  # two natural sixes: fate could prevent nothing
    g2.push_text("nofate genghis")  # offered all the same (D-AC-05), declined
    g2.push_text("end")  # Louis declines Old One-Two's second attack (AC-M74)
    assert g2.char("genghis").click == 2
    assert "secondwind genghis" in texts(g2)
    out = g2.push_text("secondwind genghis")
    assert any(isinstance(e, ev.Healed) for e in out) and g2.char("genghis").click == 1


def test_M18_move_then_attack_not_attack_then_move() -> None:
    """AC-M18 (Combat: order inside an action): "Move your character if you choose to. After
    moving your character, check to see if an enemy character is adjacent ... or within range",
    then attack; never attack first and move afterwards."""
    g = make_game({"charlie": "c1", "vigilante": "j1"}, {"louis": "c9", "genghis": "h9"})
    with pytest.raises(IllegalActionError) as info:
        g.push_text("shoot charlie louis")  # 8 squares from c1: out of range 6
    assert info.value.mechanic == "AC-M32"
    g.push_text("move charlie c3")
    assert g.turn.phase == "moved"
    feed(g, 1, 1, 1)
    out = g.push_text("shoot charlie louis")  # range is checked from c3, after the move
    assert next(e for e in out if isinstance(e, ev.AttackRolled)).targets == ("louis",)
    g2 = make_game({"charlie": "c1", "vigilante": "j1"}, {"louis": "c6", "genghis": "h9"})
    feed(g2, 1, 1, 1)
    g2.push_text("shoot charlie louis")
    assert g2.turn.player == 1  # the action ended with the attack: no move after it
    # Louis's Old One-Two keeps his action open after the attack, but he still may not move
    g3 = make_game({"louis": "c3", "vigilante": "j1"}, {"genghis": "c6", "ruffian": "j10"})
    feed(g3, 1, 1, 1)
    g3.push_text("shoot louis genghis")
    assert g3.turn.label == "louis" and g3.turn.phase == "attacked"
    assert not any(t.startswith("move louis") for t in texts(g3))
    with pytest.raises(IllegalActionError) as info:
        g3.push_text("move louis c1")
    assert info.value.mechanic == "AC-M18"


def test_M19_premeasuring_changes_nothing() -> None:
    """AC-M19 (Ranged Combat: pre-measuring allowed): "You may check distance and line of fire to
    a target before declaring your character's action": measuring answers, commits to nothing
    and leaves every action open."""
    g = make_game({"charlie": "c1", "vigilante": "j1"}, {"louis": "c9", "genghis": "h9"})
    before = (g.event_count(), g.report(), texts(g))
    lof = g.line_of_fire("charlie", "louis")
    assert lof.clear and lof.distance == 8  # the answer: a clear line, but out of range 6
    assert g.line_of_fire("vigilante", "genghis").distance == 8
    g.reach_of(g.char("charlie"))
    assert (g.event_count(), g.report(), texts(g)) == before
    assert g.turn.label is None and g.turn.phase == "choose"  # no action was declared
    g.push_text("move vigilante j3")  # measuring Charlie did not give her the action
    assert g.square_of("charlie").name() == "c1" and g.turn.player == 1


def test_illegal_action_leaves_state_unchanged_and_names_rule() -> None:
    g = make_game({"charlie": "c3"}, {"louis": "c8"})
    before = (g.event_count(), g.report(), len(g.history))
    with pytest.raises(IllegalActionError) as info:
        g.push_text("move charlie c8")
    assert info.value.mechanic == "AC-M24" and info.value.heading == "Movement"
    assert str(info.value).startswith("move charlie c8: ")
    assert (g.event_count(), g.report(), len(g.history)) == before


def test_undo_and_fold_rebuild_the_same_state() -> None:
    g = make_game({"charlie": "c3", "vigilante": "d3"}, {"louis": "c8", "genghis": "h8"})
    r0 = g.report()
    g.push_text("move charlie c5")
    g.push_text("end")
    feed(g, 5, 5, 6)
    g.push_text("shoot louis charlie")
    g.push_text("nofate charlie")
    g.push_text("end")
    assert g.rebuilt_state() == g.state
    g.undo()
    g.undo()
    g.undo()
    assert g.rebuilt_state() == g.state
    g.undo()
    assert g.square_of("charlie").name() == "c5"
    g.undo()
    assert g.report() == r0 and g.history == ()


def test_M25_break_away_roll_1_to_3_fails_4_to_6_moves() -> None:
    """AC-M25 / table AC-2 "Breaking Away"; AC-A15: after a failure only close combat."""
    g = make_game({"charlie": "c3", "vigilante": "j1"}, {"genghis": "c4", "louis": "j10"})
    with pytest.raises(IllegalActionError) as info:
        g.push_text("move charlie a1")
    assert info.value.mechanic == "AC-M25"
    feed(g, 3)
    g.push_text("breakaway charlie")
    assert g.turn.phase == "failed"
    assert not any(t.startswith(("move", "shoot")) for t in texts(g))
    assert "close charlie genghis" in texts(g)
    g.push_text("end")
    g.push_text("pass louis")
    g.push_text("pass vigilante")
    g.push_text("pass genghis")
    feed(g, 4)
    g.push_text("breakaway charlie")
    g.push_text("move charlie a1")
    assert g.square_of("charlie").name() == "a1"


def test_M26_one_roll_frees_from_all_adjacent_enemies() -> None:
    g = make_game(
        {"charlie": "c3", "vigilante": "j1"}, {"genghis": "c4", "ruffian": "b2", "louis": "j10"}
    )
    feed(g, 6)
    g.push_text("breakaway charlie")
    assert set(g.turn.broken_from) == {"genghis", "ruffian"}
    g.push_text("move charlie a5")  # passes b4 (next to both) without stopping
    assert g.square_of("charlie").name() == "a5"


def test_M27_no_break_away_across_blocking_terrain() -> None:
    rows = [". . . .", "", ". .|. .", "", ". .|. .", "", ". . . ."]
    g = make_game({"charlie": "b2", "vigilante": "a4"}, {"genghis": "c2", "louis": "d4"}, rows=rows)
    assert "breakaway charlie" not in texts(g)
    g.push_text("move charlie a1")


def test_M59_start_in_hindering_half_speed_rounded_up() -> None:
    """AC-M59 (Hindering Terrain): "If a character begins a turn in hindering terrain, reduce its
    speed by half (round up)": speed 7 becomes 4, not 3, and a character in clear terrain keeps
    its full speed."""
    rows = []
    for y in range(10):
        rows.append(" ".join(("~" if y == 0 else ".") + "." * 9))
        if y < 9:
            rows.append("")
    g = make_game({"charlie": "a1", "vigilante": "j1"}, {"louis": "j10"}, rows=rows)
    assert g.char("charlie").values.speed == 7
    assert g.speed(g.char("charlie")) == 4  # ceil(7 / 2)
    assert g.speed(g.char("vigilante")) == 6  # clear terrain (j1): no halving
    assert "move charlie a5" in texts(g) and "move charlie a6" not in texts(g)
    with pytest.raises(IllegalActionError) as info:
        g.push_text("move charlie a6")  # 5 squares
    assert info.value.mechanic == "AC-M21"
    g.push_text("move charlie a5")  # 4 squares
    assert g.square_of("charlie").name() == "a5"


def test_M58_entering_hindering_ends_the_move_in_the_engine() -> None:
    rows = [". . ~ . .", "", ". . ~ . .", "", ". . ~ . ."]
    g = make_game({"charlie": "a2", "vigilante": "a3"}, {"louis": "e1"}, rows=rows)
    with pytest.raises(IllegalActionError):
        g.push_text("move charlie e3")
    g.push_text("move charlie c2")


def test_M74_optional_ability_may_be_declined() -> None:
    """AC-M74: the controlling player decides whether to use an optional ability."""
    g = make_game({"louis": "c3"}, {"genghis": "c6", "ruffian": "j10"})
    feed(g, 1, 1, 1)
    g.push_text("shoot louis genghis")
    assert "end" in texts(g) and "shoot louis genghis" in texts(g)
    g.push_text("end")
    assert g.turn.player == 1


def test_M73_each_hit_one_clockwise_click() -> None:
    """AC-M73 (Glossary: click, hit): "Each hit results in 1 click of damage", a click being one
    clockwise turn of the combat dial: two hits turn Louis's dial from click 0 to click 2."""
    g = make_game({"genghis": "c3", "vigilante": "j1"}, {"louis": "c4", "ruffian": "j10"})
    feed(g, 4, 4, 1, 1)
    out = g.push_text("close genghis louis")
    out += g.push_text("nofate louis")
    dmg = next(e for e in out if isinstance(e, ev.Damaged))
    assert (dmg.clicks, dmg.to_click) == (2, 2)


def test_dial_values_are_read_from_the_data_not_code() -> None:
    cat = catalogue_with(charlie={"dial": (Click(2, 9, 5, 0),)})
    g = make_game({"charlie": "c3"}, {"louis": "c8"}, catalogue=cat)
    assert g.speed(g.char("charlie")) == 2
    assert "move charlie c6" not in texts(g) and "move charlie c5" in texts(g)


def test_M57_clear_terrain_no_penalty() -> None:
    """AC-M57: clear terrain costs no speed and adds nothing to defense."""
    g = make_game({"charlie": "a1", "vigilante": "j1"}, {"genghis": "a7", "louis": "j10"})
    assert g.speed(g.char("charlie")) == g.char("charlie").values.speed == 7
    assert g.line_of_fire("charlie", "genghis").hindering == 0
    feed(g, 1, 1, 1)
    out = g.push_text("shoot charlie genghis")
    assert next(e for e in out if isinstance(e, ev.AttackRolled)).defenses == (4,)


def test_A15_after_failed_break_away_close_combat_only_even_with_old_one_two() -> None:
    """AC-A15 (decided): a failed break away leaves only close combat for the whole action, even
    when Old One-Two's second attack comes after the adjacent enemy is gone."""
    g = make_game({"louis": "c3"}, {"ruffian": "c4", "genghis": "h3"})
    feed(g, 2)
    g.push_text("breakaway louis")
    feed(g, 6, 1, 1)
    g.push_text("close louis ruffian")
    assert not g.char("ruffian").on_map
    # Old One-Two would allow a second attack and Genghis is in range with a clear line, but
    # only close combat is left, so the action (and the turn) is over
    assert g.line_of_fire("louis", "genghis").clear
    assert g.turn.player == 1
