"""Every message a table sends, checked against its schema before the hub touches SQL (issue 32).

A message comes from a machine the hub does not control: it may be deeply nested, huge, carry
integers PostgreSQL's INTEGER cannot hold, ``true`` where a number belongs, NUL in a string
(PostgreSQL TEXT and JSONB refuse it), NaN or Infinity (JSONB refuses them), or a record whose
``data`` is not an object. Each such message is refused here with a reason that names the field,
so the intake quarantines that message alone and never sends it to the database.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_RECORD = 64 * 1024  # one record on the wire (header + content); the store's are < 4 KiB
MAX_STATE = 32 * 1024  # a table's live state
MAX_CALL = 2 * 1024  # a judge call
MAX_DEPTH = 16  # nesting of objects/arrays in any message
INT32 = 2**31 - 1  # game and record numbers go into INTEGER columns
JSON_INT = 2**53  # integers inside content: what every JSON reader keeps exactly
MAX_NOTE = 200
ID = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")
KIND = re.compile(r"[a-z][a-z0-9_-]{0,31}\Z")
SHA = re.compile(r"[0-9a-f]{64}\Z")


class Invalid(ValueError):
    """The message does not fit its schema; the text says which field and why."""


def _no_constant(name: str) -> Any:
    raise Invalid(f"{name} is not a JSON number (only finite numbers are kept)")


def loads(raw: bytes, what: str, limit: int) -> Any:
    """Parse JSON ``raw`` (at most ``limit`` bytes) and check every value in it."""
    if len(raw) > limit:
        raise Invalid(f"{what} is {len(raw)} bytes, over the limit of {limit}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Invalid(f"{what} is not UTF-8 (byte {e.start})") from e
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError as e:
        raise Invalid(f"{what} is nested deeper than {MAX_DEPTH} levels") from e
    except Invalid as e:
        raise Invalid(f"{what}: {e}") from e
    except ValueError as e:
        raise Invalid(f"{what} is not JSON ({e})") from e
    check_value(value, what)
    return value


def check_value(value: Any, where: str) -> None:
    """Depth, integer range, finite numbers and strings without NUL, everywhere in ``value``."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        v, path, depth = stack.pop()
        if isinstance(v, str):
            if "\x00" in v:
                raise Invalid(f"{path}: a string holds a NUL character")
        elif isinstance(v, bool) or v is None:
            continue
        elif isinstance(v, int):
            if not -JSON_INT <= v <= JSON_INT:
                raise Invalid(f"{path}: the integer {str(v)[:24]} is out of range ±2^53")
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise Invalid(f"{path}: {v} is not a finite number")
        elif isinstance(v, (dict, list)):
            if depth >= MAX_DEPTH:
                raise Invalid(f"{path}: nested deeper than {MAX_DEPTH} levels")
            items = v.items() if isinstance(v, dict) else enumerate(v)
            for k, x in items:
                if isinstance(k, str) and "\x00" in k:
                    raise Invalid(f"{path}: a key holds a NUL character")
                stack.append((x, f"{path}.{k}" if isinstance(k, str) else f"{path}[{k}]",
                              depth + 1))


def integer(value: Any, field: str, lo: int, hi: int) -> int:
    """An integer (``true`` is not one) within [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"{field} must be an integer, not {type(value).__name__}")
    if not lo <= value <= hi:
        raise Invalid(f"{field} {value} is outside {lo}..{hi}")
    return value


def table_id(text: str) -> str:
    if not ID.match(text):
        raise Invalid(f"the table id {text[:40]!r} is not 1-64 letters, digits, - and _")
    return text


def record(payload: bytes, table: str, event: str
           ) -> tuple[int, int, str, bytes, str, str, dict[str, Any]]:
    """One record from ``dialtray/EVENT/t/TABLE/rec``: (game, n, kind, content, sha, prev,
    the content parsed). The header must name this table and event; the content must be a JSON
    object naming the same game, number and kind, with ``data`` an object."""
    if len(payload) > MAX_RECORD:
        raise Invalid(f"the record is {len(payload)} bytes, over the limit of {MAX_RECORD}")
    head_raw, sep, content = payload.partition(b"\n")
    if not sep:
        raise Invalid("no header line")
    h = loads(head_raw, "the header", 1024)
    if not isinstance(h, dict):
        raise Invalid("the header is not a JSON object")
    game = integer(h.get("game"), "the header's game", 1, INT32)
    n = integer(h.get("n"), "the header's n", 1, INT32)
    kind, sha, prev = h.get("kind"), h.get("sha"), h.get("prev")
    if not isinstance(kind, str) or not KIND.match(kind):
        raise Invalid("the header's kind must be a short lower-case word")
    if not isinstance(sha, str) or not SHA.match(sha):
        raise Invalid("the header's sha must be 64 lower-case hex digits")
    if not isinstance(prev, str) or not SHA.match(prev):
        raise Invalid("the header's prev must be 64 lower-case hex digits")
    if h.get("table") != table:
        raise Invalid(f"the header names table {str(h.get('table'))[:40]!r}, but it came on "
                      f"table {table}'s topic")
    if h.get("event") != event:
        raise Invalid(f"the header names event {str(h.get('event'))[:40]!r}, not {event!r}")
    rec = loads(content, f"record {n}'s content", MAX_RECORD)
    if not isinstance(rec, dict):
        raise Invalid(f"record {n}'s content is not a JSON object")
    if not isinstance(rec.get("data"), dict):
        raise Invalid(f"record {n}'s data is not a JSON object")
    return game, n, kind, content, sha, prev, rec


def state(payload: bytes) -> dict[str, Any] | None:
    """A live state (None: the table cleared it)."""
    if not payload:
        return None
    v = loads(payload, "the live state", MAX_STATE)
    if not isinstance(v, dict):
        raise Invalid("the live state is not a JSON object")
    return v


def call(payload: bytes) -> tuple[str | None, int | None, str]:
    """A judge call: (its id at the table — None from an older table —, game or None, note)."""
    v = loads(payload, "the judge call", MAX_CALL)
    if not isinstance(v, dict):
        raise Invalid("the judge call is not a JSON object")
    uid = v.get("id")
    if uid is not None and (not isinstance(uid, str) or not ID.match(uid)):
        raise Invalid("the judge call's id must be 1-64 letters, digits, - and _")
    game = v.get("game")
    if game is not None:
        game = integer(game, "the judge call's game", 1, INT32)
    note = v.get("note", "")
    if not isinstance(note, str):
        raise Invalid("the judge call's note must be text")
    return uid, game, note[:MAX_NOTE]


def presence(payload: bytes) -> str:
    if payload not in (b"online", b"offline", b""):
        raise Invalid("presence must be 'online' or 'offline'")
    return payload.decode() or "offline"
