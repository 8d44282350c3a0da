"""Issue 31 acceptance: >= 200 edits of a finished game's file by someone holding it (bytes of
the file, rows, rows re-hashed with the public SHA-256 chain, the games table, the MACs stripped,
judge tokens added to the database). Every edit that changes what the game says must be found
by verify (the game is not vouched for, or the file is refused as unreadable), and none may
crash it. "What the game says": every games row's kind, status, result and state, the seats and
figures, every record's number, kind and content — read straight from SQLite.

Cost: one 1-turn Aces game played once; ~215 copies of a ~100 kB file each verified (~8 s on one
core)."""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from dialtray.store.chain import GENESIS, link
from dialtray.store.db import GameStore, StoreError
from dialtray.store.judge import RulingRefused, new_token, rule, token_hash
from dialtray.store.verify import verify_game
from storehelp import play_stored

Edit = Callable[[sqlite3.Connection, random.Random], None]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    d = tmp_path_factory.mktemp("tamper")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DIALTRAY_DATA_DIR", str(d / "data"))
        p = play_stored(d / "base.sqlite3", "aces", turns=1)
        token = new_token(p.store, "tamper")
        rule(p.store, p.gid, token, "vp", {"seat": "P1", "points": 3}, "a fair award")
        p.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        p.store.conn.execute("PRAGMA journal_mode=DELETE")  # one file: every byte is the game's
        p.store.close()
        yield {"db": d / "base.sqlite3", "gid": p.gid, "dir": d}


def meaning(db: Path) -> Any:
    """What the file says, or why it cannot be read."""
    try:
        c = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        c.text_factory = bytes
        try:
            return (
                c.execute("SELECT id, kind, status, result, state_json FROM games ORDER BY id"
                          ).fetchall(),
                c.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall(),
                c.execute("SELECT * FROM figures ORDER BY game_id, figure, dial_kind").fetchall(),
                c.execute("SELECT game_id, n, kind, content FROM records ORDER BY game_id, n"
                          ).fetchall())
        finally:
            c.close()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
        return f"unreadable: {e}"


def verdicts(db: Path) -> list[str]:
    """verify's word on every game: 'vouched' or its line; 'refused: …' when the file is."""
    try:
        st = GameStore.open(db, readonly=True)
    except StoreError as e:
        return [f"refused: {e}"]
    try:
        try:
            ids = [g.id for g in st.games()]
        except (sqlite3.DatabaseError, UnicodeDecodeError) as e:  # as `dialtray verify` does
            return [f"refused: {e}"]
        out = []
        for gid in ids:
            try:
                v = verify_game(st, gid)
            except StoreError as e:
                out.append(f"refused: {e}")
                continue
            out.append("vouched" if v.vouched else v.text())
        return out or ["no games"]
    finally:
        st.close()


def tamperable(db: Path) -> sqlite3.Connection:
    c = sqlite3.connect(db, isolation_level=None)
    c.execute("PRAGMA synchronous=OFF")  # a scratch copy: no fsync per statement
    c.execute("PRAGMA journal_mode=MEMORY")
    c.execute("DROP TRIGGER IF EXISTS records_append_only_u")
    c.execute("DROP TRIGGER IF EXISTS records_append_only_d")
    return c


def rehash(c: sqlite3.Connection, gid: int) -> None:
    """Re-chain every record of the game with the public SHA-256 and fix its head, as anyone
    holding the file can (the MACs it cannot make)."""
    prev = GENESIS
    rows = c.execute("SELECT n, kind, content FROM records WHERE game_id = ? ORDER BY n",
                     (gid,)).fetchall()
    for n, kind, content in rows:
        sha = link(prev, kind, bytes(content))
        c.execute("UPDATE records SET sha = ?, prev = ? WHERE game_id = ? AND n = ?",
                  (sha, prev, gid, n))
        prev = sha
    c.execute("UPDATE games SET records = ?, head = ? WHERE id = ?", (len(rows), prev, gid))


