"""`dialtray games --close N --reason TEXT`: a running game nobody will carry on is closed with
its reason (its records untouched); refusals are one line, exit 2. Also: a Sky Ace game played
at the table is stored like any other (the store and the table agree for a dial-less game)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dialtray import cli
from dialtray.rules.core.dice import SeededDice
from dialtray.store import GameRecorder, GameStore
from dialtray.table import Table
from dialtray.table.build import binding_for, tracker_for
from dialtray.table.games import new_game
from dialtray.table.paper import PaperLink
from dialtray.tracker import TableDice


def stored_running_game(db: Path) -> int:
    dice = TableDice(SeededDice(1))
    setup = new_game("skyace", dice, 1, 1)
    tracker = tracker_for(setup, binding_for(setup, 8), dice)
    store = GameStore.open(db)
    rec = GameRecorder.start(store, tracker, origin="test")
    table = Table(setup, ["bot", "human"], PaperLink(tracker))
    table.start()
    for _ in range(5):
        table.pump()
    store.commit()
    store.close()
    return rec.gid


def test_a_running_game_is_closed_with_its_reason(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    gid = stored_running_game(db)
    assert cli.main(["games", "--db", str(db)]) == 0
    assert "running" in capsys.readouterr().out
    assert cli.main(["games", "--db", str(db), "--close", str(gid)]) == 2
    assert "--reason" in capsys.readouterr().err
    assert cli.main(["games", "--db", str(db), "--close", str(gid), "--reason",
                     "the table was abandoned"]) == 0
    assert cli.main(["games", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "closed" in out and "the table was abandoned" in out and "skyace" in out
    assert cli.main(["games", "--db", str(db), "--close", str(gid), "--reason", "again"]) == 2
    assert "not running" in capsys.readouterr().err
