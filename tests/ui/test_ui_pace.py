"""The bots' pace (``serve --pace``): a bot's move waits ``pace`` seconds so a person can follow
it, and a move held while the game moved on (a person's decision) is dropped, not played late.
On a fake clock: no waiting here."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from dialtray.tracker.hands import Hands
from dialtray.ui import live


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def paced(monkeypatch: pytest.MonkeyPatch, pace: float) -> tuple[Any, Clock, list[str]]:
    clock = Clock()
    monkeypatch.setattr(live.time, "monotonic", clock)
    moves = ["move-1", "move-2", "move-3"]
    monkeypatch.setattr(Hands, "next", lambda self: moves.pop(0) if moves else None)
    h = live.PacedHands.__new__(live.PacedHands)
    h.t = SimpleNamespace(game=SimpleNamespace(history=[]), phase="play")
    h.pace, h._held = pace, None
    return h, clock, moves


def test_a_bot_waits_its_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    h, clock, _ = paced(monkeypatch, 1.5)
    assert h.next() is None  # chosen, held
    clock.now += 1.4
    assert h.next() is None
    clock.now += 0.1
    assert h.next() == "move-1"
    assert h.next() is None  # the next one waits its pace again
    clock.now += 1.5
    assert h.next() == "move-2"


def test_a_held_move_is_dropped_when_the_game_moves_on(monkeypatch: pytest.MonkeyPatch) -> None:
    h, clock, _ = paced(monkeypatch, 1.0)
    assert h.next() is None  # move-1 held
    h.t.game.history.append("a person's decision")
    clock.now += 5
    assert h.next() is None  # move-1 dropped; move-2 chosen afresh and held
    clock.now += 1
    assert h.next() == "move-2"


def test_pace_zero_is_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    h, _, _ = paced(monkeypatch, 0.0)
    assert h.next() == "move-1"
