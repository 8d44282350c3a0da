"""Issue 31 acceptance: a crash, and separately a full disk, at EACH write step of creating a
game, importing a log, a judge's ruling and an export. The steps are enumerated, not guessed:
``GameStore.step_hook`` is called before every SQL statement of a write (and once after its
COMMIT), ``commands.export.STEP_HOOK`` at each step of writing the log file.

* Crash: the operation runs in a forked child (a real process) that SIGKILLs itself at step k.
* Disk full: SQLite's own limit, ``PRAGMA max_page_count`` set to the file's size at step k (the
  database cannot grow past it: SQLITE_FULL, as on a full disk); for the export file, the
  child's ``RLIMIT_FSIZE`` (writes past it fail with EFBIG) — both unprivileged, no mount.

After every trial ``verify`` is clean for every game (or "incomplete"), and what the operation
acknowledged (returned) is there. Cost: ~40 forks of a process that already imported
everything, each opening one small database (~3 s on one core)."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from dialtray.commands import export as export_cmd
from dialtray.rules.core.notation import parse_log
from dialtray.store.db import GameStore, StoreError
from dialtray.store.judge import new_token, rule
from dialtray.store.logs import export_log, import_log
from dialtray.store.verify import verify_game
from storehelp import play_stored

Op = Callable[[GameStore, Path], Any]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    d = tmp_path_factory.mktemp("faults")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DIALTRAY_DATA_DIR", str(d / "data"))
        p = play_stored(d / "base.sqlite3", "aces", turns=1)
        text = export_log(p.store, p.gid)
        token = new_token(p.store, "faults")
        setup = next(iter(p.store.rows(p.gid))).content
        p.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        p.store.close()
        yield {"db": d / "base.sqlite3", "gid": p.gid, "log": text, "token": token,
               "setup": setup, "dir": d}


def ops(b: dict[str, Any]) -> dict[str, Op]:
    setup = json.loads(b["setup"])["data"]

    def new(st: GameStore, _out: Path) -> Any:  # the base game's setup, again
        return st.new_game("aces", header=[tuple(h) for h in setup["header"]],
                           seats=[tuple(x) for x in setup["seats"]],
                           figures=[tuple(f) for f in setup["figures"]], origin="test")

    def imp(st: GameStore, _out: Path) -> Any:
        return import_log(st, parse_log(b["log"], "game.log"), b["log"])[0]

    def ruling(st: GameStore, _out: Path) -> Any:
        return rule(st, b["gid"], b["token"], "vp", {"seat": "P1", "points": 3}, "fault test")

    def export(st: GameStore, out: Path) -> Any:
        export_cmd.write_atomic(out, export_log(st, b["gid"]))
        return out
    return {"new game": new, "import": imp, "ruling": ruling, "export": export}


def steps_of(op: Op, db: Path, out: Path) -> list[str]:
    seen: list[str] = []
    st = GameStore.open(db)
    st.step_hook = seen.append
    export_cmd.STEP_HOOK = seen.append
    try:
        op(st, out)
    finally:
        export_cmd.STEP_HOOK = None
        st.close()
    return seen


def snapshot(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as c:
        return (c.execute("SELECT COUNT(*) FROM games").fetchone()[0],
                c.execute("SELECT COUNT(*) FROM records WHERE kind = 'judge'").fetchone()[0])


def all_verify(db: Path) -> list[str]:
    st = GameStore.open(db)
    try:
        out = []
        for g in st.games():
            v = verify_game(st, g.id)
            assert v.incomplete or v.vouched, v.text()
            out.append(v.text())
        return out
    finally:
        st.close()


def in_child(fn: Callable[[], None]) -> int:
    """Run fn in a forked process; its wait status."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            fn()
            os._exit(0)
        except BaseException:
            os._exit(3)
    return os.waitpid(pid, 0)[1]


def probe_steps(base: dict[str, Any], tmp_path: Path, name: str,
                monkeypatch: pytest.MonkeyPatch) -> tuple[Op, list[str], tuple[int, int]]:
    """The operation ``name``, the write steps it goes through (run once on a copy of the base
    database), and the base database's (games, rulings) before any of it."""
    monkeypatch.setenv("DIALTRAY_DATA_DIR", str(base["dir"] / "data"))
    op = ops(base)[name]
    probe = tmp_path / "probe.sqlite3"
    shutil.copy(base["db"], probe)
    return op, steps_of(op, probe, tmp_path / "probe.log"), snapshot(base["db"])


