"""Journeys through the table screen in Chromium (issue 30): a person against a bot from the
first screen (who plays?) to the winner, clicking only what the page offers and turning the
virtual tray's dials when the page asks — with one deliberate dial mistake per game, caught by
the page's flag and put right by its words — and hot-seat. Every text the page showed on the
way is scanned for Python reprs. Shortened games (the agreed time limit), bots at pace 0.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dialtray.ui.server import Served
from person import Person, no_repr
from uikit import serve, shot

pytestmark = pytest.mark.slow


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


def journey(tmp: Path, page: Any, kind: str, seat: str, *, seed: int = 3) -> Person:
    s: Served = serve(tmp, kind=kind, ask=True, turns=1, seed=seed)
    try:
        page.goto(s.url)
        # Air Action's agreed limit (serve --turns 1) is called by the players; the other
        # engines end at their own limits
        p = Person(page, seed=seed, time_limit=1 if kind == "airaction" else None)
        p.seats(seat)
        won = p.play()
        assert "wins" in won or "No winner" in won, won
        shot(page, f"journey-{kind}-{seat.split()[0].lower()}")
        assert s.live.tracker.game.outcome() is not None
        if kind == "skyace":  # SA-M01: the LIFE counters on the tray's LED dice, as they end
            lives = [v.click for d, v in s.live.tracker.game.life().items()]
            assert s.live.life is not None and s.live.life.shown is not None
            assert s.live.life.shown[0] == [min(6, max(1, n or 0)) for n in lives]
        no_repr([*p.texts, page.inner_text("#t-moves")])
        return p
    finally:
        s.close()


@pytest.mark.parametrize("kind", ["aces", "airaction", "fasa", "skyace"])
def test_a_person_against_a_bot(tmp_path: Path, page: Any, kind: str) -> None:
    p = journey(tmp_path, page, kind, "Play P1 against a bot")
    assert p.decisions > 0
    assert not p.mistake  # the mistake was made, caught …
    if kind in ("aces", "airaction"):
        assert p.flags and "wrong way" in p.flags[0], p.flags  # … a dial turned the wrong way
    else:  # FASA and Sky Ace put no dial on the tray: a decision the rules refuse instead
        assert p.refusals and "✖" in p.refusals[0], p.refusals
        assert re.search(r"\[(FS|SA)-M\d+", p.refusals[0]) or "not" in p.refusals[0], p.refusals


@pytest.mark.parametrize("kind", ["aces", "airaction"])
def test_hot_seat(tmp_path: Path, page: Any, kind: str) -> None:
    p = journey(tmp_path, page, kind, "Hot-seat")
    assert p.decisions > 0


@pytest.mark.parametrize(("kind", "seed"), [("airaction", 6), ("skyace", 8)])
def test_monkey_through_the_page(tmp_path: Path, page: Any, kind: str, seed: int) -> None:
    """The page's share of the monkey test (most games run in-process, tests/table): a seat
    that takes a random decision among those on screen; the game ends, nothing is refused.
    Two kinds here (a plane on the play area, a pawn on the playmat) to keep the suite's time;
    the journeys above walk all four."""
    s: Served = serve(tmp_path, kind=kind, ask=True, turns=1, seed=seed)
    try:
        page.goto(s.url)
        p = Person(page, seed=seed, mistake=False, monkey=True)
        p.seats("Play P2 against")
        p.play()
        assert s.live.tracker.game.outcome() is not None
        no_repr(p.texts)
    finally:
        s.close()
