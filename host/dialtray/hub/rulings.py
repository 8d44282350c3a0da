"""Judge calls and rulings at the hub, and table enrolment (issue 17 "Judge calls", "Security").

A ruling is a JSON body (call, table, game, ruling, args, why, judge time) signed with HMAC-SHA256
under the table's ruling key, made by ``enroll`` and handed to the table with its broker
credentials. The hub stores it (``hub_rulings``) and sends it to the table, which checks the
signature, stores it as a ``ruling`` record of its game — so it comes back to the hub in the
table's own hash chain: stored on both sides.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from dialtray.hub import topics

RULINGS = ("set-dial", "undo", "vp", "dispute", "end", "note")


def make_ruling(db: Any, key: bytes, call_id: int, ruling: str, args: dict[str, Any],
                why: str) -> tuple[dict[str, Any], str]:
    """Store a ruling on an open call and mark the call ruled; returns (body, signature)."""
    if ruling not in RULINGS:
        raise ValueError(f"ruling: one of {', '.join(RULINGS)}, not {ruling!r}")
    row = db.execute("SELECT table_id, game, status FROM hub_calls WHERE id = %s FOR UPDATE",
                     (call_id,)).fetchone()
    if row is None:
        raise ValueError(f"no judge call {call_id} (see the judge queue)")
    table, game, status = row
    if status != "open" or db.execute("SELECT 1 FROM hub_rulings WHERE call_id = %s",
                                      (call_id,)).fetchone():
        raise ValueError(f"call {call_id} is already ruled (one ruling per call: answer a new "
                         "call for a new ruling)")
    if game is None:
        raise ValueError(f"call {call_id}: the table named no game to rule on")
    body = {"call": call_id, "table": table, "game": game, "ruling": ruling, "args": args,
            "why": why, "at": round(time.time(), 3)}
    sig = topics.sign(key, body)
    db.execute("INSERT INTO hub_rulings (call_id, table_id, game, body, sig) VALUES "
               "(%s, %s, %s, %s, %s)", (call_id, table, game, json.dumps(body), sig))
    db.execute("UPDATE hub_calls SET status = 'ruled' WHERE id = %s", (call_id,))
    return body, sig


def ruling_key(db: Any, table: str) -> bytes:
    row = db.execute("SELECT value FROM hub_event WHERE key = %s", (f"ruling-key:{table}",)
                     ).fetchone()
    if row is None:
        raise ValueError(f"table {table} is not enrolled (dialtray hub enroll {table})")
    return bytes.fromhex(row[0])


RESERVED = ("hub", "admin", "root", "mosquitto", "dialtray")


def reserved(table: str) -> str | None:
    """Why ``table`` cannot be a table's id (its broker user name), or None. The hub's own user
    (``hub``) reads every table and acknowledges any record: a table so named would have its
    rights; names starting with a reserved word are refused too (``hub2``, ``hub-admin``)."""
    low = table.lower()
    for word in RESERVED:
        if low.startswith(word):
            return (f"{table!r} is reserved (names starting with {word!r} belong to the hub "
                    "and the broker): choose a table id such as t01")
    return None


def enroll(db: Any, table: str) -> dict[str, str]:
    """A table's credentials: broker password and ruling key (the key kept at the hub too)."""
    why = reserved(table)
    if why:
        raise ValueError(why)
    key = secrets.token_bytes(32)
    db.execute("INSERT INTO hub_event (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE "
               "SET value = excluded.value", (f"ruling-key:{table}", key.hex()))
    return {"table": table, "password": secrets.token_urlsafe(18), "ruling_key": key.hex()}
