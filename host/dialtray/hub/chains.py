"""What the hub holds of each game's hash chain, and whether a record extends it (issue 17, 32).

A record is taken when it chains onto the game's head (n = head + 1, ``prev`` = the head's sha,
SHA-256(prev ‖ kind ‖ LF ‖ content) = its sha, its content naming the same game, number and
kind). A copy of a record already held is a duplicate (acknowledged again); a record from
beyond a gap waits (within a memory budget) while the gap is asked for; anything else is
quarantined with its reason. Memory per game is its head and the last ``RECENT`` shas (older
duplicates are checked against the database); waiting records have a byte budget for the whole
hub, so a table cannot grow the hub without bound.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from dialtray.store.chain import GENESIS, link

Key = tuple[str, int]  # (table, game)
RECENT = 256  # shas kept per game for duplicate checks without the database
WAITING_BYTES = 8 * 1024 * 1024  # records held beyond gaps, all tables together
ASK_MIN_S, ASK_MAX_S = 0.2, 10.0  # a gap or a bad record asked again: backing off to this


@dataclass
class Chain:
    n: int = 0
    sha: str = GENESIS
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT))  # shas up to n
    waiting: dict[int, tuple[str, bytes, str, str]] = field(default_factory=dict)
    asked: float = 0.0
    ask_every: float = ASK_MIN_S  # doubles while the same gap or bad record keeps coming
    refused: set[str] = field(default_factory=set)  # shas of records quarantined already

    def sha_of(self, n: int) -> str | None:
        """The stored sha of record n when it is among the recent ones (else None: ask SQL)."""
        back = self.n - n
        if 0 <= back < len(self.recent):
            return self.recent[-1 - back]
        return None


@dataclass
class Verdict:
    """What one batch's records come to: rows to store, quarantines, acks, asks, look-ups."""

    rows: list[tuple[Any, ...]] = field(default_factory=list)
    quarantine: list[tuple[Any, ...]] = field(default_factory=list)
    touched: dict[Key, Chain] = field(default_factory=dict)
    before: dict[Key, tuple[int, str, list[str]]] = field(default_factory=dict)
    asks: list[tuple[str, int, int]] = field(default_factory=list)  # (table, game, from)
    old_copies: list[tuple[str, int, int, str, bytes]] = field(default_factory=list)
    duplicates: int = 0


class Chains:
    """Every game's chain state; ``offer`` decides one validated record."""

    def __init__(self) -> None:
        self.by_key: dict[Key, Chain] = {}
        self.waiting_bytes = 0

    def load(self, heads: list[tuple[str, int, int, str]]) -> None:
        self.by_key = {(t, g): Chain(n, sha, deque([sha], maxlen=RECENT))
                       for t, g, n, sha in heads}
        self.waiting_bytes = 0

    def undo(self, v: Verdict) -> None:
        """The batch was not stored: every chain back as it was before it."""
        for key, (n, sha, recent) in v.before.items():
            ch = self.by_key[key]
            ch.n, ch.sha = n, sha
            ch.recent = deque(recent, maxlen=RECENT)

    def offer(self, table: str, game: int, n: int, kind: str, content: bytes, sha: str,
              prev: str, rec: dict[str, Any], payload: bytes, v: Verdict) -> None:
        key = (table, game)
        ch = self.by_key.setdefault(key, Chain())
        if key not in v.before:
            v.before[key] = (ch.n, ch.sha, list(ch.recent))
        if n <= ch.n:
            held = ch.sha_of(n)
            if held is None:  # older than the recent shas: the database decides
                v.old_copies.append((table, game, n, sha, payload))
            elif held == sha and link(prev, kind, content) == sha:
                v.duplicates += 1
                v.touched[key] = ch  # acknowledged again: the table's earlier ack was lost
            else:
                self._refuse(v, ch, table, game, n, sha, payload,
                             f"record {n} of game {game} at table {table} differs from the copy "
                             "already stored (its hash does not match)", ask=False)
            return
        if n > ch.n + 1:
            size = len(content) + 200
            if n not in ch.waiting and self.waiting_bytes + size <= WAITING_BYTES:
                ch.waiting[n] = (kind, content, sha, prev)
                self.waiting_bytes += size
            self._ask(v, table, game, ch)
            return
        why = why_not(table, game, n, kind, content, sha, prev, rec, ch)
        if why:
            self._refuse(v, ch, table, game, n, sha, payload, why)
            return
        self._accept(v, key, ch, (table, game, n, kind, content, sha, prev))
        if not ch.waiting:  # (the usual case: nothing beyond a gap, nothing to look through)
            return
        while ch.n + 1 in ch.waiting:
            k, c, s, p = ch.waiting.pop(ch.n + 1)
            self.waiting_bytes -= len(c) + 200
            nn = ch.n + 1
            why = why_not(table, game, nn, k, c, s, p, None, ch)
            if why:
                self._refuse(v, ch, table, game, nn, s, c, why)
                break
            self._accept(v, key, ch, (table, game, nn, k, c, s, p))
        # (no waiting record is ever at or below the head: one is kept only beyond head + 1,
        # and the head moves one record at a time, taking the next from here: gap recovery
        # costs the gap, not a look through everything waiting per record)

    def _accept(self, v: Verdict, key: Key, ch: Chain, row: tuple[Any, ...]) -> None:
        v.rows.append(row)
        ch.n, ch.sha = row[2], row[5]
        ch.recent.append(row[5])
        ch.ask_every = ASK_MIN_S  # progress: the next gap is asked for promptly
        v.touched[key] = ch

    def _refuse(self, v: Verdict, ch: Chain, table: str, game: int, n: int, sha: str,
                raw: bytes, why: str, ask: bool = True) -> None:
        """Quarantined once per distinct record (a table re-sending the same bad record is not
        stored again), and the genuine one asked for with a growing interval: failures never
        reset the back-off, only progress does."""
        if sha not in ch.refused and len(ch.refused) < 1000:
            ch.refused.add(sha)
            v.quarantine.append((table, game, n, raw, why))
        if ask:
            self._ask(v, table, game, ch, backoff=True)

    @staticmethod
    def _ask(v: Verdict, table: str, game: int, ch: Chain, backoff: bool = False) -> None:
        now = time.monotonic()
        if now - ch.asked >= ch.ask_every:
            ch.asked = now
            v.asks.append((table, game, ch.n + 1))
            if backoff:
                ch.ask_every = min(ASK_MAX_S, ch.ask_every * 2)


def why_not(table: str, game: int, n: int, kind: str, content: bytes, sha: str, prev: str,
            rec: dict[str, Any] | None, ch: Chain) -> str | None:
    """Why record n does not extend the chain (None: it does)."""
    where = f"record {n} of game {game} at table {table}"
    if prev != ch.sha:
        return (f"{where}: its 'prev' is not the sha of record {n - 1} the hub holds (does not "
                "chain)")
    if link(prev, kind, content) != sha:
        return f"{where}: its kind and content do not hash to its sha (altered)"
    if rec is None:  # (a record that waited was validated when it came)
        import json

        rec = json.loads(content)
    if not isinstance(rec, dict) or rec.get("game") != game or rec.get("n") != n \
            or rec.get("kind") != kind:
        return f"{where}: its hashed content names another game, number or kind"
    return None
