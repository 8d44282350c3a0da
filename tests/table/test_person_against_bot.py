"""Issue 30: a person against a bot in Air Action crashed at the first move phase — the bot's
digital table (``rules.airaction.table``) knew only the planes its own seat deployed. The
person here takes random legal decisions (any a player may type); the bot must play on to the
end whichever seat it holds."""

from __future__ import annotations

import random

import pytest
from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.game import TABLE
from dialtray.table.games import new_game
from dialtray.tracker.dice import TableDice


@pytest.mark.parametrize("bot_seat", ["P2", "P1"])
def test_a_bot_plays_air_action_to_the_end_against_a_person(bot_seat: str) -> None:
    setup = new_game("airaction", TableDice(SeededDice(7)), seed=7, turns=2)
    g = setup.game
    person = random.Random(3)
    for _ in range(3000):
        if g.outcome() is not None:
            break
        who = g.to_move()
        if who in (bot_seat, TABLE):
            action = setup.brain.choose(g)  # the table's facts come from the bot's table too
        else:
            action = person.choice(list(g.legal_actions()))
        g.apply(action)
    assert g.outcome() is not None, "the game did not end"
    assert any(type(e.action).__name__ == "ReportMove" for e in g.history)
