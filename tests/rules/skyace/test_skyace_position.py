"""A Sky Ace log that starts mid-game (issue 34, D-SA-12): ``Position:`` header lines set the
playmat (SA-M08, SA-M19 stacks), pawns (SA-M14) and LIFE (SA-M02), hands, discards and the turn
order (SA-M16); the table's ``deal`` starts that turn; a bad line is named by its line with
the rule it breaks (SA-M01 the deck's cards, SA-M09 the checkerboard)."""

from __future__ import annotations

import pytest
from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.errors import NotationError
from dialtray.rules.core.game import TABLE
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.skyace import GAME_KIND
from dialtray.rules.skyace.bots import GreedyBot, RandomBot, play

HEAD = """Game: skyace
Mode: duel
Heroes: sky-ace-1.3 twilight
"""
POSITION = """Position: turn P2 round 3
Position: order P1 P2
Position: cell 0,0 P1:AS
Position: cell 1,0 P2:KH P1:4H
Position: cell 1,1 P1:7S
Position: pawn P1 at 1,1 life 4
Position: pawn P2 at 1,0 life 3
Position: hand P1 2C 6C 8C 10C
Position: hand P2 2D 4D 6D
Position: discard P2 3C
"""


def test_a_log_starts_mid_game_and_plays_on() -> None:
    """The position is the start of P2's turn in round 3: stacks, LIFE, hands and discards as
    given; each draw pile holds the rest of its deck; ``deal`` starts the turn and bots play
    the duel out; the state is a pure fold of the setup and the actions."""
    g = replay_log(parse_log(HEAD + POSITION + "---\ndeal\n", "pos.log")).game
    st = g.state  # type: ignore[attr-defined]
    assert st.mat[(1, 0)] == [("P2", "KH", "red"), ("P1", "4H", "red")]
    assert (st.pawns["P1"].life, st.pawns["P2"].life) == (4, 3)
    assert st.hands["P2"] == ["2D", "4D", "6D"] and st.piles["P2"].discard == ["3C"]
    assert len(st.piles["P1"].draw) == 54 - 3 - 4 and st.active().id == "P2"
    fresh = GAME_KIND.new_game(parse_log(HEAD + POSITION + "---\n", "pos.log"), SeededDice(4))
    assert fresh.to_move() == TABLE
    bots = {"P1": GreedyBot(1), "P2": RandomBot(2)}
    play(fresh, lambda s: bots.get(s, RandomBot(3)))  # type: ignore[arg-type]
    assert fresh.outcome() is not None  # type: ignore[attr-defined]
    assert fresh.rebuilt_state() == fresh.state  # type: ignore[attr-defined]


@pytest.mark.parametrize(("line", "words"), [
    ("Position: cell 1,1 P1:7H", "SA-M09"),  # a red card on a black cell
    ("Position: hand P1 2C 6C 8C AS", "SA-M01"),  # the ace of spades is already on the mat
    ("Position: pawn P9 at 0,0", "no pawn 'P9'"),
    ("Position: pawn P1 at 5,5 life 4", "SA-M14"),
    ("Position: order P1", "SA-M16"),
    ("Position: shuffle", "turn, order, cell"),
])
def test_a_bad_position_line_is_named(line: str, words: str) -> None:
    key = line.split()[1]
    lines = [x for x in POSITION.splitlines() if not (
        x.split()[1] == key and (key not in ("cell", "pawn", "hand") or x.split()[2] ==
                                 line.split()[2]))]
    text = HEAD + "\n".join([*lines, line]) + "\n---\n"
    with pytest.raises(NotationError, match=words):
        replay_log(parse_log(text, "bad.log"))
