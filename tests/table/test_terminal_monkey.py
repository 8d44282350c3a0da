"""The monkey's terminal share (issue 30: 200 games per kind across the front ends; most run in
memory, tests/table/test_monkey.py, some at the page, tests/ui/test_ui_journeys.py): games of
every kind at the real terminal, `dialtray play --sim --plain`, a random seat against a bot
picking only what the screen offers. Every game ends with the winner's table and its log, no
traceback, nothing on screen that looks like Python."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from dialtray.table import GAMES
from dialtray.table.narrate import REPR

sys.path.insert(0, str(Path(__file__).parent))
from terminal_monkey import PlainMonkey, run_all

MINE = {"airaction": {"A1", "A2", "A3"},
        "aces": {"louis", "genghis", "sergeant", "soldier", "trusty-sidekick"},
        "fasa": set(), "skyace": set()}
SIDE_BY_SIDE = 2  # games of one kind at once, from this process
TERMINAL_GAMES = SIDE_BY_SIDE * len(GAMES)  # the terminal's share of the monkey's games


@pytest.mark.slow(cost=4)
@pytest.mark.parametrize("kind", GAMES)
def test_a_random_seat_at_the_terminal_always_reaches_the_end(kind: str,
                                                              tmp_path: Path) -> None:
    monkeys = [PlainMonkey(kind, seed, tmp_path / f"g{seed}", MINE[kind])
               for seed in range(100, 100 + SIDE_BY_SIDE)]
    try:
        run_all(monkeys, deadline_s=180)
    finally:
        for m in monkeys:
            m.close()
    for m in monkeys:
        out = m.text
        assert m.done, f"{kind} seed {m.seed} did not end; typed {m.typed[-5:]}\n{out[-2000:]}"
        assert "Traceback" not in out, out[-3000:]
        assert "game over" in out and "winner" in out and "stored as game" in out, out[-3000:]
        assert m.typed, "the monkey never found anything to type"
        looks = sorted({ln.strip() for ln in out.splitlines() if REPR.search(ln)})
        assert not looks, looks[:5]
