"""`dialtray serve` with the owner's own files (issue 34), as `play` takes them: FASA's
``--tables DIR --planes A1=SHEET,...`` and Sky Ace's ``--heroes FILE...``, checked before any
server starts (a bad file exits 2 naming the file and the field), then played.

The real program, started as a user starts it (its own process, the virtual tray, a loopback
port); the page's websocket is what the page shows. Bots at pace 0, a short game.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from dialtray import cli
from dialtray.commands._common import sim_missing
from dialtray.rules.core.notation import read_log
from owner_files import greedy_hero, owner_box, owner_heroes
from websockets.sync.client import connect

BIN = Path(sys.executable).parent


def dialtray(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "dialtray"), "--data-dir", str(data), *args],
                          capture_output=True, text=True, timeout=120)


def serve_until(data: Path, args: list[str], done: Any) -> tuple[list[str], dict[str, Any]]:
    """``dialtray serve --sim --bots --pace 0 --port 0 ARGS`` until the page's game message
    satisfies ``done`` (or 90 s), then Ctrl-C. Returns (the lines printed before the page's
    address, the last game message and state)."""
    if sim_missing():
        pytest.skip(str(sim_missing()))
    p = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(data), "serve", "--sim",
                          "--bots", "--pace", "0", "--port", "0", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert p.stdout is not None
        printed: list[str] = []
        for line in p.stdout:
            printed.append(line.rstrip())
            if line.startswith("open http://127.0.0.1:"):
                break
        url = printed[-1].split()[1] if printed else ""
        assert url.startswith("http"), (printed, p.stderr.read() if p.stderr else "")
        seen: dict[str, Any] = {}
        end = time.monotonic() + 90
        with connect(url.replace("http://", "ws://").rstrip("/") + "/ws") as ws:
            while time.monotonic() < end and not ("game" in seen and done(seen["game"])):
                m = json.loads(ws.recv(timeout=30))  # a table that stopped sends nothing
                if m["op"] in ("game", "state"):
                    seen[m["op"]] = m["game"] if m["op"] == "game" else m
                error = m.get("set", {}).get("error") if m["op"] == "patch" else None
                if error:  # the table stopped: the page says why
                    seen["state"] = {**seen.get("state", {}), "error": error}
                    break
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0 and "Traceback" not in err, err[-3000:]
        assert "stopping" in out, out
        return printed, seen
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_serve_plays_fasa_on_the_owners_tables_and_sheet(tmp_path: Path) -> None:
    box, data = owner_box(tmp_path), tmp_path / "data"
    printed, seen = serve_until(data, [
        "--game", "fasa", "--turns", "1", "--tables", str(box),
        "--planes", f"A1={box}/sheets/my-hawk.json,B1=sample-brute"],
        lambda g: g["outcome"])
    assert printed[0].startswith(f"your own files: tables {box.resolve()} (hit_location.json "
                                 "yours"), printed  # said before anything starts
    game = seen["game"]
    assert game["outcome"], game  # the bots played it to its end
    figures = {f["label"]: f["name"] for f in game["board"]["figures"]}
    assert figures == {"A1": "my hawk", "B1": "brute"}, figures  # the owner's sheet flies
    # the stored game names the owner's files (and their hashes), and verifies
    log = tmp_path / "game.log"
    assert dialtray(data, "export", "1", "-o", str(log)).returncode == 0
    header = read_log(log).header
    assert [h.value for h in header if h.key == "Tables"] == [str(box.resolve())]
    named = [h.value.split()[0] for h in header if h.key == "File-sha256"]
    assert named == ["hit_location.json", "sheets/my-hawk.json"], named
    r = dialtray(data, "verify")
    assert r.returncode == 0 and ": ok (" in r.stdout, r.stdout + r.stderr


def test_serve_plays_sky_ace_with_the_owners_heroes(tmp_path: Path) -> None:
    """The page's odds of an attack use the game's own heroes (before: the shipped catalogue
    only, and the table stopped at the first attack: "unknown hero 'nightjar'")."""
    files, data = owner_heroes(tmp_path / "heroes"), tmp_path / "data"
    printed, seen = serve_until(data, ["--game", "skyace", "--seed", "8", "--heroes",
                                       *map(str, files)],
                                lambda g: g["outcome"] or g["history"] >= 12)
    assert printed[0].startswith("your own heroes: Nightjar (nightjar), Doctor Gloom (gloom, "
                                 "villain)"), printed
    assert not seen["state"]["error"], seen["state"]["error"]
    game = seen["game"]
    assert game["history"] >= 12, game["history"]  # attacks made, their odds shown
    assert {f["label"]: f["name"] for f in game["board"]["figures"]} == \
        {"P1": "nightjar", "P2": "gloom"}
    log = tmp_path / "game.log"
    assert dialtray(data, "export", "1", "-o", str(log)).returncode == 0
    assert [h.value for h in read_log(log).header if h.key == "Hero-file"] == \
        [str(f.resolve()) for f in files]


def test_a_bad_owners_file_is_refused_before_serve_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """In-process (``cli.main``, as the installed script runs it): exit 2, one line naming
    the file and the field, nothing started or stored."""
    box, data = owner_box(tmp_path), tmp_path / "data"
    hit = json.loads((box / "hit_location.json").read_text(encoding="utf-8"))
    hit["sides"]["C"] = [{"up_to": 6, "table": "tail"}]  # a roll of 7..10 finds no table
    (box / "hit_location.json").write_text(json.dumps(hit), encoding="utf-8")
    base = ["--data-dir", str(data), "serve", "--sim"]
    assert cli.main([*base, "--game", "fasa", "--tables", str(box)]) == 2
    out, err = capsys.readouterr()
    assert f"{box.resolve()}/hit_location.json" in err and "field sides.C" in err, err
    assert "Traceback" not in err and "starting" not in out, out + err
    hero = greedy_hero(tmp_path)
    capsys.readouterr()
    assert cli.main([*base, "--game", "skyace", "--heroes", str(hero)]) == 2
    err = capsys.readouterr().err
    assert str(hero) in err and "field abilities" in err and "SA-M48" in err, err
    assert cli.main([*base, "--heroes", str(hero)]) == 2  # Air Action, the default game
    assert "for `serve --game skyace` only" in capsys.readouterr().err
    assert cli.main([*base, "--game", "fasa", "--planes", "A1=no-such-plane,"
                     "B1=sample-brute"]) == 2
    assert "no record sheet 'no-such-plane'" in capsys.readouterr().err
    assert not (data / "games.sqlite3").exists()  # nothing started
