"""Issue 35 (1): the table's link is woken once a record is committed — not inside the
transaction (the link's own connection would find nothing and the record wait for its 0.2 s
poll) — for the store's commit hook (``Outbox``) and for the SQLite trigger an event table
installs (``wake_after_commit``: any store of this process on that file)."""

from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path

from dialtray.hub import devservers
from dialtray.hub.ingest import Ingest
from dialtray.hub.sim import wait_for
from dialtray.hub.table import Broker, Outbox, TableLink, install_trigger, wake_after_commit
from dialtray.store.db import GameStore
from hubhelp import EVENT, fresh_db


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


def test_a_record_reaches_the_hub_without_a_poll(servers: devservers.DevServers,
                                                 tmp_path: Path) -> None:
    """The link never polls here (``POLL_S`` an hour): each record of a game played through
    the outbox's hook, then one committed under an event table's trigger, reaches PostgreSQL
    and is acknowledged through wakes alone (the commit's, then the hub's ack)."""
    dsn = fresh_db(servers, "wake_nopoll")
    pw = secrets.token_urlsafe(9)
    servers.mqtt.add_user("wake-1", pw)
    path = tmp_path / "w.sqlite3"
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    link = TableLink(path, EVENT, "wake-1", Broker("127.0.0.1", servers.mqtt.port, "wake-1", pw))
    link.POLL_S = 3600.0
    st = GameStore.open(path)
    box = Outbox.install(st, link.wake)
    link.start()
    try:
        wait_for(lambda: link.connected.is_set() and hub.subscribed.is_set(), 20, "connected")
        gid = st.new_game("airaction", seats=[("A", "a"), ("B", "b")], origin="test")
        for k in range(3):
            st.append(gid, "device", {"i": k})
            st.commit()
            wait_for(lambda k=k: hub.stats.stored == k + 2 and link.outstanding() == 0,  # type: ignore[misc]
                     30, f"record {k + 2} stored and acknowledged")
        box.forget()
        st.commit_hooks.clear()  # now as `dialtray hub table` does it: the trigger
        install_trigger(path, backfill=False)
        forget = wake_after_commit(path, link.wake)
        try:
            st.append(gid, "device", {"i": 3})
            st.commit()
            wait_for(lambda: hub.stats.stored == 5 and link.outstanding() == 0, 30,
                     "the trigger's record stored and acknowledged")
        finally:
            forget()
    finally:
        link.stop()
        st.close()
        hub.stop()
