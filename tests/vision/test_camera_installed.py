"""The camera commands from an installed package, not a clone (issue 33): `pip install
'.[vision]'` into a fresh venv (`tests/clean_install.py`: pip, offline from the project's
wheelhouse), then from a directory outside the clone, on their defaults (no --layout, no
--refs): `camera sheets`, `camera render` (a tray, and one photo per click), `read` of the
rendered tray (the shipped sample references), `capture --from-photos` of the rendered clicks,
and `calibrate camera` as the same command as `camera calibrate`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from clean_install import install

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow(cost=25)  # a fresh venv, pip from the wheelhouse, then the commands
def test_the_camera_commands_work_from_an_installed_package(tmp_path: Path) -> None:
    bindir = install(tmp_path, "[vision]")
    here = tmp_path / "elsewhere"
    here.mkdir()
    env = {"PATH": f"{bindir}{os.pathsep}/usr/bin{os.pathsep}/bin", "HOME": str(tmp_path),
           "LANG": "C.UTF-8", "DIALTRAY_DATA_DIR": str(tmp_path / "data"),
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENCV_FOR_THREADS_NUM": "1"}

    def dialtray(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        r = subprocess.run([str(bindir / "dialtray"), *argv], cwd=here, env=env, input=stdin,
                           capture_output=True, text=True, timeout=300)
        assert "Traceback" not in r.stderr, r.stderr
        return r

    r = dialtray("camera", "sheets", "--out", "sheets")
    assert r.returncode == 0, r.stderr
    assert (here / "sheets" / "charuco_board.png").exists()
    assert (here / "sheets" / "tray_markers.png").exists()

    r = dialtray("camera", "render", "--figure", "0=sample-militia-fighter", "--figure",
                 "5=sample-genghis", "--set", "0.combat=4", "--set", "0.speed=2", "--set",
                 "5.combat=3", "--out", "tray.png")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["docks"][0]["clicks"] == {"combat": 4.0, "speed": 2.0}

    r = dialtray("read", "tray.png", "--figure", "0=sample-militia-fighter", "--figure",
                 "5=sample-genghis")
    assert r.returncode == 0, r.stderr
    reads = {(d["dock"], k): v for d in json.loads(r.stdout)["docks"]
             for k, v in d["dials"].items()}
    for key, click in (((0, "combat"), 4), ((0, "speed"), 2), ((5, "combat"), 3)):
        assert reads[key]["status"] in ("click", "unknown"), reads[key]
        assert reads[key]["status"] == "unknown" or click in reads[key]["clicks"], reads[key]
    assert sum(r["status"] == "click" for r in reads.values()) >= 2, reads

    # one photo per click of the sample Aces figure, captured back: every click confirmed by
    # Enter (the values pre-filled from the base file and the digits read)
    r = dialtray("camera", "render", "--each-click", "--profile", "capture", "--figure",
                 "0=sample-genghis", "--out", "shots")
    assert r.returncode == 0, r.stderr
    n = json.loads(r.stdout)["clicks"]["combat"]
    assert len(list((here / "shots" / "combat").glob("*.png"))) == n
    base = next(p for p in (tmp_path / "venv").rglob("genghis.json")
                if p.parent.name == "figures" and "aces" in p.parts)  # the installed sample
    r = dialtray("capture", "--dock", "0", "--from-photos", "shots", "--base", str(base),
                 "--out", "genghis.json", stdin="\n" * (n + 2))
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads((here / "genghis.json").read_text())["id"] == "sample-genghis"
    assert (tmp_path / "data" / "vision" / "refs" / "sample-genghis.npz").exists()

    for argv in (("calibrate", "camera", "--help"), ("camera", "calibrate", "--help")):
        r = dialtray(*argv)
        assert r.returncode == 0 and "ChArUco" in r.stdout, r.stderr
    r = dialtray("calibrate", "camera", "nothing.png")
    assert r.returncode == 2 and "nothing.png" in r.stderr, r.stderr
