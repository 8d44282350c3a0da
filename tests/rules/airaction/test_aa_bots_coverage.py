"""Acceptance: 1 000 bot-vs-bot games without an exception; every AA id named by a test and
every AA ambiguity decided (`dialtray coverage`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.bots import STANDARD_SQUADRONS, play_game
from dialtray.rules.inventory import DEFAULT_INVENTORY, REPO, compute

GAMES = 1000
CHUNKS = 4  # the 1 000 games in four slices, so pytest-xdist spreads them over the cores


@pytest.mark.slow(cost=7)
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_thousand_bot_games_no_exception_and_sensible(chunk: int) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(chunk, GAMES, CHUNKS):
        g, result = play_game(
            STANDARD_SQUADRONS, seed=seed, campaign=seed % 3 == 0, obstacles=seed % 4 == 0
        )
        assert result.outcome.winner in g.state.players
        if seed % 100 < CHUNKS:
            assert g.rebuilt_state() == g.state
        for e in g.events():
            if isinstance(e, ev.ShotRolled):
                kinds["shots"] += 1
            elif isinstance(e, ev.PlaneRemoved) and e.reason == "shot down":
                kinds["shot down"] += 1
    # sensible play: bots shoot and shoot planes down, not just fly off the table
    assert kinds["shots"] > 10_000 // CHUNKS and kinds["shot down"] > 1_000 // CHUNKS


@pytest.mark.skipif(not DEFAULT_INVENTORY.exists(), reason="rules inventory not available")
def test_coverage_every_aa_id_tested_and_every_ambiguity_decided() -> None:
    cov = compute(
        DEFAULT_INVENTORY, REPO / "tests", "AA", "MT", Path(REPO / "docs" / "rules-decisions.md")
    )
    assert len(cov.ids) == 85 + 7
    assert cov.missing == [] and cov.undecided == []
