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

import threading
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.layout import Window
from dialtray.vision.normal import logged
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
Floats = npt.NDArray[np.float64]
PlacesKey = tuple[tuple[float, float, str, str], ...]
ROW = 256  # samples per row of the strip (remap wants fewer than 32 767 rows and columns)


class Mosaic:
    """The windows of one registration (``places``, in order) as one strip of samples."""

    def __init__(self, reg: Registration, places: Sequence[Place],
                 key: PlacesKey | None = None) -> None:
        grid = _grid(places, key)
        self.shapes, self.starts = grid.shapes, grid.starts
        hm = reg.homography
        mx = np.empty(self.starts[-1] * ROW, np.float32)
        my = np.empty_like(mx)
        for members, gx, gy in grid.groups:  # windows of one size: (k, h, w) at once
            inv = np.divide(1.0, _affine(hm[2], gx, gy))
            u, v = _affine(hm[0], gx, gy), _affine(hm[1], gx, gy)
            u *= inv
            v *= inv
            if reg.camera is not None:
                uv = reg.camera.distort_pixels(np.column_stack([u.ravel(), v.ravel()]))
                u, v = uv[:, 0].reshape(inv.shape), uv[:, 1].reshape(inv.shape)
            for j, i in enumerate(members):
                a, n = self.starts[i] * ROW, inv[j].size
                for flat, coord in ((mx, u), (my, v)):
                    flat[a:a + n] = coord[j].ravel()
                    flat[a + n:self.starts[i + 1] * ROW] = flat[a + n - 1]  # its last sample
        self.map1, self.map2 = cv2.convertMaps(mx.reshape(-1, ROW), my.reshape(-1, ROW),
                                               cv2.CV_16SC2)
        self.image_size = reg.image_size
        self._boxes: list[Box] | None = None

    @property
    def boxes(self) -> list[Box]:
        """``register.frame_box`` of each window's map (made when first asked: only a reader
        that keeps reads needs them, issue 35)."""
        if self._boxes is None:
            # for all at once: the least and most of each row, then of each window's rows
            # (its padding repeats its last sample)
            first = self.starts[:-1]
            lo = [np.minimum.reduceat(self.map1[..., k].min(axis=1), first) for k in (0, 1)]
            hi = [np.maximum.reduceat(self.map1[..., k].max(axis=1), first) for k in (0, 1)]
            w, h = self.image_size
            boxes: list[Box] = []
            for i in range(len(first)):
                x0, x1 = max(int(lo[0][i]), 0), min(int(hi[0][i]) + 2, w)
                y0, y1 = max(int(lo[1][i]), 0), min(int(hi[1][i]) + 2, h)
                boxes.append((slice(y0, max(y1, y0 + 1)), slice(x0, max(x1, x0 + 1))))
            self._boxes = boxes
        return self._boxes

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


def _affine(row: npt.NDArray[np.float64], gx: Floats, gy: Floats) -> Floats:
    """``(row[0] * gx + row[2]) + row[1] * gy`` with ``gx`` (k, 1, w) and ``gy`` (k, h, 1):
    per sample the very operations of ``register._maps_for`` (products and the constant on
    the axes, one sum broadcast to the grid)."""
    out: Floats = np.add(row[0] * gx + row[2], row[1] * gy)
    return out


class _Grid:
    """Where the windows go in the strip (each from a new row) and their sample axes in
    tray mm, grouped by window size (no registration in it: made once per set)."""

    def __init__(self, places: Sequence[Place]) -> None:
        axes = [_axes(p) for p in places]
        self.shapes: list[tuple[int, int]] = [(len(ys), len(xs)) for xs, ys in axes]
        rows = [-(-h * w // ROW) for h, w in self.shapes]
        self.starts = [int(r) for r in np.concatenate([[0], np.cumsum(rows)])]  # strip rows
        by_shape: dict[tuple[int, int], list[int]] = {}
        for i, shape in enumerate(self.shapes):
            by_shape.setdefault(shape, []).append(i)
        self.groups = [(members, np.stack([axes[i][0] for i in members])[:, None, :],
                        np.stack([axes[i][1] for i in members])[:, :, None])
                       for members in by_shape.values()]


_WINDOWS: dict[tuple[float, float, str, str], tuple[Floats, Floats]] = {}
_GRIDS: dict[PlacesKey, _Grid] = {}
MAX_GRIDS = 64  # sets of windows kept (a table's cast changes now and then)
MAX_WINDOWS = 512  # windows kept (docks x base types x windows of a layout)
_LOCK = threading.Lock()


def _axes(place: Place) -> tuple[Floats, Floats]:
    """One window's sample columns (x) and rows (y) in tray mm: ``register._maps_for``'s."""
    key = places_key([place])[0]
    found = _WINDOWS.get(key)
    if found is None:
        centre, window, _ = place
        w, h = CropGeometry.of(window).read
        off = BORDER_MM + MARGIN_MM
        xs = (np.arange(w, dtype=np.float64) + 0.5) / SPP - off - window.size[0] / 2
        ys = (np.arange(h, dtype=np.float64) + 0.5) / SPP - off - window.size[1] / 2
        found = (xs + centre[0] + window.centre[0], ys + centre[1] + window.centre[1])
        with _LOCK:  # readers on several threads (the witness's, a live loop's)
            if len(_WINDOWS) >= MAX_WINDOWS:
                _WINDOWS.pop(next(iter(_WINDOWS)))
            _WINDOWS[key] = found
    return found


def places_key(places: Sequence[Place]) -> PlacesKey:
    """What tells sets of windows apart (a window's dock centre, base type and name)."""
    return tuple((c[0], c[1], base, w.name) for c, w, base in places)


def _grid(places: Sequence[Place], key: PlacesKey | None = None) -> _Grid:
    key = places_key(places) if key is None else key
    found = _GRIDS.get(key)
    if found is None:
        found = _Grid(places)
        with _LOCK:
            if len(_GRIDS) >= MAX_GRIDS:
                _GRIDS.pop(next(iter(_GRIDS)))
            _GRIDS[key] = found
    return found


def mosaic_of(reg: Registration, places: Sequence[Place]) -> Mosaic:
    """The mosaic of these windows for this registration, made once."""
    key = places_key(places)
    found = reg.mosaics.get(key)
    if not isinstance(found, Mosaic):
        found = reg.mosaics[key] = Mosaic(reg, places, key)
    return found
