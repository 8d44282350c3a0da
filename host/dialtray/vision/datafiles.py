"""The camera's files for a command or a front end: the tray layout, the reference crops and
the camera model, each the one the user named or the one in the data directory
(``calibration/tray_layout.json``, ``vision/refs``, ``calibration/camera.json``); and one
frame from a webcam. Failures are one line (``dialtray.errors.UserError``, status 2: the option
or the camera at fault), so ``dialtray read``, ``capture`` and ``camera calibrate`` word them
alike without importing one another.

OpenCV is imported only by :func:`grab_frame` and :func:`quiet_opencv`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dialtray.errors import UserError


def own_layout(data_dir: Path) -> Path | None:
    """The user's own tray layout (``calibration/tray_layout.json`` in the data directory, which
    the camera calibration writes), or None: the caller then takes the shipped sample's."""
    own = data_dir / "calibration" / "tray_layout.json"
    return own if own.exists() else None


def tray_files(data_dir: Path, layout: Path | None = None, refs: Path | None = None,
               camera_model: Path | None = None) -> tuple[Any, Path, Any]:
    """Layout, reference directory and camera model (None when there is none) — the ones
    given, else the data directory's; the layout falls back to the sample's in a checkout."""
    from dialtray.vision.camera import load_camera
    from dialtray.vision.layout import SOURCE_LAYOUT, LayoutError, load_layout
    from dialtray.vision.refs import refs_dir

    layout_path = layout or own_layout(data_dir) or (
        SOURCE_LAYOUT if SOURCE_LAYOUT.exists() else None)
    if layout_path is None:
        raise UserError("no tray layout: pass --layout FILE (see calibration/README.md)", 2)
    try:
        loaded = load_layout(layout_path)
    except LayoutError as e:
        raise UserError(str(e), 2) from None
    cam_path = camera_model or data_dir / "calibration" / "camera.json"
    camera = load_camera(cam_path) if camera_model or cam_path.exists() else None
    return loaded, refs or refs_dir(data_dir), camera


@contextlib.contextmanager
def quiet_opencv() -> Iterator[None]:
    """OpenCV's own warnings kept off the screen for the block (opening a webcam that is not
    there printed two ``[ WARN:0@0.046] global cap_v4l.cpp:914 …`` lines before ours)."""
    import cv2

    log = getattr(getattr(cv2, "utils", None), "logging", None)
    before = log.getLogLevel() if log is not None else None
    if log is not None:
        log.setLogLevel(log.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        if log is not None and before is not None:
            log.setLogLevel(before)


def grab_frame(index: int) -> Any:
    """One frame from webcam ``index`` (OpenCV), the camera let go at once."""
    import cv2

    with quiet_opencv():
        cap = cv2.VideoCapture(index)
    try:
        ok, frame = cap.read() if cap.isOpened() else (False, None)
    finally:
        cap.release()
    if not ok or frame is None:
        raise UserError(f"argument --camera: camera {index} gave no frame (is it plugged in "
                        "and free?)", 2)
    return frame
