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
from typing import Any, ClassVar

from dialtray.store import keys, schema
from dialtray.store.chain import GENESIS, Row, content_of
from dialtray.store.chainwrite import ChainWriter
from dialtray.store.keys import ChainKey

DB_NAME = "games.sqlite3"
SYNC_MODES = ("FULL", "NORMAL")


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
    seal: str | None = None
    key_id: str | None = None


_GAME_FIELDS = frozenset(("status", "result", "state_json", "boot_id", "last_seq"))
GAME_COLS = ("id, kind, created, origin, status, result, state_json, records, head, boot_id, "
             "last_seq")


def _text(b: bytes) -> str:
    """SQLite TEXT as str; bytes that are not UTF-8 (a damaged file) become U+FFFD instead of
    stopping the read — the chain and the seals then name what no longer fits."""
    return b.decode("utf-8", "replace")


def disk_full(path: Path, e: BaseException) -> bool:
    """Did ``e`` come from a full disk? SQLite says "database or disk is full" (SQLITE_FULL),
    but a WAL write that hit ENOSPC can surface as "disk I/O error": then the free space
    decides."""
    msg = str(e)
    if "disk is full" in msg:
        return True
    if "disk I/O error" in msg:
        import shutil

        try:
            return shutil.disk_usage(path.parent).free < 1 << 20
        except OSError:
            return False
    return False


