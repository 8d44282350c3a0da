"""Every dial window of a registration in one strip: one map, one ``cv2.remap`` reads them all.

A frame that must be read whole (a new registration, or the first frame of a live loop) used
to build each window's remap maps and remap each window in turn: per window a dozen numpy
calls for the maps and one OpenCV call, so the cost grew with the Python loop, not with the
pixels (issue 35: ~0.18 ms a window of a 16 ms full frame). Here the windows' sample grids
are laid end to end in one strip (window after window, each row-major, each starting a new
row of ``ROW`` samples: under one row of padding a window, whatever their sizes; the grid is
made once per set of windows), the homography (and the lens model) is applied to all of them
at once, and one fixed-point map is made, once per registration. A read of some
windows remaps the runs of consecutive windows it needs from slices of that map (contiguous
views); each window's crop is a view of the strip, reshaped.

Every step is per pixel (the map's arithmetic, ``convertMaps``, ``remap``, the grey and log
of ``logged``), so a window's crop is the very crop ``Registration.crop`` gives, bit for bit
(tests/vision/test_mosaic.py checks it).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.classify import logged
from dialtray.vision.layout import Window
from dialtray.vision.register import (
    BORDER_MM,
    MARGIN_MM,
    SPP,
    CropGeometry,
    Image,
    Registration,
)

F32 = npt.NDArray[np.float32]
Place = tuple[tuple[float, float], Window, str]  # a base's centre (tray mm), window, base type
Box = tuple[slice, slice]
ROW = 256  # samples per row of the strip (remap wants fewer than 32 767 rows and columns)


class Mosaic:
    """The windows of one registration (``places``, in order) as one strip of samples."""

    def __init__(self, reg: Registration, places: Sequence[Place]) -> None:
        grid = _grid(places)
        self.shapes, self.starts = grid.shapes, grid.starts
        hm = reg.homography
        gx, gy = grid.x, grid.y
        den = hm[2, 0] * gx + hm[2, 1] * gy + hm[2, 2]
        u = (hm[0, 0] * gx + hm[0, 1] * gy + hm[0, 2]) / den
        v = (hm[1, 0] * gx + hm[1, 1] * gy + hm[1, 2]) / den
        if reg.camera is not None:
            uv = reg.camera.distort_pixels(np.column_stack([u, v]))
            u, v = uv[:, 0], uv[:, 1]
        mx = np.asarray(u, np.float32).reshape(-1, ROW)
        my = np.asarray(v, np.float32).reshape(-1, ROW)
        self.map1, self.map2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        # register.frame_box of each window's map, for all at once: the least and most of
        # each row, then of each window's rows (its padding repeats its last sample)
        first = self.starts[:-1]
        lo = [np.minimum.reduceat(self.map1[..., k].min(axis=1), first) for k in (0, 1)]
        hi = [np.maximum.reduceat(self.map1[..., k].max(axis=1), first) for k in (0, 1)]
        w, h = reg.image_size
        self.boxes: list[Box] = []
        for i in range(len(first)):
            x0, x1 = max(int(lo[0][i]), 0), min(int(hi[0][i]) + 2, w)
            y0, y1 = max(int(lo[1][i]), 0), min(int(hi[1][i]) + 2, h)
            self.boxes.append((slice(y0, max(y1, y0 + 1)), slice(x0, max(x1, x0 + 1))))

    def __len__(self) -> int:
        return len(self.shapes)

    def runs(self, which: Sequence[int]) -> list[tuple[int, int]]:
        """``which`` (ascending window indices) as runs [first, last + 1) of neighbours."""
        out: list[tuple[int, int]] = []
        for i in which:
            if out and out[-1][1] == i:
                out[-1] = (out[-1][0], i + 1)
            else:
                out.append((i, i + 1))
        return out

    def crops(self, image: Image, which: Sequence[int] | None = None
              ) -> tuple[dict[int, Image], dict[int, F32]]:
        """The read crops (BGR) of windows ``which`` (all when None) and each one's grey in
        log light (``logged``): one remap and one conversion per run of neighbours."""
        idx = range(len(self)) if which is None else sorted(which)
        crops: dict[int, Image] = {}
        logs: dict[int, F32] = {}
        for lo, hi in self.runs(list(idx)):
            a, b = self.starts[lo], self.starts[hi]
            strip = np.asarray(cv2.remap(image, self.map1[a:b], self.map2[a:b],
                                         cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
                               np.uint8).reshape(-1, 3)
            lg = logged(strip.reshape(b - a, ROW, 3)).ravel()
            for i in range(lo, hi):
                s = (self.starts[i] - a) * ROW
                h, w = self.shapes[i]
                crops[i] = strip[s:s + h * w].reshape(h, w, 3)
                logs[i] = lg[s:s + h * w].reshape(h, w)
        return crops, logs


class _Grid:
    """The windows' sample points in tray mm, laid out as the strip (no registration in
    it: made once per set of windows)."""

    def __init__(self, places: Sequence[Place]) -> None:
        self.shapes: list[tuple[int, int]] = []
        gxs, gys = [], []
        off = BORDER_MM + MARGIN_MM
        for centre, window, _ in places:
            w, h = CropGeometry.of(window).read
            # the grid of register._maps_for, element for element
            xs = (np.arange(w, dtype=np.float64) + 0.5) / SPP - off - window.size[0] / 2
            ys = (np.arange(h, dtype=np.float64) + 0.5) / SPP - off - window.size[1] / 2
            gx = (xs + centre[0] + window.centre[0])[None, :]
            gy = (ys + centre[1] + window.centre[1])[:, None]
            pad = -(h * w) % ROW  # each window starts a row of the strip
            gxs.append(np.pad(np.broadcast_to(gx, (h, w)).ravel(), (0, pad), "edge"))
            gys.append(np.pad(np.broadcast_to(gy, (h, w)).ravel(), (0, pad), "edge"))
            self.shapes.append((h, w))
        rows = [len(g) // ROW for g in gxs]
        self.starts = [int(r) for r in np.concatenate([[0], np.cumsum(rows)])]  # strip rows
        self.x, self.y = np.concatenate(gxs), np.concatenate(gys)


PlacesKey = tuple[tuple[float, float, str, str], ...]
_GRIDS: dict[PlacesKey, _Grid] = {}
MAX_GRIDS = 64  # sets of windows kept (a table's cast changes now and then)


def places_key(places: Sequence[Place]) -> PlacesKey:
    """What tells sets of windows apart (a window's dock centre, base type and name)."""
    return tuple((c[0], c[1], base, w.name) for c, w, base in places)


def _grid(places: Sequence[Place]) -> _Grid:
    key = places_key(places)
    if key not in _GRIDS:
        if len(_GRIDS) >= MAX_GRIDS:
            _GRIDS.pop(next(iter(_GRIDS)))
        _GRIDS[key] = _Grid(places)
    return _GRIDS[key]


def mosaic_of(reg: Registration, places: Sequence[Place]) -> Mosaic:
    """The mosaic of these windows for this registration, made once."""
    key = places_key(places)
    found = reg.mosaics.get(key)
    if not isinstance(found, Mosaic):
        found = reg.mosaics[key] = Mosaic(reg, places)
    return found
