"""What the correlation compares: a crop in grey, log light, high-passed, slightly blurred.

``logged`` is per pixel, so ``mosaic.py`` converts every window's crop in one call;
``highpass`` blurs each crop on its own (the blurs see the crop's own border), so a crop's
``highpass(logged(crop))`` is the same whichever way it was made.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]

SMOOTH = 1.4  # px: evens out the blur of a capture photo and a worse one
# Sensor noise is additive, so in the log the dark pixels are the noisy ones: the offset
# bounds their weight (8 weighed a shadowed pixel up to 25x a lit one). Chosen on the hard end
# of the TRAIN profile (render_profiles.train_hard): 100 left fewest low-margin reads there.
LOG_OFFSET = 100.0


# ``cv2.log`` of every 8-bit grey level plus the offset: the log of a grey pixel is its
# level's entry (one table lookup where a conversion to float, a sum and a log were made)
_LOG_TABLE = np.asarray(cv2.log(np.arange(256, dtype=np.float32).reshape(1, 256)
                                + np.float32(LOG_OFFSET)), np.float32).reshape(256)


def logged(bgr: Image) -> F32:
    """Grey in log light (light is multiplicative: uneven light becomes an additive slope)."""
    return np.asarray(cv2.LUT(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), _LOG_TABLE), np.float32)


SLOPE = 4.0  # px: the Gaussian whose blur is the slope taken out
# The slope is made at half size (issue 35: the blur's cost is its kernel's length times the
# pixels, 33 x 1 at full size): a 2 x 2 mean, a Gaussian of HALF_SLOPE half-size px, then
# back by bilinear interpolation; the mean and the interpolation blur a little themselves, so
# HALF_SLOPE is a little under SLOPE / 2 (their variances and its own add up to SLOPE's:
# 4 * 1.94^2 + ~1 = 16). On the windows of 30 camera frames the high-pass differs from the
# full-size blur's by 0.2-0.3 % (RMS, of its own RMS), the truncated Gaussian's own error.
HALF_SLOPE = 1.94


def slope(g: F32) -> F32:
    """``g`` blurred by a Gaussian of ``SLOPE`` px (at half size when its sides are even)."""
    h, w = g.shape
    if h % 2 or w % 2:
        return np.asarray(cv2.GaussianBlur(g, (0, 0), SLOPE), np.float32)
    small = cv2.resize(g, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.resize(cv2.GaussianBlur(small, (0, 0), HALF_SLOPE), (w, h),
                                 interpolation=cv2.INTER_LINEAR), np.float32)


def highpass(g: F32) -> F32:
    """A crop's log grey without its slope (high-pass), lightly blurred."""
    return np.asarray(cv2.GaussianBlur(g - slope(g), (0, 0), SMOOTH), np.float32)


def normalise(bgr: Image) -> F32:
    """Grey, log, high-pass, slight blur: what the correlation compares."""
    return highpass(logged(bgr))
