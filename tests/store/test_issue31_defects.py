"""Issue 31's defects, one test each (each failed on the code before the fix); the serve ones
are in tests/ui/test_ui_guard.py, the fault and tamper sweeps in test_store_faults.py and
test_tamper.py."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.rules.airaction.catalogue import load_colours
from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.core.notation import parse_log
from dialtray.store.db import GameStore, StoreError
from dialtray.store.judge import new_token, rule
from dialtray.store.logs import export_log, import_log
from dialtray.store.report import build
from dialtray.store.verify import verify_game
from storehelp import Played

FASA_LOG = """Game: fasa
Map: sample-town
Side: P1 A1=sample-hawk A2=sample-pusher
Side: P2 B1=sample-brute B2=sample-gunship
---
plot A1 3SA
plot A2 2R1B
plot B1 4SA
plot B2 2L1F | d10: 10 5 6 9
pass B2
"""


def failing_at(st: GameStore, step: str) -> None:
    def hook(what: str) -> None:
        if what.startswith(step):
            raise sqlite3.OperationalError("database or disk is full")
    st.step_hook = hook


def test_1_a_game_is_created_in_one_transaction(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    st = GameStore.open(db)
    failing_at(st, "INSERT INTO records")
    with pytest.raises(StoreError, match="the disk is full"):
        st.new_game("aces", seats=[("P1", "")])
    failing_at(st, "UPDATE games")  # an import refused at its last step stores nothing either
    with pytest.raises(StoreError):
        import_log(st, parse_log(FASA_LOG, "f.log"), FASA_LOG)
    assert st.games() == []
    st.close()
    # a game row an older dialtray left without its setup record: "incomplete", not FAILED
    with sqlite3.connect(db) as c:
        c.execute("INSERT INTO games (kind, created, origin, status, head) VALUES "
                  "('aces', 'now', 'play', 'running', ?)", ("0" * 64,))
    assert main(["verify", "--db", str(db)]) == 3
    assert "game 1: incomplete" in capsys.readouterr().out


def test_2_verify_export_report_read_past_a_damaged_game(
        aces_game: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = aces_game
    text = export_log(p.store, p.gid)
    gid2, _ = import_log(p.store, parse_log(text, "again.log"), text)
    p.store.close()
    with sqlite3.connect(p.path) as c:
        c.execute("DROP TRIGGER records_append_only_u")
        c.execute("UPDATE records SET sha = x'ff00fe' WHERE game_id = ? AND n = 5", (p.gid,))
        c.execute("UPDATE games SET state_json = x'c3' WHERE id = ?", (p.gid,))
    db = str(p.path)
    assert main(["verify", "--db", db]) == 1
    out = capsys.readouterr().out
    assert f"game {p.gid}: FAILED at record 5" in out and f"game {gid2}: ok" in out
    assert "1 of 2 games verified, 1 failed" in out
    for cmd in (["export", str(p.gid)], ["report", str(p.gid)]):
        assert main([*cmd, "--db", db]) == 2
        err = capsys.readouterr().err
        assert "record 5" in err and "unexpected" not in err, err
    assert main(["export", str(gid2), "--db", db]) == 0


def test_3_verify_holds_the_games_table_to_the_records(aces_game: Played,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    p = aces_game
    with sqlite3.connect(p.path) as c:  # a forged winner, the row's seal stripped as well
        c.execute("UPDATE games SET result = 'P2 wins (forged)', key_id = NULL, seal = NULL "
                  "WHERE id = ?", (p.gid,))
    v = verify_game(p.store, p.gid)
    assert not v.ok and "the games table says" in v.problem and "P2 wins (forged)" in v.problem
    with sqlite3.connect(p.path) as c:
        c.execute("UPDATE games SET status = 'running', result = '' WHERE id = ?", (p.gid,))
    assert "the records say 'over'" in verify_game(p.store, p.gid).problem


def test_4_the_key_is_outside_the_database_and_private(aces_game: Played,
                                                       own_data_dir: Path) -> None:
    key = own_data_dir / "keys" / "chain.key"
    assert key.stat().st_mode & 0o077 == 0 and key.parent.stat().st_mode & 0o077 == 0
    raw = aces_game.path.read_bytes()
    assert key.read_bytes() not in raw
    v = verify_game(aces_game.store, aces_game.gid)
    assert v.vouched and "keyed chain and seal checked" in v.text()
    # another host (another key) cannot vouch for it, and says why
    other = GameStore.open(aces_game.path, readonly=True, key_dir=own_data_dir / "elsewhere")
    v = verify_game(other, aces_game.gid)
    assert v.ok and not v.vouched and "another host's key" in v.text()
    other.close()


def test_5_fasa_games_are_stored_verified_and_exported_with_their_d10s(
        aces_game: Played, capsys: pytest.CaptureFixture[str]) -> None:
    st = aces_game.store
    gid, _ = import_log(st, parse_log(FASA_LOG, "f.log"), FASA_LOG)
    acts = [json.loads(r.content)["data"] for r in st.rows(gid) if r.kind == "action"]
    assert {"faces": [10, 5, 6, 9], "sides": [10, 10, 10, 10]}.items() <= acts[3].items()
    assert verify_game(st, gid).vouched, verify_game(st, gid).text()
    assert "plot B2 2L1F | d10: 10 5 6 9" in export_log(st, gid)
    assert main(["verify", "--db", str(aces_game.path)]) == 0  # one FASA game stops nothing
    assert "2 of 2 games verified" in capsys.readouterr().out


def test_6_export_import_keeps_the_rulings_as_records(aces_game: Played) -> None:
    st = aces_game.store
    token = new_token(st, "spring")
    rule(st, aces_game.gid, token, "vp", {"seat": "P1", "points": 3}, "a fair award")
    rule(st, aces_game.gid, token, "dispute", {"about": "line of sight", "decision": "clear"})
    text = export_log(st, aces_game.gid)
    gid, _ = import_log(st, parse_log(text, "x.log"), text)
    kinds = [r.kind for r in st.rows(gid)]
    assert kinds.count("judge") == 2
    assert verify_game(st, gid).vouched
    again, original = build(st, gid), build(st, aces_game.gid)
    assert again.adjust == original.adjust == {"P1": 3}
    assert again.total == original.total


def test_10_skills_equipment_is_schema_checked(tmp_path: Path) -> None:
    p = tmp_path / "skills_equipment.json"
    p.write_text(json.dumps({"sample": True, "colours": True}))
    with pytest.raises(CatalogueError, match=r"skills_equipment.json: field colours: True is "
                                             r"not of type 'object'"):
        load_colours(p)


def test_11_figures_into_head_ends_quietly() -> None:
    r = subprocess.run(f"{sys.executable} -m dialtray.cli figures | head -1", shell=True,
                       capture_output=True, text=True, timeout=60)
    assert r.stdout.count("\n") == 1 and "Broken pipe" not in r.stderr, r.stderr


def test_5_sky_ace_games_round_trip_like_the_clix_games(tmp_path: Path) -> None:
    from dialtray.rules.skyace.bots import bot_game

    st = GameStore.open(tmp_path / "g.sqlite3")
    for seed, mission in ((1, False), (2, True)):
        _g, text = bot_game(seed, mission=mission, turn_limit=8)
        gid, _ = import_log(st, parse_log(text, f"sa{seed}.log"), text)
        assert verify_game(st, gid).vouched, verify_game(st, gid).text()
        again = export_log(st, gid)
        gid2, _ = import_log(st, parse_log(again, "again.log"), again)
        v = verify_game(st, gid2)
        assert v.vouched and v.actions == verify_game(st, gid).actions, v.text()
    st.close()


@pytest.mark.parametrize(("module", "file", "edit", "named"), [
    ("heroes", "heroes.json", lambda d: d["heroes"][0].update(life="lots"),
     "heroes.json: field heroes[0].life: 'lots' is not of type 'integer'"),
    ("missions", "mugging.json", lambda d: d.update(gap=True),
     "mugging.json: field gap: True is not of type 'integer'"),
])
def test_10_sky_ace_data_files_are_schema_checked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, file: str,
        edit: object, named: str) -> None:
    import importlib

    from dialtray.rules.skyace import heroes

    mod = importlib.import_module(f"dialtray.rules.skyace.{module}")
    for f in heroes.DATA_DIR.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    doc = json.loads((tmp_path / file).read_text())
    edit(doc)  # type: ignore[operator]
    (tmp_path / file).write_text(json.dumps(doc))
    monkeypatch.setattr(mod, "DATA_DIR", tmp_path)
    load = mod.catalogue.__wrapped__ if module == "heroes" else \
        lambda: mod.load_mission.__wrapped__("mugging")
    with pytest.raises(CatalogueError, match=named.replace("[", r"\[").replace("]", r"\]")):
        load()


def test_4_an_older_unkeyed_database_is_read_as_it_is_and_says_so(
        aces_game: Played, capsys: pytest.CaptureFixture[str]) -> None:
    """A database of the version before keyed chains (schema 2: no MACs, no seals)."""
    p = aces_game
    p.store.close()
    with sqlite3.connect(p.path) as c:  # as the previous release wrote it
        c.execute("ALTER TABLE records DROP COLUMN mac")
        c.execute("ALTER TABLE games DROP COLUMN seal")
        c.execute("ALTER TABLE games DROP COLUMN key_id")
        c.execute("DELETE FROM schema_version WHERE version = 3")
    assert main(["verify", "--db", str(p.path)]) == 3  # read-only: read as it is
    out = capsys.readouterr().out
    assert f"game {p.gid}: UNKEYED" in out and "anyone holding the file" in out
    assert main(["export", str(p.gid), "--db", str(p.path)]) == 0
    capsys.readouterr()
    with sqlite3.connect(p.path) as c:
        assert c.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == 2
    st = GameStore.open(p.path)  # opened for writing: migrated; the game stays unkeyed
    assert verify_game(st, p.gid).keys == "unkeyed"
    st.close()
