"""Resume (issue 12): a game interrupted half-way is rebuilt from the store alone — the state
replayed, the binding and the dials as last stored — and played on to its end into the same
stored game, which then verifies as one unbroken chain."""

from __future__ import annotations

from pathlib import Path

import pytest
from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.game import state_json
from dialtray.store import GameStore, StoreError
from dialtray.store.recording import RecordingTracker
from dialtray.store.resume import attach, resume
from dialtray.store.verify import verify_game
from dialtray.tracker import OVER, PLAY, Result, TableDice, Tracker
from dialtray.tracker import marks as mk
from dialtray.tracker.hands import Hands
from paper import PaperTray, bot_move
from storehelp import recorded_game


def test_a_game_interrupted_half_way_is_resumed_from_the_store(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    s, t, rec = recorded_game(db, "aces", 4, 2)
    store = rec.store
    tray = PaperTray(RecordingTracker(rec, boot=lambda: 77))  # type: ignore[arg-type]
    tray.snapshot()
    tray.settle()
    hands = Hands(RecordingTracker(rec), s.brain)  # type: ignore[arg-type]

    def decide_and_sync(text: str, now: float) -> Result:
        r = t.decide(text, now)
        rec.sync()
        return r

    while len(t.game.history) < 12 or not t.ready():  # play a while, then the host dies
        bot_move(tray, hands, decide_and_sync, pause=0.05)
    tray.settle()
    rec.store.update_game(rec.gid, boot_id=77, last_seq=tray.seq)
    rec.commit()
    positions = dict(tray.pos)
    store.close()  # (a crash: nothing else is kept)

    store = GameStore.open(db)
    dice2 = TableDice(SeededDice(5))
    r = resume(store, rec.gid, dice2)
    assert state_json(r.game) == state_json(t.game)
    assert r.session_args["resume_from"] == (77, tray.seq)
    assert r.snapshot is not None and r.snapshot.next_seq == tray.seq + 1
    assert {(d.dock, d.dial): d.position for d in r.snapshot.dials} == \
        {(sl.dock, sl.dial): p % 12 for sl, p in positions.items()}
    t2 = Tracker(r.game, r.binding, dice2, header=r.header)
    rec2 = attach(store, r.gid, t2)
    tray2 = PaperTray(RecordingTracker(rec2), seq=tray.seq, pos=dict(positions))  # type: ignore[arg-type]
    rec2.device(r.snapshot, 77, 0.0)
    assert t2.phase == PLAY, t2.waiting_for()  # the dials were where the rules put them
    # a dial turned while the host was down comes in as the tray's replay: flagged
    slot = next(iter(positions))
    tray2.turn(slot, 1)
    tray2.settle()
    assert t2.flags and t2.flags[-1].kind in (mk.UNEXPECTED, mk.REFUSED, mk.WRONG_DIAL)
    tray2.turn(slot, -1)
    tray2.settle()
    hands2 = Hands(RecordingTracker(rec2), s.brain)  # type: ignore[arg-type]
    for _ in range(20000):
        if t2.phase == OVER:
            break
        bot_move(tray2, hands2, rec2.decide, pause=0.05)
    assert t2.phase == OVER
    rec2.commit()
    v = verify_game(store, r.gid)
    assert v.ok, v.text()
    assert store.game(r.gid).status == "over"
    with pytest.raises(StoreError, match="is over, not running"):
        resume(store, r.gid)
