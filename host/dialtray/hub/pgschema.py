"""The hub's PostgreSQL schema: versioned migrations like the store's (``hub_schema_version``).

Migrations run as the database's owner (``dialtray hub migrate --admin DSN``); the hub itself
connects as ``dialtray_hub``, which the migrations grant only what it needs: records and the
quarantine are insert-and-read (never updated or deleted), heads/tables/calls/event rows are
insert-update-read, and it owns nothing (no DDL). A newer schema is refused.
"""

from __future__ import annotations

from typing import Any

V1 = """
CREATE TABLE hub_tables (
    id TEXT PRIMARY KEY,
    presence TEXT NOT NULL DEFAULT 'unknown',
    seen TIMESTAMPTZ,
    state JSONB
);
CREATE TABLE hub_records (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    n INTEGER NOT NULL,
    kind TEXT NOT NULL,
    content BYTEA NOT NULL,
    sha TEXT NOT NULL,
    prev TEXT NOT NULL,
    received TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, game, n)
);
CREATE TABLE hub_heads (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    n INTEGER NOT NULL,
    sha TEXT NOT NULL,
    PRIMARY KEY (table_id, game)
);
CREATE TABLE hub_quarantine (
    id BIGSERIAL PRIMARY KEY,
    table_id TEXT NOT NULL,
    game INTEGER,
    n INTEGER,
    raw BYTEA NOT NULL,
    reason TEXT NOT NULL,
    received TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE hub_players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    squad JSONB NOT NULL,
    points INTEGER NOT NULL
);
CREATE TABLE hub_rounds (
    n INTEGER PRIMARY KEY,
    started TIMESTAMPTZ NOT NULL DEFAULT now(),
    minutes INTEGER NOT NULL
);
CREATE TABLE hub_pairings (
    round INTEGER NOT NULL REFERENCES hub_rounds(n),
    table_id TEXT,
    a TEXT NOT NULL,
    b TEXT,                          -- NULL: a bye
    game INTEGER,                    -- the table's game once it has started
    vp_a INTEGER,
    vp_b INTEGER,
    winner TEXT,
    PRIMARY KEY (round, a)
);
CREATE TABLE hub_calls (
    id BIGSERIAL PRIMARY KEY,
    table_id TEXT NOT NULL,
    game INTEGER,
    note TEXT NOT NULL DEFAULT '',
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    status TEXT NOT NULL DEFAULT 'open'
);
CREATE TABLE hub_rulings (
    id BIGSERIAL PRIMARY KEY,
    call_id BIGINT REFERENCES hub_calls(id),
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    body JSONB NOT NULL,
    sig TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE hub_event (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
GRANT SELECT, INSERT ON hub_records, hub_quarantine, hub_rulings TO dialtray_hub;
GRANT SELECT, INSERT, UPDATE ON hub_tables, hub_heads, hub_players, hub_rounds, hub_pairings,
    hub_calls, hub_event TO dialtray_hub;
GRANT USAGE ON SEQUENCE hub_quarantine_id_seq, hub_calls_id_seq, hub_rulings_id_seq
    TO dialtray_hub;
GRANT SELECT ON hub_schema_version TO dialtray_hub;
"""

V2 = """
ALTER TABLE hub_rounds ADD COLUMN status TEXT NOT NULL DEFAULT 'open';
ALTER TABLE hub_calls ADD COLUMN uid TEXT;
CREATE UNIQUE INDEX hub_calls_uid ON hub_calls (table_id, uid);
ALTER TABLE hub_rulings ADD COLUMN confirmed BOOLEAN NOT NULL DEFAULT false;
GRANT UPDATE (confirmed) ON hub_rulings TO dialtray_hub;
"""

MIGRATIONS: list[tuple[int, str, str]] = [
    (1, "tables, records, heads, quarantine, players, rounds, pairings, calls, rulings", V1),
    (2, "rounds can be cancelled; judge calls keep the table's id; rulings confirmed", V2),
]
LATEST = MIGRATIONS[-1][0]


class SchemaError(RuntimeError):
    """The database's schema is not one this dialtray can use."""


def version(conn: Any) -> int:
    row = conn.execute("SELECT to_regclass('hub_schema_version')").fetchone()
    if row[0] is None:
        return 0
    v = conn.execute("SELECT COALESCE(MAX(version), 0) FROM hub_schema_version").fetchone()
    return int(v[0])


def migrate(admin_dsn: str, hub_role: str = "dialtray_hub") -> list[int]:
    """Apply every migration above the database's version, each in its own transaction."""
    import psycopg

    done = []
    with psycopg.connect(admin_dsn) as conn:
        with conn.transaction():
            conn.execute("CREATE TABLE IF NOT EXISTS hub_schema_version (version INTEGER "
                         "PRIMARY KEY, applied TIMESTAMPTZ NOT NULL DEFAULT now(), "
                         "note TEXT NOT NULL)")
        have = version(conn)
        if have > LATEST:
            raise SchemaError(f"the hub database's schema is version {have}, newer than this "
                              f"dialtray knows ({LATEST}): upgrade dialtray")
        for number, note, sql in MIGRATIONS:
            if number <= have:
                continue
            with conn.transaction():
                conn.execute("LOCK TABLE hub_schema_version")
                if version(conn) >= number:
                    continue
                conn.execute(sql.replace("dialtray_hub", hub_role))
                conn.execute("INSERT INTO hub_schema_version (version, note) VALUES (%s, %s)",
                             (number, note))
            done.append(number)
    return done


def check(conn: Any) -> None:
    have = version(conn)
    if have != LATEST:
        raise SchemaError(f"the hub database's schema is version {have}, this dialtray needs "
                          f"{LATEST}: run `dialtray hub migrate --admin DSN` first")
