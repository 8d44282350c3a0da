"""Helpers of the hub tests (a module of its own: tests/ui has a conftest too)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from dialtray.hub import devservers, pgschema
from dialtray.hub.ingest import Ingest
from dialtray.link.messages import DialState, Snapshot
from dialtray.rules.core.dice import SeededDice
from dialtray.table.games import new_game
from dialtray.tracker import TableDice, Tracker, auto_bind

if TYPE_CHECKING:
    from dialtray.hub.web import HubPage, ServedHub

EVENT = "ev1"


def fresh_db(s: devservers.DevServers, name: str) -> str:
    """A new migrated database for one test; returns the hub role's DSN for it."""
    import psycopg

    with psycopg.connect(s.pg.owner_dsn, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    pgschema.migrate(s.pg.dsn("dialtray", s.pg.owner_password, name))
    return s.pg.dsn("dialtray_hub", s.pg.hub_password, name)


def paired_event(s: devservers.DevServers, name: str,
                 table: str = "t01") -> tuple[str, dict[str, Any]]:
    """A fresh event of two players (the sample militia and pirate fighters) paired at one
    enrolled table whose broker login exists and whose retained messages are cleared; returns
    the hub's DSN and the table's credentials."""
    import psycopg
    from dialtray.hub import event, rulings

    dsn = fresh_db(s, name)
    with psycopg.connect(dsn) as db:
        event.add_player(db, "ann", "Ann", [{"figure": "sample-militia-fighter"}], 200)
        event.add_player(db, "bob", "Bob", [{"figure": "sample-pirate-fighter"}], 200)
        creds = rulings.enroll(db, table)
        event.pair(db, 30)
    s.mqtt.add_user(table, creds["password"])
    forget_table(s, table)  # (another test's table of that name may have left its presence)
    return dsn, creds


def hub_page(s: devservers.DevServers, dsn: str) -> tuple[HubPage, Ingest, ServedHub]:
    """The hub as the organiser runs it: the intake started, its changes pushed to the page (whose
    judge rulings go out through it), the page served on a free port. The caller stops the
    intake and closes the server. (Needs the `ui` extra: callers importorskip starlette.)"""
    from dialtray.hub.web import HubPage, ServedHub

    page = HubPage(dsn, secrets.token_urlsafe(9))
    ingest = Ingest(dsn, EVENT, "127.0.0.1", s.mqtt.port,
                    s.hub_password, on_change=page.changed)  # type: ignore[attr-defined]
    page.ingest = ingest
    ingest.start()
    return page, ingest, ServedHub(page)


def forget_table(s: devservers.DevServers, table: str) -> None:
    """Clear what an earlier test's table left retained on the session's broker (its presence
    and live state), so a test sees only its own table's messages."""
    import paho.mqtt.client as mqtt
    from dialtray.hub import topics
    from paho.mqtt.enums import CallbackAPIVersion

    c = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    c.username_pw_set("hub", s.hub_password)  # type: ignore[attr-defined]
    c.connect("127.0.0.1", s.mqtt.port)
    c.loop_start()
    try:
        for what in ("presence", "state"):  # an empty retained message deletes the retained one
            c.publish(topics.table_topic(EVENT, table, what), b"", qos=1,
                      retain=True).wait_for_publish(10)
    finally:
        c.disconnect()
        c.loop_stop()


def tracker(kind: str) -> Tracker:
    d = TableDice(SeededDice(3))
    s = new_game(kind, d, 3, 4)
    return Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), d, header=s.header)


def agree(t: Tracker, now: float) -> None:
    """Every dial reported at its start click (a snapshot, as the tray sends on connect)."""
    dials = tuple(DialState(s.dock, s.dial, "as5600", 0, 12, 0)
                  for s in sorted(t.binding.slots()))
    t.feed(Snapshot(0, 1, 1, dials, "connect"), now)
