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


def highpass(g: F32) -> F32:
    """A crop's log grey without its slope (high-pass), lightly blurred."""
    hp = g - cv2.GaussianBlur(g, (0, 0), 4.0)
    return np.asarray(cv2.GaussianBlur(hp, (0, 0), SMOOTH), np.float32)


def normalise(bgr: Image) -> F32:
    """Grey, log, high-pass, slight blur: what the correlation compares."""
    return highpass(logged(bgr))
