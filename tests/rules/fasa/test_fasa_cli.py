"""`dialtray odds --fasa` and `dialtray replay` of a FASA log, as a user runs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.rules.fasa.bots import bot_game


def test_odds_fasa_to_hit_from_its_parts(capsys: pytest.CaptureFixture[str]) -> None:
    """FS-T22 through the CLI: 4 + 2 + 2 - 6 = TN 2, 9/10 (FS-M01, FS-M02, FS-M73)."""
    assert main(["odds", "--fasa", "--base", "4", "--deflection", "2", "--range", "2",
                 "--dead-eye", "6", "--rolls", "2"]) == 0
    out = capsys.readouterr().out
    assert "TN 2" in out and "9/10" in out and "0.810000" in out


def test_odds_fasa_tn_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--fasa", "--tn", "15"]) == 0
    assert "1/10" in capsys.readouterr().out  # a 10 always succeeds
    assert main(["odds", "--fasa", "--tn", "15", "--no-automatic"]) == 0
    assert "= 0 " in capsys.readouterr().out
    assert main(["odds", "--fasa"]) == 2
    assert "--tn" in capsys.readouterr().err
    assert main(["odds", "--fasa", "--tn", "x"]) == 2
    assert "--tn" in capsys.readouterr().err


def test_replay_a_fasa_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g, log = bot_game(3, turn_limit=4)
    path = tmp_path / "game.log"
    path.write_text(log)
    assert main(["replay", str(path)]) == 0
    assert g.report().splitlines()[0] in capsys.readouterr().out
    path.write_text(log.replace("plot A1", "plot A1 bail", 1).replace("---\nplot", "---\nplit"))
    assert main(["replay", str(path)]) == 2
    assert "game.log:" in capsys.readouterr().err