class GameStore:
    """``GameStore.open(path)``; one writer thread at a time (SQLite serialises writers)."""

    # Told the store's path after each COMMIT, whichever GameStore of this process made it: the
    # hub's table link wakes then, not before COMMIT (it would read the outbox too early) and
    # not at its next poll (issue 35). Listeners return at once and never raise.
    after_commit: ClassVar[list[Callable[[Path], None]]] = []

    def __init__(self, conn: sqlite3.Connection, path: Path, readonly: bool,
                 key: ChainKey | None = None, key_dir: Path | None = None) -> None:
        self.conn = conn
        self.path = path
        self.readonly = readonly
        self.key = key  # the host's chain key (None: records are written unkeyed)
        self.key_dir = key_dir  # where the key and the judge tokens are kept
        self.keyed_schema = schema.version(conn) >= 3
        self._heads: dict[int, tuple[int, str]] = {}  # game → its head at our last commit
        self._queued: dict[int, int] = {}  # game → records queued since
        self._pending: list[tuple[int, int, str, bytes]] = []  # game, n, kind, content
        self._game_updates: dict[int, dict[str, Any]] = {}
        self._writer = ChainWriter(conn, key, self.keyed_schema)
        # Called inside each commit's transaction with the records it adds (game, n, kind,
        # content, sha, prev), before COMMIT: the tournament hub's outbox (issue 17) is written
        # in the same transaction as the records. A hook that raises rolls the batch back.
        self.commit_hooks: list[Callable[[sqlite3.Connection, list[tuple[Any, ...]]], None]] = []
        # Called before each statement of a write (tests: a crash or a full disk at each step)
        self.step_hook: Callable[[str], None] | None = None

    # ---- opening -----------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, *, readonly: bool = False, create: bool = True,
             key_dir: Path | None = None, synchronous: str = "FULL") -> GameStore:
        """``key_dir``: where the host's chain key and judge tokens are kept (default:
        ``keys`` in the data directory, ``$DIALTRAY_DATA_DIR`` or the platform's).
        ``synchronous``: FULL (default) fsyncs the WAL at every commit, so a record the tray
        was told is stored survives a power cut; NORMAL only survives a crash of the program
        (README.md "Durability": the figures behind the choice)."""
        p = Path(path).expanduser()
        if p.is_dir():
            raise StoreError(f"{p}: is a directory, not a game database (--db names the file, "
                             f"e.g. {p / DB_NAME})")
        if (readonly or not create) and not p.exists():
            raise StoreError(f"{p}: no game database here (play or import a game first, "
                             "or name one with --db)")
        kdir = key_dir or keys.default_dir()
        try:
            key = keys.load_key(kdir, create=not readonly)
        except keys.KeyError_ as e:
            if not readonly:
                raise StoreError(str(e)) from e
            key = None  # reading: games keyed by it are reported as not checkable
        try:
            if readonly:
                conn = sqlite3.connect(f"file:{p}?mode=ro", uri=True, isolation_level=None,
                                       check_same_thread=False)
            else:
                p.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(p, isolation_level=None, check_same_thread=False)
                conn.execute("PRAGMA journal_mode=WAL")
                if synchronous not in SYNC_MODES:
                    raise ValueError(f"synchronous must be one of {SYNC_MODES}")
                conn.execute(f"PRAGMA synchronous={synchronous}")
            conn.text_factory = _text
            conn.execute("PRAGMA foreign_keys=ON")
            have = schema.version(conn)
            if have > schema.LATEST:
                conn.close()
                raise StoreError(f"{p}: database schema version {have} is newer than this "
                                 f"dialtray knows ({schema.LATEST}): upgrade dialtray")
            if not readonly and have < schema.LATEST:
                schema.migrate(conn)
            elif readonly and have < 2:
                conn.close()
                raise StoreError(f"{p}: database schema version {have}, this dialtray needs "
                                 f"{schema.LATEST}: open it once for writing to migrate it")
        except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
            if disk_full(p, e):
                raise StoreError(f"{p}: the disk is full: cannot open the game database "
                                 "(free some space and try again)") from e
            raise StoreError(f"{p}: cannot open the game database: {e}") from e
        except OSError as e:
            raise StoreError(f"{p}: cannot open the game database: {e.strerror or e}") from e
        return cls(conn, p, readonly, key, kdir)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _fail(self, what: str, e: BaseException) -> StoreError:
        msg = str(e)
        if disk_full(self.path, e):
            return StoreError(f"{self.path}: {what}: the disk is full (free some space; "
                              "nothing of this write was stored)")
        if "readonly" in msg or "read-only" in msg:
            msg += " (the file or its directory is read-only)"
        return StoreError(f"{self.path}: {what}: {msg}")

    # ---- games -------------------------------------------------------------------------------

    def new_game(self, kind: str, *, header: Iterable[tuple[str, str]] = (),
                 seats: Iterable[tuple[str, str]] = (),
                 figures: Iterable[tuple[str, str, int | None, int | None]] = (),
                 origin: str = "play", extra: dict[str, Any] | None = None,
                 state_json: str | None = None,
                 records: Iterable[tuple[str, Any]] = (),
                 fields: dict[str, Any] | None = None) -> int:
        """Create a game with its first record (kind ``game``: the header, seats, figures and
        dock bindings, hashed like any other record), then ``records`` (kind, data) and the
        game row's ``fields`` — all in ONE transaction (issue 31: a game row without its setup
        record, or an import cut half-way, cannot exist)."""
        seats, figures, header = list(seats), list(figures), list(header)
        self._writable()
        data = {"kind": kind, "header": [list(h) for h in header],
                "seats": [list(s) for s in seats], "figures": [list(f) for f in figures],
                "origin": origin, **(extra or {})}
        t = round(time.time(), 3)
        try:
            self._exec("BEGIN IMMEDIATE")
            cur = self._exec(
                "INSERT INTO games (kind, created, origin, status, state_json, head) "
                "VALUES (?, ?, ?, 'running', ?, ?)", (kind, now_iso(), origin, state_json,
                                                      GENESIS))
            gid = int(cur.lastrowid or 0)
            self._exec("INSERT INTO seats VALUES (?, ?, ?)",
                       [(gid, s, name) for s, name in seats], many=True)
            self._exec("INSERT INTO figures VALUES (?, ?, ?, ?, ?)",
                       [(gid, *f) for f in figures], many=True)
            batch = [(gid, 1, "game", content_of(gid, 1, "game", t, data))]
            for i, (k, d) in enumerate(records):
                batch.append((gid, i + 2, k, content_of(gid, i + 2, k, t, d)))
            heads = self._write(batch, {gid: dict(fields or {})})
            self._exec("COMMIT")
        except sqlite3.DatabaseError as e:
            self._rollback()
            self._writer.forget()
            raise self._fail("cannot create the game (nothing of it was stored)", e) from e
        self._heads.update(heads)
        self._writer.committed()
        for told in tuple(GameStore.after_commit):
            told(self.path)
        if self.step_hook is not None:
            self.step_hook("committed")
        return gid

    def _exec(self, sql: str, params: Any = (), many: bool = False) -> sqlite3.Cursor:
        """One statement of a write, announced to ``step_hook`` first (the fault tests)."""
        if self.step_hook is not None:
            self.step_hook(sql.split(" (")[0][:60])
        if not sql.startswith("BEGIN") and not self.conn.in_transaction:
            # SQLite rolls a whole transaction back on some errors (SQLITE_FULL among them):
            # never let the rest of a write run on in autocommit, stored piece by piece
            raise sqlite3.OperationalError("the transaction was rolled back by SQLite "
                                           "(database or disk is full?)")
        if many:
            return self.conn.executemany(sql, params)
        return self.conn.execute(sql, params)

    @property
    def _cols(self) -> str:
        return GAME_COLS + (", seal, key_id" if self.keyed_schema else "")

    def game(self, gid: int) -> GameRow:
        row = self.conn.execute(f"SELECT {self._cols} FROM games WHERE id = ?",
                                (gid,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path}: no game {gid} (see `dialtray games`)")
        return GameRow(*row)

    def games(self) -> list[GameRow]:
        return [GameRow(*r) for r in self.conn.execute(
            f"SELECT {self._cols} FROM games ORDER BY id")]

    def latest(self, status: str | None = None) -> GameRow | None:
        q = f"SELECT {self._cols} FROM games"
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

    def next_number(self, gid: int) -> int:
        """The number the next queued record of ``gid`` gets (nothing is reserved): what a
        batch numbers its records from (``queue_numbered``)."""
        head = self._heads.get(gid)
        if head is None:
            head = self._heads[gid] = (self.game(gid).records, "")
        return head[0] + self._queued.get(gid, 0) + 1

    def committed(self, gid: int) -> int:
        """How many records ``gid`` had when this store last committed to it (read once when it
        has not): for a caller that only needs where its own records end — ``game(gid)``
        reads the whole row and its state (``RecordingTracker`` after every commit, issue 35)."""
        head = self._heads.get(gid)
        if head is None:
            head = self._heads[gid] = (self.game(gid).records, "")
        return head[0]

    def queue_numbered(self, gid: int, records: list[tuple[int, int, str, bytes]]) -> None:
        """``append_content`` for a batch: ``records`` (game, n, kind, canonical content), each
        made for its number, numbered from ``next_number(gid)`` on without a gap — one call
        and one list extend for a burst of events instead of one per record (issue 35)."""
        if not records:
            return
        first = self.next_number(gid)
        if records[0][1] != first or records[-1][1] != first + len(records) - 1 or \
                records[0][0] != gid or records[-1][0] != gid:
            raise ValueError(f"records for game {gid} must be numbered {first} on, in order")
        self._pending.extend(records)
        self._queued[gid] = self._queued.get(gid, 0) + len(records)

    def update_game(self, gid: int, **fields: Any) -> None:
        """Queue changes to the game row (status, result, state_json, boot_id, last_seq) for
        the next commit."""
        if not fields.keys() <= _GAME_FIELDS:
            raise ValueError(f"not a game field: {sorted(set(fields) - _GAME_FIELDS)}")
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
        committed = False
        try:
            self._exec("BEGIN IMMEDIATE")
            heads = self._write(batch, updates)
            self._exec("COMMIT")
            committed = True
        except sqlite3.DatabaseError as e:
            self._rollback()
            self._heads.clear()  # reread from the database: the batch is gone
            self._writer.forget()
            raise self._fail("could not store the game (nothing of this batch was stored or "
                             "acknowledged)", e) from e
        except BaseException:  # Ctrl-C mid-commit: not a failure of the store
            if not committed:
                self._requeue(batch, updates)
            raise
        self._heads.update(heads)
        self._writer.committed()
        for told in tuple(GameStore.after_commit):
            told(self.path)
        if self.step_hook is not None:
            self.step_hook("committed")

    def _requeue(self, batch: list[tuple[int, int, str, bytes]],
                 updates: dict[int, dict[str, Any]]) -> None:
        """An interrupted commit (KeyboardInterrupt): rolled back, its batch queued again for
        the next commit (the one a stopping table makes), so nothing is lost and the connection
        is free. Before, the open transaction made that commit fail ("cannot start a transaction
        within a transaction") and the stop was reported as a store failure."""
        self._rollback()
        self._heads.clear()
        self._writer.forget()
        self._pending[:0] = batch
        for gid, *_ in batch:
            self._queued[gid] = self._queued.get(gid, 0) + 1
        for gid, fields in updates.items():
            self._game_updates[gid] = {**fields, **self._game_updates.get(gid, {})}

    def _write(self, batch: list[tuple[int, int, str, bytes]],
               updates: dict[int, dict[str, Any]]) -> dict[int, tuple[int, str]]:
        """Inside an open transaction: chain, MAC, seal and write (``chainwrite``)."""
        return self._writer.write(self._exec, batch, updates, self.commit_hooks)

    def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.DatabaseError):  # none open (BEGIN itself failed)
            self.conn.execute("ROLLBACK")

    def rows(self, gid: int, upto: int | None = None) -> Iterator[Row]:
        """The game's records as stored, in order of their number. A damaged file is read
        record by record: when the scan fails (a malformed page), each number up to ``upto``
        (default: the game's head) is looked up alone, and one that cannot be read is yielded
        as a Row whose ``unreadable`` says why — the rest are still read."""
        cols = "n, kind, content, sha, prev" + (", mac" if self.keyed_schema else "")
        last = 0
        try:
            for r in self.conn.execute(f"SELECT {cols} FROM records WHERE game_id = ? "
                                       "ORDER BY n", (gid,)):
                last = r[0] if isinstance(r[0], int) else last
                yield _row(r)
            return
        except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
            first_error = str(e)
        if upto is None:
            try:
                upto = int(self.conn.execute("SELECT records FROM games WHERE id = ?",
                                             (gid,)).fetchone()[0])
            except (sqlite3.DatabaseError, TypeError, ValueError):
                upto = last + 1
        for n in range(last + 1, max(upto, last + 1) + 1):
            try:
                r = self.conn.execute(f"SELECT {cols} FROM records WHERE game_id = ? AND n = ?",
                                      (gid, n)).fetchone()
            except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
                yield Row(n, "", b"", "", "", unreadable=str(e))
                continue
            yield _row(r) if r is not None else Row(n, "", b"", "", "",
                                                    unreadable=first_error)

    # ---- judge tokens (kept in the key directory, not in the database: issue 31) ------------

    def add_token(self, event: str, token_hash: str) -> None:
        try:
            keys.add_token(self.key_dir, event, token_hash)
        except keys.KeyError_ as e:
            raise StoreError(str(e)) from e

    def token_events(self) -> dict[str, str]:
        """Token hash → the event it was made for."""
        try:
            return keys.token_events(self.key_dir)
        except keys.KeyError_ as e:
            raise StoreError(str(e)) from e


def _row(r: tuple[Any, ...]) -> Row:
    c = r[2]  # a BLOB as written; anything else was put there by hand: compare its bytes
    content = bytes(c) if isinstance(c, bytes | memoryview) else str(c).encode()
    return Row(r[0], r[1], content, r[3], r[4], r[5] if len(r) > 5 else None)
