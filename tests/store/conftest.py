"""Stored games for the store's tests: whole bot games on the tracker's paper tray (no link),
every event going through the store's recorder as it would at a live tray."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "tracker"))  # paper.py
sys.path.insert(0, str(Path(__file__).parent))

from dialtray.commands._games import new_game
from dialtray.link.messages import TrayEvent
from dialtray.rules.core.dice import SeededDice
from dialtray.store import GameRecorder, GameStore
from dialtray.tracker import TableDice, Tracker, auto_bind
from dialtray.tracker.hands import Hands, Mistakes
from paper import PaperTray, run_bots


class Recorded:
    """The tracker as the paper tray sees it, with every feed/tick/decide going through the
    recorder (device record first, then what the tracker made of it)."""

    def __init__(self, rec: GameRecorder, tracker: Tracker) -> None:
        self._rec, self._t = rec, tracker

    def __getattr__(self, name: str) -> Any:
        return getattr(self._t, name)

    def feed(self, ev: TrayEvent, now: float) -> None:
        self._rec.device(ev, 1, now)

    def tick(self, now: float) -> None:
        self._rec.tick(now)

    def decide(self, text: str, now: float, seat: str | None = None) -> Any:
        return self._rec.decide(text, now, seat)


@dataclass
class Played:
    store: GameStore
    gid: int
    tracker: Tracker
    rec: GameRecorder
    path: Path


def play_stored(path: Path, kind: str, seed: int = 3, turns: int = 2,
                mistakes: bool = True) -> Played:
    dice = TableDice(SeededDice(seed))
    s = new_game(kind, dice, seed, turns)
    t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), dice, header=s.header)
    store = GameStore.open(path)
    rec = GameRecorder.start(store, t, origin="test")
    tray = PaperTray(Recorded(rec, t))  # type: ignore[arg-type]
    tray.snapshot()
    tray.settle()
    run_bots(tray, Hands(Recorded(rec, t), s.brain, Mistakes() if mistakes else None))  # type: ignore[arg-type]
    rec.commit()
    return Played(store, rec.gid, t, rec, path)


@pytest.fixture
def aces_game(tmp_path: Path) -> Played:
    return play_stored(tmp_path / "games.sqlite3", "aces")
