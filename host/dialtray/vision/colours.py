"""Reading the colour blocks behind a window's values.

A cell's background is its colour block (or the plain dial colour, ``none``). The crop is first
white-balanced on its own bright pixels (the plain cells), so a warm lamp or a blue evening
does not turn cream into a colour; then each cell's background (its pixels that are not ink)
is named by the nearest palette hue of the layout (``colours_bgr``), or ``none`` when it is
barely saturated.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.layout import Layout, Window
from dialtray.vision.register import BORDER_MM, SPP, Image

MIN_SATURATION = 70  # of 255: below, a cell is the plain dial colour
MAX_HUE_DIFF = 12  # of OpenCV's 180: further from every palette hue, the colour is unknown
MIN_SHARE = 0.7  # of a cell's background: this much saturated = a colour block, 1 - it: none
WHITE_MAX_SATURATION = 110  # raw saturation below which a pixel may set the white point


def palette_hues(layout: Layout) -> dict[str, int]:
    out = {}
    for name, bgr in layout.colours_bgr.items():
        if name == "none":
            continue
        hsv = cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
        out[name] = int(hsv[0])
    return out


def _hue_diff(a: int, b: int) -> int:
    d = abs(a - b) % 180
    return min(d, 180 - d)


def read_colours(crop: Image, offset: tuple[int, int], window: Window,
                 hues: dict[str, int]) -> dict[str, str]:
    """Physical colour per stat cell (``none``, a palette name, or ``unknown``) of an aligned
    crop whose template starts at ``offset`` (px)."""
    gain = _white_gain(crop, offset, window)
    out: dict[str, str] = {}
    for cell in window.cells:
        x, y, w, h = cell.rect
        x0 = offset[0] + round((BORDER_MM + x + 0.1 * w) * SPP)
        y0 = offset[1] + round((BORDER_MM + y + 0.12 * h) * SPP)
        x1 = offset[0] + round((BORDER_MM + x + 0.9 * w) * SPP)
        y1 = offset[1] + round((BORDER_MM + y + 0.88 * h) * SPP)
        px = crop[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)].reshape(-1, 3)
        if px.size == 0:
            out[cell.stat] = "unknown"
            continue
        px = np.clip(px.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        hsv = cv2.cvtColor(px.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
        v = hsv[:, 2]
        bg = hsv[v >= v.mean()]  # the ink is the darker part
        # Pixel by pixel, not on average: a figure leaning over part of the cell (its own
        # colour) or a dial mid-turn (half a block) is a minority or a split, not a colour
        coloured = bg[:, 1] >= MIN_SATURATION
        share = float(coloured.mean())
        if share <= 1.0 - MIN_SHARE:
            out[cell.stat] = "none"
            continue
        if share < MIN_SHARE:
            out[cell.stat] = "unknown"
            continue
        ang = bg[coloured, 0].astype(np.float64) * (np.pi / 90.0)  # hue wraps: circular mean
        hue = round(float(np.arctan2(np.sin(ang).mean(), np.cos(ang).mean())) * 90.0 / np.pi) % 180
        best = min(hues, key=lambda n: _hue_diff(hue, hues[n]), default=None)
        ok = best is not None and _hue_diff(hue, hues[best]) <= MAX_HUE_DIFF
        out[cell.stat] = best if ok and best is not None else "unknown"
    return out


def _white_gain(crop: Image, offset: tuple[int, int], window: Window) -> npt.NDArray[np.float32]:
    """Per-channel gain that makes the window's plain (unsaturated) bright pixels cream-white.
    Only the window itself and only its greyish pixels count: a coloured figure leaning into
    the crop, or the colour blocks, must not set the white point."""
    x0, y0 = max(offset[0], 0), max(offset[1], 0)
    w = round((window.size[0] + 2 * BORDER_MM) * SPP)
    h = round((window.size[1] + 2 * BORDER_MM) * SPP)
    ref = crop[y0:y0 + h:2, x0:x0 + w:2].reshape(-1, 3)
    if len(ref) == 0:
        ref = crop.reshape(-1, 3)
    hsv = cv2.cvtColor(ref.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    grey = ref[hsv[:, 1] < WHITE_MAX_SATURATION]
    if len(grey) < 20:
        grey = ref
    k = int(0.9 * (len(grey) - 1))
    white = np.partition(grey, k, axis=0)[k].astype(np.float32) + 1.0
    return np.asarray(230.0 / white, np.float32)
