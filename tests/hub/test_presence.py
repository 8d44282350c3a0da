"""Presence: a table's retained `online`, and its Last Will `offline` published by the broker
when the table's network goes (here: its cable cut at a relay) — the hub sees the table drop
without the table saying anything — then `online` again when it comes back."""

from __future__ import annotations

import secrets
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import psycopg
from dialtray.hub import devservers
from dialtray.hub.ingest import Ingest
from dialtray.hub.sim import Relay, wait_for
from dialtray.hub.table import Broker, TableLink
from dialtray.store.db import GameStore
from hubhelp import EVENT, fresh_db, paired_event


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


def test_online_is_said_only_once_the_table_hears_the_hub(servers: devservers.DevServers,
                                                          tmp_path: Path) -> None:
    """The hub answers a table's `online` with its assignment at once (a QoS 1 message, kept for
    a subscriber only). A table that said `online` before its subscription to the hub's
    commands was in place lost that answer whenever its SUBSCRIBE reached the broker after the
    hub's reply — a loaded machine descheduling the table's network thread between the two —
    and then waited out `--wait` for an assignment already sent. The subscription is held back
    here (as such a delay would); the assignment must still arrive."""
    dsn, creds = paired_event(servers, "presence_pairing")
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    GameStore.open(tmp_path / "p.sqlite3").close()
    link = TableLink(tmp_path / "p.sqlite3", EVENT, "t01",
                     Broker("127.0.0.1", servers.mqtt.port, "t01", creds["password"]))
    subscribe = link.client.subscribe

    def late_subscribe(*args: Any, **kw: Any) -> tuple[Any, int | None]:
        # the SUBSCRIBE goes out 0.5 s after the table asked for it (its thread off the CPU)
        threading.Timer(0.5, subscribe, args, kw).start()
        return mqtt.MQTT_ERR_SUCCESS, None

    link.client.subscribe = late_subscribe  # type: ignore[method-assign]
    try:
        # the round's assignments went out before the table came: only `online` brings one
        wait_for(lambda: hub.pushed_round != 0, 20, "the hub to push the round")
        link.start()
        wait_for(lambda: bool(link.stats.pairings), 20, "the table's assignment")
        assert {name for _seat, name in link.stats.pairings[0]["seats"]} == {"ann", "bob"}
    finally:
        link.stop()
        hub.stop()
