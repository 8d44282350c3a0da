"""``dialtray verify --hub``: a table's stored games compared with the copy the event's hub
received as each record was written (issue 31).

At an event every record a table commits goes into its outbox in the same transaction and on to
the hub (``hub/table.py``), which keeps each record's sha in ``hub_records`` as it arrives. An
edit made to the table's file afterwards — even one re-hashed and re-keyed by someone holding
the table's host — contradicts the hub's copy. This reads the hub's existing record store
(no change to the hub): the hub's database by its DSN, read-only.
"""

from __future__ import annotations

from typing import Any

from dialtray.store.db import GameStore, StoreError


class HubCopy:
    """The hub's record of one table's games."""

    def __init__(self, conn: Any, table: str) -> None:
        self.conn = conn
        self.table = table

    @classmethod
    def connect(cls, dsn: str, table: str) -> HubCopy:
        try:
            import psycopg

            conn = psycopg.connect(dsn, connect_timeout=10)
        except ImportError as e:
            raise StoreError("--hub needs psycopg (pip install 'dialtray[hub]')") from e
        except Exception as e:  # psycopg.Error: the message says what (host, auth, database)
            raise StoreError(f"argument --hub: cannot reach the hub's database: "
                             f"{str(e).strip().splitlines()[0] if str(e).strip() else e}") from e
        return cls(conn, table)

    def shas(self, gid: int) -> dict[int, str]:
        rows = self.conn.execute("SELECT n, sha FROM hub_records WHERE table_id = %s AND "
                                 "game = %s", (self.table, gid)).fetchall()
        return {int(n): str(sha) for n, sha in rows}

    def compare(self, store: GameStore, v: Any) -> None:
        """Set ``v.problem`` when the local chain and the hub's copy disagree; else add a
        note of how much of the game the hub holds."""
        hub = self.shas(v.game.id)
        local = {r.n: r.sha for r in store.rows(v.game.id, v.game.records)}
        v.note = compare(local, hub, self.table)
        if v.note.startswith("FAILED"):
            v.problem, v.note = v.note[len("FAILED: "):], ""


def compare(local: dict[int, str], hub: dict[int, str], table: str) -> str:
    """What the hub's copy says about the local chain, in words (FAILED: … on a contradiction)."""
    if not hub:
        return f"; the hub holds none of it (table {table})"
    for n in sorted(hub):
        if n not in local:
            return (f"FAILED: record {n} is at the hub (table {table}) but not in this file "
                    "(records were removed after they were written)")
        if local[n] != hub[n]:
            return (f"FAILED: record {n} differs from the copy the hub received as it was "
                    f"written (table {table}): the file was changed afterwards")
    extra = len([n for n in local if n > max(hub)])
    return f"; the hub's copy agrees ({len(hub)} records" + (
        f", {extra} not yet received)" if extra else ")")