def edit_content(c: sqlite3.Connection, rng: random.Random, gid: int) -> int:
    """Change one digit of one record's data (a click, a VP, a die, a time); returns n."""
    rows = c.execute("SELECT n, content FROM records WHERE game_id = ?", (gid,)).fetchall()
    while True:
        n, content = rng.choice(rows)
        rec = json.loads(content)
        text = json.dumps(rec["data"], sort_keys=True, separators=(",", ":"))
        digits = [m.start() for m in re.finditer(r"\d", text)]
        if digits:
            break
    i = rng.choice(digits)
    text = text[:i] + str((int(text[i]) + rng.randrange(1, 10)) % 10) + text[i + 1:]
    try:
        rec["data"] = json.loads(text)
    except ValueError:
        rec["data"]["tampered"] = True
    new = json.dumps(rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    c.execute("UPDATE records SET content = ? WHERE game_id = ? AND n = ?", (new, gid, n))
    return int(n)


def renumber(c: sqlite3.Connection, gid: int) -> None:
    rows = c.execute("SELECT n, content FROM records WHERE game_id = ? ORDER BY n",
                     (gid,)).fetchall()
    c.execute("UPDATE records SET n = -n WHERE game_id = ?", (gid,))
    for i, (n, content) in enumerate(rows, start=1):
        rec = json.loads(content)
        rec["n"] = i
        new = json.dumps(rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        c.execute("UPDATE records SET n = ?, content = ? WHERE game_id = ? AND n = ?",
                  (i, new, gid, -n))


def edits(gid: int) -> list[tuple[str, Edit]]:
    out: list[tuple[str, Edit]] = []

    def content(c: sqlite3.Connection, rng: random.Random) -> None:
        edit_content(c, rng, gid)

    def content_rehashed(c: sqlite3.Connection, rng: random.Random) -> None:
        edit_content(c, rng, gid)
        rehash(c, gid)

    def dropped(c: sqlite3.Connection, rng: random.Random) -> None:
        top = c.execute("SELECT MAX(n) FROM records WHERE game_id = ?", (gid,)).fetchone()[0]
        n = rng.randrange(2, top + 1)
        c.execute("DELETE FROM records WHERE game_id = ? AND n = ?", (gid, n))
        renumber(c, gid)
        rehash(c, gid)

    def swapped(c: sqlite3.Connection, rng: random.Random) -> None:
        top = c.execute("SELECT MAX(n) FROM records WHERE game_id = ?", (gid,)).fetchone()[0]
        n = rng.randrange(2, top)
        c.execute("UPDATE records SET n = -1 WHERE game_id = ? AND n = ?", (gid, n))
        c.execute("UPDATE records SET n = ? WHERE game_id = ? AND n = ?", (n, gid, n + 1))
        c.execute("UPDATE records SET n = ? WHERE game_id = ? AND n = -1", (n + 1, gid))
        renumber(c, gid)
        rehash(c, gid)

    def stripped(c: sqlite3.Connection, rng: random.Random) -> None:
        edit_content(c, rng, gid)  # and made to look like an older dialtray's unkeyed game
        c.execute("UPDATE records SET mac = NULL WHERE game_id = ?", (gid,))
        c.execute("UPDATE games SET key_id = NULL, seal = NULL WHERE id = ?", (gid,))
        rehash(c, gid)

    row_edits = [
        "UPDATE games SET status = 'running' WHERE id = {g}",
        "UPDATE games SET status = 'ended' WHERE id = {g}",
        "UPDATE games SET result = replace(result, 'P1', 'P2') WHERE id = {g}",
        "UPDATE games SET result = 'P2 wins (forged)' WHERE id = {g}",
        "UPDATE games SET result = '' WHERE id = {g}",
        "UPDATE games SET state_json = replace(state_json, '1', '7') WHERE id = {g}",
        "UPDATE games SET state_json = NULL WHERE id = {g}",
        "UPDATE games SET kind = 'airaction' WHERE id = {g}",
        "UPDATE games SET records = records - 1 WHERE id = {g}",
        "UPDATE games SET head = prev FROM (SELECT prev FROM records WHERE game_id = {g} "
        "ORDER BY n DESC LIMIT 1) WHERE id = {g}",
        "UPDATE games SET seal = NULL WHERE id = {g}",
        "UPDATE games SET key_id = NULL, seal = NULL WHERE id = {g}",
        "UPDATE games SET key_id = 'ffffffffffffffff' WHERE id = {g}",
        "UPDATE seats SET seat = 'P3' WHERE game_id = {g} AND seat = 'P1'",
        "UPDATE figures SET dock = dock + 1 WHERE game_id = {g}",
        "DELETE FROM records WHERE game_id = {g} AND n = (SELECT MAX(n) FROM records "
        "WHERE game_id = {g})",
        "UPDATE records SET mac = NULL WHERE game_id = {g} AND n = 3",
        "UPDATE records SET kind = 'note' WHERE game_id = {g} AND kind = 'judge'",
    ]
    def row_edit(sql: str) -> Edit:
        def run(c: sqlite3.Connection, _rng: random.Random) -> None:
            c.execute(sql.format(g=gid))
        return run

    out += [(sql[:60], row_edit(sql)) for sql in row_edits]
    out += [("content", content)] * 40
    out += [("content re-hashed", content_rehashed)] * 45
    out += [("record dropped, re-hashed", dropped)] * 10
    out += [("records swapped, re-hashed", swapped)] * 10
    out += [("MACs stripped, re-hashed", stripped)] * 10
    return out


def test_every_edit_that_changes_the_game_is_found_and_none_crashes_verify(
        base: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALTRAY_DATA_DIR", str(base["dir"] / "data"))
    assert verdicts(base["db"]) == ["vouched"]
    original = meaning(base["db"])
    rng = random.Random(3131)
    size = base["db"].stat().st_size
    trials: list[tuple[str, Edit | int]] = [(e[0], e[1]) for e in edits(base["gid"])]
    trials += [("byte flip", rng.randrange(size)) for _ in range(85)]
    assert len(trials) >= 200
    changed = found = 0
    for i, (what, how) in enumerate(trials):
        db = tmp_path / "t.sqlite3"
        shutil.copy(base["db"], db)
        if isinstance(how, int):
            raw = bytearray(db.read_bytes())
            raw[how] ^= rng.randrange(1, 256)
            db.write_bytes(bytes(raw))
        else:
            c = tamperable(db)
            c.execute("BEGIN")
            how(c, rng)
            c.execute("COMMIT")
            c.close()
        said = verdicts(db)  # must not raise: a crash fails the test here
        if meaning(db) != original:
            changed += 1
            assert said != ["vouched"], (i, what, said)
            found += 1
    assert changed >= 120, f"only {changed} of {len(trials)} edits changed the game"


def test_a_token_added_to_the_database_is_no_token(base: dict[str, Any], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALTRAY_DATA_DIR", str(base["dir"] / "data"))
    db = tmp_path / "t.sqlite3"
    shutil.copy(base["db"], db)
    for i in range(10):  # a player mints tokens by adding their hashes to the database
        minted = f"minted-token-{i}"
        with sqlite3.connect(db) as c:
            c.execute("INSERT INTO judge_tokens VALUES ('tamper', ?, 'now')",
                      (token_hash(minted),))
        st = GameStore.open(db)
        with pytest.raises(RulingRefused):
            rule(st, base["gid"], minted, "vp", {"seat": "P2", "points": 30}, "minted")
        st.close()
    assert all(v.startswith("vouched") for v in verdicts(db))  # refusals are records too


def test_the_store_commands_name_what_they_cannot_read_and_never_crash(
        base: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """verify, export, report and games on 25 byte-flipped copies: an answer in words and exit
    0..3, never "unexpected error" (today 14 of 100 flips ended so)."""
    from dialtray.cli import main

    monkeypatch.setenv("DIALTRAY_DATA_DIR", str(base["dir"] / "data"))
    rng = random.Random(3232)
    size = base["db"].stat().st_size
    for _ in range(25):
        db = tmp_path / "t.sqlite3"
        raw = bytearray(base["db"].read_bytes())
        raw[rng.randrange(size)] ^= rng.randrange(1, 256)
        db.write_bytes(bytes(raw))
        for cmd in (["verify"], ["export", str(base["gid"])], ["report", str(base["gid"])],
                    ["games"]):
            code = main([*cmd, "--db", str(db)])
            _out, err = capsys.readouterr()
            assert code in (0, 1, 2, 3) and "unexpected error" not in err, (cmd, err)