@pytest.mark.parametrize("name", ["new game", "import", "ruling", "export"])
def test_a_crash_at_each_write_step(base: dict[str, Any], tmp_path: Path, name: str,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    op, steps, before = probe_steps(base, tmp_path, name, monkeypatch)
    assert len(steps) >= 3, steps
    for k, what in enumerate(steps):
        db, out = tmp_path / f"k{k}.sqlite3", tmp_path / f"k{k}.log"
        shutil.copy(base["db"], db)
        out.write_text("the log as it was\n")

        def run(db: Path = db, out: Path = out, k: int = k) -> None:
            count = iter(range(10_000))

            def hook(_what: str) -> None:
                if next(count) == k:
                    os.kill(os.getpid(), signal.SIGKILL)
            st = GameStore.open(db)
            st.step_hook = hook
            export_cmd.STEP_HOOK = hook
            op(st, out)
        status = in_child(run)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (k, what)
        all_verify(db)
        games, rulings = snapshot(db)
        assert games in (before[0], before[0] + 1) and rulings in (before[1], before[1] + 1)
        if what == "committed":  # killed after COMMIT: what it stored is all there
            assert (games, rulings) != before
        text = out.read_text()
        assert text == "the log as it was\n" or text == export_log_of(base), (k, what)
        if name == "export":  # a killed export's hidden .part is cleared by the next one
            export_cmd.write_atomic(out, "again\n")
            assert not list(tmp_path.glob(f".{out.name}.*.part"))
    # and run to the end, it is acknowledged and kept
    db = tmp_path / "whole.sqlite3"
    shutil.copy(base["db"], db)
    st = GameStore.open(db)
    op(st, tmp_path / "whole.log")
    st.close()
    assert name == "export" or snapshot(db) != before
    all_verify(db)


def export_log_of(b: dict[str, Any]) -> str:
    st = GameStore.open(b["db"], readonly=True)
    try:
        return export_log(st, b["gid"])
    finally:
        st.close()


@pytest.mark.parametrize("name", ["new game", "import", "ruling"])
def test_a_full_disk_at_each_write_step(base: dict[str, Any], tmp_path: Path, name: str,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    op, steps, before = probe_steps(base, tmp_path, name, monkeypatch)
    full = 0
    for k, what in enumerate(steps):
        if what == "committed":
            continue
        db = tmp_path / f"k{k}.sqlite3"
        shutil.copy(base["db"], db)
        with sqlite3.connect(db) as c:  # small, packed pages: a record needs a new one
            c.execute("PRAGMA journal_mode=DELETE")
            c.execute("PRAGMA page_size=512")
            c.execute("VACUUM")
        st = GameStore.open(db)
        count = iter(range(10_000))

        def hook(_what: str, st: GameStore = st, k: int = k, count: Any = count) -> None:
            if next(count) == k:  # the disk fills up now (someone else's file grew)
                fill_up(st.conn)
        st.step_hook = hook
        try:
            op(st, tmp_path / "x.log")
            acknowledged = True
        except StoreError as e:
            assert "the disk is full" in str(e), str(e)
            acknowledged = False
            full += 1
        st.close()
        all_verify(db)
        after = snapshot(db)
        assert (after != before) == acknowledged, (k, what, after, before)
    assert full >= 1, "no step of the write ran out of space: the test proved nothing"


def fill_up(conn: sqlite3.Connection) -> None:
    """From now on the database may not grow by one page (SQLite's own limit, as on a full
    disk): whatever the write needs next that does not fit in the pages it has is refused by
    SQLite itself (SQLITE_FULL). Outside a transaction (the step before BEGIN) the room left
    in the last pages is taken too, by rows of ever smaller size, each refused alone."""
    n = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {n}")
    if conn.in_transaction:
        return
    conn.execute(f"PRAGMA max_page_count = {n + 1}")
    conn.execute("CREATE TABLE IF NOT EXISTS filler (b BLOB)")
    for size in (2000, 500, 100, 20, 1):
        for _ in range(200):
            try:
                conn.execute("INSERT INTO filler VALUES (zeroblob(?))", (size,))
            except sqlite3.OperationalError:
                break


def test_an_export_on_a_full_disk_says_so_and_leaves_the_old_file(
        base: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "game.log"
    out.write_text("the log as it was\n")
    err = tmp_path / "err.txt"

    def run() -> None:
        from dialtray.cli import main

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit: EFBIG

        def full(what: str) -> None:  # once the database is read, files may not grow
            if what == "open":
                resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))
        export_cmd.STEP_HOOK = full
        with open(err, "w") as f:
            sys.stderr = f
            code = main(["export", str(base["gid"]), "--db", str(base["db"]), "-o", str(out)])
            f.flush()
        os._exit(code)
    status = in_child(run)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 2
    assert "the disk is full" in err.read_text()
    assert out.read_text() == "the log as it was\n"
    assert not list(tmp_path.glob(".*.part"))


def test_ctrl_c_at_each_step_of_a_commit_keeps_the_batch_for_the_next(
        base: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C (KeyboardInterrupt) at each statement of a commit: the transaction is rolled back
    and the batch queued again, so the commit a stopping table makes next stores it whole and
    the game verifies. Before, the open transaction made that commit fail ("cannot start a
    transaction within a transaction"): `dialtray demo` stopped with Ctrl-C said its store had
    failed, exit 2, about one time in ten."""
    monkeypatch.setenv("DIALTRAY_DATA_DIR", str(base["dir"] / "data"))
    op = ops(base)["ruling"]
    steps = steps_of(op, shutil.copy(base["db"], tmp_path / "probe.sqlite3"), tmp_path / "x")
    for k in range(len(steps) - 1):  # (the last step is after COMMIT: the batch is stored)
        db = Path(shutil.copy(base["db"], tmp_path / f"k{k}.sqlite3"))
        st = GameStore.open(db)
        seen: list[str] = []

        def interrupt(step: str, k: int = k, seen: list[str] = seen) -> None:
            seen.append(step)
            if len(seen) == k + 1:
                raise KeyboardInterrupt

        st.step_hook = interrupt
        with pytest.raises(KeyboardInterrupt):
            op(st, tmp_path / "x")
        st.step_hook = None
        st.commit()  # the stopping table's commit
        st.close()
        assert snapshot(db)[1] == snapshot(base["db"])[1] + 1, (k, steps[k])
        all_verify(db)
