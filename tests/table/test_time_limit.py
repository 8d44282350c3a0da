"""AA-M53(2) "the agreed time limit": `play airaction --turns N` with people in every seat ends
after turn N like a game with a bot does (the hot-seat game used to run on until a side fell or
disengaged: the limit was only ever called by a bot's brain)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from dialtray.table import on_paper

sys.path.insert(0, str(Path(__file__).parent))
from monkey import play


def test_hot_seat_air_action_ends_at_the_agreed_time_limit() -> None:
    ends = []
    for seed in range(3):
        table = on_paper("airaction", ["human", "human"], seed=seed, turns=1)
        play(table, random.Random(seed), slips=0.0)
        out = table.game.outcome()
        assert out is not None
        assert table.game.state.turn <= 2, f"seed {seed}: played on to turn {table.game.state.turn}"
        ends.append(str(out.termination))
        if "time" in ends[-1]:
            assert any(line.startswith("table played: end time") for line in table.narration)
    assert any("time limit" in e for e in ends), ends
