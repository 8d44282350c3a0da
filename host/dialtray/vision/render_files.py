"""Rendered test photographs written to files, as `dialtray camera render` makes them: one photo
of a chosen tray, or one per click of one figure laid out as ``dialtray capture --from-photos``
reads them (``DIR/<dial>/NN.png``). The picture is ``render.render_tray``'s; this module picks
the positions, encodes and writes atomically, and says what it wrote (the truth, as plain
data). ``commands._camera_render`` parses and checks the figures, docks and clicks.

Failures are one line (``dialtray.errors.UserError``): a path that cannot be written names it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dialtray.errors import UserError
from dialtray.vision.layout import Layout
from dialtray.vision.render import DockSpec, render_tray
from dialtray.vision.render_profiles import Params

PHOTO_SUFFIXES = (".png", ".jpg", ".jpeg")  # others are written as PNG


def write_photo(path: Path, layout: Layout, docks: dict[int, DockSpec], params: Params,
                seed: int, size: tuple[int, int]) -> None:
    """The tray with ``docks`` filled, photographed under ``params`` (``seed``: the same photo
    again), written to ``path``."""
    import cv2

    from dialtray.vision.camera import atomic_write_bytes

    shot = render_tray(layout, docks, params, seed, size)
    ext = path.suffix.lower() if path.suffix.lower() in PHOTO_SUFFIXES else ".png"
    ok, buf = cv2.imencode(ext, shot.image)
    if not ok:
        raise UserError(f"could not encode {path}")
    try:
        atomic_write_bytes(path, buf.tobytes())
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}", 2) from None


def write_each_click(out: Path, layout: Layout, dock: int, spec: DockSpec, params: Params,
                     seed: int, size: tuple[int, int]) -> dict[str, Any]:
    """One photo per click of each dial of the figure in ``dock`` (the other dials at click 0),
    as ``out/<dial>/NN.png``; returns what was written."""
    for dial, faces in spec.faces.items():
        for i in range(len(faces)):
            pos = {d: float(i % len(f)) if d == dial else 0.0 for d, f in spec.faces.items()}
            write_photo(out / dial / f"{i:02d}.png", layout,
                        {dock: DockSpec(spec.figure, spec.base_type, spec.faces, pos)},
                        params, seed * 1000 + i, size)
    return {"dir": str(out), "figure": spec.figure, "dock": dock,
            "clicks": {d: len(f) for d, f in spec.faces.items()}}


def photo_truth(path: Path, profile: str, seed: int,
                docks: dict[int, DockSpec]) -> dict[str, Any]:
    """What a single photo shows: the figure and click of every dial, as plain data."""
    return {"image": str(path), "profile": profile, "seed": seed,
            "docks": [{"dock": d, "figure": s.figure, "clicks": s.positions}
                      for d, s in sorted(docks.items())]}
