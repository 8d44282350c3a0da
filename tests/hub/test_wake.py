"""Issue 35 (1): the table's link is woken once a record is committed — not inside the
transaction (the link's own connection would find nothing and the record wait for its 0.2 s
poll) — for the store's commit hook (``Outbox``) and for the SQLite trigger an event table
installs (``wake_after_commit``: any store of this process on that file)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dialtray.hub.table import Outbox, install_trigger, wake_after_commit
from dialtray.store.db import GameStore


def outbox_rows(path: Path) -> int:
    with sqlite3.connect(path) as c:  # (another connection, as the link's is)
        return int(c.execute("SELECT COUNT(*) FROM hub_outbox").fetchone()[0])


def test_the_outbox_wakes_the_link_after_commit(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    seen: list[int] = []
    with GameStore.open(path) as st:
        box = Outbox.install(st, lambda: seen.append(outbox_rows(path)))
        gid = st.new_game("airaction", seats=[("A", "a"), ("B", "b")], origin="test")
        for k in range(3):
            st.append(gid, "device", {"i": k})
            st.commit()
        box.forget()
        st.append(gid, "device", {"i": 3})
        st.commit()
    assert seen == [1, 2, 3, 4]  # each wake found its commit's record; none after forget


def test_an_event_tables_trigger_wakes_the_link_after_commit(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    GameStore.open(path).close()
    install_trigger(path, backfill=False)
    seen: list[int] = []
    forget = wake_after_commit(tmp_path / "." / "t.sqlite3", lambda: seen.append(outbox_rows(path)))
    other: list[int] = []
    forget_other = wake_after_commit(tmp_path / "other.sqlite3", lambda: other.append(1))
    try:
        with GameStore.open(path) as st:  # (the game's own store, as play/serve open it)
            gid = st.new_game("airaction", seats=[("A", "a"), ("B", "b")], origin="test")
            st.append(gid, "device", {"i": 0})
            st.commit()
    finally:
        forget()
        forget_other()
    assert seen == [1, 2] and other == []
