"""A gap in a table's records: the hub keeps what came after it waiting, asks the table for the
missing record (`resend` on the table's command topic), and stores everything in order once it
arrives — the table here is a bare MQTT client with the table's credentials, so the test
decides exactly what is on the wire."""

from __future__ import annotations

import json
import secrets
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import psycopg
from dialtray.hub import devservers, topics
from dialtray.hub.ingest import Ingest
from dialtray.hub.sim import wait_for
from dialtray.store.db import GameStore
from hubhelp import EVENT, fresh_db
from paho.mqtt.enums import CallbackAPIVersion


def test_gap_is_asked_for_and_filled(servers: devservers.DevServers, tmp_path: Path) -> None:
    dsn = fresh_db(servers, "gap")
    store = GameStore.open(tmp_path / "g.sqlite3")
    gid = store.new_game("airaction", seats=[("A", "a"), ("B", "b")])
    for k in range(5):
        store.append(gid, "device", {"i": k})
    store.commit()
    rows = {r.n: r for r in store.rows(gid)}
    assert len(rows) == 6
    pw = secrets.token_urlsafe(9)
    servers.mqtt.add_user("gap-t", pw)
    asked: list[dict[str, Any]] = []
    got = threading.Event()
    subscribed = threading.Event()
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="gap-t", protocol=mqtt.MQTTv5)
    c.username_pw_set("gap-t", pw)

    def on_message(_c: Any, _u: Any, m: Any) -> None:
        if m.topic.endswith("/resend"):
            asked.append(json.loads(m.payload))
            got.set()

    c.on_message = on_message
    c.on_subscribe = lambda *_a: subscribed.set()
    c.connect("127.0.0.1", servers.mqtt.port)
    c.loop_start()
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]

    def send(n: int) -> None:
        r = rows[n]
        c.publish(topics.table_topic(EVENT, "gap-t", "rec"),
                  topics.encode_record(gid, n, r.kind, r.content, r.sha, r.prev,
                                           "gap-t", EVENT), qos=1)

    try:
        c.subscribe(topics.cmd_topic(EVENT, "gap-t", "#"), qos=1)
        assert subscribed.wait(10) and hub.subscribed.wait(10)
        for n in (1, 2, 4, 5, 6):  # record 3 lost on the way
            send(n)
        assert got.wait(20), "the hub never asked for the gap"
        assert asked[0] == {"game": gid, "from": 3}
        wait_for(lambda: hub.stats.stored == 2, 10, "records 1 and 2 stored")  # 4..6 wait
        send(3)
        wait_for(lambda: hub.stats.stored == 6, 20, "the gap filled and the rest stored")
        with psycopg.connect(dsn) as db:
            assert [r[0] for r in db.execute("SELECT n FROM hub_records WHERE table_id = "
                                             "'gap-t' ORDER BY n")] == [1, 2, 3, 4, 5, 6]
            assert db.execute("SELECT n, sha FROM hub_heads WHERE table_id = 'gap-t'"
                              ).fetchone() == (6, rows[6].sha)
    finally:
        c.disconnect()
        c.loop_stop()
        hub.stop()
        store.close()
