"""`dialtray hub enroll` and `dialtray hub table` as an organiser and a table would run them: the
table's link in its own process beside whatever writes its store (here: this test, as `play`
would), the outbox filled by an SQLite trigger in the same transaction as each record, records
stored before the link started sent too, a judge call, Ctrl-C stops it cleanly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from dialtray import cli
from dialtray.hub import devservers
from dialtray.hub.ingest import Ingest
from dialtray.hub.sim import wait_for
from dialtray.store.db import GameStore
from hubhelp import EVENT, fresh_db


def test_enroll_then_table_sends_its_store(servers: devservers.DevServers, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    dsn = fresh_db(servers, "table_cmd")
    mq = servers.mqtt
    assert cli.main(["hub", "--db", dsn, "--event", EVENT, "enroll", "tc1", "--passwd",
                     str(mq.passwd)]) == 0
    creds = tmp_path / "tc1.json"
    creds.write_text(capsys.readouterr().out)
    assert json.loads(creds.read_text())["table"] == "tc1"
    os.chmod(mq.passwd, 0o644)  # the broker runs as its own user: it must read the file
    mq.reload()
    db = tmp_path / "games.sqlite3"
    store = GameStore.open(db)
    gid = store.new_game("airaction", seats=[("A", "ann"), ("B", "bob")], origin="play")
    for k in range(9):
        store.append(gid, "device", {"i": k})
    store.commit()  # 10 records before the table's link ever ran
    hub = Ingest(dsn, EVENT, "127.0.0.1", mq.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    exe = Path(sys.executable).parent / "dialtray"
    proc = subprocess.Popen([str(exe), "hub", "--event", EVENT, "table", "--store", str(db),
                             "--creds", str(creds), "--broker", f"127.0.0.1:{mq.port}",
                             "--call", "need a judge"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: hub.stats.stored >= 10, 30, "the records stored before the link")
        for k in range(20):  # the game goes on (another program writing the store)
            store.append(gid, "device", {"i": 100 + k})
            store.commit()
        wait_for(lambda: hub.stats.stored >= 30, 30, "the records stored since")
        with psycopg.connect(dsn) as pg:
            wait_for(lambda: pg.execute("SELECT COUNT(*) FROM hub_calls").fetchone() == (1,),
                     20, "the judge call")
            assert pg.execute("SELECT table_id, game, note FROM hub_calls").fetchone() == \
                ("tc1", gid, "need a judge")
            assert pg.execute("SELECT COUNT(*) FROM hub_records WHERE table_id = 'tc1'"
                              ).fetchone() == (30,)
        wait_for(lambda: store.conn.execute("SELECT COUNT(*) FROM hub_outbox").fetchone()[0]
                 == 0, 20, "the outbox emptied by the hub's acks")
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
        store.close()
        hub.stop()
    assert proc.returncode == 0, err
    assert "table tc1: 10 record(s) to send" in out
    assert "Traceback" not in err
