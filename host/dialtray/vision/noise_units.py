"""A burst's lead in units of its own noise, shared by the photograph rules (issue 33).

Why one place: ``scene_looks.exclusion`` (a rival's photograph) and
``unseen_looks.predicted_exclusion`` (a rival's predicted photograph) both measure how far an
average lies along one direction in units of the noise two averages carry along it, and both
look at the window's rim apart from the print. The noise is spatially correlated (the
sensor's demosaicing, the warp's interpolation), so a projection's variance is the frame
noise's covariance at small lags weighed by the direction's own autocorrelation, never less
than a single pixel's.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]


def sd_along(unit: F32, cov: F32, scale: float) -> float:
    """The noise's standard deviation along ``unit`` (a map of norm 1, template px); ``cov``:
    the frame noise's covariance at lags up to its half-size (2 LAG + 1 square); ``scale``:
    the frame counts' 1/n + 1/m."""
    k = (cov.shape[0] - 1) // 2
    padded = cv2.copyMakeBorder(unit, k, k, k, k, cv2.BORDER_CONSTANT, value=0)
    acorr = np.asarray(cv2.matchTemplate(padded, unit, cv2.TM_CCORR), np.float32)
    var = max(float(np.sum(cov * acorr)), float(cov[k, k])) * scale
    return max(float(np.sqrt(var)), 1e-9)


def outside(shape: tuple[int, int], box: tuple[int, int, int, int]) -> npt.NDArray[np.bool_]:
    """The window's rim: every pixel of ``shape`` (h, w) outside the print's ``box``
    (x0, x1, y0, y1): the base's plastic, the same at every click."""
    x0, x1, y0, y1 = box
    rim = np.ones(shape, bool)
    rim[y0:y1, x0:x1] = False
    return rim


__all__ = ["outside", "sd_along"]
