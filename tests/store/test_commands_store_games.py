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
