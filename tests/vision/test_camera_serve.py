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
from dialtray.table.games import new_game
from dialtray.tracker import Timing
from dialtray.ui import camera
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


def test_a_disagreement_is_a_note_with_what_to_do(tmp_path: Path) -> None:
    """The encoder reports a click the camera does not see (a dial turned under a figure
    seated off its reader, say): the answer play and serve write (``table.camera.record``) is a
    ``# camera`` line and a note for the judge (shown on the tray view, stored by the
    recorder) saying what to do; the value to use stays the last confirmed one."""
    from dialtray.rules.core.dice import SeededDice
    from dialtray.table.build import binding_for, tracker_for
    from dialtray.table.camera import record
    from dialtray.table.camera_game import virtual_witness
    from dialtray.tracker.dice import TableDice
    from dialtray.vision.witness import DISAGREE

    dice = TableDice(SeededDice(5))
    setup = new_game("airaction", dice, 5, 1)
    tracker = tracker_for(setup, binding_for(setup, 8), dice, Timing())
    witness, _world, dials = virtual_witness("airaction", tracker, 5, "clean")
    d = next(d for d in dials.values() if d.name == "speed" and d.dock in witness.docks)
    with witness:
        witness.settled(d.dock, "speed", (3 * d.up) % d.clicks)  # the camera sees click 0
        assert witness.wait(lambda: bool(witness.results), 120)
    new = record(witness, tracker, 0)
    assert [w.state for w in new] == [DISAGREE], [w.line() for w in new]
    assert new[0].todo, "a disagreement must say what to do"
    assert tracker.lines[-1] == f"# camera {new[0].line()}"
    assert tracker.notes[-1].startswith(f"camera: dock {d.dock} speed: disagree: ")
    assert new[0].todo in tracker.notes[-1]
    assert record(witness, tracker, 1) == []  # each answer written once
