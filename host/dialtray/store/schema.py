"""The store's schema and its versioned migrations (issue 12: "schema migrations are versioned
from the first release on").

Every database carries a ``schema_version`` table with one row per migration applied. Opening a
database applies, in one transaction each, every migration above its version; a database from a
*newer* dialtray is refused (its tables may mean something this version does not know).
Migrations only ever add: a record written by any version is still hashed the same way.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

V1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,             -- the notation's Game: value
    created TEXT NOT NULL,          -- UTC, ISO 8601
    origin TEXT NOT NULL,           -- play, demo, import, consumer, bench ...
    status TEXT NOT NULL,           -- running, over, ended (by the judge)
    result TEXT NOT NULL DEFAULT '',
    state_json TEXT,                -- the engine's state at the last commit (core.game.state_json)
    records INTEGER NOT NULL DEFAULT 0,
    head TEXT NOT NULL,             -- sha of the last record
    boot_id INTEGER,                -- resume point: the tray's boot and last stored sequence
    last_seq INTEGER
);
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE figures (
    game_id INTEGER NOT NULL REFERENCES games(id),
    figure TEXT NOT NULL,
    dial_kind TEXT NOT NULL,
    dock INTEGER,                   -- the dock binding (NULL: not on the tray)
    reader INTEGER,
    PRIMARY KEY (game_id, figure, dial_kind)
);
CREATE TABLE records (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,             -- 1, 2, 3 ... within the game
    kind TEXT NOT NULL,
    content BLOB NOT NULL,          -- canonical JSON: game, n, kind, at, data
    sha TEXT NOT NULL,              -- SHA-256 of prev + kind + LF + content
    prev TEXT NOT NULL,             -- sha of the record before (64 zeros for the first)
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
CREATE TRIGGER records_append_only_u BEFORE UPDATE ON records
BEGIN SELECT RAISE(ABORT, 'records are append-only'); END;
CREATE TRIGGER records_append_only_d BEFORE DELETE ON records
BEGIN SELECT RAISE(ABORT, 'records are append-only'); END;
"""

V2 = """
CREATE TABLE judge_tokens (
    event TEXT NOT NULL,            -- the tournament / event the judge's token is for
    hash TEXT NOT NULL,             -- SHA-256 of the token; the token itself is never stored
    created TEXT NOT NULL
);
"""

V3 = """
ALTER TABLE records ADD COLUMN mac TEXT;  -- HMAC-SHA256(the host's key, sha); NULL: unkeyed
ALTER TABLE games ADD COLUMN seal TEXT;   -- HMAC of the row (head, count, status, result, state)
ALTER TABLE games ADD COLUMN key_id TEXT; -- the id of the key that keyed this game
"""


def _script(sql: str) -> Callable[[sqlite3.Connection], None]:
    def apply(conn: sqlite3.Connection) -> None:
        for stmt in _statements(sql):
            conn.execute(stmt)
    return apply


def _statements(sql: str) -> list[str]:
    """Split a script at top-level semicolons (a trigger body's ``;`` ends at ``END;``)."""
    out, cur = [], ""
    for line in sql.splitlines():
        cur += line + "\n"
        if sqlite3.complete_statement(cur):
            if cur.strip():
                out.append(cur)
            cur = ""
    return out


MIGRATIONS: list[tuple[int, str, Callable[[sqlite3.Connection], None]]] = [
    (1, "games, seats, figures and dock bindings, append-only hash-chained records", _script(V1)),
    (2, "judge tokens (hashes only)", _script(V2)),
    (3, "keyed chain: a MAC per record and a seal per game (issue 31)", _script(V3)),
]
LATEST = MIGRATIONS[-1][0]


def version(conn: sqlite3.Connection) -> int:
    """The schema version of a database (0: empty, nothing of ours in it)."""
    has = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'"
                       ).fetchone()
    if not has:
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(conn: sqlite3.Connection, upto: int = LATEST) -> list[int]:
    """Apply every migration above the database's version up to ``upto``; returns those applied.
    Each runs in its own transaction with its ``schema_version`` row, so a crash leaves the
    database at a whole version. The connection must be in autocommit mode."""
    done: list[int] = []
    if version(conn) == 0:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version "
                     "(version INTEGER NOT NULL, applied TEXT NOT NULL, note TEXT NOT NULL)")
        conn.execute("COMMIT")
    for number, note, apply in MIGRATIONS:
        if number > upto:
            break
        conn.execute("BEGIN IMMEDIATE")
        try:
            if version(conn) >= number:
                conn.execute("ROLLBACK")
                continue
            apply(conn)
            conn.execute("INSERT INTO schema_version VALUES (?, ?, ?)",
                         (number, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), note))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        done.append(number)
    return done
