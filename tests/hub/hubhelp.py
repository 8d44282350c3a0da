"""Helpers of the hub tests (a module of its own: tests/ui has a conftest too)."""

from __future__ import annotations

from dialtray.hub import devservers, pgschema

EVENT = "ev1"


def fresh_db(s: devservers.DevServers, name: str) -> str:
    """A new migrated database for one test; returns the hub role's DSN for it."""
    import psycopg

    with psycopg.connect(s.pg.owner_dsn, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    pgschema.migrate(s.pg.dsn("dialtray", s.pg.owner_password, name))
    return s.pg.dsn("dialtray_hub", s.pg.hub_password, name)
