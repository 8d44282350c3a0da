"""Issue 30's monkey: a seat picking random decisions from those on screen, the other a bot,
200 games per game kind (in slices, in this process, on the paper tray: no firmware), every one
ending, no crash, and nothing a player reads looks like Python (a repr, a dict, a tuple)."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from dialtray.table import GAMES, on_paper
from dialtray.table.narrate import REPR

sys.path.insert(0, str(Path(__file__).parent))
from monkey import play

SLICES = 4
GAMES_PER_KIND = 200


@pytest.mark.slow(cost=2)
@pytest.mark.parametrize("part", range(SLICES))
@pytest.mark.parametrize("kind", GAMES)
def test_a_random_seat_against_a_bot_always_reaches_the_end(kind: str, part: int) -> None:
    ends: Counter[str] = Counter()
    per = GAMES_PER_KIND // SLICES
    for i in range(part * per, (part + 1) * per):
        roles = ["human", "bot"] if i % 2 == 0 else ["bot", "human"]
        table = on_paper(kind, roles, seed=i, turns=1)
        play(table, random.Random(i))
        v = table.view()
        assert v.over is not None, v.waiting_for
        ends[v.over.termination] += 1
        shown = [*table.narration, *v.waiting_for, *v.flags,
                 *(" ".join(map(str, row)) for row in v.over.scores)]
        looks = [line for line in shown if REPR.search(line)]
        assert not looks, f"{kind} game {i}: {looks[:3]}"
    assert sum(ends.values()) == per


def test_the_repr_guard_sees_what_it_must() -> None:
    for text in ("GunState(plane=B1, gun=x)", "VP {'P1': 506}", "[1, 2, 2] vs [4]"):
        assert REPR.search(text)
    assert not REPR.search("B3 fires at A1 (front guns, point blank): 4 dice need 5+")
