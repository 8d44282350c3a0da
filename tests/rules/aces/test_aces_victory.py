"""Withdrawing, game end, victory: AC-M66..M72; decisions AC-A09, AC-A10, AC-A12, AC-A13."""

from __future__ import annotations

from aces_helpers import feed, make_game, texts
from dialtray.rules.aces.combat import split_evenly
from dialtray.rules.aces.victory import pick_winner
from dialtray.rules.core.dice import ManualDice


def test_M67_1_game_ends_when_one_player_has_characters_left() -> None:
    """AC-M67 (Ending the Game, condition 1): "Only one player still has characters on the map":
    the game ends at once, with the VP table, and no action is legal afterwards."""
    g = make_game({"genghis": "c3"}, {"vigilante": "c4"})
    feed(g, 6, 1, 1, 1)
    g.push_text("close genghis vigilante")
    o = g.outcome()
    assert o is not None and "only one player" in o.termination
    assert o.vp_table == (11 + 28, 0) and o.winner == "P1"  # AC-M68 + AC-M70
    assert g.legal_actions() == []


def test_M67_2_3_time_limit_and_agreement() -> None:
    """AC-M67 (Ending the Game, conditions 2 and 3): "A predetermined time limit for the game is
    reached" (here 2 turns: not before) or "All remaining players agree to end the game"."""
    g = make_game({"genghis": "c3"}, {"vigilante": "c8"}, turn_limit=2)
    g.push_text("move genghis c5")  # range 0, nobody adjacent: the action ends
    assert g.outcome() is None and g.turn.player == 1  # turn 2 of 2 still to play
    g.push_text("pass vigilante")
    o = g.outcome()
    assert o is not None and "time limit" in o.termination
    g2 = make_game({"genghis": "c3"}, {"vigilante": "c8"})
    assert "endgame agreed" in texts(g2)
    g2.push_text("endgame agreed")
    assert g2.outcome() is not None and g2.outcome().vp_table == (28, 11)  # type: ignore[union-attr]


def test_M66_withdrawing_scores_no_survivors() -> None:
    """AC-M66: the withdrawing team scores as normal except for its remaining characters;
    AC-A12 its characters leave the map and the end condition is checked."""
    g = make_game({"genghis": "c3", "charlie": "h1"}, {"vigilante": "c4", "louis": "j10"})
    feed(g, 6, 1, 1, 1)
    g.push_text("close genghis vigilante")  # P1 scores 11 at once (AC-M68)
    g.push_text("withdraw")  # P2 withdraws
    o = g.outcome()
    assert o is not None and o.vp_table == (11 + 28 + 49, 0)


def test_M69_M71_captives_double_and_owner_scores_nothing_for_them() -> None:
    """AC-M69 / AC-A09: a captive at the end counts double for the captor's player."""
    g = make_game({"genghis": "c3", "charlie": "h1"}, {"vigilante": "c4", "louis": "j10"})
    feed(g, 6, 1)
    g.push_text("capture genghis vigilante")
    g.push_text("endgame time")
    o = g.outcome()
    assert o is not None and o.vp_table == (28 + 49 + 2 * 11, 40)


def test_A09_captives_do_not_keep_their_player_in_the_game() -> None:
    """AC-A09 (decided, configurable): a player whose only characters are captives no longer
    has characters on the map."""
    g = make_game({"genghis": "c3"}, {"vigilante": "c4"})
    feed(g, 6, 1)
    g.push_text("capture genghis vigilante")
    assert g.outcome() is not None
    g2 = make_game({"genghis": "c3"}, {"vigilante": "c4"}, captives_count_on_map=True)
    feed(g2, 6, 1)
    g2.push_text("capture genghis vigilante")
    assert g2.outcome() is None and "escape vigilante" in texts(g2)


def test_M72_A13_tie_breaks() -> None:
    """AC-M72: most VP; a tie goes to the fewest recruited points, then a d6 roll-off
    (AC-A13: tied players reroll ties)."""
    g = make_game({"genghis": "c3"}, {"genghis-2": "c8"})
    s = g.state
    assert pick_winner(s, (10, 10), ManualDice([2, 2, 5, 3])) == (
        0,
        "(VP and points tie broken by d6 roll-off: P1:2 P2:2; P1:5 P2:3)",
    )
    g2 = make_game({"genghis": "c3"}, {"ruffian": "c8"})
    assert pick_winner(g2.state, (10, 10), ManualDice())[0] == 1  # 6 points < 28
    assert pick_winner(g2.state, (11, 10), ManualDice())[0] == 0


