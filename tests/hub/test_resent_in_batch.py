"""Issue 35: a copy of a record re-sent inside the batch that brought its original is a
duplicate, stored once and quarantined never — even when the original has fallen out of the
shas the hub keeps in memory (``chains.RECENT``) and the copy is checked against PostgreSQL:
that check runs after the batch's INSERT, in the same transaction. A copy that differs is still
quarantined. (The writer's ``_store`` is called directly with one batch: a batch's bounds over
the broker depend on timing, which a test must not.)"""

from __future__ import annotations

from pathlib import Path

import psycopg
from dialtray.hub import devservers, topics
from dialtray.hub.chains import RECENT
from dialtray.hub.ingest import Ingest
from dialtray.store.db import GameStore
from hubhelp import EVENT, fresh_db

TABLE = "rib-1"


def _records(tmp: Path, count: int) -> list[tuple[int, int, str, bytes, str, str]]:
    with GameStore.open(tmp / "t.sqlite3") as st:
        gid = st.new_game("airaction", seats=[("A", "a"), ("B", "b")], origin="test")
        for i in range(count):
            st.append(gid, "device", {"i": i})
        st.commit()
        return [(gid, n, kind, bytes(content), sha, prev) for n, kind, content, sha, prev in
                st.conn.execute("SELECT n, kind, content, sha, prev FROM records WHERE "
                                "game_id = ? ORDER BY n", (gid,))]


def _msg(rec: tuple[int, int, str, bytes, str, str]) -> tuple[int, int, int, str, bytes]:
    game, n, kind, content, sha, prev = rec
    return (0, 0, 0, topics.table_topic(EVENT, TABLE, "rec"),
            topics.encode_record(game, n, kind, content, sha, prev, TABLE, EVENT))


def test_a_record_resent_in_its_batch_is_stored_once(servers: devservers.DevServers,
                                                     tmp_path: Path) -> None:
    dsn = fresh_db(servers, "rib")
    recs = _records(tmp_path, RECENT + 50)
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password)  # type: ignore[attr-defined]  # (not started: no broker)
    try:
        old, recent = recs[1], recs[-3]  # record 2: far behind the head; one still in memory
        game, n, kind, content, _sha, prev = recs[4]
        altered = (game, n, kind, content.replace(b'"i":', b'"i" :'), "f" * 64, prev)
        hub._store([_msg(r) for r in recs] + [_msg(old), _msg(recent), _msg(altered)])
        with psycopg.connect(dsn) as db:
            assert db.execute("SELECT COUNT(*), COUNT(DISTINCT n) FROM hub_records").fetchone() \
                == (len(recs), len(recs))
            reasons = [r for (r,) in db.execute("SELECT reason FROM hub_quarantine")]
        assert len(reasons) == 1 and f"record {n} of game {game}" in reasons[0], reasons
        assert hub.stats.stored == len(recs) and hub.stats.duplicates == 2
        assert hub.stats.quarantined == 1
    finally:
        hub.client.loop_stop()
        hub.db.close()
