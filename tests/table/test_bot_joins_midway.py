"""Issue 30: a bot joins an Air Action game midway (``play --resume`` with a bot seat). Its
digital table of plane positions is not stored; it is rebuilt from the engine's history, each
reported move laid out in the state just before it. The rebuilt table must be the very table a
bot that watched the whole game holds, and the bot must then play on to the winner."""

from __future__ import annotations

import random

from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.game import TABLE
from dialtray.table.games import AirActionBrain, new_game
from dialtray.tracker.dice import TableDice


def test_a_bot_that_joins_midway_rebuilds_every_plane_position_and_plays_to_the_end() -> None:
    setup = new_game("airaction", TableDice(SeededDice(5)), seed=5, turns=3)
    g, live = setup.game, setup.brain
    person = random.Random(9)
    checked = 0
    for step in range(3000):
        if g.outcome() is not None:
            break
        if step % 25 == 24 and any(type(e.action).__name__ == "ReportMove"
                                   for e in g.history):
            joined = AirActionBrain(g, 5, 3)  # a new process: only the game is known
            joined.observe(g)
            assert joined.table.poses == live.table.poses, f"at action {len(g.history)}"
            checked += 1
            if checked == 3:  # from here the bot that joined plays both bot and table
                live = joined
        bot = g.to_move() in ("P2", TABLE)
        g.apply(live.choose(g) if bot else person.choice(list(g.legal_actions())))
    assert checked >= 3, "the game ended before the bot could join it midway"
    assert g.outcome() is not None, "the game did not end with the bot that joined midway"
