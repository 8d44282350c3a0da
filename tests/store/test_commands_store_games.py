"""`dialtray demo` (and `play`) keep their game: stored as played, acknowledged after commit,
verifiable, with the fair dice checked from the stored tray events (issue 12)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.store import GameStore
from dialtray.store.verify import verify_game


def test_demo_stores_its_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(tmp_path), "demo", "--game", "aces", "--fast"]) == 0
    out = capsys.readouterr().out
    db = tmp_path / "games.sqlite3"
    assert f"stored as game 1 in {db}" in out
    st = GameStore.open(db, readonly=True)
    g = st.game(1)
    assert (g.kind, g.origin, g.status) == ("aces", "demo", "over")
    assert g.boot_id is not None and g.last_seq  # the resume point came with the events
    v = verify_game(st, 1)
    assert v.ok, v.text()
    kinds = {r.kind for r in st.rows(1)}
    assert {"device", "action", "expect", "flag", "confirm", "dice", "end"} <= kinds
    assert main(["--data-dir", str(tmp_path), "report", "1"]) == 0
    report = capsys.readouterr().out
    assert "every one re-derived from the revealed seed: fair" in report
    assert "outside a committed session" not in report


def test_play_stores_its_game_and_a_bad_database_is_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    dialtray = str(Path(sys.executable).parent / "dialtray")
    r = subprocess.run([dialtray, "--data-dir", str(tmp_path), "play", "aces", "--sim",
                        "--seats", "bot,bot", "--dice", "fair", "--plain", "--pace", "0",
                        "--turns", "1"],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    db = tmp_path / "games.sqlite3"
    assert f"stored as game 1 in {db}" in r.stdout
    st = GameStore.open(db, readonly=True)
    assert st.game(1).origin == "play" and st.game(1).status == "over"
    assert verify_game(st, 1).ok
    st.close()
    # --db naming something that is not a database: one line, exit 2
    bad = tmp_path / "not.db"
    bad.write_text("hello")
    r = subprocess.run([dialtray, "--data-dir", str(tmp_path), "play", "aces", "--sim",
                        "--seats", "bot,bot", "--dice", "seeded", "--plain", "--db", str(bad)],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240)
    assert r.returncode == 2, r.stdout[-2000:] + r.stderr
    assert f"{bad}: cannot open the game database" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
