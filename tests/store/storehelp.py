"""Stored games for the store's tests: whole bot games on the tracker's paper tray (no link),
every event going through the store's recorder as it would at a live tray. (Not named conftest:
tests/tracker has one too, and a module name must say whose it is.)"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tracker"))  # paper.py

from dialtray.commands._games import new_game
from dialtray.rules.core.dice import SeededDice
from dialtray.store import GameRecorder, GameStore
from dialtray.store.recorder import RecordingTracker
from dialtray.tracker import TableDice, Tracker, auto_bind
from dialtray.tracker.hands import Hands, Mistakes
from paper import PaperTray, run_bots

Recorded = RecordingTracker  # the tracker as the paper tray and the hands see it


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
    tray = PaperTray(Recorded(rec))  # type: ignore[arg-type]
    tray.snapshot()
    tray.settle()
    run_bots(tray, Hands(Recorded(rec), s.brain, Mistakes() if mistakes else None))  # type: ignore[arg-type]
    rec.commit()
    return Played(store, rec.gid, t, rec, path)
