"""Issue 34's acceptance: a FASA game and a Sky Ace game with the owner's own files, played
through `dialtray play`, stored, verified and replayed from the log alone.

The owner's files differ from the shipped samples in ways the game visibly follows: a Hit
Location Table (FS-M79 "Hit location") that sends every shot to the tail table, and an own
record sheet (FS-M05 "Record sheet") with another plane's name and fewer bursts; Sky Ace heroes
made by the owner (SA-M07 "Hero creation"). A bad owner's file is refused at `play` naming the
file and the field (exit 2); a replay whose named file was changed or removed says so plainly.
Bots only, no pace, seeded dice: a few seconds each.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from dialtray import cli
from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.game import state_json
from dialtray.rules.core.notation import read_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.fasa import events as fev
from dialtray.rules.skyace.notation import LogWriter
from dialtray.table.build import on_paper
from dialtray.table.narrate import REPR
from dialtray.table.ownfiles import load_fasa, load_skyace
from owner_files import greedy_hero, owner_box, owner_heroes


def stored_state(data: Path) -> str:
    conn = sqlite3.connect(data / "games.sqlite3")
    try:
        (got,) = conn.execute("SELECT state_json FROM games ORDER BY id DESC").fetchone()
    finally:
        conn.close()
    return str(got)


def test_fasa_on_the_owners_tables_and_sheet(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    box, data, log = owner_box(tmp_path, bursts=9), tmp_path / "data", tmp_path / "fasa.log"
    assert cli.main(["--data-dir", str(data), "play", "fasa", "--dice", "seeded",
                     "--seats", "bot,bot", "--seed", "9", "--turns", "4", "--map",
                     "sample-blank", "--plots", "open", "--tables", str(box), "--planes",
                     f"A1={box}/sheets/my-hawk.json,B1=sample-brute", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert f"your own files: tables {box.resolve()} (hit_location.json yours" in out
    assert not [ln for ln in out.splitlines() if REPR.search(ln)]  # words, never a repr
    assert re.search(r"pending: plane A1, target B1, hits gun\d tail \d", out)  # the table
    assert "Owner's Hawk (my-hawk)" in out and "gun1 50cal 9 bursts" in out  # the own sheet
    header = {h.key: h.value for h in read_log(log).header}
    assert header["Tables"] == str(box.resolve())
    named = [h.value.split()[0] for h in read_log(log).header if h.key == "File-sha256"]
    assert named == ["hit_location.json", "sheets/my-hawk.json"]
    # stored and verified
    assert cli.main(["--data-dir", str(data), "verify"]) == 0
    assert ": ok (" in capsys.readouterr().out
    # replayed from the log alone, elsewhere: the same final state as the stored game
    replayed = replay_log(read_log(log)).game
    assert state_json(replayed) == stored_state(data)
    assert replayed.state.planes["A1"].sheet_data.name == "Owner's Hawk"
    # the owner's Hit Location Table was followed: every gun hit on a plane went to the tail
    marks = [e for entry in replayed.history for e in entry.events
             if isinstance(e, fev.Marked) and e.attacker]
    assert marks, "no plane was hit by another: the test cannot see the table followed"
    assert {b[0] for e in marks for b in e.boxes} == {"tail"}


def test_sky_ace_with_the_owners_heroes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    files, data, log = owner_heroes(tmp_path / "heroes"), tmp_path / "data", tmp_path / "s.log"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # nobody types: the bots play on
    capsys.readouterr()
    assert cli.main(["--data-dir", str(data), "play", "skyace", "--sim", "--plain",
                     "--seats", "bot,bot", "--pace", "0", "--dice", "seeded", "--seed", "8",
                     "--heroes", *map(str, files), "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out and "game over" in out
    assert out.startswith("your own heroes: Nightjar (nightjar), Doctor Gloom (gloom, "
                          "villain)"), out[:200]
    header = read_log(log).header
    assert [h.value for h in header if h.key == "Hero-file"] == [str(f.resolve())
                                                                 for f in files]
    assert len([h for h in header if h.key == "File-sha256"]) == 2
    assert cli.main(["--data-dir", str(data), "verify"]) == 0
    assert ": ok (" in capsys.readouterr().out
    replayed = replay_log(read_log(log)).game
    assert state_json(replayed) == stored_state(data)
    pawns = replayed.state.pawns
    assert [pawns[p].hero for p in ("P1", "P2")] == ["nightjar", "gloom"]
    assert cli.main(["replay", str(log)]) == 0  # `dialtray replay` shows them by name
    shown = capsys.readouterr().out
    assert "P1   Nightjar" in shown and "P2   Doctor Gloom" in shown, shown


def test_a_bad_owners_file_is_refused_at_play(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    box = owner_box(tmp_path, bursts=9)
    hit = json.loads((box / "hit_location.json").read_text(encoding="utf-8"))
    hit["sides"]["C"] = [{"up_to": 6, "table": "tail"}]  # a roll of 7..10 finds no table
    (box / "hit_location.json").write_text(json.dumps(hit), encoding="utf-8")
    base = ["--data-dir", str(tmp_path / "data"), "play"]
    assert cli.main([*base, "fasa", "--dice", "seeded", "--seats", "bot,bot",
                     "--tables", str(box)]) == 2
    err = capsys.readouterr().err
    assert f"{box.resolve()}/hit_location.json" in err and "field sides.C" in err, err
    hero = greedy_hero(tmp_path)
    capsys.readouterr()
    assert cli.main([*base, "skyace", "--sim", "--heroes", str(hero)]) == 2
    err = capsys.readouterr().err
    assert str(hero) in err and "hero greedy" in err and "field abilities" in err \
        and "SA-M48" in err, err
    assert cli.main([*base, "fasa", "--dice", "seeded", "--planes", "A1=no-such-plane,"
                     "B1=sample-brute"]) == 2
    assert "no record sheet 'no-such-plane'" in capsys.readouterr().err
    assert cli.main([*base, "aces", "--sim", "--heroes", str(hero)]) == 2
    assert "for `play skyace` only" in capsys.readouterr().err
    assert not (tmp_path / "data" / "games.sqlite3").exists()  # nothing started


def test_a_replay_whose_named_file_changed_says_so(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    box, log = owner_box(tmp_path, bursts=9), tmp_path / "f.log"
    assert cli.main(["--data-dir", str(tmp_path / "data"), "play", "fasa", "--dice", "seeded",
                     "--seats", "bot,bot", "--turns", "1", "--tables", str(box), "--planes",
                     "A1=my-hawk,B1=sample-brute", "--log", str(log)]) == 0
    # the log and the box copied together to another place: found beside the log
    moved = tmp_path / "elsewhere"
    shutil.copytree(box, moved / "box")
    shutil.copy(log, moved / "f.log")
    box.rename(tmp_path / "away")
    capsys.readouterr()
    assert cli.main(["replay", str(moved / "f.log")]) == 0
    assert cli.main(["replay", str(log)]) == 2  # the original log, its box gone
    err = capsys.readouterr().err
    assert f"{box.resolve()}/hit_location.json is missing" in err, err
    (tmp_path / "away").rename(box)
    sheet = box / "sheets" / "my-hawk.json"
    kept = sheet.read_bytes()
    sheet.write_bytes(kept.replace(b"Owner's Hawk", b"Owner's Falcon"))
    capsys.readouterr()
    assert cli.main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert f"{sheet.resolve()} has changed since this game was played" in err, err
    assert cli.main(["--data-dir", str(tmp_path / "data"), "verify"]) == 1
    assert "has changed since this game was played" in capsys.readouterr().out
    sheet.write_bytes(kept)
    (box / "hit_location.json").unlink()  # would fall back to the sample table: refused
    assert cli.main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert f"{(box / 'hit_location.json').resolve()} is missing" in err, err
    # Sky Ace: a hero file edited after the game (a log written by the engine's LogWriter)
    files = owner_heroes(tmp_path / "heroes")
    w = LogWriter(load_skyace(files).skyace_game(SeededDice(1)))
    for _ in range(3):
        w.apply(w.game.legal_actions()[0])
    (tmp_path / "s.log").write_text(w.text(), encoding="utf-8")
    assert cli.main(["replay", str(tmp_path / "s.log")]) == 0
    shutil.copytree(files[0].parent, tmp_path / "elsewhere" / "heroes-copy")
    copied = tmp_path / "elsewhere" / "heroes-copy"
    shutil.copy(tmp_path / "s.log", copied / "s.log")
    files[0].parent.rename(tmp_path / "heroes-away")
    assert cli.main(["replay", str(copied / "s.log")]) == 0  # beside the log
    (tmp_path / "heroes-away").rename(files[0].parent)
    shutil.copy(files[0], files[1])
    capsys.readouterr()
    assert cli.main(["replay", str(tmp_path / "s.log")]) == 2
    assert f"{files[1].resolve()} has changed" in capsys.readouterr().err


def test_the_table_builds_the_owners_game_on_paper(tmp_path: Path) -> None:
    """`play fasa --sim --plots open` and `play skyace` go through the table's builder
    (``table.games.new_game(..., own=)``): the same owner's game, header and all."""
    box = owner_box(tmp_path, bursts=9)
    own = load_fasa(box, f"A1=my-hawk,B1={box}/sheets/my-hawk.json", "sample-blank")
    table = on_paper("fasa", ["bot", "bot"], seed=9, turns=1, own=own)
    header = dict(table.setup.header)
    assert header["Tables"] == str(box.resolve()) and header["Map"] == "sample-blank"
    assert header["Side"].startswith("P2 B1=my-hawk")  # the last Side line
    assert table.game.tables.hit_table(0, 1) == "tail"
    heroes = load_skyace(owner_heroes(tmp_path / "heroes"))
    sky = on_paper("skyace", ["bot", "bot"], seed=8, own=heroes)
    assert dict(sky.setup.header)["Heroes"] == "nightjar gloom"
