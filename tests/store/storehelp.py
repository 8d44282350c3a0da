"""Stored games for the store's tests: whole bot games on the tracker's paper tray (no link),
every event going through the store's recorder as it would at a live tray. (Not named conftest:
tests/tracker has one too, and a module name must say whose it is.)"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tracker"))  # paper.py

from dialtray.rules.core.dice import SeededDice
from dialtray.store import GameRecorder, GameStore
from dialtray.store.recording import RecordingTracker
from dialtray.table.games import Setup, new_game
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


def recorded_game(path: Path, kind: str, seed: int, turns: int
                  ) -> tuple[Setup, Tracker, GameRecorder]:
    """A new game of kind (seeded dice, auto-bound to 8 docks), its tracker, and the recorder
    that stores it in the database at path."""
    dice = TableDice(SeededDice(seed))
    s = new_game(kind, dice, seed, turns)
    t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), dice, header=s.header)
    return s, t, GameRecorder.start(GameStore.open(path), t, origin="test")


def ruled_tray(rec: GameRecorder, shown: list[str]) -> tuple[RecordingTracker, PaperTray]:
    """The recorded tracker (boot 1) that puts each judge's ruling it applies into shown, and a
    paper tray on it, connected and settled."""
    rt = RecordingTracker(rec, boot=lambda: 1, on_ruling=shown.append)
    tray = PaperTray(rt)  # type: ignore[arg-type]
    tray.snapshot()
    tray.settle()
    return rt, tray


def play_stored(path: Path, kind: str, seed: int = 3, turns: int = 2,
                mistakes: bool = True) -> Played:
    s, t, rec = recorded_game(path, kind, seed, turns)
    store = rec.store
    tray = PaperTray(Recorded(rec))  # type: ignore[arg-type]
    tray.snapshot()
    tray.settle()
    run_bots(tray, Hands(Recorded(rec), s.brain, Mistakes() if mistakes else None))  # type: ignore[arg-type]
    rec.commit()
    return Played(store, rec.gid, t, rec, path)
