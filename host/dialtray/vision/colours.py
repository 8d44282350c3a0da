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

from dialtray.vision.layout import Layout, Window
from dialtray.vision.register import BORDER_MM, SPP, Image

MIN_SATURATION = 70  # of 255: below, a cell is the plain dial colour
MAX_HUE_DIFF = 12  # of OpenCV's 180: further from every palette hue, the colour is unknown


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
    ref = crop[::3, ::3].reshape(-1, 3)  # a sample is enough for the white point
    k = int(0.9 * (len(ref) - 1))
    white = np.partition(ref, k, axis=0)[k].astype(np.float32) + 1.0
    gain = (230.0 / white).astype(np.float32)
    out: dict[str, str] = {}
    for cell in window.cells:
        x, y, w, h = cell.rect
        x0 = offset[0] + round((BORDER_MM + x + 0.1 * w) * SPP)
        y0 = offset[1] + round((BORDER_MM + y + 0.12 * h) * SPP)
        x1 = offset[0] + round((BORDER_MM + x + 0.9 * w) * SPP)
        y1 = offset[1] + round((BORDER_MM + y + 0.88 * h) * SPP)
        px = crop[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32)
        if px.size == 0:
            out[cell.stat] = "unknown"
            continue
        px = np.clip(px * gain, 0, 255).astype(np.uint8)
        hsv = cv2.cvtColor(px.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
        v = hsv[:, 2]
        bg = hsv[v >= v.mean()]  # the ink is the darker part
        sat = float(bg[:, 1].mean())
        if sat < MIN_SATURATION:
            out[cell.stat] = "none"
            continue
        ang = bg[:, 0].astype(np.float64) * (np.pi / 90.0)  # hue wraps: a circular mean
        hue = round(float(np.arctan2(np.sin(ang).mean(), np.cos(ang).mean())) * 90.0 / np.pi) % 180
        best = min(hues, key=lambda n: _hue_diff(hue, hues[n]), default=None)
        ok = best is not None and _hue_diff(hue, hues[best]) <= MAX_HUE_DIFF
        out[cell.stat] = best if ok and best is not None else "unknown"
    return out