def test_A10_split_evenly_drops_the_remainder() -> None:
    assert split_evenly(49, 1) == 49 and split_evenly(49, 2) == 24 and split_evenly(49, 3) == 16


def test_M68_eliminations_scored_during_play() -> None:
    """AC-M68 (Victory!: eliminations): each enemy eliminated is worth its point value, "scored
    during the game as soon as a character is knocked out" - the Vigilante's 11, mid-game."""
    g = make_game({"genghis": "c3", "charlie": "h1"}, {"vigilante": "c4", "louis": "j10"})
    feed(g, 6, 1, 1, 1)
    g.push_text("close genghis vigilante")
    assert g.state.vp == [11, 0] and g.outcome() is None
    assert g.victory_points() == (11 + 28 + 49, 40)  # AC-M71 if it ended now


def test_M71_vp_total_is_eliminations_plus_captives_plus_survivors() -> None:
    """AC-M71 (Victory!: formula): "your victory point total = (eliminated enemy character points
    and captive points) + (remaining friendly character points)". P1 eliminates the Vigilante
    (11), holds the Soldier captive (2 x 8) and keeps Genghis (28) and Charlie (49); P2 keeps
    only Louis (40), the captive Soldier scoring nothing for its owner (AC-A09)."""
    g = make_game(
        {"genghis": "c3", "charlie": "h1"},
        {"vigilante": "c4", "soldier": "h2", "louis": "j10"},
    )
    feed(g, 6, 1, 1, 1)
    g.push_text("close genghis vigilante")  # the Vigilante is knocked out: 11 to P1 at once
    g.push_text("pass louis")
    feed(g, 4)  # Charlie's capture attempt: attack 3 - 2 = 1 die against defense 4
    g.push_text("capture charlie soldier")
    assert g.char("soldier").captor == "charlie"
    total = (11 + 2 * 8 + 28 + 49, 40)
    assert g.victory_points() == total
    g.push_text("endgame agreed")
    o = g.outcome()
    assert o is not None and o.vp_table == total and o.winner == "P1"


def test_M70_survivors_score_their_points_at_the_end() -> None:
    """AC-M70: every friendly character remaining at the end is worth its point value."""
    g = make_game({"genghis": "c3", "charlie": "h1"}, {"vigilante": "c8", "louis": "j10"})
    g.push_text("endgame agreed")
    o = g.outcome()
    assert o is not None and o.vp_table == (28 + 49, 11 + 40) and o.winner == "P1"


def test_A10_fate_ko_split_between_two_opponents_in_a_three_player_game() -> None:
    """AC-M56 / AC-A10: with more than one opponent the fate-KO points are split evenly (49 ->
    24 each, remainder dropped)."""
    from aces_helpers import catalogue_with, grid_map
    from dialtray.rules.aces.scenarios import TeamSpec, new_game
    from dialtray.rules.core.dice import ManualDice

    rows: list[str] = []
    for y in range(8):
        rows.append(" ".join("." * 8))
        if y < 7:
            rows.append("")
    m = grid_map(rows, starts=("1 a1 h8", "2 a1 h8", "3 a1 h8"))
    cat = catalogue_with(charlie={"starting_click": 5})
    g = new_game(
        m,
        [
            TeamSpec(
                "A",
                ["charlie=sample-charlie-steele", "sample-ruffian"],
                1,
                {"charlie": "a1", "ruffian": "h1"},
            ),
            TeamSpec("B", ["sample-genghis"], 2, {"genghis": "a4"}),
            TeamSpec("C", ["sample-vigilante"], 3, {"vigilante": "h8"}),
        ],
        ManualDice([1, 1]),
        cat,
        first_player=0,
    )
    g.push_text("shoot charlie genghis fate")
    assert g.state.vp == [0, 24, 24]
    assert g.turn.player == 1  # the turn passes to the left
