"""The inside of one store commit: chain the queued records onto each game's head, MAC them,
seal the game rows, and write it all — within the transaction ``GameStore`` opened.

Why a cache of the game rows: a commit must chain onto the head *as stored now* (``dialtray
judge`` may append to a game from another process while it is played), so it used to read each
game row first. At one event per commit that read was a fifth of the commit's statements (issue
35). The writer now keeps each game row as it last wrote it and updates the row only if it is
still exactly that (``UPDATE … WHERE records = ? AND head = ? AND … AND seal IS ?``, checked by
its row count): one statement both checks and moves the head, the same count as a bare loop's.
If anything of the row moved (another writer, a hand edit) the update touches nothing and the
commit falls back to reading the row and chaining afresh, in the same transaction — as before.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable
from typing import Any

from dialtray.store.chain import renumber
from dialtray.store.keys import ChainKey

Exec = Callable[..., sqlite3.Cursor]
# (records, head, kind, status, result, state_json, key_id, seal) of a game row
GameState = tuple[Any, ...]


class ChainWriter:
    """Chains and writes batches for one ``GameStore`` (``write`` inside its transaction)."""

    def __init__(self, conn: sqlite3.Connection, key: ChainKey | None, keyed: bool) -> None:
        self.conn = conn
        self.key = key
        self.keyed = keyed  # the schema has the mac, seal and key_id columns
        self._rows: dict[int, GameState] = {}  # game → its row as our last commit left it
        self._wrote: dict[int, GameState] = {}  # … as the open transaction leaves it
        self._sql: dict[tuple[tuple[str, ...], bool], str] = {}  # UPDATE games by its shape

    def committed(self) -> None:
        """The transaction of the last ``write`` is committed: its rows are the stored ones."""
        self._rows.update(self._wrote)
        self._wrote = {}

    def forget(self) -> None:
        """The transaction failed (rolled back): nothing is known of any row any more."""
        self._rows.clear()
        self._wrote = {}

    def write(self, exec_: Exec, batch: list[tuple[int, int, str, bytes]],
              updates: dict[int, dict[str, Any]],
              hooks: list[Callable[[sqlite3.Connection, list[tuple[Any, ...]]], None]]
              ) -> dict[int, tuple[int, str]]:
        """Chain ``batch`` onto each game's head as stored now, MAC each record, seal each game
        row with the host's key and write them (``exec_`` runs one statement); returns the new
        heads."""
        games = {b[0] for b in batch}
        games.update(updates)
        known = self._rows
        checked: set[int] = set()
        if len(games) == 1:  # (a failed check then has changed nothing in the transaction)
            (gid,) = games
            row = known.get(gid)
            if row is not None:
                checked.add(gid)
                rowof = {gid: row}
            else:
                rowof = {gid: self._game_row(gid)}
        else:
            rowof = {gid: self._game_row(gid) for gid in games}
        rows, heads, fields, after = self._chain(batch, updates, rowof)
        if checked and self._update(exec_, gid, fields[gid], row).rowcount != 1:
            # the row moved since our last commit (another writer, a hand edit): read it and
            # chain afresh, in the same transaction
            known.clear()
            checked.clear()
            rowof = {gid: self._game_row(gid)}
            rows, heads, fields, after = self._chain(batch, updates, rowof)
        if self.keyed:
            exec_("INSERT INTO records (game_id, n, kind, content, sha, prev, mac) VALUES "
                  "(?, ?, ?, ?, ?, ?, ?)", rows, many=True)
        else:
            exec_("INSERT INTO records (game_id, n, kind, content, sha, prev) VALUES "
                  "(?, ?, ?, ?, ?, ?)", rows, many=True)
        for hook in hooks:  # (rows: the first six fields are the record's)
            hook(self.conn, rows)
        for g in games:
            if g not in checked:
                self._update(exec_, g, fields[g], None)
        self._wrote = after
        return heads

    def _update(self, exec_: Exec, gid: int, fields: dict[str, Any],
                was: GameState | None) -> sqlite3.Cursor:
        """UPDATE the game row (only if it is still ``was``, when given)."""
        shape = (tuple(fields), was is not None)
        sql = self._sql.get(shape)
        if sql is None:
            cols = ", ".join(f"{k} = ?" for k in fields)
            sql = f"UPDATE games SET {cols} WHERE id = ?"
            if was is not None:
                sql += " AND records = ? AND head = ? AND kind = ? AND status = ? AND result = ?"
                sql += " AND key_id IS ? AND seal IS ?" if self.keyed else ""
            self._sql[shape] = sql
        if was is None:
            return exec_(sql, (*fields.values(), gid))
        if self.keyed:
            return exec_(sql, (*fields.values(), gid, *was[:5], was[6], was[7]))
        return exec_(sql, (*fields.values(), gid, *was[:5]))

    def _chain(self, batch: list[tuple[int, int, str, bytes]],
               updates: dict[int, dict[str, Any]], rowof: dict[int, GameState]
               ) -> tuple[list[tuple[Any, ...]], dict[int, tuple[int, str]],
                          dict[int, dict[str, Any]], dict[int, GameState]]:
        """(record rows, new heads, each game row's new fields, each game row as it will be)."""
        key = self.key if self.keyed else None
        heads: dict[int, tuple[int, str]] = {}
        mine: set[int] = set()  # games keyed here: MACs and a seal
        for gid, row in rowof.items():
            heads[gid] = (int(row[0]), str(row[1]))
            if key is None:
                continue
            if row[6] == key.id or (row[6] is None and int(row[0]) == 0):
                mine.add(gid)  # new here or keyed by this key
            elif row[6] is not None:
                raise sqlite3.IntegrityError(
                    f"game {gid} is keyed by another host's key ({row[6]}); this host's key is "
                    f"{key.id}: records added here would not verify (add them on the host that "
                    "keeps the game)")
            # (an unkeyed game of an older dialtray goes on unkeyed — verify says so — rather
            # than half-keyed)
        rows: list[tuple[Any, ...]] = []  # (game, n, kind, content, sha, prev[, mac])
        sha256 = hashlib.sha256
        keyed = self.keyed
        inner, outer = key.pads if key is not None else (None, None)
        for gid, queued_n, kind, content in batch:  # (the hot loop: one pass, one tuple each)
            n, prev = heads[gid]
            n += 1
            if n != queued_n:  # another process appended first: this record comes after
                content = renumber(content, n)
            sha = sha256(f"{prev}{kind}\n".encode() + content).hexdigest()  # (chain.link)
            if not keyed:
                rows.append((gid, n, kind, content, sha, prev))
            elif inner is not None and outer is not None and gid in mine:
                i = inner.copy()  # HMAC(key, sha) as ChainKey.mac, inline: once per record
                i.update(sha.encode())
                o = outer.copy()
                o.update(i.digest())
                rows.append((gid, n, kind, content, sha, prev, o.hexdigest()))
            else:
                rows.append((gid, n, kind, content, sha, prev, None))
            heads[gid] = (n, sha)
        fields: dict[int, dict[str, Any]] = {}
        after: dict[int, GameState] = {}
        for gid, row in rowof.items():
            upd = updates.get(gid)
            f = dict(upd) if upd else {}
            f["records"], f["head"] = n, head = heads[gid]
            status, result = f.get("status", row[3]), f.get("result", row[4])
            state = f.get("state_json", row[5])
            key_id, seal = row[6], row[7]
            if key is not None and gid in mine:
                if key_id != key.id:
                    f["key_id"] = key_id = key.id
                f["seal"] = seal = key.seal(gid, str(row[2]), n, head, str(status),
                                            str(result), state)
            fields[gid] = f
            after[gid] = (n, head, row[2], status, result, state, key_id, seal)
        return rows, heads, fields, after

    def _game_row(self, gid: int) -> GameState:
        """(records, head, kind, status, result, state_json, key_id, seal) of a game, read
        inside the write transaction (key_id and seal None on an unkeyed schema)."""
        if self.keyed:
            row = self.conn.execute("SELECT records, head, kind, status, result, state_json, "
                                    "key_id, seal FROM games WHERE id = ?", (gid,)).fetchone()
        else:
            row = self.conn.execute("SELECT records, head, kind, status, result, state_json, "
                                    "NULL, NULL FROM games WHERE id = ?", (gid,)).fetchone()
        if row is None:
            raise sqlite3.IntegrityError(f"no game {gid}")
        return tuple(row)
