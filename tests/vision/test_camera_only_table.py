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
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from dialtray.cli import main
from dialtray.table.camera import camera_pieces, catalogue_figures
from dialtray.table.camera_only import CameraOnlyError, unreadable, virtual_camera_tray
from dialtray.table.games import new_game
from dialtray.tracker.binding import Slot
from dialtray.ui import camera
from dialtray.ui import layout as lay
from dialtray.ui.server import Options, Served
from dialtray.vision.layout import HOLDER, Layout

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
READ = re.compile(r"# camera dock (\d) (speed|combat|ace): the camera reads click")


def _dialtray(tmp: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "dialtray"), "--data-dir", str(tmp), *args],
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow(cost=15)  # ~15 s on an idle 2-core machine: a subprocess, a game, the camera
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
    # 6 planes' speed and combat dials and the 2 Ace cards' dials, each read at the start
    assert len(dials) == 14 and {k for _d, k in dials if k == "ace"} == {"ace"}, dials
    assert len(reads) > len(dials), "no dial event came from the camera after the start"
    assert "disagree" not in log and "confirmed by the camera" not in log  # no encoder


def test_the_served_page_follows_a_camera_only_game(tmp_path: Path) -> None:
    """``serve --sim --camera virtual --no-encoders --bots``: the same ``Served`` the command
    starts; the page's state (what its websocket sends) shows the camera's reads and the
    bots' game moving on, stored."""
    args = argparse.Namespace(game="airaction", seed=5, camera="virtual", sim=True,
                              camera_profile="clean", no_encoders=True)
    camera.check(args)
    served = Served(Options(
        make_game=lambda dice: new_game("airaction", dice, 5, 1), db=tmp_path / "g.sqlite3",
        layout=lay.find([ROOT / "calibration" / lay.LAYOUT_FILE], 8), docks=8, sim=True,
        bots=True, port=0, seed=5, timing=None, pace=0.0,  # as the command: the tracker's
        camera_only=camera.camera_only(args)))  # own timing (a person's pause)
    with served:
        assert served.tray is None  # no virtual tray: no encoders, no firmware
        end = time.monotonic() + 120
        seen: set[str] = set()  # what the page's log tail has shown (it scrolls on)
        reads: set[tuple[str, str]] = set()
        while time.monotonic() < end and (len(reads) < 14 or not seen):
            for ln in served.live.call(served.live.states.build).result(30)["log"]:
                reads |= set(READ.findall(ln))  # the camera read every dial
                if "read from dock" in ln:  # a bot turned a dial, the camera saw it settle
                    seen.add("decision")  # and the game took it (a decision read from it)
            time.sleep(0.2)
        assert len(reads) == 14 and seen == {"decision"}, (reads, seen)
        assert served.session.tray.events, "no dial event came from the camera"
        assert served.live.session.state.value == "live"
        history = len(served.tracker.game.history)
    assert history > 1, "the game did not move on"


@pytest.mark.parametrize("extra", [["--resume"], ["--rp2040"], ["--event", "mqtt://x/y"]])
def test_camera_only_refusals_are_plain(extra: list[str], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--data-dir", str(tmp_path), "play", "airaction", "--sim", "--camera",
                 "virtual", "--no-encoders", *extra])
    err = capsys.readouterr().err
    assert code == 2 and f"argument --no-encoders: not with {extra[0]}" in err, err


def test_every_dial_of_both_games_has_a_camera_window(layout: Layout) -> None:
    """Air Action's standard squadrons with their Ace cards and Aces' cast of 9 sharing dock 0
    (``new_game``, as play and serve set them up): every bound dial has a camera window (a
    plane's two on its dock, an Ace card's on a dock of its own, the second Aces figure's in
    dock 0's holder), so a camera-only table refuses none of them."""
    tracker = {g: _tracker(g) for g in ("airaction", "aces")}
    assert unreadable("airaction", tracker["airaction"], layout) == []
    assert unreadable("aces", tracker["aces"], layout) == []
    aa = camera_pieces("airaction", tracker["airaction"])
    aces = {s: p for s, p in aa.items() if p.window == "ace"}
    assert len(aces) == 2 and all(s.dial == 0 and p.place == s.dock and
                                  p.figure.startswith("sample-ace-") for s, p in aces.items())
    shared = camera_pieces("aces", tracker["aces"])[Slot(0, 1)]
    assert (shared.place, shared.window) == (HOLDER + 0, "combat"), shared
    assert catalogue_figures("aces", tracker["aces"])[HOLDER] == shared.figure


def test_a_dial_with_no_window_is_still_refused_plainly(layout: Layout) -> None:
    """What still has no window is refused before anything is drawn, naming the dock, reader,
    dial and figure and why: a tray layout of one's own without holders (Aces' shared dock)
    or without the Ace card's base type (Air Action's Ace cards)."""
    bare = replace(layout, holders={})
    no_ace = replace(layout, base_types={k: v for k, v in layout.base_types.items()
                                         if k != "airaction-ace"})
    found = unreadable("aces", _tracker("aces"), bare)
    assert len(found) == 1 and found[0].startswith("dock 0 reader 1 (combat dial of ") and \
        "has no dock 0's holder" in found[0], found
    found = unreadable("airaction", _tracker("airaction"), no_ace)
    assert len(found) == 2 and all(re.match(r"dock \d reader 0 \(ace dial of [AB]1: the tray "
                                            r"layout .* has no ace window", f) for f in found)
    with pytest.raises(CameraOnlyError, match=r"no window for dock 0 reader 1 .*holder"):
        virtual_camera_tray("aces", _tracker("aces"), 1, layout=bare)


def _tracker(game: str) -> Any:
    from dialtray.rules.core.dice import SeededDice
    from dialtray.table.build import binding_for, tracker_for
    from dialtray.tracker.dice import TableDice

    dice = TableDice(SeededDice(1))
    setup = new_game(game, dice, 1, 1)
    return tracker_for(setup, binding_for(setup, 8), dice, None)
