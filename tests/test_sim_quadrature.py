"""`dialtray sim --quadrature`: a tray built with incremental encoders on its first seven dials
(the PIO budget: one state machine each) and AS5600s on the rest, so every reader of an
eight-dock tray has a sensor and a whole game binds on it (``virtual.factory.tray_config``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dialtray.link.messages import LOST_TRACK
from dialtray.link.session import TraySession
from dialtray.virtual.factory import tray_config
from dialtray.virtual.tray import VirtualTray

BIN = Path(sys.executable).parent
ENCODERS = "docks 0-2 and dock 3's combat dial on incremental encoders, the rest on AS5600s"


def test_sim_quadrature_says_which_dials_are_encoders(tmp_path: Path) -> None:
    r = subprocess.run([str(BIN / "dialtray"), "sim", "--quadrature", "--exit", "--workdir",
                        str(tmp_path)], input="status\n", capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert f"virtual tray running: 8 docks, port {tmp_path}" in r.stdout
    assert r.stdout.splitlines()[1].endswith(f"; {ENCODERS}"), r.stdout
    h = subprocess.run([str(BIN / "dialtray"), "sim", "--help"], capture_output=True,
                       text=True, timeout=60, env={"COLUMNS": "300", "PATH": "/usr/bin:/bin"})
    assert "incremental encoders on its first 7 dials (the PIO budget: one state machine " \
        "each) and AS5600 absolute sensors on the rest" in h.stdout, h.stdout


def test_every_reader_of_the_quadrature_tray_has_a_sensor() -> None:
    with VirtualTray(tray_config(8, quadrature=True), seed=2) as vt, \
            TraySession(vt.port, name="sensors") as session:
        session.wait_synced(15)
        snap = session.snapshot(5)
    sensors = {(d.dock, d.dial): (d.sensor, d.status) for d in snap.dials}
    encoders = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0)]
    assert len(sensors) == 16
    assert [k for k, v in sensors.items() if v == ("quadrature", LOST_TRACK)] == encoders
    assert {v for k, v in sensors.items() if k not in encoders} == {("as5600", 0)}
