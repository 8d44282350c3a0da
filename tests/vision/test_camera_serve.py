"""`dialtray serve --sim --camera virtual` (issue 33): the page's state carries the camera's
answers. A served table (the same ``Served`` the command starts, with the camera that
``serve --camera virtual`` attaches) on the virtual tray, bots playing 1 turn of Air Action:
every settled click the camera confirms is in the state the page's websocket sends (its log),
written on the table's thread and stored with the game. Held-back photographs."""

from __future__ import annotations

import argparse
import sqlite3
import time
from pathlib import Path

import pytest
from dialtray.commands import _camera_play as camera
from dialtray.table.games import new_game
from dialtray.tracker import Timing
from dialtray.ui import layout as lay
from dialtray.ui.server import Options, Served

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_served_state_carries_the_cameras_confirmations(tmp_path: Path) -> None:
    args = argparse.Namespace(game="airaction", seed=3, camera="virtual",
                              camera_profile="held-back", sim=True, no_encoders=False)
    camera.check(args)
    served = Served(Options(
        make_game=lambda dice: new_game("airaction", dice, 3, 1), db=tmp_path / "g.sqlite3",
        layout=lay.find([ROOT / "calibration" / lay.LAYOUT_FILE], 8), docks=8, sim=True,
        bots=True, port=0, seed=11, timing=Timing(judge_s=0.25, grace_s=0.5), pace=0.0,
        camera=lambda t, s, hand: camera.attach(args, t, s, hand)))
    with served:
        assert served.camera is not None
        end = time.monotonic() + 240
        confirmed: list[str] = []
        while time.monotonic() < end and not confirmed:
            state = served.live.call(served.live.states.build).result(30)
            confirmed = [ln for ln in state["log"] if "confirmed by the camera" in ln]
            time.sleep(0.2)
        assert confirmed, state["log"]
        assert all(ln.startswith("# camera dock ") for ln in confirmed)
        assert not [n for n in state["notes"] if "disagree" in n], state["notes"]
        gid = served.live.game_id
    with sqlite3.connect(tmp_path / "g.sqlite3") as db:
        assert db.execute("select count(*) from games where id = ?", (gid,)).fetchone()[0] == 1


def test_serve_refuses_a_virtual_camera_without_the_virtual_tray(tmp_path: Path) -> None:
    import subprocess
    import sys

    r = subprocess.run([str(Path(sys.executable).parent / "dialtray"), "--data-dir",
                        str(tmp_path), "serve", "--camera", "virtual", "--serial", "/dev/null"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "only with --sim" in r.stderr, r.stderr
