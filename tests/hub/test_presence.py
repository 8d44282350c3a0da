"""Presence: a table's retained `online`, and its Last Will `offline` published by the broker
when the table's network goes (here: its cable cut at a relay) — the hub sees the table drop
without the table saying anything — then `online` again when it comes back."""

from __future__ import annotations

import secrets
from pathlib import Path

import psycopg
from dialtray.hub import devservers
from dialtray.hub.ingest import Ingest
from dialtray.hub.sim import Relay, wait_for
from dialtray.hub.table import Broker, TableLink
from dialtray.store.db import GameStore
from hubhelp import EVENT, fresh_db


def test_last_will_marks_a_cut_table_offline(servers: devservers.DevServers,
                                             tmp_path: Path) -> None:
    dsn = fresh_db(servers, "presence")
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    relay = Relay(servers.mqtt.port)
    pw = secrets.token_urlsafe(9)
    servers.mqtt.add_user("pr-t", pw)
    GameStore.open(tmp_path / "p.sqlite3").close()
    link = TableLink(tmp_path / "p.sqlite3", EVENT, "pr-t",
                     Broker("127.0.0.1", relay.port, "pr-t", pw)).start()

    def presence() -> str | None:
        with psycopg.connect(dsn) as db:
            row = db.execute("SELECT presence FROM hub_tables WHERE id = 'pr-t'").fetchone()
            return None if row is None else str(row[0])

    try:
        wait_for(lambda: presence() == "online", 20, "the table online")
        relay.cut(3600)  # the cable goes (both sockets closed; a silent cut: keepalive 7.5 s)
        wait_for(lambda: presence() == "offline", 30, "the broker's Last Will: offline")
        relay.down_until = 0  # … and comes back
        wait_for(lambda: presence() == "online", 30, "online again after reconnecting")
    finally:
        link.stop()
        hub.stop()
        relay.close()
