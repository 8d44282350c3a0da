"""Issue 32, defects 6 and 10: results taken only for the table's own pairing in the open round
(a late, foreign or impossible result quarantined for the organiser with its reason), a round
cancelled, the table told the truth while it waits, one table per data directory, a finished
table's phase cleared on the hub page."""

from __future__ import annotations

import secrets
from pathlib import Path

import psycopg
import pytest
from dialtray.hub import devservers, event
from dialtray.hub.ingest import Ingest
from dialtray.hub.sim import wait_for
from dialtray.hub.table import Broker, Outbox, TableLink
from dialtray.hub.tableside import EventAddress, EventError, EventTable
from dialtray.store.db import GameStore
from hubhelp import EVENT, fresh_db

SQUAD = [{"figure": "sample-militia-fighter"}]


def _players(dsn: str, *ids: str) -> None:
    with psycopg.connect(dsn) as db:
        for p in ids:
            event.add_player(db, p, p, SQUAD, 200)
        db.commit()


def _pair(dsn: str) -> list[tuple[str, str | None, str | None]]:
    with psycopg.connect(dsn) as db:
        _rnd, pairs = event.pair(db, 90)
        db.commit()
    return pairs


def _play(tmp: Path, servers: devservers.DevServers, tid: str,
          games: list[tuple[int, tuple[str, str], str | None]]) -> TableLink:
    """A table whose store holds ``games``: (round, (A's player, B's player), winner seat)."""
    pw = secrets.token_urlsafe(9)
    servers.mqtt.add_user(tid, pw)
    path = tmp / f"{tid}.sqlite3"
    with GameStore.open(path) as st:
        Outbox.install(st)
        for rnd, (a, b), winner in games:
            gid = st.new_game("airaction", seats=[("A", a), ("B", b)], origin="test",
                              extra={"round": rnd})
            st.append(gid, "end", {"termination": "time", "winner": winner,
                                   "vp": {"A": 5, "B": 2}, "how": None})
            st.commit()
    return TableLink(path, EVENT, tid, Broker("127.0.0.1", servers.mqtt.port, tid, pw)).start()


def _q(dsn: str) -> list[str]:
    with psycopg.connect(dsn) as db:
        return [r for (r,) in db.execute("SELECT reason FROM hub_quarantine ORDER BY id")]


def test_results_only_for_the_tables_pairing_in_the_open_round(
        servers: devservers.DevServers, tmp_path: Path) -> None:
    dsn = fresh_db(servers, "res_open")
    _players(dsn, "ann", "bob", "cat", "dan")
    pairs = _pair(dsn)
    (a1, b1, t1), (a2, b2, t2) = pairs
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    links = []
    try:
        # t01 plays its pairing but names a winner not in it; t02 plays someone else's game
        links.append(_play(tmp_path, servers, str(t1), [(1, (a1, str(b1)), "Z")]))
        links.append(_play(tmp_path, servers, str(t2), [(1, (a1, str(b1)), "A")]))
        wait_for(lambda: all(x.outstanding() == 0 for x in links), 30, "records stored")
        wait_for(lambda: len(_q(dsn)) >= 3, 10, "refusals quarantined")
        reasons = "\n".join(_q(dsn))
        assert "names winner 'Z', not a player of round 1's pairing" in reasons
        assert f"but round 1's pairing at table {t2} is {a2} – {b2}" in reasons
        with psycopg.connect(dsn) as db:
            assert db.execute("SELECT COUNT(*) FROM hub_pairings WHERE vp_a IS NOT NULL"
                              ).fetchone() == (0,)  # no result taken: no one lost by it
        with psycopg.connect(dsn) as db:
            rnd = event.cancel(db)  # (the organiser withdraws round 1 …)
            db.commit()
        assert rnd == 1
        assert event.results(psycopg.connect(dsn)) == []
        pairs2 = _pair(dsn)  # … and pairs round 2
        assert {p for ab in pairs2 for p in ab[:2]} == {"ann", "bob", "cat", "dan"}
        late = _play(tmp_path, servers, "late-t", [(1, (a1, str(b1)), "A")])
        links.append(late)
        wait_for(lambda: late.outstanding() == 0, 30, "the late game stored")
        wait_for(lambda: any("late-t" in r for r in _q(dsn)), 10, "the late game refused")
        assert any("names round 1, but the open round is 2" in r for r in _q(dsn))
    finally:
        for x in links:
            x.stop()
        hub.stop()


