"""Issue 30's journeys: a person at `dialtray play --sim` in a real 80x24 terminal, from the
first screen to the winner, typing only what the screen offers and turning the virtual dials it
asks for, with one dial mistake caught and put right where the game has dials (Air Action and
Aces; FASA's record sheets are paper and Sky Ace's LIFE counters are LED dice, nothing to turn).
Against a bot for each of the four games; hot-seat (both seats people) for Air Action and Aces.
Every screen's text is scanned for Python reprs, dataclass text and dicts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from dialtray.table.narrate import REPR

sys.path.insert(0, str(Path(__file__).parent))
from journey import Person

P1 = {"airaction": {"A1", "A2", "A3"},
      "aces": {"louis", "genghis", "sergeant", "soldier", "trusty-sidekick"},
      "fasa": set(), "skyace": set()}
P2 = {"airaction": {"B1", "B2", "B3"},
      "aces": {"charlie", "show-stopper", "ruffian", "tail-gunner"}}
DIALLED = ("airaction", "aces")


def journey(tmp_path: Path, kind: str, seats: str, mine: set[str], *extra: str) -> None:
    rest = 1.0 if "bot" in seats else 0.1  # a bot turns its own dials at once
    p = Person(["play", kind, "--sim", "--seats", seats, "--pace", "0", "--dice", "seeded",
                "--turns", "1", "--seed", "11", *extra], tmp_path)
    try:
        out = p.play(mine, mistake=kind in DIALLED, rest=rest)
    finally:
        p.close()
    assert "Traceback" not in out, out[-3000:]
    assert "game over" in out and "stored as game" in out, out[-3000:]
    assert "winner" in out
    if kind in DIALLED:
        assert p.mistake, "no dial of the person's was ever due: no mistake could be made"
        _, dock, dial, n = p.mistake.split()  # the screen answers what was typed (it draws
        after = out.split(f"sim: turned dock {dock} {dial} by {n}", 1)[1]  # the typed line)
        assert "\n! " in after or "! caught" in after, "the deliberate mistake was not flagged"
        assert p.fixed, "the screen never said how to put the mistake right"
    looks = sorted({ln.strip() for ln in out.splitlines() if REPR.search(ln)})
    assert not looks, looks[:5]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["airaction", "aces", "fasa", "skyace"])
def test_a_person_plays_against_a_bot_to_the_winner(kind: str, tmp_path: Path) -> None:
    extra = ("--plots", "open") if kind == "fasa" else ()
    journey(tmp_path, kind, "human,bot", P1[kind], *extra)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["airaction", "aces"])
def test_two_people_play_hot_seat_to_the_winner(kind: str, tmp_path: Path) -> None:
    journey(tmp_path, kind, "human,human", P1[kind] | P2[kind])
