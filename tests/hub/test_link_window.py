"""Issue 35: the table's link keeps at most ``WINDOW`` records of a game out beyond the first one
the hub has not acknowledged (the rest stay in the outbox on disk, read as acknowledgements
come back); the broker killed and restarted mid-stream, every record still arrives exactly
once and nothing acknowledged is lost (real Mosquitto and PostgreSQL)."""

from __future__ import annotations

import secrets
from pathlib import Path

import psycopg
from dialtray.hub import devservers
from dialtray.hub.ingest import Ingest
from dialtray.hub.sim import wait_for
from dialtray.hub.table import Broker, Outbox, TableLink
from dialtray.store.db import GameStore
from hubhelp import EVENT, fresh_db

RECORDS = 600
WINDOW = 40


def _stored(dsn: str) -> tuple[int, int]:
    with psycopg.connect(dsn) as db:
        row = db.execute("SELECT COUNT(*), COUNT(DISTINCT n) FROM hub_records").fetchone()
        assert row is not None
        return int(row[0]), int(row[1])


def test_the_window_holds_and_a_broker_restart_loses_nothing(servers: devservers.DevServers,
                                                            tmp_path: Path) -> None:
    dsn = fresh_db(servers, "lwin")
    pw = secrets.token_urlsafe(9)
    servers.mqtt.add_user("lwin", pw)
    path = tmp_path / "lwin.sqlite3"
    with GameStore.open(path) as st:  # a long game already in the outbox (the hub was away)
        Outbox.install(st)
        gid = st.new_game("airaction", seats=[("A", "a"), ("B", "b")], origin="test")
        for i in range(RECORDS - 1):
            st.append(gid, "device", {"i": i})
        st.commit()
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    link = TableLink(path, EVENT, "lwin", Broker("127.0.0.1", servers.mqtt.port, "lwin", pw))
    link.WINDOW = WINDOW
    link.start()
    try:
        wait_for(lambda: hub.stats.stored >= 3 * WINDOW, 30, "records stored before the kill")
        servers.mqtt.kill()
        wait_for(lambda: not link.connected.is_set(), 20, "the link sees the broker gone")
        servers.mqtt.start()
        wait_for(lambda: link.outstanding() == 0, 60, "every record acknowledged")
        assert _stored(dsn) == (RECORDS, RECORDS)  # each once, none missing
        assert hub.stats.quarantined == 0
        assert link.stats.most_ahead == WINDOW  # the window was full, never exceeded
        assert link.stats.connects >= 2
    finally:
        link.stop()
        hub.stop()
