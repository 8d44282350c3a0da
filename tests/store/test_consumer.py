"""StoringConsumer on the virtual tray: events acknowledged only after their commit; a full
disk is a StoreError naming the database, and nothing of the batch is acknowledged."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from dialrig import config
from dialtray.link.session import TraySession
from dialtray.store import GameStore, StoreError
from dialtray.store.consumer import StoringConsumer
from dialtray.virtual.tray import VirtualTray


def fast_config() -> dict[str, object]:
    cfg = config.default_config(2)
    cfg["settle_ms"] = 10
    cfg["sample_ms"] = 1
    return cfg


def pump_until(c: StoringConsumer, cond: object, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond():  # type: ignore[operator]
        assert time.monotonic() < end, "timed out"
        c.pump(0.05)


def test_acknowledged_only_after_commit_and_never_on_a_full_disk(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    store = GameStore.open(db)
    gid = store.new_game("aces")
    with VirtualTray(fast_config(), seed=8) as tray:
        session = TraySession(tray.port, name="store", ack_policy="manual")
        with pytest.raises(ValueError, match="ack_policy='manual'"):
            StoringConsumer(store, gid, TraySession(tray.port))
        c = StoringConsumer(store, gid, session)
        with session:
            session.wait_synced(60)
            tray.turn(0, "combat", 1)
            clicks = lambda: [r for r in store.rows(gid) if r.kind == "device"  # noqa: E731
                              and b'"Click"' in r.content]
            pump_until(c, lambda: len(clicks()) >= 1)
            g = store.game(gid)
            assert session.acknowledged == (g.boot_id, g.last_seq) and g.last_seq
            acked = session.acknowledged
            # the disk fills up
            pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
            store.conn.execute(f"PRAGMA max_page_count = {pages}")
            for _ in range(3):
                tray.turn(1, "speed", 1)
                time.sleep(0.05)
            end = time.monotonic() + 30
            while c.queue.empty():  # delivered by the session, not yet stored
                assert time.monotonic() < end, "the clicks never arrived"
                time.sleep(0.02)
            for _ in range(300):  # with the recorder's other records, more than the disk holds
                store.append(gid, "note", {"text": "x" * 500})
            with pytest.raises(StoreError) as err:
                c.pump()
            assert str(db) in str(err.value) and "full" in str(err.value)
            assert session.acknowledged == acked, "acknowledged what was not stored"
            assert store.game(gid).last_seq == acked[1]  # type: ignore[index]
