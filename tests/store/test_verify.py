"""`dialtray verify`: any single changed byte of any stored record, a deleted or reordered
record, or a consistently re-hashed forgery is found, and the record is named (issue 12).

Property-style: mutations at many random positions of a real stored game (a bot game with
mistakes, flags, dice and the outcome), each undone before the next."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.store.chain import GENESIS, link
from dialtray.store.verify import verify_game
from storehelp import Played, play_stored

COLUMNS = ("content", "sha", "prev", "kind")


def tamperable(p: Played) -> sqlite3.Connection:
    """A second connection that does what a tamperer would: drop the append-only triggers."""
    conn = sqlite3.connect(p.path, isolation_level=None)
    conn.execute("DROP TRIGGER IF EXISTS records_append_only_u")
    conn.execute("DROP TRIGGER IF EXISTS records_append_only_d")
    return conn


def flip(value: bytes | str, pos: int, rng: random.Random) -> bytes:
    raw = value if isinstance(value, bytes) else value.encode()
    b = bytearray(raw)
    b[pos % len(b)] ^= rng.randrange(1, 256)
    return bytes(b)


def test_every_single_byte_change_is_found_and_named(aces_game: Played) -> None:
    p = aces_game
    assert verify_game(p.store, p.gid).ok
    conn = tamperable(p)
    total = p.store.game(p.gid).records
    rng = random.Random(12)
    positions = [1, total] + [rng.randint(1, total) for _ in range(150)]
    for n in positions:
        col = rng.choice(COLUMNS)
        (orig,) = conn.execute(f"SELECT {col} FROM records WHERE game_id=? AND n=?",
                               (p.gid, n)).fetchone()
        pos = rng.randrange(len(orig))
        bad = flip(orig, pos, rng)
        conn.execute(f"UPDATE records SET {col} = ? WHERE game_id=? AND n=?", (bad, p.gid, n))
        v = verify_game(p.store, p.gid)
        assert not v.ok and v.broken is not None, (n, col, pos)
        assert v.broken.n == n, (n, col, pos, str(v.broken))
        conn.execute(f"UPDATE records SET {col} = ? WHERE game_id=? AND n=?", (orig, p.gid, n))
    assert verify_game(p.store, p.gid).ok


def test_a_deleted_record_is_named(aces_game: Played) -> None:
    p = aces_game
    conn = tamperable(p)
    total = p.store.game(p.gid).records
    rng = random.Random(5)
    for n in [1, 2, total, *rng.sample(range(3, total), 25)]:
        row = conn.execute("SELECT * FROM records WHERE game_id=? AND n=?",
                           (p.gid, n)).fetchone()
        conn.execute("DELETE FROM records WHERE game_id=? AND n=?", (p.gid, n))
        v = verify_game(p.store, p.gid)
        assert v.broken is not None and v.broken.n == n, (n, v.text())
        assert "missing" in v.broken.reason
        conn.execute(f"INSERT INTO records VALUES ({', '.join('?' * len(row))})", row)
    assert verify_game(p.store, p.gid).ok


def test_reordered_records_are_named(aces_game: Played) -> None:
    p = aces_game
    conn = tamperable(p)
    total = p.store.game(p.gid).records
    rng = random.Random(9)
    for _ in range(30):
        i, j = sorted(rng.sample(range(1, total + 1), 2))
        swap = "UPDATE records SET n = ? WHERE game_id = ? AND n = ?"
        for a, b in ((i, -1), (j, i), (-1, j)):
            conn.execute(swap, (b, p.gid, a))
        v = verify_game(p.store, p.gid)
        assert v.broken is not None and v.broken.n == i, (i, j, v.text())
        for a, b in ((j, -1), (i, j), (-1, i)):
            conn.execute(swap, (b, p.gid, a))
    assert verify_game(p.store, p.gid).ok


def rechain(conn: sqlite3.Connection, gid: int, n: int, data_edit: dict[str, object]) -> None:
    """A forger who knows the scheme: edit record n's data and re-hash everything after it."""
    rows = conn.execute("SELECT n, kind, content FROM records WHERE game_id=? ORDER BY n",
                        (gid,)).fetchall()
    prev = GENESIS
    for rn, kind, content in rows:
        if rn == n:
            rec = json.loads(content)
            rec["data"].update(data_edit)
            content = json.dumps(rec, sort_keys=True, separators=(",", ":")).encode()
        sha = link(prev, kind, bytes(content))
        conn.execute("UPDATE records SET content=?, sha=?, prev=? WHERE game_id=? AND n=?",
                     (content, sha, prev, gid, rn))
        prev = sha
    conn.execute("UPDATE games SET head=? WHERE id=?", (prev, gid))


def test_a_rehashed_forgery_is_caught_by_the_replay(tmp_path: Path) -> None:
    p = play_stored(tmp_path / "g.sqlite3", "aces")
    conn = tamperable(p)
    actions = [(n, json.loads(c)["data"]) for n, c in conn.execute(
        "SELECT n, content FROM records WHERE game_id=? AND kind='action' ORDER BY n",
        (p.gid,))]
    rolled = [(n, d) for n, d in actions if d["faces"]]
    n, d = rolled[len(rolled) // 2]
    faces = list(d["faces"])
    faces[0] = 7 - faces[0] if faces[0] != 7 - faces[0] else faces[0]
    rechain(conn, p.gid, n, {"faces": faces, "events": d["events"]})
    v = verify_game(p.store, p.gid)
    # other faces either make the action illegal, change its events, or change the end state
    assert not v.ok, v.text()
    if v.broken is not None:
        assert v.broken.n >= n


def test_a_changed_game_row_is_found(aces_game: Played) -> None:
    p = aces_game
    conn = tamperable(p)
    conn.execute("UPDATE games SET state_json = replace(state_json, '1', '2') WHERE id = ?",
                 (p.gid,))
    v = verify_game(p.store, p.gid)
    # the keyed game's seal covers the row (issue 31); the replay would find it too
    assert not v.ok and v.broken is not None and "seal does not fit" in v.broken.reason
    conn.execute("UPDATE seats SET seat = 'P9' WHERE game_id = ? AND seat = 'P1'", (p.gid,))
    v = verify_game(p.store, p.gid)
    assert not v.ok and "seal does not fit" in str(v.broken)
    conn.execute("UPDATE games SET state_json = replace(state_json, '2', '1') WHERE id = ?",
                 (p.gid,))  # (not the same row as before, but the seal does not care)
    conn.execute("UPDATE games SET key_id = NULL, seal = NULL WHERE id = ?", (p.gid,))
    v = verify_game(p.store, p.gid)  # unkeyed now: the seats are still held to record 1
    assert "differ from the setup in record 1" in v.problem and v.keys == "unkeyed"


def test_verify_command(aces_game: Played, capsys: pytest.CaptureFixture[str]) -> None:
    p = aces_game
    assert main(["verify", "--db", str(p.path)]) == 0
    assert f"game {p.gid}: ok" in capsys.readouterr().out
    conn = tamperable(p)
    conn.execute("UPDATE records SET content = content || x'20' WHERE game_id=? AND n=7",
                 (p.gid,))
    assert main(["verify", str(p.gid), "--db", str(p.path)]) == 1
    out = capsys.readouterr().out
    assert f"game {p.gid}: FAILED at record 7: its kind and content do not hash" in out
    assert main(["verify", "99", "--db", str(p.path)]) == 2
    assert main(["verify", "x", "--db", str(p.path)]) == 2
    assert main(["verify", "--db", str(p.path.parent / "none.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert "no game 99" in err and "argument game" in err and "none.sqlite3" in err
    assert "Traceback" not in err
