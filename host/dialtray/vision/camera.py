"""A calibrated camera: intrinsics and lens distortion, and the JSON file that keeps them.

``dialtray camera calibrate`` measures them from ChArUco photographs (``camcal.py``) and writes
``calibration/camera.json`` in the data directory: the camera belongs to the user's set-up,
not to the source tree. Format::

    {"format": 1, "image_size": [1280, 720], "camera_matrix": [[fx,0,cx],[0,fy,cy],[0,0,1]],
     "dist_coeffs": [k1, k2, p1, p2, k3], "rms_px": 0.31, "views": 14, "date": "..."}
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.errors import VisionError

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class CameraModel:
    matrix: Floats
    dist: Floats
    size: tuple[int, int]
    rms_px: float = 0.0
    views: int = 0
    date: str = ""

    def undistort_pixels(self, pts: Floats) -> Floats:
        """Distorted image px -> where an ideal pinhole camera (same matrix) puts them."""
        out = cv2.undistortPoints(pts.reshape(-1, 1, 2).astype(np.float64), self.matrix,
                                  self.dist, P=self.matrix)
        return np.asarray(out, np.float64).reshape(-1, 2)

    def distort_pixels(self, pts: Floats) -> Floats:
        """Ideal pinhole px -> where the real lens puts them."""
        k = self.matrix
        n = (pts - (k[0, 2], k[1, 2])) / (k[0, 0], k[1, 1])
        obj = np.column_stack([n, np.ones(len(n))]).astype(np.float64)
        img, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), k, self.dist)
        return np.asarray(img, np.float64).reshape(-1, 2)

    def to_dict(self) -> dict[str, Any]:
        return {"format": 1, "image_size": list(self.size),
                "camera_matrix": self.matrix.tolist(), "dist_coeffs": self.dist.ravel().tolist(),
                "rms_px": round(self.rms_px, 4), "views": self.views, "date": self.date}


def load_camera(path: str | Path) -> CameraModel:
    p = Path(path)
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
        m = np.array(d["camera_matrix"], np.float64)
        dist = np.array(d["dist_coeffs"], np.float64)
        size = (int(d["image_size"][0]), int(d["image_size"][1]))
    except FileNotFoundError:
        raise VisionError(f"{p}: no such camera calibration file") from None
    except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
        raise VisionError(f"{p}: not a camera calibration file ({type(e).__name__}: {e})") \
            from None
    if m.shape != (3, 3) or dist.size not in (4, 5, 8, 12, 14) or min(size) <= 0:
        raise VisionError(f"{p}: camera_matrix must be 3x3, dist_coeffs 4/5/8/12/14 numbers")
    return CameraModel(m, dist, size, float(d.get("rms_px", 0.0)), int(d.get("views", 0)),
                       str(d.get("date", "")))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path`` and rename: never a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_camera(path: Path, cam: CameraModel) -> None:
    atomic_write_bytes(path, (json.dumps(cam.to_dict(), indent=1) + "\n").encode())
