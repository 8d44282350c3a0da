"""A camera-only tray at ``play`` and ``serve`` (issue 33: "A camera-only game of Air Action
runs to its victory table on the virtual tray with encoders disabled"): ``--sim --camera
virtual --no-encoders`` has no virtual tray and no encoders; the virtual camera films the
figures and its reads are the dial events (``table.camera_only``). Clean photographs and one
turn keep the CPU small (the held-back photographs' figures are bench/bench_camera_*.py's).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.commands import _camera_play as camera
from dialtray.ui import layout as lay
from dialtray.ui.server import Options, Served

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
READ = re.compile(r"# camera dock (\d) (speed|combat): the camera reads click")


def _dialtray(tmp: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "dialtray"), "--data-dir", str(tmp), *args],
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow  # ~15 s on an idle 2-core machine: a subprocess, a whole game, the camera
def test_bots_play_air_action_to_its_victory_table_on_a_camera_only_tray(
        tmp_path: Path) -> None:
    r = _dialtray(tmp_path, "play", "airaction", "--sim", "--camera", "virtual",
                  "--no-encoders", "--seats", "bot,bot", "--pace", "0", "--turns", "1",
                  "--camera-profile", "clean", "--plain", "--seed", "7")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-3000:]
    assert "Traceback" not in out
    assert "no LED dice: seeded dice" in r.stderr  # said, not silently swapped
    assert "game over" in r.stdout and "winner: P" in r.stdout, r.stdout[-3000:]
    assert "stored as game" in r.stdout
    log = next((tmp_path / "games").glob("play-airaction-*.log")).read_text()
    reads = READ.findall(log)
    dials = {(d, k) for d, k in reads}
    assert len(dials) == 12, dials  # 6 planes' speed and combat dials, each read at the start
    assert len(reads) > len(dials), "no dial event came from the camera after the start"
    assert "ace" not in {ln.split()[1] for ln in log.splitlines() if ln.startswith("A")}
    assert "disagree" not in log and "confirmed by the camera" not in log  # no encoder


def test_the_served_page_follows_a_camera_only_game(tmp_path: Path) -> None:
    """``serve --sim --camera virtual --no-encoders --bots``: the same ``Served`` the command
    starts; the page's state (what its websocket sends) shows the camera's reads and the
    bots' game moving on, stored."""
    args = argparse.Namespace(game="airaction", seed=5, camera="virtual", sim=True,
                              camera_profile="clean", no_encoders=True)
    camera.check(args)
    make = camera.camera_only_game(args)
    served = Served(Options(
        make_game=lambda dice: make("airaction", dice, 5, 1), db=tmp_path / "g.sqlite3",
        layout=lay.find([ROOT / "calibration" / lay.LAYOUT_FILE], 8), docks=8, sim=True,
        bots=True, port=0, seed=5, timing=None, pace=0.0,  # as the command: the tracker's
        camera_only=camera.camera_only(args)))  # own timing (a person's pause)
    with served:
        assert served.tray is None  # no virtual tray: no encoders, no firmware
        end = time.monotonic() + 120
        seen: set[str] = set()  # what the page's log tail has shown (it scrolls on)
        reads: set[tuple[str, str]] = set()
        while time.monotonic() < end and (len(reads) < 12 or not seen):
            for ln in served.live.call(served.live.states.build).result(30)["log"]:
                reads |= set(READ.findall(ln))  # the camera read every dial
                if "read from dock" in ln:  # a bot turned a dial, the camera saw it settle
                    seen.add("decision")  # and the game took it (a decision read from it)
            time.sleep(0.2)
        assert len(reads) == 12 and seen == {"decision"}, (reads, seen)
        assert served.session.tray.events, "no dial event came from the camera"
        assert served.live.session.state.value == "live"
        history = len(served.tracker.game.history)
    assert history > 1, "the game did not move on"


def test_aces_shared_dock_is_refused_before_the_game_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Aces' cast of 9 on an 8-dock tray shares dock 0: the second figure's dial has no camera
    window, so a camera-only Aces table is refused, naming it, before anything is drawn or
    stored (the command in-process: ``cli.main``, as the installed script runs it)."""
    code = main(["--data-dir", str(tmp_path), "play", "aces", "--sim", "--camera", "virtual",
                 "--no-encoders"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err, err
    assert "no window for dock 0 reader 1" in err and "sharing the dock" in err, err
    assert not list(tmp_path.rglob("*.log"))


@pytest.mark.parametrize("extra", [["--resume"], ["--rp2040"], ["--event", "mqtt://x/y"]])
def test_camera_only_refusals_are_plain(extra: list[str], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--data-dir", str(tmp_path), "play", "airaction", "--sim", "--camera",
                 "virtual", "--no-encoders", *extra])
    err = capsys.readouterr().err
    assert code == 2 and f"argument --no-encoders: not with {extra[0]}" in err, err


def test_an_ace_card_is_refused_before_anything_is_drawn() -> None:
    """Air Action's standard squadrons with their Ace cards (``new_game``): the cards' dials
    have no camera window, so the camera-only tray is refused naming them (play and serve set
    Air Action up without them: ``without_ace_cards``)."""
    from dialtray.rules.core.dice import SeededDice
    from dialtray.table.build import binding_for, tracker_for
    from dialtray.table.camera_only import CameraOnlyError, unreadable, virtual_camera_tray
    from dialtray.table.camera_only import without_ace_cards as no_aces
    from dialtray.table.games import new_game
    from dialtray.tracker.dice import TableDice

    dice = TableDice(SeededDice(1))
    for setup, bad in ((new_game("airaction", dice, 1, 1), 2), (no_aces(1, 1)(dice), 0)):
        tracker = tracker_for(setup, binding_for(setup, 8), dice, None)
        figs = {s.dock: "drawn" for s, st in tracker.slots.items() if st.dial.kind != "ace"}
        found = unreadable(tracker, figs)
        assert len(found) == bad and all("an Ace card" in f for f in found), found
        if bad:
            with pytest.raises(CameraOnlyError, match=r"no window for dock \d reader 0 \(ace"):
                virtual_camera_tray("airaction", tracker, 1)
