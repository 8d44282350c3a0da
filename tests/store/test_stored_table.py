"""A whole bot game on the virtual tray through StoredTable: every tray event stored, each batch
acknowledged only after its commit, and the stored game verifies and replays to the end."""

from __future__ import annotations

import json
from pathlib import Path

from dialrig import config
from dialtray.link.session import TraySession
from dialtray.rules.core.dice import TrayDice
from dialtray.store import GameRecorder, GameStore
from dialtray.store.table import StoredTable
from dialtray.store.verify import verify_game
from dialtray.table.games import new_game
from dialtray.tracker import PLAY, TableDice, Timing, Tracker, auto_bind
from dialtray.tracker.hands import Hands
from dialtray.tracker.runner import play_out
from dialtray.virtual.hands import VirtualHands
from dialtray.virtual.tray import VirtualTray


def test_a_bot_game_on_the_virtual_tray_is_stored_and_acknowledged_after_commit(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store = GameStore.open(db)
    with VirtualTray(config.default_config(8), seed=21) as tray:
        session = TraySession(tray.port, name="stored", ack_policy="manual")
        dice = TableDice(TrayDice(session))
        s = new_game("aces", dice, 2, 1)
        t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), dice, header=s.header,
                    timing=Timing(judge_s=0.25, grace_s=0.5))
        rec = GameRecorder.start(store, t, origin="test")
        table = StoredTable(rec, session)
        delivered: list[object] = []
        session.subscribe(delivered.append)
        with session:
            session.wait_synced(60)
            session.set_timing(5, 2)
            table.wait_until(lambda: t.phase == PLAY, 30, "the start check")
            play_out(table, Hands(table.tracker, s.brain), VirtualHands(tray).turn,  # type: ignore[arg-type]
                     timeout=240, step_timeout=30)
            table.pump()
            acked = session.acknowledged
        table.close()
    g = store.game(rec.gid)
    assert g.status == "over"
    assert acked is not None and acked == (g.boot_id, g.last_seq)
    stored = [json.loads(r.content)["data"] for r in store.rows(rec.gid) if r.kind == "device"]
    sent = [e.seq for e in delivered if e.seq > 0 and e.seq <= acked[1]]  # type: ignore[attr-defined]
    assert [e["seq"] for e in stored if e["seq"] > 0] == sent and sent
    assert any(r.kind == "dice" for r in store.rows(rec.gid))
    v = verify_game(store, rec.gid)
    assert v.ok, v.text()
    assert v.actions == len(t.game.history)
