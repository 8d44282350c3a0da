"""A webcam that is not there, as a user without one (or with the wrong number) meets it: one
line naming the camera, with nothing of OpenCV's own on the screen (it printed two
`[ WARN:0@…] global cap_v4l.cpp:…` lines first), and `camera calibrate` says so before it asks
for the first frame (it asked for 15 frames, then said the input ended)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("cv2")

BIN = Path(sys.executable).parent
ABSENT = "63"  # no machine the tests run on has a 64th webcam


@pytest.mark.parametrize("argv", [
    ["read", "--camera", ABSENT, "--figure", "0=sample-loyle-crawford"],
    ["camera", "calibrate", "--camera", ABSENT, "--frames", "5"],
])
def test_a_missing_webcam_is_one_line_naming_it(argv: list[str], tmp_path: Path) -> None:
    r = subprocess.run([str(BIN / "dialtray"), "--data-dir", str(tmp_path), *argv],
                       capture_output=True, text=True, timeout=60, input="\n" * 6)
    assert r.returncode == 2, r
    assert r.stderr.splitlines() == [
        f"dialtray {argv[0]}: argument --camera: camera {ABSENT} gave no frame (is it plugged "
        "in and free?)"], r.stderr
    assert "hold the board still" not in r.stdout, r.stdout
