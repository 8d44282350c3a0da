"""ECC alignment of a crop on one fixed template, inverse-compositional (``align.py`` uses it).

The ECC criterion (Evangelidis & Psarakis, 2008) is the zero-mean normalised correlation of
the template with the crop seen through a warp (here a rotation and a shift: a base seated a
little off). ``cv2.findTransformECC`` maximises it forward-additively: every step warps the
crop *and its two gradients* and rebuilds the normal equations from them. A window's template
never changes, so here the template is the side that is linearised (the inverse-compositional
form of the same criterion, section 4 of the paper): its gradients, the Jacobian images and
the normal equations are made once per template, and a step is one ``cv2.warpAffine`` of the
crop, one product of a 5 x N matrix with it and a few scalars (issue 35: 3 steps 0.08 ms a
window where ``findTransformECC`` took 0.26; docs/vision.md). Its optimum is the template's
gradients' view of it, ~0.01 px from OpenCV's at the median: ``align`` finishes with one
OpenCV step.

Like OpenCV's, a step that would minimise the correlation (the crop and template no longer
overlap in any useful way) gives up: ``refine`` returns None and the caller keeps its integer
alignment. A step that makes the correlation worse ends the search at the step before.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
EPS = 1e-3  # a change of the correlation below this ends the search (OpenCV's criterion)


class EuclideanECC:
    """What a template's ECC steps need, made once: per pixel, the Gauss-Newton step's
    three rows (H^-1 G^T, G the zero-mean Jacobian images of rotation about the template's
    centre and the two shifts), the zero-mean template and a row of ones."""

    def __init__(self, template: F32) -> None:
        t = np.asarray(template, np.float32)
        h, w = t.shape
        self.size = (w, h)
        self.count = t.size
        gx = cv2.Sobel(t, cv2.CV_32F, 1, 0, ksize=3, scale=1 / 8)
        gy = cv2.Sobel(t, cv2.CV_32F, 0, 1, ksize=3, scale=1 / 8)
        self.centre = ((w - 1) / 2.0, (h - 1) / 2.0)
        yy, xx = np.mgrid[0:h, 0:w]
        xc, yc = xx - self.centre[0], yy - self.centre[1]
        g = np.stack([(gy * xc - gx * yc).ravel(), gx.ravel(), gy.ravel()]).astype(np.float64)
        g -= g.mean(axis=1, keepdims=True)
        tz = t.ravel().astype(np.float64) - float(t.mean())
        hess = g @ g.T
        self.usable = bool(np.isfinite(hess).all()) and abs(float(np.linalg.det(hess))) > 1e-12
        hinv = np.linalg.inv(hess) if self.usable else np.zeros((3, 3))
        gt = g @ tz
        self.rows = np.vstack([hinv @ g, tz[None], np.ones((1, t.size))]).astype(np.float32)
        self.gt = [float(v) for v in gt]
        self.hgt = [float(v) for v in hinv @ gt]
        self.tn2 = float(tz @ tz)
        self.tpt = float(gt @ hinv @ gt)

    def refine(self, image: F32, warp: npt.NDArray[np.float32], steps: int
               ) -> npt.NDArray[np.float32] | None:
        """``warp`` (template px -> ``image`` px, 2 x 3) moved to maximise the correlation,
        at most ``steps`` steps; None where OpenCV's ECC would raise (no convergence)."""
        found = self.refine_seen(image, warp, steps)
        return None if found is None else found.warp

    def refine_seen(self, image: F32, warp: npt.NDArray[np.float32], steps: int
                    ) -> Refined | None:
        """``refine``'s warp, with what its steps saw on the way (``Refined``)."""
        if not self.usable:
            return None
        a0, a1, a2, a3, a4, a5 = np.asarray(warp).ravel().tolist()
        cx, cy = self.centre
        g0, g1, g2 = self.gt
        m0, m1, m2 = self.hgt
        mat = np.empty((2, 3), np.float32)
        best = (a0, a1, a2, a3, a4, a5)
        last = first = -2.0
        patch: F32 | None = None
        for k in range(steps):
            mat[0] = (a0, a1, a2)
            mat[1] = (a3, a4, a5)
            seen = np.asarray(cv2.warpAffine(image, mat, self.size, flags=cv2.INTER_LINEAR
                                             | cv2.WARP_INVERSE_MAP,
                                             borderMode=cv2.BORDER_REPLICATE), np.float32).ravel()
            h0, h1, h2, cross, total = (self.rows @ seen).tolist()
            norm2 = float(seen @ seen) - total * total / self.count
            rho = cross / math.sqrt(max(norm2 * self.tn2, 1e-30))
            if not k:
                first = rho
            if k and rho < last:  # worse than the step before: that one stands
                a0, a1, a2, a3, a4, a5 = best
                break
            best = (a0, a1, a2, a3, a4, a5)
            if k and abs(rho - last) < EPS:
                patch = seen.reshape(self.size[1], self.size[0])  # seen through ``a`` itself
                last = rho
                break
            last = rho
            den = cross - (h0 * g0 + h1 * g1 + h2 * g2)
            if den <= 0.0:
                return None
            lam = (self.tn2 - self.tpt) / den  # the crop's light against the template's
            th, tx, ty = lam * h0 - m0, lam * h1 - m1, lam * h2 - m2
            # compose with the step's inverse: x -> R^T (x - c - t) + c
            co, si = math.cos(th), math.sin(th)
            ox, oy = cx + tx, cy + ty
            d2 = cx - (co * ox + si * oy)
            d5 = cy - (-si * ox + co * oy)
            a0, a1, a2, a3, a4, a5 = (a0 * co - a1 * si, a0 * si + a1 * co,
                                      a0 * d2 + a1 * d5 + a2, a3 * co - a4 * si,
                                      a3 * si + a4 * co, a3 * d2 + a4 * d5 + a5)
        mat[0] = (a0, a1, a2)
        mat[1] = (a3, a4, a5)
        return Refined(mat, patch, first, last if patch is not None else -2.0)


class Refined(NamedTuple):
    """What ``refine_seen`` found: the warp; when the steps ended by converging on it, the
    image seen through it (the aligned patch: the last step already warped it, so the
    caller need not warp again; else None); the correlation at the start warp (the first
    step's look) and at the patch (-2 when there is none)."""

    warp: npt.NDArray[np.float32]
    patch: F32 | None
    first: float
    fit: float
