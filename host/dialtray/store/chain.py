"""Tamper evidence: every record carries the SHA-256 of its content and of the record before it.

``content`` is canonical JSON (sorted keys, no spaces, UTF-8) of the record's game, number, kind,
time and data; ``sha = SHA-256(prev ‖ kind ‖ LF ‖ content)`` in hex, ``prev`` the sha of the record
before (64 zeros for the first). The kind column is hashed too, so a check that only decodes the
records it needs (``verify`` replays actions, not clicks) still covers every stored byte. The
game row keeps the number and sha of the last record (the head), so a record cut from the end
is noticed too. :func:`check_chain` names the first record that
does not fit: a changed byte anywhere (content, sha, prev, kind), a record missing, moved,
reordered or copied from another game.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Container, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dialtray.store.keys import ChainKey

GENESIS = "0" * 64


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
# (json.dumps with these options would build a new encoder per call: the store's hot path)


def canonical(obj: Any) -> bytes:
    return _ENCODER.encode(obj).encode("utf-8")


def content_of(game: int, n: int, kind: str, at: float, data: Any) -> bytes:
    if type(data) is dict and type(at) is float and at - at == 0.0:
        flat = _flat(data)  # most records (flags, notes, confirmations): no encoder needed
        if flat is not None:
            return (f'{{"at":{float_json(at)},"data":{flat},"game":{int(game)},'
                    f'"kind":{_str(kind)},"n":{int(n)}}}').encode()
    return canonical({"at": at, "data": data, "game": game, "kind": kind, "n": n})


_str = json.encoder.encode_basestring  # (C) a JSON string, non-ASCII kept (ensure_ascii=False)
_REPRS: dict[float, str] = {}


def float_json(v: float) -> str:
    """``repr(v)`` (what the encoder writes for a finite float), remembered: the shortest-repr
    conversion is the dearest step of a flat record, and the records of a burst of events share
    their times (a tray's clock ticks in ms). -0.0 (equal to 0.0 as a key) is never kept."""
    r = _REPRS.get(v)
    if r is None:
        r = float.__repr__(v)
        if v:
            if len(_REPRS) >= 4096:
                _REPRS.clear()
            _REPRS[v] = r
    return r


_ORDER: dict[tuple[Any, ...], list[Any]] = {}  # a data dict's keys → them sorted (few shapes)


def _flat(data: dict[Any, Any]) -> str | None:
    """``data`` as canonical JSON when it is one level of str keys and plain values (str, int,
    finite float, bool, None), else None (then the encoder does it). Byte for byte what the
    encoder writes (tested): sorted keys, no spaces — about half its time per record. The
    records of one kind share their keys, so each key order is sorted (and its keys encoded)
    once."""
    shape = tuple(data)
    order = _ORDER.get(shape)
    if order is None:
        for k in data:
            if type(k) is not str:
                return None
        order = [(k, _str(k) + ":") for k in sorted(data)]
        if len(_ORDER) < 4096:
            _ORDER[shape] = order
    parts = []
    for k, key in order:
        v = data[k]
        t = type(v)
        if t is str:
            parts.append(key + _str(v))
        elif t is int:
            parts.append(key + int.__repr__(v))
        elif t is bool:
            parts.append(key + ("true" if v else "false"))
        elif t is float and v - v == 0.0:  # finite: json writes inf/nan as Infinity/NaN
            parts.append(key + float_json(v))
        elif v is None:
            parts.append(key + "null")
        else:
            return None
    return "{" + ",".join(parts) + "}"


def renumber(content: bytes, n: int) -> bytes:
    """The same record's canonical content with another number (a commit found the game's
    head moved by another writer)."""
    rec = json.loads(content)
    rec["n"] = n
    return canonical(rec)


def link(prev: str, kind: str, content: bytes) -> str:
    return hashlib.sha256(f"{prev}{kind}\n".encode() + content).hexdigest()


@dataclass(frozen=True)
class Broken:
    """Where a game's chain breaks: the record (its number) and why."""

    n: int
    reason: str

    def __str__(self) -> str:
        return f"record {self.n}: {self.reason}"


@dataclass(frozen=True)
class Row:
    """One stored record as read back (``content`` undecoded)."""

    n: int
    kind: str
    content: bytes
    sha: str
    prev: str
    mac: str | None = None  # HMAC(key, sha) (keys.py); None: written unkeyed
    unreadable: str = ""  # why the file would not give this record up (a damaged page)


def check_chain(game: int, rows: Iterable[Row], head_n: int, head_sha: str,
                decode: Container[str] | None = None, key: ChainKey | None = None
                ) -> tuple[list[dict[str, Any]], Broken | None]:
    """Check a game's records in stored order; returns the decoded records (up to the break;
    only those of the kinds in ``decode``, when given) and the first break, if any. With
    ``key`` (the key that keyed this game) each record's MAC is checked too: a chain re-hashed
    after an edit by someone without the key breaks at the first record edited."""
    out: list[dict[str, Any]] = []
    prev = GENESIS
    expect = 1
    mac = key.mac if key is not None else None
    for row in rows:
        if row.unreadable:
            return out, Broken(row.n, f"cannot be read from the file ({row.unreadable})")
        if row.n != expect:
            if isinstance(row.n, int) and row.n > expect:
                return out, Broken(expect, f"missing (the next stored record is {row.n})")
            return out, Broken(expect, f"out of place (record {row.n!r} after {expect - 1})")
        if row.prev != prev:
            return out, Broken(row.n, "its 'prev' hash is not the sha of the record before "
                               "(a record before it was changed, removed or reordered)")
        if not isinstance(row.kind, str) or link(prev, row.kind, row.content) != row.sha:
            return out, Broken(row.n, "its kind and content do not hash to its sha (changed)")
        if mac is not None and (not isinstance(row.mac, str) or
                                not hmac.compare_digest(mac(row.sha).encode(),
                                                    row.mac.encode("utf-8", "replace"))):
            return out, Broken(row.n, "its MAC does not fit its sha: the record was changed "
                               "and re-hashed by someone without this host's key")
        if decode is not None and row.kind not in decode:
            prev = row.sha
            expect += 1
            continue
        try:
            rec = json.loads(row.content)
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            return out, Broken(row.n, f"its content is not JSON ({str(e)[:80]})")
        if not isinstance(rec, dict) or rec.get("n") != row.n or rec.get("game") != game \
                or rec.get("kind") != row.kind or not isinstance(rec.get("data"), dict):
            return out, Broken(row.n, "its number, game or kind column disagrees with its "
                               "hashed content (moved or relabelled)")
        out.append(rec)
        prev = row.sha
        expect += 1
    if expect - 1 != head_n or prev != head_sha:
        if isinstance(head_n, int) and expect - 1 < head_n:
            return out, Broken(expect, f"missing: the game's head says {head_n} records, "
                               f"only {expect - 1} are stored")
        return out, Broken(expect - 1, "the game's head (record count and last sha) does not "
                           "match the stored records")
    return out, None
