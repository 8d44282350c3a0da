"""`dialtray calibrate` against the virtual tray: a builder clicks one revolution."""

from __future__ import annotations

import argparse
import json
import threading
import time
from pathlib import Path

from dialrig import config
from dialtray.commands import calibrate
from dialtray.virtual.tray import VirtualTray

MOUNT = 1000  # where the magnet happened to be glued: raw angle at click 0


def _turn_one_revolution(tray: VirtualTray, started: threading.Event) -> None:
    started.wait(10)
    time.sleep(0.6)  # let click 0 be captured
    for _ in range(12):
        tray.turn(0, "combat", 1)
        time.sleep(0.35)


def test_calibrating_a_dial_finds_its_clicks_direction_and_zero(tmp_path: Path) -> None:
    cfg = config.default_config(1)
    cfg["docks"][0][0]["zero"] = MOUNT  # the sim glues the magnet where the config says
    out = tmp_path / "tray.json"
    with VirtualTray(cfg, seed=1) as tray:
        started = threading.Event()
        turner = threading.Thread(target=_turn_one_revolution, args=(tray, started))
        turner.start()
        args = argparse.Namespace(port=tray.port, dock=0, dial="combat", clicks=None, out=out,
                                  apply=True, timeout=10.0)
        started.set()
        assert calibrate.run(args) == 0
        turner.join()
    data = json.loads(out.read_text())
    combat = data["docks"][0]["combat"]
    assert combat["detents"] == 12 and combat["direction"] == 1
    assert abs(combat["zero"] - MOUNT) <= 3
    assert data["board_uid"] == "5349cd7472617930"


def test_a_dial_that_never_moves_times_out_with_a_clear_message(tmp_path: Path,
                                                                 capsys: object) -> None:
    with VirtualTray(config.default_config(1), seed=1) as tray:
        args = argparse.Namespace(port=tray.port, dock=0, dial="speed", clicks=None,
                                  out=tmp_path / "t.json", apply=False, timeout=1.5)
        assert calibrate.run(args) == 1
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "did not move to the next click within 2 s" in err
