"""The event's MQTT topics and message formats, in one place for both sides.

A table (its broker user name is its id) publishes under ``dialtray/EVENT/t/TABLE/``:
``rec`` (one stored record, QoS 1), ``presence`` (retained; its Last Will says ``offline``),
``call`` (a judge call), ``state`` (its live state). The hub publishes to a table under
``dialtray/EVENT/cmd/TABLE/``: ``ack`` (what the hub has stored), ``resend`` (a gap),
``ruling`` (a signed ruling), ``pairing``. The broker's ACL holds each table to these.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import socket
from typing import Any

from dialtray.store.chain import canonical

ROOT = "dialtray"


def no_delay(client: Any) -> None:
    """``TCP_NODELAY`` on the client's socket at every (re)connect. A record is one small
    publish (and an ack one small packet back); with Nagle's algorithm the kernel may hold it
    until the previous segment is acknowledged. Table → PostgreSQL p50 went from 19 to 5 ms
    with it (one A/B run of bench/side_hub.py on a loaded 2-core machine, issue 35). The
    broker's side is ``set_tcp_nodelay``."""

    def opened(_c: Any, _u: Any, sock: Any) -> None:
        with contextlib.suppress(OSError, AttributeError):  # (a websocket or TLS wrapper)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    client.on_socket_open = opened


def table_topic(event: str, table: str, what: str) -> str:
    return f"{ROOT}/{event}/t/{table}/{what}"


def cmd_topic(event: str, table: str, what: str) -> str:
    return f"{ROOT}/{event}/cmd/{table}/{what}"


def parse_table_topic(topic: str) -> tuple[str, str] | None:
    """``dialtray/EVENT/t/TABLE/WHAT`` → (TABLE, WHAT)."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[2] != "t":
        return None
    return parts[3], parts[4]


def encode_record(game: int, n: int, kind: str, content: bytes, sha: str, prev: str,
                  table: str = "", event: str = "") -> bytes:
    """One record on the wire: a JSON header line (naming the table and event too, checked by
    the hub against the topic it came on), then the content bytes exactly as hashed."""
    head = json.dumps({"game": game, "n": n, "kind": kind, "sha": sha, "prev": prev,
                       "table": table, "event": event}, separators=(",", ":"))
    return head.encode() + b"\n" + content


def decode_record(payload: bytes) -> tuple[int, int, str, bytes, str, str]:
    """The inverse of :func:`encode_record`; ValueError names what is wrong."""
    head, sep, content = payload.partition(b"\n")
    if not sep:
        raise ValueError("no header line")
    h = json.loads(head)
    if not isinstance(h, dict):
        raise ValueError("the header is not a JSON object")
    game, n, kind, sha, prev = h.get("game"), h.get("n"), h.get("kind"), h.get("sha"), \
        h.get("prev")
    if not (isinstance(game, int) and isinstance(n, int) and n >= 1 and isinstance(kind, str)
            and isinstance(sha, str) and isinstance(prev, str)):
        raise ValueError("the header needs game, n ≥ 1, kind, sha and prev")
    return game, n, kind, content, sha, prev


def sign(key: bytes, body: dict[str, Any]) -> str:
    """HMAC-SHA256 of the canonical JSON of a ruling (the key is made at enrolment)."""
    return hmac.new(key, canonical(body), hashlib.sha256).hexdigest()


def signed_ok(key: bytes, body: dict[str, Any], sig: str) -> bool:
    return hmac.compare_digest(sign(key, body), sig)
