"""The game store: one SQLite database (WAL) of games, their seats, figures and dock bindings,
and an append-only, hash-chained table of records (``chain``).

Writes are buffered by :meth:`GameStore.append` and made durable by :meth:`GameStore.commit` (one
transaction; the caller acknowledges a tray event only after it returns — issue 12's "nothing
acknowledged before it is stored"). Any failure to write — disk full, a read-only file, a locked
or damaged database — is a :class:`StoreError` naming the database file; the batch is rolled back
and the in-memory heads are reloaded, so nothing half-stored is ever counted as stored.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dialtray.store import schema
from dialtray.store.chain import GENESIS, Row, content_of, link, renumber

DB_NAME = "games.sqlite3"


class StoreError(Exception):
    """A failure of the store a user can act on; the message names the database file."""


def default_db(data_dir: Path) -> Path:
    return data_dir / DB_NAME


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass(frozen=True)
class GameRow:
    id: int
    kind: str
    created: str
    origin: str
    status: str
    result: str
    state_json: str | None
    records: int
    head: str
    boot_id: int | None
    last_seq: int | None


GAME_COLS = ("id, kind, created, origin, status, result, state_json, records, head, boot_id, "
             "last_seq")


class GameStore:
    """``GameStore.open(path)``; one writer thread at a time (SQLite serialises writers)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, readonly: bool) -> None:
        self.conn = conn
        self.path = path
        self.readonly = readonly
        self._heads: dict[int, tuple[int, str]] = {}  # game → its head at our last commit
        self._queued: dict[int, int] = {}  # game → records queued since
        self._pending: list[tuple[int, int, str, bytes]] = []  # game, n, kind, content
        self._game_updates: dict[int, dict[str, Any]] = {}
        # Called inside each commit's transaction with the records it adds (game, n, kind,
        # content, sha, prev), before COMMIT: the tournament hub's outbox (issue 17) is written
        # in the same transaction as the records. A hook that raises rolls the batch back.
        self.commit_hooks: list[Callable[[sqlite3.Connection, list[tuple[Any, ...]]], None]] = []

    # ---- opening -----------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, *, readonly: bool = False, create: bool = True) -> GameStore:
        p = Path(path).expanduser()
        if p.is_dir():
            raise StoreError(f"{p}: is a directory, not a game database (--db names the file, "
                             f"e.g. {p / DB_NAME})")
        if (readonly or not create) and not p.exists():
            raise StoreError(f"{p}: no game database here (play or import a game first, "
                             "or name one with --db)")
        try:
            if readonly:
                conn = sqlite3.connect(f"file:{p}?mode=ro", uri=True, isolation_level=None,
                                       check_same_thread=False)
            else:
                p.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(p, isolation_level=None, check_same_thread=False)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at checkpoint, atomic
            conn.execute("PRAGMA foreign_keys=ON")
            have = schema.version(conn)
            if have > schema.LATEST:
                conn.close()
                raise StoreError(f"{p}: database schema version {have} is newer than this "
                                 f"dialtray knows ({schema.LATEST}): upgrade dialtray")
            if not readonly and have < schema.LATEST:
                schema.migrate(conn)
            elif readonly and have < schema.LATEST:
                conn.close()
                raise StoreError(f"{p}: database schema version {have}, this dialtray needs "
                                 f"{schema.LATEST}: open it once for writing to migrate it")
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{p}: cannot open the game database: {e}") from e
        except OSError as e:
            raise StoreError(f"{p}: cannot open the game database: {e.strerror or e}") from e
        return cls(conn, p, readonly)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _fail(self, what: str, e: BaseException) -> StoreError:
        msg = str(e)
        if "readonly" in msg or "read-only" in msg:
            msg += " (the file or its directory is read-only)"
        return StoreError(f"{self.path}: {what}: {msg}")

    # ---- games -------------------------------------------------------------------------------

    def new_game(self, kind: str, *, header: Iterable[tuple[str, str]] = (),
                 seats: Iterable[tuple[str, str]] = (),
                 figures: Iterable[tuple[str, str, int | None, int | None]] = (),
                 origin: str = "play", extra: dict[str, Any] | None = None,
                 state_json: str | None = None) -> int:
        """Create a game and its first record (kind ``game``: the header, seats, figures and
        dock bindings, hashed like any other record); committed at once."""
        seats, figures, header = list(seats), list(figures), list(header)
        self._writable()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            cur = self.conn.execute(
                "INSERT INTO games (kind, created, origin, status, state_json, head) "
                "VALUES (?, ?, ?, 'running', ?, ?)", (kind, now_iso(), origin, state_json,
                                                      GENESIS))
            gid = int(cur.lastrowid or 0)
            self.conn.executemany("INSERT INTO seats VALUES (?, ?, ?)",
                                  [(gid, s, name) for s, name in seats])
            self.conn.executemany("INSERT INTO figures VALUES (?, ?, ?, ?, ?)",
                                  [(gid, *f) for f in figures])
            self.conn.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            self._rollback()
            raise self._fail("cannot create the game", e) from e
        data = {"kind": kind, "header": [list(h) for h in header],
                "seats": [list(s) for s in seats], "figures": [list(f) for f in figures],
                "origin": origin, **(extra or {})}
        self.append(gid, "game", data)
        self.commit()
        return gid

    def game(self, gid: int) -> GameRow:
        row = self.conn.execute(f"SELECT {GAME_COLS} FROM games WHERE id = ?", (gid,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path}: no game {gid} (see `dialtray games`)")
        return GameRow(*row)

    def games(self) -> list[GameRow]:
        return [GameRow(*r) for r in self.conn.execute(
            f"SELECT {GAME_COLS} FROM games ORDER BY id")]

    def latest(self, status: str | None = None) -> GameRow | None:
        q = f"SELECT {GAME_COLS} FROM games"
        q += " WHERE status = ? ORDER BY id DESC LIMIT 1" if status else \
            " ORDER BY id DESC LIMIT 1"
        row = self.conn.execute(q, (status,) if status else ()).fetchone()
        return GameRow(*row) if row else None

    def seats(self, gid: int) -> list[tuple[str, str]]:
        return [(r[0], r[1]) for r in self.conn.execute(
            "SELECT seat, name FROM seats WHERE game_id = ? ORDER BY rowid", (gid,))]

    def figures(self, gid: int) -> list[tuple[str, str, int | None, int | None]]:
        return [(r[0], r[1], r[2], r[3]) for r in self.conn.execute(
            "SELECT figure, dial_kind, dock, reader FROM figures WHERE game_id = ? "
            "ORDER BY dock, reader, figure", (gid,))]

    # ---- records -----------------------------------------------------------------------------

    def _writable(self) -> None:
        if self.readonly:
            raise StoreError(f"{self.path}: opened read-only, cannot store")

    def _next(self, gid: int) -> int:
        """The number the next queued record of ``gid`` will get (unless another process
        appends to the game first: then ``commit`` renumbers)."""
        head = self._heads.get(gid)
        if head is None:
            head = self._heads[gid] = (self.game(gid).records, "")
        self._queued[gid] = self._queued.get(gid, 0) + 1
        return head[0] + self._queued[gid]

    def append(self, gid: int, kind: str, data: Any, at: float | None = None) -> int:
        """Queue one record for the next commit; returns its number. Records are chained at
        commit, under the database's write lock, onto the game's head as it is then: if another
        process (``dialtray judge`` while the game is played) appended meanwhile, the queued
        records are renumbered after its records."""
        n = self._next(gid)
        t = round(time.time() if at is None else at, 3)
        self._pending.append((gid, n, kind, content_of(gid, n, kind, t, data)))
        return n

    def append_content(self, gid: int, kind: str, make: Callable[[int], bytes]) -> int:
        """``append`` for hot paths: ``make(n)`` returns the record's canonical content bytes
        (as ``chain.content_of`` would make them) for its number ``n``."""
        n = self._next(gid)
        self._pending.append((gid, n, kind, make(n)))
        return n

    def update_game(self, gid: int, **fields: Any) -> None:
        """Queue changes to the game row (status, result, state_json, boot_id, last_seq) for
        the next commit."""
        bad = set(fields) - {"status", "result", "state_json", "boot_id", "last_seq"}
        if bad:
            raise ValueError(f"not a game field: {sorted(bad)}")
        self._game_updates.setdefault(gid, {}).update(fields)

    @property
    def pending(self) -> int:
        return len(self._pending)

    def commit(self) -> None:
        """Store every queued record and game change in one transaction: each record numbered
        and chained onto its game's head as it is in the database now (another process may
        have appended meanwhile). StoreError (naming the file) if it cannot: then nothing of
        the batch is stored."""
        if not self._pending and not self._game_updates:
            return
        self._writable()
        batch, self._pending = self._pending, []
        updates, self._game_updates = self._game_updates, {}
        self._queued.clear()
        games = {b[0] for b in batch} | set(updates)
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            heads: dict[int, tuple[int, str]] = {}
            for gid in games:
                row = self.conn.execute("SELECT records, head FROM games WHERE id = ?",
                                        (gid,)).fetchone()
                if row is None:
                    raise sqlite3.IntegrityError(f"no game {gid}")
                heads[gid] = (int(row[0]), str(row[1]))
            rows = []
            for gid, queued_n, kind, content in batch:
                n, prev = heads[gid]
                n += 1
                if n != queued_n:  # another process appended first: this record comes after
                    content = renumber(content, n)
                sha = link(prev, kind, content)
                rows.append((gid, n, kind, content, sha, prev))
                heads[gid] = (n, sha)
            self.conn.executemany(
                "INSERT INTO records (game_id, n, kind, content, sha, prev) VALUES "
                "(?, ?, ?, ?, ?, ?)", rows)
            for hook in self.commit_hooks:
                hook(self.conn, rows)
            for gid in games:
                fields = dict(updates.get(gid, {}))
                fields["records"], fields["head"] = heads[gid]
                cols = ", ".join(f"{k} = ?" for k in fields)
                self.conn.execute(f"UPDATE games SET {cols} WHERE id = ?",
                                  (*fields.values(), gid))
            self.conn.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            self._rollback()
            self._heads.clear()  # reread from the database: the batch is gone
            raise self._fail("could not store the game (nothing of this batch was stored or "
                             "acknowledged)", e) from e
        self._heads.update(heads)

    def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.DatabaseError):  # none open (BEGIN itself failed)
            self.conn.execute("ROLLBACK")

    def rows(self, gid: int) -> Iterator[Row]:
        """The game's records as stored, in order of their number."""
        for r in self.conn.execute("SELECT n, kind, content, sha, prev FROM records "
                                   "WHERE game_id = ? ORDER BY n", (gid,)):
            c = r[2]  # a BLOB as written; anything else was put there by hand: compare its bytes
            content = bytes(c) if isinstance(c, bytes | memoryview) else str(c).encode()
            yield Row(r[0], r[1], content, r[3], r[4])

    # ---- judge tokens ------------------------------------------------------------------------

    def add_token(self, event: str, token_hash: str) -> None:
        self._writable()
        try:
            self.conn.execute("INSERT INTO judge_tokens VALUES (?, ?, ?)",
                              (event, token_hash, now_iso()))
        except sqlite3.DatabaseError as e:
            raise self._fail("cannot store the judge token", e) from e

    def token_events(self) -> dict[str, str]:
        """Token hash → the event it was made for."""
        return {r[0]: r[1] for r in self.conn.execute("SELECT hash, event FROM judge_tokens")}
