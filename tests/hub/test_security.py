"""Issue 17 acceptance, the faults: a record altered in flight is quarantined and named (and the
genuine one still arrives); a table publishing on another table's topic is refused by the broker;
the hub's database role cannot change or delete what it stored; a ruling made at the hub reaches
the table signed, is stored there and comes back in the table's chain."""

from __future__ import annotations

import secrets
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest
from dialtray.hub import devservers, topics
from dialtray.hub.ingest import Ingest
from dialtray.hub.rulings import make_ruling
from dialtray.hub.sim import Relay, ScriptedTable, wait_for
from dialtray.hub.table import Broker
from hubhelp import EVENT, fresh_db


def table(servers: devservers.DevServers, tmp: Path, tid: str, port: int | None = None,
          records: int = 40, key: bytes | None = None) -> ScriptedTable:
    pw = secrets.token_urlsafe(9)
    servers.mqtt.add_user(tid, pw)
    return ScriptedTable(tmp, EVENT, tid, Broker("127.0.0.1", port or servers.mqtt.port, tid, pw),
                         ("ann", "bob"), 1, records, seed=7, pace=0.05, ruling_key=key)


def test_record_altered_in_flight_is_quarantined_and_named(
        servers: devservers.DevServers, tmp_path: Path) -> None:
    dsn = fresh_db(servers, "sec_alter")
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    relay = Relay(servers.mqtt.port)
    relay.alter(b'"vp":3', b'"vp":9')  # one record's VP changed on the wire, sha left alone
    t = table(servers, tmp_path, "sec-alter", relay.port, records=80).start()
    try:
        assert t.done.wait(60)
        assert relay.altered.wait(5), "the script never produced a record to alter"
        total = t.expected()
        wait_for(lambda: hub.stats.stored >= total and t.link.outstanding() == 0, 60,
                 "the genuine records stored after the quarantine")
        with psycopg.connect(dsn) as db:
            q = db.execute("SELECT table_id, game, n, reason FROM hub_quarantine").fetchall()
            assert len(q) == 1, q
            tid, game, n, reason = q[0]
            assert (tid, game) == ("sec-alter", t.gid) and "altered" in reason
            assert f"record {n} of game {game} at table sec-alter" in reason
            stored = db.execute("SELECT content FROM hub_records WHERE table_id = %s AND "
                                "game = %s AND n = %s", (tid, game, n)).fetchone()
            genuine = next(r for r in t.store.rows(t.gid) if r.n == n)
            assert bytes(stored[0]) == genuine.content  # the genuine record, resent
            assert db.execute("SELECT COUNT(*) FROM hub_records WHERE table_id = %s",
                              (tid,)).fetchone() == (total,)
        from dialtray.hub.web import snapshot  # what the judge's page shows

        assert [q["reason"] for q in snapshot(dsn)["quarantine"]] == [reason]
    finally:
        t.close()
        hub.stop()
        relay.close()


def test_table_cannot_publish_on_another_tables_topic(
        servers: devservers.DevServers) -> None:
    import paho.mqtt.client as mqtt

    pw = secrets.token_urlsafe(9)
    servers.mqtt.add_user("sec-rogue", pw)
    results: dict[str, Any] = {}
    done = threading.Event()
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="rogue", protocol=mqtt.MQTTv5)
    c.username_pw_set("sec-rogue", pw)

    def on_publish(_c: Any, _u: Any, mid: int, rc: Any, _p: Any) -> None:
        results[mid] = rc
        if len(results) == 2:
            done.set()

    c.on_publish = on_publish
    c.connect("127.0.0.1", servers.mqtt.port)
    c.loop_start()
    try:
        other = c.publish(topics.table_topic(EVENT, "sec-victim", "rec"), b"x", qos=1)
        own = c.publish(topics.table_topic(EVENT, "sec-rogue", "presence"), b"online", qos=1)
        assert done.wait(10)
        assert results[other.mid].is_failure and results[other.mid].value == 135  # not authorised
        assert not results[own.mid].is_failure
    finally:
        c.disconnect()
        c.loop_stop()

    refused: list[Any] = []
    got = threading.Event()
    bad = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="nopw", protocol=mqtt.MQTTv5)
    bad.username_pw_set("sec-rogue", "wrong")
    bad.on_connect = lambda _c, _u, _f, rc, _p=None: (refused.append(rc), got.set())
    bad.connect("127.0.0.1", servers.mqtt.port)
    bad.loop_start()
    try:
        assert got.wait(10)
        assert refused[0].is_failure  # a wrong password is refused at CONNECT
    finally:
        bad.disconnect()
        bad.loop_stop()


def test_hub_role_has_only_the_rights_it_needs(servers: devservers.DevServers) -> None:
    dsn = fresh_db(servers, "sec_role")
    with psycopg.connect(dsn) as db:
        db.execute("INSERT INTO hub_records (table_id, game, n, kind, content, sha, prev) VALUES "
                   "('t', 1, 1, 'k', 'x', 's', 'p')")
        db.commit()
        for sql in ("DELETE FROM hub_records", "UPDATE hub_records SET kind = 'z'",
                    "CREATE TABLE evil (x int)", "DROP TABLE hub_records",
                    "DELETE FROM hub_quarantine"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                db.execute(sql)
            db.rollback()


def test_ruling_travels_signed_and_is_stored_on_both_sides(
        servers: devservers.DevServers, tmp_path: Path) -> None:
    dsn = fresh_db(servers, "sec_ruling")
    key = secrets.token_bytes(32)
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    t = table(servers, tmp_path, "sec-rule", records=200, key=key).start()
    try:
        wait_for(lambda: t.gid > 0 and t.link.connected.is_set(), 20, "the table plays")
        t.link.call_judge(t.gid, "is that shot in range?")
        wait_for(lambda: _one(dsn, "SELECT COUNT(*) FROM hub_calls") == 1, 20, "the call")
        with psycopg.connect(dsn) as db:
            call_id = db.execute("SELECT id FROM hub_calls").fetchone()[0]
            body, sig = make_ruling(db, key, call_id, "vp", {"seat": "A", "vp": 2}, "in range")
            db.commit()
        forged = {**body, "args": {"seat": "A", "vp": 9}}
        hub.send("sec-rule", "ruling", {"body": forged, "sig": sig})  # refused at the table
        hub.send("sec-rule", "ruling", {"body": body, "sig": sig})
        assert t.done.wait(60)
        wait_for(lambda: _one(dsn, "SELECT COUNT(*) FROM hub_records WHERE kind = 'ruling'") == 1,
                 30, "the ruling back at the hub in the table's chain")
        assert t.link.stats.bad_rulings == 1
        with psycopg.connect(dsn) as db:
            assert db.execute("SELECT status FROM hub_calls").fetchone() == ("ruled",)
        wait_for(lambda: _one(dsn, "SELECT COUNT(*) FROM hub_rulings WHERE confirmed") == 1,
                 10, "the ruling confirmed by its record (no longer sent again)")
    finally:
        t.close()
        hub.stop()


def _one(dsn: str, sql: str) -> Any:
    with psycopg.connect(dsn) as db:
        return db.execute(sql).fetchone()[0]  # type: ignore[index]