def test_cancelled_round_reaches_the_waiting_table(servers: devservers.DevServers,
                                                    tmp_path: Path) -> None:
    dsn = fresh_db(servers, "res_cancel")
    _players(dsn, "ann", "bob")
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    pw = secrets.token_urlsafe(9)
    servers.mqtt.add_user("t01", pw)
    db = tmp_path / "games.sqlite3"
    GameStore.open(db).close()
    ev = EventTable(db, EventAddress("127.0.0.1", servers.mqtt.port, EVENT),
                    {"table": "t01", "password": pw, "ruling_key": b"k" * 32}).start()
    try:
        with pytest.raises(EventError, match="already uses this data directory"):
            EventTable(db, EventAddress("127.0.0.1", servers.mqtt.port, EVENT),
                       {"table": "t02", "password": pw, "ruling_key": b"k" * 32}).start()
        _pair(dsn)
        assert ev.wait_assignment(15) is not None
        with psycopg.connect(dsn) as c:
            event.cancel(c)
            c.commit()
        wait_for(lambda: ev.assignment is None, 15, "the assignment withdrawn")
    finally:
        ev.stop(1)
        hub.stop()


def test_waiting_table_says_the_truth(servers: devservers.DevServers, tmp_path: Path) -> None:
    """Defect 10: it always said "the hub is not reachable" (the link was stopped first)."""
    from dialtray.table.errors import TableError
    from dialtray.table.event import wait_assignment

    pw = secrets.token_urlsafe(9)
    servers.mqtt.add_user("t-wait", pw)
    db = tmp_path / "games.sqlite3"
    GameStore.open(db).close()
    ev = EventTable(db, EventAddress("127.0.0.1", servers.mqtt.port, "nohub"),
                    {"table": "t-wait", "password": pw, "ruling_key": b"k" * 32}).start()
    wait_for(lambda: ev.link.connected.is_set(), 15, "connected to the broker")
    with pytest.raises(TableError, match="the broker is reachable, but no assignment came"):
        wait_assignment(ev, 0.5)


def test_finished_tables_phase_is_cleared(servers: devservers.DevServers,
                                          tmp_path: Path) -> None:
    dsn = fresh_db(servers, "res_phase")
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    link = _play(tmp_path, servers, "ph-t", [])
    try:
        wait_for(lambda: link.connected.is_set() and hub.subscribed.is_set(), 15, "connected")
        link.publish_state({"game": 1, "phase": "turn 3 move"})  # (QoS 0: sent once connected)
        wait_for(lambda: _state(dsn, "ph-t") is not None, 15, "the state at the hub")
        with GameStore.open(link.db) as st:
            Outbox.install(st, link.wake)
            gid = st.new_game("airaction", seats=[("A", "x"), ("B", "y")], origin="test")
            st.append(gid, "end", {"winner": None, "vp": {"A": 1, "B": 1}})
            st.commit()
        wait_for(lambda: (_state(dsn, "ph-t") or {}).get("phase") == "game over", 15,
                 "the page no longer shows the last phase")
        link.stop()
        wait_for(lambda: _state(dsn, "ph-t") is None, 15, "the table gone: no phase left")
    finally:
        link.stop()
        hub.stop()


def _state(dsn: str, table: str) -> dict[str, object] | None:
    with psycopg.connect(dsn) as db:
        row = db.execute("SELECT state FROM hub_tables WHERE id = %s", (table,)).fetchone()
    return None if row is None else row[0]

