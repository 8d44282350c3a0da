"""A scripted table closed in the middle of its game (a test that ends before the game does)
stops its script before its store is closed: closing an SQLite connection while the script's
thread committed on it crashed the whole test process once (a segfault in sqlite3's commit,
in test_hub_page). The scripted table is the hub tests' stand-in for a table's store."""

from __future__ import annotations

from pathlib import Path

import psycopg
from dialtray.hub import devservers, rulings
from dialtray.hub.sim import ScriptedTable, wait_for
from dialtray.hub.table import Broker
from dialtray.store.db import GameStore
from hubhelp import EVENT, fresh_db


def test_closing_a_table_mid_game_stops_its_script_first(servers: devservers.DevServers,
                                                         tmp_path: Path) -> None:
    dsn = fresh_db(servers, "sim_close")
    with psycopg.connect(dsn) as db:
        creds = rulings.enroll(db, "sc-t1")
    servers.mqtt.add_user("sc-t1", creds["password"])
    t = ScriptedTable(tmp_path, EVENT, "sc-t1",
                      Broker("127.0.0.1", servers.mqtt.port, "sc-t1", creds["password"]),
                      ("ann", "bob"), 1, 100_000, seed=1, pace=0.0).start()
    def stored() -> int:  # its own connection: the script's is the script's thread's
        st = GameStore.open(t.path, readonly=True)
        try:
            return int(st.game(t.gid).records)
        finally:
            st.close()

    wait_for(lambda: t.gid > 0 and stored() > 50, 20, "the table plays")
    t.close()  # far from the game's end: the script commits all the time
    assert not t.thread.is_alive(), "the script still ran after its store was closed"
    assert t.error is None, t.error
