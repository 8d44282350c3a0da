"""The camera: reads dials from tray photographs, captures figures, cross-checks the encoders.

OpenCV (``opencv-python-headless``, the ``vision`` extra) is imported by the modules that need
it, never by this package's ``__init__`` nor by ``layout``, ``faces``, ``fusion`` and
``errors``: the CLI starts, and the tracker can call :func:`dialtray.vision.fusion.fuse`,
without it. Data flows sensor -> link -> tracker: nothing here imports the tracker, the store
or a UI. See docs/vision.md.
"""

from __future__ import annotations

import importlib

VISION_HINT = ("the camera is an optional part of dialtray (OpenCV is not installed); install "
               "it with: pip install 'dialtray[vision]' (from a clone: pip install '.[vision]')")


def vision_missing() -> str | None:
    """Why the camera code cannot run here (OpenCV or numpy missing), or None."""
    for mod in ("numpy", "cv2"):  # imported only by a command that is about to use them
        try:
            importlib.import_module(mod)
        except ImportError:
            return VISION_HINT
    return None
