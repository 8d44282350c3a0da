"""`dialtray verify --hub` (issue 31): a table's stored game compared with the copy the event's
hub holds (a real PostgreSQL, the hub's own schema). The hub's copy here is what its intake
stores for each record (``hub_records``: table, game, n, kind, content, sha, prev), written
straight into its table — the outbox and broker that carry it are tested in test_gap.py and
test_soak.py. An edit after the fact contradicts the hub's copy even when made by the key
holder (re-hashed and re-keyed), which the keyed chain alone cannot see."""

from __future__ import annotations

import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.hub import devservers
from dialtray.store.db import GameStore
from hubhelp import fresh_db

sys.path.insert(0, str(Path(__file__).parent.parent / "store"))
sys.path.insert(0, str(Path(__file__).parent.parent / "tracker"))

from storehelp import play_stored


def test_verify_hub_finds_an_edit_the_key_holder_made(
        servers: devservers.DevServers, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import psycopg

    data = tmp_path / "data"
    monkeypatch.setenv("DIALTRAY_DATA_DIR", str(data))
    p = play_stored(tmp_path / "games.sqlite3", "aces", turns=1)
    rows = list(p.store.rows(p.gid))
    p.store.close()
    dsn = fresh_db(servers, "verifyhub")
    with psycopg.connect(dsn) as c:  # what the hub received as each record was written
        with c.cursor() as cur:
            cur.executemany("INSERT INTO hub_records (table_id, game, n, kind, content, sha, "
                            "prev) VALUES ('t4', %s, %s, %s, %s, %s, %s)",
                            [(p.gid, r.n, r.kind, r.content, r.sha, r.prev) for r in rows])
        c.commit()
    base = ["--data-dir", str(data), "verify", "--db", str(p.path), "--hub", dsn]
    assert main([*base, "--table", "t4"]) == 0
    assert f"the hub's copy agrees ({len(rows)} records)" in capsys.readouterr().out
    assert main(base) == 2  # --hub without --table: one line, exit 2
    assert "--table" in capsys.readouterr().err
    # the key holder rewrites record 7 and re-keys the whole game: the keyed chain is happy
    edited = tmp_path / "edited.sqlite3"
    shutil.copy(p.path, edited)
    with sqlite3.connect(edited) as c:
        c.execute("DROP TRIGGER records_append_only_u")
        c.execute("DROP TRIGGER records_append_only_d")
        c.execute("DELETE FROM records WHERE game_id = ? AND n >= 7", (p.gid,))
        c.execute("UPDATE games SET records = 6, head = (SELECT sha FROM records WHERE "
                  "game_id = ? AND n = 6), status = 'running', result = '', state_json = NULL "
                  "WHERE id = ?", (p.gid, p.gid))
    st = GameStore.open(edited)
    st.append(p.gid, "note", {"text": "nothing happened here"})
    st.commit()
    st.close()
    argv = ["--data-dir", str(data), "verify", "--db", str(edited)]
    assert main(argv) == 0, capsys.readouterr().out  # keyed, sealed, replays: "ok" alone
    capsys.readouterr()
    assert main([*argv, "--hub", dsn, "--table", "t4"]) == 1
    out = capsys.readouterr().out
    assert "record 7 differs from the copy the hub received" in out, out
