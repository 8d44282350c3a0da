"""The store itself: SQLite in WAL mode, games with seats/figures/bindings, append-only
hash-chained records, versioned migrations, and clear errors when it cannot write (issue 12)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from dialtray.store import GameStore, StoreError, schema
from dialtray.store.chain import GENESIS, check_chain, content_of, link
from dialtray.store.verify import verify_game
from storehelp import Played


def test_a_tracked_game_is_stored_with_its_setup_and_verifies(aces_game: Played) -> None:
    st, gid = aces_game.store, aces_game.gid
    g = st.game(gid)
    assert g.kind == "aces" and g.status == "over" and "wins" in g.result
    assert st.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    kinds = {r.kind for r in st.rows(gid)}
    assert {"game", "device", "action", "expect", "flag", "resolve", "confirm", "dice",
            "end"} <= kinds
    assert st.seats(gid) == [(s, "") for s in aces_game.tracker.game.seats()]
    figs = st.figures(gid)
    assert len(figs) == len(aces_game.tracker.binding)
    assert all(f[2] is not None for f in figs)
    st.close()
    again = GameStore.open(aces_game.path, readonly=True)
    v = verify_game(again, gid)
    assert v.ok, v.text()
    assert v.actions == len(aces_game.tracker.game.history)


def test_records_are_append_only(aces_game: Played) -> None:
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        aces_game.store.conn.execute("UPDATE records SET kind = 'x' WHERE n = 2")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        aces_game.store.conn.execute("DELETE FROM records WHERE n = 2")


def test_an_older_database_is_migrated_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    assert schema.migrate(conn, upto=1) == [1]
    # a game written by the first release, with its own SQL
    conn.execute("INSERT INTO games (id, kind, created, origin, status, head) VALUES "
                 "(1, 'aces', '2026-01-01T00:00:00Z', 'play', 'running', ?)", (GENESIS,))
    prev = GENESIS
    for n, (kind, data) in enumerate([("game", {"kind": "aces", "seats": [], "figures": [],
                                                "header": []}),
                                      ("note", {"text": "from version 1"})], 1):
        c = content_of(1, n, kind, 1.0, data)
        sha = link(prev, kind, c)
        conn.execute("INSERT INTO records VALUES (1, ?, ?, ?, ?, ?)", (n, kind, c, sha, prev))
        prev = sha
    conn.execute("UPDATE games SET records = 2, head = ? WHERE id = 1", (prev,))
    conn.close()
    with pytest.raises(StoreError, match=r"version 1.*open it once for writing"):
        GameStore.open(path, readonly=True)
    st = GameStore.open(path)
    assert schema.version(st.conn) == schema.LATEST == 3
    versions = [r[0] for r in st.conn.execute("SELECT version FROM schema_version")]
    assert versions == [1, 2, 3]
    assert [r.kind for r in st.rows(1)] == ["game", "note"]
    st.add_token("spring open", "ab" * 32)
    assert st.token_events() == {"ab" * 32: "spring open"}
    n = st.append(1, "note", {"text": "from version 2"})
    st.commit()
    assert n == 3
    # issue 31: a game of an older dialtray goes on unkeyed (never half-keyed) and says so
    g = st.game(1)
    assert g.key_id is None and g.seal is None
    assert [r.mac for r in st.rows(1)] == [None, None, None]


def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    GameStore.open(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO schema_version VALUES (99, 'x', 'future')")
    conn.close()
    with pytest.raises(StoreError, match=r"new\.sqlite3: database schema version 99 is newer"):
        GameStore.open(path)


def test_disk_full_is_a_clear_error_and_stores_nothing_of_the_batch(tmp_path: Path) -> None:
    path = tmp_path / "full.sqlite3"
    st = GameStore.open(path)
    gid = st.new_game("aces", seats=[("P1", ""), ("P2", "")])
    pages = st.conn.execute("PRAGMA page_count").fetchone()[0]
    st.conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk is as good as full
    for i in range(2000):
        st.append(gid, "note", {"text": f"note {i} " + "x" * 200})
    with pytest.raises(StoreError) as err:
        st.commit()
    assert str(path) in str(err.value) and "full" in str(err.value)
    assert "nothing of this batch was stored" in str(err.value)
    assert st.game(gid).records == 1
    st.conn.execute("PRAGMA max_page_count = 1000000")  # space again
    st.append(gid, "note", {"text": "after"})
    st.commit()
    g = st.game(gid)
    assert g.records == 2
    data, broken = check_chain(gid, st.rows(gid), g.records, g.head)
    assert broken is None and [d["kind"] for d in data] == ["game", "note"]


def test_read_only_and_missing_databases_are_named(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite3"
    st = GameStore.open(path)
    gid = st.new_game("aces")
    st.close()
    ro = GameStore.open(path, readonly=True)
    ro.append(gid, "note", {"text": "x"})
    with pytest.raises(StoreError, match=r"ro\.sqlite3: opened read-only"):
        ro.commit()
    ro.close()
    # A database file SQLite itself may only read (another process holds it read-only).
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    st2 = GameStore(conn, path, readonly=False)
    st2.append(gid, "note", {"text": "x"})
    with pytest.raises(StoreError, match=r"ro\.sqlite3: could not store.*read-only"):
        st2.commit()
    with pytest.raises(StoreError, match=r"nothere\.sqlite3: no game database here"):
        GameStore.open(tmp_path / "nothere.sqlite3", readonly=True)
    with pytest.raises(StoreError, match="no game 42"):
        GameStore.open(path, readonly=True).game(42)


def test_the_fast_click_content_is_the_canonical_content() -> None:
    import random

    from dialtray.link.messages import Click
    from dialtray.store.chain import content_of
    from dialtray.store.payload import click_content, data_of

    rng = random.Random(1)
    for _ in range(500):
        ev = Click(rng.randrange(1 << 40), rng.randrange(16), rng.randrange(2),
                   rng.randrange(-99, 4096), rng.randrange(-6, 7), rng.randrange(1 << 32),
                   rng.random() < 0.5)
        boot = rng.choice([None, rng.randrange(1 << 32)])
        gid, n, at = rng.randrange(1, 999), rng.randrange(1, 10**7), rng.uniform(0, 2e9)
        assert click_content(gid, n, at, ev, boot) == \
            content_of(gid, n, "device", round(at, 3), data_of(ev, boot))
