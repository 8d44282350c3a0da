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


def _log_using_everything() -> tuple[str, set[str]]:
    """A bot game whose log uses harpoons, torpedoes, zeppelin/ground turrets and main guns
    (FS-M108, FS-M115, FS-M120, FS-M121), the first such seed of the sweep's games (814
    today: the main guns' flak shreds the cargo pod beside the zeppelin in most, D-FS-52)."""
    want = {"harpoon", "torpedo", "gun", "barrage"}
    for seed in range(6, 1000, 8):  # the warship games with the raider (bots.MAPS)
        _, log = bot_game(seed, turn_limit=6)
        verbs = {line.split()[0] for line in log.split("---\n", 1)[1].splitlines() if line}
        if want <= verbs:
            return log, verbs
    raise AssertionError("no bot game used every new weapon")


def test_notation_round_trip_and_replay_of_the_new_weapons(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    """Every action line of such a log parses and prints back the same (docs/notation.md);
    `dialtray replay` replays it; a harpoon at a building is refused at its FILE:LINE naming
    FS-M108 "Harpoon (HP)"."""
    from dialtray.rules.fasa.actions import parse_action

    log, _ = _log_using_everything()
    for line in log.split("---\n", 1)[1].splitlines():
        text = line.split(" | ")[0]
        assert parse_action(text).text() == text
    path = tmp_path / "raid.log"
    path.write_text(log)
    assert main(["replay", str(path)]) == 0
    body = log.split("---\n", 1)[1].splitlines()
    at = next(i for i, line in enumerate(body) if line.startswith("harpoon "))
    plane, hardpoint = body[at].split()[1:3]
    body[at] = f"harpoon {plane} {hardpoint} cell-1"
    path.write_text(log.split("---\n", 1)[0] + "---\n" + "\n".join(body[:at + 1]) + "\n")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    head = log.split("---\n", 1)[0].count("\n") + 1
    assert f"raid.log:{head + at + 1}:" in err and "FS-M108" in err


def test_sheet_command_writes_the_live_record_sheet(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """`dialtray sheet LOG --plane ID -o FILE`: the SVG of the plane as the log leaves it
    (FS-M05 record sheet), or after a line; bad input exits 2 naming the plane or the file."""
    import xml.etree.ElementTree as ET

    from dialtray.rules.core.notation import parse_log
    from dialtray.rules.core.replay import replay_log
    from dialtray.rules.fasa.svg import render

    _, log = bot_game(6, turn_limit=6)
    path = tmp_path / "game.log"
    path.write_text(log)
    out = tmp_path / "a1.svg"
    assert main(["sheet", str(path), "--plane", "A1", "-o", str(out)]) == 0
    end = replay_log(parse_log(log, "game.log")).game
    assert out.read_text() == render(end.state.planes["A1"], end.state.turn)  # type: ignore
    ET.fromstring(out.read_text())
    capsys.readouterr()
    assert main(["sheet", str(path), "--plane", "A1", "--after", "5"]) == 0
    early = capsys.readouterr().out
    assert early.startswith("<svg") and early != out.read_text()
    assert main(["sheet", str(path), "--plane", "Q7"]) == 2
    assert "--plane" in capsys.readouterr().err
    path.write_text(log.replace("---\n", "---\nplit A1 3SA\n", 1))
    assert main(["sheet", str(path), "--plane", "A1"]) == 2
    err = capsys.readouterr().err
    assert "game.log:" in err and "Traceback" not in err
    path.write_text("Game: airaction\n---\n")
    assert main(["sheet", str(path), "--plane", "A1"]) == 2
    assert "FASA" in capsys.readouterr().err
