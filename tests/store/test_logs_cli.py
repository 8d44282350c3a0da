"""`dialtray games`, `export GAME` and `import LOG` as a user meets them (issue 12)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.rules.core.game import state_json
from dialtray.rules.core.notation import read_log
from dialtray.rules.core.replay import replay_log
from dialtray.store import GameStore
from dialtray.store.verify import verify_game
from storehelp import Played


def test_games_lists_date_kind_seats_result_status(aces_game: Played,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--db", str(aces_game.path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["GAME", "DATE", "KIND", "SEATS", "STATUS", "RESULT"]
    row = out[1]
    g = aces_game.store.game(aces_game.gid)
    assert row.split()[0] == str(g.id) and "aces" in row and "P1 P2" in row
    assert "over" in row and g.result in row and g.created[:10] in row


def test_games_on_an_empty_and_a_missing_database(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    GameStore.open(tmp_path / "empty.sqlite3").close()
    assert main(["games", "--db", str(tmp_path / "empty.sqlite3")]) == 0
    assert "no stored games yet" in capsys.readouterr().out
    assert main(["games", "--db", str(tmp_path / "missing.sqlite3")]) == 2
    assert "missing.sqlite3: no game database here" in capsys.readouterr().err


def test_games_uses_the_data_directory_by_default(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from storehelp import play_stored
    play_stored(tmp_path / "games.sqlite3", "aces", mistakes=False)
    assert main(["--data-dir", str(tmp_path), "games"]) == 0
    assert "aces" in capsys.readouterr().out


def test_export_replays_to_the_stored_state(aces_game: Played, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.log"
    assert main(["export", str(aces_game.gid), "-o", str(out), "--db",
                 str(aces_game.path)]) == 0
    text = out.read_text()
    assert "# flag " in text and "# put right" in text and "# game over" in text
    result = replay_log(read_log(out))
    assert state_json(result.game) == aces_game.store.game(aces_game.gid).state_json  # type: ignore[arg-type]
    capsys.readouterr()
    assert main(["export", str(aces_game.gid), "--db", str(aces_game.path)]) == 0
    assert capsys.readouterr().out == text


def test_export_refuses_a_tampered_game(aces_game: Played,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    conn = sqlite3.connect(aces_game.path, isolation_level=None)
    conn.execute("DROP TRIGGER records_append_only_d")
    conn.execute("DELETE FROM records WHERE n = 5")
    assert main(["export", str(aces_game.gid), "--db", str(aces_game.path)]) == 2
    err = capsys.readouterr().err
    assert "fails verification at record 5: missing" in err and "Traceback" not in err


def test_import_stores_a_log_that_verifies(aces_game: Played, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.log"
    assert main(["export", str(aces_game.gid), "-o", str(log), "--db",
                 str(aces_game.path)]) == 0
    db = tmp_path / "other.sqlite3"
    assert main(["import", str(log), "--db", str(db)]) == 0
    assert "stored as game 1" in capsys.readouterr().out
    st = GameStore.open(db, readonly=True)
    g = st.game(1)
    assert g.origin == "import" and g.status == "over"
    assert g.state_json == aces_game.store.game(aces_game.gid).state_json
    assert verify_game(st, 1).ok


@pytest.mark.parametrize(("body", "line", "why"), [
    ("Game: aces\nScenario: zeppelin-raid\n---\nfly nowhere\n", 4, "unknown action"),
    ("Game: chess\n---\ne4\n", 1, "unknown game kind"),
    ("Game: aces\nScenario: zeppelin-raid\n", 2, "missing '---'"),
])
def test_import_names_file_and_line_and_stores_nothing(tmp_path: Path, body: str, line: int,
                                                       why: str,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    log = tmp_path / "bad.log"
    log.write_text(body)
    db = tmp_path / "g.sqlite3"
    assert main(["import", str(log), "--db", str(db)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"dialtray import: {log}:{line}: ") and why in err, err
    assert "\n" not in err
    st = GameStore.open(db)
    assert st.games() == []


def test_import_unreadable_or_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(tmp_path / "nope.log"), "--db", str(tmp_path / "g.db")]) == 2
    assert "nope.log: No such file" in capsys.readouterr().err
    bad = tmp_path / "latin.log"
    bad.write_bytes(b"Game: aces\n# caf\xe9\n---\n")
    assert main(["import", str(bad), "--db", str(tmp_path / "g.db")]) == 2
    assert "latin.log:2: not UTF-8" in capsys.readouterr().err


@pytest.mark.parametrize("cmd", ["games", "export", "import", "verify"])
def test_help_teaches_with_examples(cmd: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([cmd, "--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "--db" in out


def test_import_a_log_that_starts_mid_game_and_one_of_air_action(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A log with a Position: header (docs/notation.md) and a whole Air Action log are stored
    and verify: the game record keeps every header line the engine needs."""
    from dialtray.rules.aces import position as aces_position
    from dialtray.rules.aces.bots import GreedyBot
    from dialtray.rules.aces.notation import LogWriter
    from dialtray.rules.aces.scenarios import load_scenario, start_scenario
    from dialtray.rules.airaction.bots import STANDARD_SQUADRONS, play_game
    from dialtray.rules.airaction.notation import write_log
    from dialtray.rules.core.dice import SeededDice
    from dialtray.rules.core.position import insert_header

    g = start_scenario(load_scenario("kim-vs-tim"), SeededDice(1), turn_limit=60)
    w = LogWriter(g, "kim-vs-tim", first=g.state.first_player, turn_limit=60)
    bot = GreedyBot(1)
    while g.state.turn_number < 4 or g.turn.acted or g.turn.label is not None:
        w.apply(bot.choose(g))
    lines = aces_position.format_position(g, aces_position.position_of(g))
    head = insert_header(w.text(), lines).partition("\n---\n")[0] + "\n---\n"
    rest: list[str] = []
    at = len(w.lines)
    while g.outcome() is None:
        w.apply(bot.choose(g))
    rest = "\n".join(w.lines[at:]).splitlines()
    mid = tmp_path / "mid.log"
    mid.write_text(head + "\n".join(rest) + "\n")
    aa, _ = play_game(STANDARD_SQUADRONS, seed=3, max_turns=3)
    whole = tmp_path / "aa.log"
    whole.write_text(write_log(aa))
    db = tmp_path / "g.sqlite3"
    for log in (mid, whole):
        assert main(["import", str(log), "--db", str(db)]) == 0, capsys.readouterr().err
    assert main(["verify", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "2 of 2 games verified" in out
    st = GameStore.open(db, readonly=True)
    assert st.game(1).state_json == state_json(g)
    assert st.game(2).state_json == state_json(aa)
