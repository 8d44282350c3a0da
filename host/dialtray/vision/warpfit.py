"""A look fitted to a photo with a small affine warp of its own (``synth.py``'s closest looks).

The window crop comes from the tray's homography, found from the markers at the tray's
corners; a lens that is not calibrated (pincushion, barrel) bends the tray a little between
them, so a window can come out a few per cent larger or sheared against its reference, and a
base seated off can tilt it. Shifted and turned (the alignment) but not stretched, the
reference's digits then sit a pixel off at the window's edges: a residual ring round every
stroke, larger than the photo's noise, and a wrong look that happens to fill it fits as well as
the right one. Here each of the closest looks gets its own warp: six affine parameters, fitted
jointly with the light field by Gauss-Newton (the warp linearised by the picture's gradient).
Every look gets the same freedom, so the comparison stays fair; a warp is bounded (``LIMIT``,
``SHIFT``), as a base or a lens can only stretch a window so far.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

ITERATIONS = 3
LIMIT = 0.08  # at most this much stretch or shear (a share of the window)
SHIFT = 0.2  # px: at most this far from the alignment the look was fitted at (more let a
# settled look mimic a dial a little turned: fewer mid-turn reads made on STRESS)


class WarpFitter:
    """Fits pictures of one window size: the pixel grid and the light field's basis, once."""

    def __init__(self, shape: tuple[int, int], basis: F32) -> None:
        h, w = shape
        self.shape = shape
        self.basis_t = np.ascontiguousarray(basis.T, np.float64)  # N x k
        yy, xx = np.mgrid[0:h, 0:w]
        self.xc = (xx - (w - 1) / 2).ravel().astype(np.float64)
        self.yc = (yy - (h - 1) / 2).ravel().astype(np.float64)

    def _warp(self, picture: F32, p: F64) -> F32:
        """``picture`` seen at x + D (x - c) + t, with p = (D row by row, t)."""
        h, w = self.shape
        d = np.array([[1 + p[0], p[1]], [p[2], 1 + p[3]]])
        c = np.array([(w - 1) / 2, (h - 1) / 2])
        m = np.column_stack([d, c + p[4:6] - d @ c]).astype(np.float32)
        return np.asarray(cv2.warpAffine(picture, m, (w, h), flags=cv2.INTER_LINEAR |
                                         cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE),
                          np.float32)

    def fit(self, picture: F32, photo: F32, weight: F32 | None = None
            ) -> tuple[float, F32, F64]:
        """``picture`` (h x w) warped and lit to fit ``photo`` (flat): its (weighed) residual,
        the fitted picture (flat) and the warp's parameters. Each step is one small solve of
        the normal equations (light field, offset and warp together)."""
        n, k = self.basis_t.shape
        rows = np.arange(n) if weight is None else np.flatnonzero(weight > 0)
        y = photo.astype(np.float64)[rows]
        basis_t, xc, yc = self.basis_t[rows], self.xc[rows], self.yc[rows]
        design = np.empty((len(rows), k + 7))
        design[:, k] = 1.0  # the offset
        p = np.zeros(6)
        light: F64 | None = None
        for _ in range(ITERATIONS):
            pw = self._warp(picture, p)
            gy, gx = np.gradient(pw.astype(np.float64))
            design[:, :k] = basis_t * pw.ravel()[rows, None]
            if light is None:  # the light field first, with no warp
                light = basis_t @ _solve(design[:, :k + 1], y)[:k]
            lgx, lgy = light * gx.ravel()[rows], light * gy.ravel()[rows]
            design[:, k + 1:] = np.column_stack([lgx * xc, lgx * yc, lgy * xc, lgy * yc,
                                                 lgx, lgy])
            coef = _solve(design, y)
            step = coef[k + 1:]
            p = p + step
            p[:4] = np.clip(p[:4], -LIMIT, LIMIT)
            p[4:] = np.clip(p[4:], -SHIFT, SHIFT)
            light = basis_t @ coef[:k]
            if np.max(np.abs(step[4:])) < 0.01 and np.max(np.abs(step[:4])) < 1e-4:
                break
        pw = self._warp(picture, p).ravel().astype(np.float64)
        lit = np.column_stack([self.basis_t * pw[:, None], np.ones(n)])
        coef = _solve(lit[rows], y)
        fitted = (lit @ coef).astype(np.float32)
        rss = float(np.sum((y - fitted[rows]) ** 2))
        return rss, fitted, p


def _solve(design: F64, y: F64) -> F64:
    """Least squares by the normal equations (a few dozen unknowns, thousands of pixels)."""
    a = design.T @ design
    a[np.diag_indices_from(a)] += 1e-9 * (1.0 + np.trace(a) / len(a))
    return np.asarray(np.linalg.solve(a, design.T @ y), np.float64)
