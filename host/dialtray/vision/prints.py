"""A dial's reference pictures made consistent with one another, for the synthesis (``synth.py``).

Each click's reference is its own capture photograph: its own light, noise and a fraction of a
pixel of its own alignment. Two clicks that differ in one digit then differ in their
references everywhere a little: a faint ghost of every cell border and digit that did not
change. When the synthesis weighs two looks, that ghost is part of the difference it weighs,
and on a dark, noisy photo it costs most of the lead (on the held-back set the difference
between two fitted looks pointed only 0.5-0.8 of the way along the true one).

Every click prints the same strip design, so here the parts of the window two clicks show
alike are made alike: each reference is brought to the dial's mean light (a planar field
fitted against the mean of all references), and then each cell and mark takes the mean of
the clicks that print the same there (value, colour and marks), and everything outside the
cells (the rim, the cell borders between them) the mean of all clicks. Two looks then differ
only where their prints do, and each is also less noisy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from dialtray.vision.faces import Face
from dialtray.vision.layout import Window
from dialtray.vision.regions import region_rects, region_shows
from dialtray.vision.register import BORDER_MM, SPP

F32 = npt.NDArray[np.float32]

CONSISTENT = True  # False: each click's own capture as it is
MIN_LIGHT = 0.2  # a reference is never brightened more than 1 / this


def _light_basis(shape: tuple[int, int]) -> npt.NDArray[np.float64]:
    """A planar light field (a richer one took a colour block some clicks have for light)."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w]
    x, y = ((xx - w / 2) / w).ravel(), ((yy - h / 2) / h).ravel()
    return np.stack([np.ones_like(x), x, y])


def _to_mean_light(ref: F32, mean: F32, basis: npt.NDArray[np.float64]) -> F32:
    """``ref`` in ``mean``'s light: ref ~ light * mean + offset, solved for the mean's view."""
    design = np.column_stack([(basis * mean.ravel()).T, np.ones(mean.size)])
    coef = np.linalg.lstsq(design, ref.ravel().astype(np.float64), rcond=None)[0]
    light = np.maximum(coef[:-1] @ basis, MIN_LIGHT)
    return np.asarray(((ref.ravel() - coef[-1]) / light).reshape(ref.shape), np.float32)


def _px(rect: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    """A window rect (mm) as template px (x0, y0, x1, y1)."""
    x, y, w, h = rect
    return (round((BORDER_MM + x) * SPP), round((BORDER_MM + y) * SPP),
            round((BORDER_MM + x + w) * SPP), round((BORDER_MM + y + h) * SPP))


def consistent(references: Sequence[F32], faces: Sequence[Face], window: Window) -> list[F32]:
    """Each click's picture with what it shares with other clicks shared (see above)."""
    if not CONSISTENT or len(references) < 2:
        return list(references)
    mean = np.mean(references, axis=0).astype(np.float32)
    basis = _light_basis(mean.shape)
    lit = [_to_mean_light(r, mean, basis) for r in references]
    common = np.mean(lit, axis=0).astype(np.float32)
    out = [common.copy() for _ in lit]
    for rect, shown in zip(region_rects(window), region_shows(window), strict=True):
        x0, y0, x1, y1 = _px(rect)
        by_print: dict[tuple[Any, ...], list[int]] = {}
        for i, f in enumerate(faces):
            key = tuple((f.values.get(k), f.colours.get(k), f.marks.get(k)) for k in shown)
            by_print.setdefault(key, []).append(i)
        for members in by_print.values():
            patch = np.mean([lit[i][y0:y1, x0:x1] for i in members], axis=0)
            for i in members:
                out[i][y0:y1, x0:x1] = patch
    return out
