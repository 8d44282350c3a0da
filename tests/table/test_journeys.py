"""Issue 30's journeys: a person against a bot at `dialtray play --sim` in a real 80x24
terminal, from the first screen to the winner, typing only what the screen offers and turning
the virtual dials it asks for, with one dial mistake caught and put right."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from dialtray.table.narrate import REPR

sys.path.insert(0, str(Path(__file__).parent))
from journey import Person

MINE = {"airaction": {"A1", "A2", "A3"}}


@pytest.mark.slow
def test_a_person_plays_air_action_against_a_bot_to_the_winner(tmp_path: Path) -> None:
    p = Person(["play", "airaction", "--sim", "--seats", "human,bot", "--pace", "0",
                "--dice", "seeded", "--turns", "1", "--seed", "11"], tmp_path)
    try:
        out = p.play(MINE["airaction"])
    finally:
        p.close()
    assert "Traceback" not in out, out[-3000:]
    assert "game over" in out, out[-3000:]
    assert "winner" in out
    assert p.mistake, "no dial of the person's was ever due: no mistake could be made"
    assert "too many" in out.split(p.mistake, 1)[1], "the deliberate mistake was not flagged"
    looks = [ln for ln in out.splitlines() if REPR.search(ln)]
    assert not looks, looks[:5]
