"""Camera calibration from rendered ChArUco photographs of known intrinsics and distortion,
the printable sheets, and the camera model's use in registration (issue 14)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from dialtray import cli
from dialtray.vision.camcal import CHARUCO, SHEET_PPM, board_image, calibrate, sheet_images
from dialtray.vision.camera import load_camera
from dialtray.vision.errors import VisionError
from dialtray.vision.layout import Layout

ROOT = Path(__file__).resolve().parents[2]
K = np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]])
DIST = np.array([-0.12, 0.05, 0.0, 0.0, 0.0])


def _view(board: np.ndarray, rvec: np.ndarray, tvec: np.ndarray) -> np.ndarray:
    """The printed board (board px at SHEET_PPM, origin at the board image's corner) seen by a
    camera K with DIST at pose (rvec, tvec) in mm: one remap, every pixel exact."""
    w, h = 1280, 720
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    pts = np.stack([gx.ravel(), gy.ravel()], 1).reshape(-1, 1, 2)
    und = cv2.undistortPoints(pts, K, DIST).reshape(-1, 2)
    r = cv2.Rodrigues(rvec)[0]
    hn = np.column_stack([r[:, 0], r[:, 1], tvec])
    plane = np.linalg.inv(hn) @ np.column_stack([und, np.ones(len(und))]).T
    mx = (plane[0] / plane[2] * SHEET_PPM).reshape(h, w).astype(np.float32)
    my = (plane[1] / plane[2] * SHEET_PPM).reshape(h, w).astype(np.float32)
    return cv2.remap(board, mx, my, cv2.INTER_LINEAR, borderValue=(90, 90, 90))


def _shots(n: int) -> list[tuple[str, np.ndarray]]:
    board = board_image()
    rng = np.random.default_rng(4)
    cx = board.shape[1] / SHEET_PPM / 2
    cy = board.shape[0] / SHEET_PPM / 2
    out = []
    for i in range(n):
        rvec = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-0.3, 0.3)])
        r = cv2.Rodrigues(rvec)[0]
        z = rng.uniform(520, 700)
        shift = np.array([rng.uniform(-200, 200), rng.uniform(-110, 110), z])
        t = shift - r @ np.array([cx, cy, 0])
        out.append((f"view{i}", _view(board, rvec, t)))
    return out


def test_calibration_recovers_the_camera() -> None:
    cam = calibrate(_shots(10))
    assert cam.size == (1280, 720) and cam.views == 10
    assert cam.rms_px < 0.5
    assert abs(cam.matrix[0, 0] - 900) < 9 and abs(cam.matrix[1, 1] - 900) < 9
    assert abs(cam.matrix[0, 2] - 640) < 8 and abs(cam.matrix[1, 2] - 360) < 8
    # k1 and k2 trade off, and so do focal length and distance; what registration needs is
    # that straight tray lines come out straight: points of straight lines through the real
    # lens, undistorted with the fitted model, lie on a line again (within 0.5 px)
    for y in (-0.2, 0.0, 0.2):
        n = np.column_stack([np.linspace(-0.45, 0.45, 23), np.full(23, y), np.ones(23)])
        seen = cv2.projectPoints(n, np.zeros(3), np.zeros(3), K, DIST)[0].reshape(-1, 2)
        flat = cam.undistort_pixels(seen)
        fit = np.polyfit(flat[:, 0], flat[:, 1], 1)
        assert np.abs(np.polyval(fit, flat[:, 0]) - flat[:, 1]).max() < 0.5, y
    # the fitted lens model undoes the real one
    p = np.array([[100.0, 80.0], [1200.0, 650.0]])
    assert np.allclose(cam.distort_pixels(cam.undistort_pixels(p)), p, atol=0.05)


def test_too_few_usable_views_is_refused() -> None:
    shots = [*_shots(3), ("blank.png", np.full((720, 1280, 3), 128, np.uint8))]
    with pytest.raises(VisionError, match=r"only 3 photo\(s\) .*not usable: blank.png"):
        calibrate(shots)


def test_committed_sheets_match_the_generator(layout: Layout) -> None:
    for name, img in sheet_images(layout).items():
        committed = cv2.imread(str(ROOT / "calibration" / name), cv2.IMREAD_COLOR)
        assert committed is not None, f"calibration/{name} missing: dialtray camera sheets"
        assert np.array_equal(committed, img), f"calibration/{name} is stale"
    assert CHARUCO.dictionary != layout.dictionary


def test_camera_calibrate_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = []
    for name, img in _shots(6):
        p = tmp_path / f"{name}.png"
        cv2.imwrite(str(p), img)
        files.append(str(p))
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert cli.main(["--data-dir", str(tmp_path / "d"), "camera", "calibrate", *files]) == 0
    cam = load_camera(tmp_path / "d" / "calibration" / "camera.json")
    assert abs(cam.matrix[0, 0] - 900) < 15
    assert json.loads((tmp_path / "d" / "calibration" / "camera.json").read_text())["views"] == 6
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    assert cli.main(["--data-dir", str(tmp_path / "e"), "camera", "calibrate",
                     *files[:2]]) == 2
    assert "need 5" in err.getvalue() and not (tmp_path / "e").exists()
