"""Reading the colour blocks behind a window's values.

A cell's background is its colour block (or the plain dial colour, ``none``). The crop is first
white-balanced on its own bright pixels (the plain cells), so a warm lamp or a blue evening
does not turn cream into a colour; then each cell's background (its pixels that are not ink)
is named by the palette hue of the layout (``colours_bgr``) most of its coloured pixels are
nearest to, or ``none`` when it is barely saturated.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.layout import Layout, Window
from dialtray.vision.register import BORDER_MM, SPP, Image

MIN_SATURATION = 70  # of 255: below, a cell is the plain dial colour
MAX_HUE_DIFF = 12  # of OpenCV's 180: further from every palette hue, the colour is unknown
MIN_SHARE = 0.7  # of a cell's background: this much saturated = a colour block, 1 - it: none
MIN_VOTE = 0.6  # of a block's coloured pixels: this many must name its colour
MIN_VISIBLE = 0.5  # of a cell's samples: fewer beside a figure over it, its colour is unknown
# telling clicks apart by a colour block against their own references (closest_colours):
# how far along the line from the other click's chroma to the nearest's the photo must lie,
# how many noise units past half-way, and how far off that line at most. Set above the two
# wrong decisions it made at loose settings on 12 STRESS seeds (0.80 and 0.69 of the way,
# 3.4 and 3.2 units; the two right ones: 0.99 and 1.03, 17 and 10), docs/vision.md
MIN_CHROMA_PIXELS = 12  # background samples a cell needs to count as seen
CHROMA_SEPARATION = 8.0  # Lab a*b* units: two references nearer than this print alike there
CHROMA_FRACTION = 0.9
CHROMA_MARGIN = 6.0
CHROMA_OFF_LINE = 0.5
CHROMA_PIXELS_PER_SAMPLE = 4.0  # samples per independent one (the photo is blurred)
WHITE_MAX_SATURATION = 110  # raw saturation below which a pixel may set the white point


def palette_hues(layout: Layout) -> dict[str, int]:
    out = {}
    for name, bgr in layout.colours_bgr.items():
        if name == "none":
            continue
        hsv = cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
        out[name] = int(hsv[0])
    return out


@lru_cache(maxsize=64)
def _cell_labels(size: tuple[float, float], rects: tuple[tuple[float, ...], ...]
                 ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Per pixel of a window's template that is in a cell's sample area (its inner part:
    the box edges stay out), read_colours' every other pixel each way: its index in the
    sampled window and which cell it is in."""
    w = round((size[0] + 2 * BORDER_MM) * SPP)
    h = round((size[1] + 2 * BORDER_MM) * SPP)
    lab = np.full((h, w), -1, np.intp)
    for i, (x, y, cw, ch) in enumerate(rects):
        lab[round((BORDER_MM + y + 0.12 * ch) * SPP):round((BORDER_MM + y + 0.88 * ch) * SPP),
            round((BORDER_MM + x + 0.1 * cw) * SPP):round((BORDER_MM + x + 0.9 * cw) * SPP)] = i
    flat = lab[::2, ::2].ravel()  # read_colours samples every other pixel
    where = np.flatnonzero(flat >= 0)
    return where, flat[where]


_LEVELS = np.arange(256, dtype=np.float32).reshape(1, 256, 1)


def read_colours(crop: Image, offset: tuple[int, int], window: Window,
                 hues: dict[str, int], ignore: npt.NDArray[np.bool_] | None = None
                 ) -> dict[str, str]:
    """Physical colour per stat cell (``none``, a palette name, or ``unknown``) of an aligned
    crop whose template starts at ``offset`` (px); ``ignore``: template pixels not to count
    (where the synthesis found a figure over the window: its colour is not the block's)."""
    gained, lab, hidden, cells = _sampled(crop, offset, window, ignore)
    n = cells.n
    px = cv2.cvtColor(gained, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    bg = _background(px[:, 2], lab, n, cells.count1 if ignore is None else None)
    # Pixel by pixel, not on average: a figure leaning over part of the cell (its own
    # colour) or a dial mid-turn (half a block) is a minority or a split, not a colour
    # each coloured (saturated) pixel votes for the palette colour nearest its hue (none if
    # no colour is within MAX_HUE_DIFF): a figure of another colour over part of a block is
    # outvoted, where an average of the hues would drift between the two (red and green made
    # orange). Per cell, one count of each vote and of the plain pixels, all in one bincount
    names = list(hues)
    m = len(names) + 1  # votes 0 .. m - 1 (m - 1: no palette colour near), m: plain
    votes = np.where(px[:, 1] >= MIN_SATURATION,
                     _votes(np.asarray(px[:, 0], np.uint8), tuple(hues[k] for k in names)),
                     m)[bg]
    counts = np.bincount(lab[bg] * (m + 1) + votes, minlength=n * (m + 1))
    out: dict[str, str] = {}
    for i, (cell, row) in enumerate(zip(window.cells, counts.reshape(n, m + 1).tolist(),
                                        strict=True)):
        n_col = sum(row[:m])
        n_bg = n_col + row[m]
        share = float(n_col) / max(n_bg, 1)
        if n_bg == 0 or hidden[i]:
            out[cell.stat] = "unknown"
        elif share <= 1.0 - MIN_SHARE:
            out[cell.stat] = "none"
        elif share < MIN_SHARE or not names:
            out[cell.stat] = "unknown"
        else:
            tally = row[:m - 1]
            best = tally.index(max(tally))  # the first of the most voted, as np.argmax
            ok = tally[best] >= MIN_VOTE * max(n_col, 1)
            out[cell.stat] = names[best] if ok else "unknown"
    return out


@dataclass(frozen=True)
class CellChroma:
    """The mean chroma (Lab a*, b*) of a cell's background, white-balanced, the spread of
    one pixel's chroma about it, and how many pixels were averaged."""

    mean: npt.NDArray[np.float64]
    spread: float
    count: int


def cell_chromas(crop: Image, offset: tuple[int, int], window: Window,
                 ignore: npt.NDArray[np.bool_] | None = None) -> dict[str, CellChroma]:
    """Each stat cell's background chroma (``read_colours``' pixels: white-balanced on the
    window's own plain pixels, the ink and ``ignore`` left out); a cell mostly hidden has
    none. For telling apart clicks whose only difference is a colour block by how near the
    photo is to each click's own reference (``closest_colours``), not by naming the colour."""
    gained, lab, hidden, cells = _sampled(crop, offset, window, ignore)
    n = cells.n
    lab_px = cv2.cvtColor(gained, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    bg = _background(lab_px[:, 0], lab, n)
    out: dict[str, CellChroma] = {}
    for i, cell in enumerate(window.cells):
        ab = lab_px[bg & (lab == i), 1:].astype(np.float64) - 128.0
        if hidden[i] or len(ab) < MIN_CHROMA_PIXELS:
            continue
        spread = float(np.sqrt(np.mean(np.var(ab, axis=0))))
        out[cell.stat] = CellChroma(ab.mean(axis=0), spread, len(ab))
    return out


def closest_colours(seen: dict[str, CellChroma],
                    candidates: dict[int, dict[str, CellChroma]]) -> tuple[int | None, str]:
    """Which candidate's colour blocks (``candidates``: per candidate, its reference's cells)
    the photo's cells (``seen``) are: the nearest, if against every other candidate some
    cell that tells the two apart puts the photo at least ``CHROMA_FRACTION`` of the way
    from the other's chroma to the nearest's, ``CHROMA_MARGIN`` times the noise of the
    cell's mean past the midpoint, and off the line between them by at most
    ``CHROMA_OFF_LINE`` of their distance (a figure of a third colour over the block is
    neither). Else ``None`` and why."""
    def cost(c: int) -> float:
        return sum(float(np.sum((seen[k].mean - v.mean) ** 2))
                   for k, v in candidates[c].items() if k in seen)
    best = min(candidates, key=cost)
    for other in candidates:
        if other == best:
            continue
        verdicts = [_tells(seen[k], mine, candidates[other][k], other, best, k)
                    for k, mine in candidates[best].items()
                    if k in seen and k in candidates[other]]
        told = [why for why in verdicts if why is not None]
        if "" not in told:
            return None, (told[-1] if told else
                          f"no cell seen tells clicks {best} and {other} apart")
    return best, ""


def _tells(seen: CellChroma, mine: CellChroma, theirs: CellChroma, other: int, best: int,
           stat: str) -> str | None:
    """Whether one cell puts the photo clearly at the ``best`` click's chroma rather than the
    ``other``'s: "" if so, why not if not, ``None`` if the two print alike there."""
    d = mine.mean - theirs.mean
    sep = float(np.sqrt(d @ d))
    if sep < CHROMA_SEPARATION:
        return None
    m = seen.mean - theirs.mean
    t = float(m @ d) / sep ** 2
    off = float(np.linalg.norm(m - t * d)) / sep
    noise = seen.spread / np.sqrt(seen.count / CHROMA_PIXELS_PER_SAMPLE)
    z = (t - 0.5) * sep / max(noise, 1e-6)
    if t >= CHROMA_FRACTION and z >= CHROMA_MARGIN and off <= CHROMA_OFF_LINE:
        return ""
    return (f"{stat} is {t:.2f} of the way from click {other}'s to click {best}'s colour "
            f"({z:.1f} times its noise past half-way, {off:.2f} off the line)")


@dataclass(frozen=True)
class _Cells:
    """What sampling a window's cells needs, made once per window: the template's size (px),
    the sampled pixels' index in the every-other-pixel grid, their cell, and per cell how
    many there are (at least 1: a mean's divisor)."""

    w: int
    h: int
    where: npt.NDArray[np.intp]
    lab: npt.NDArray[np.intp]
    n: int
    count1: npt.NDArray[np.intp]
    at: dict[int, npt.NDArray[np.intp]]  # crop width -> each sample's pixel in a crop at 0, 0

    def pixels(self, width: int) -> npt.NDArray[np.intp]:
        """Where each sampled pixel (``where``) is in a flat crop ``width`` px wide, the
        template at (0, 0)."""
        found = self.at.get(width)
        if found is None:
            row, col = np.divmod(self.where, (self.w + 1) // 2)
            found = self.at[width] = np.asarray(2 * row * width + 2 * col, np.intp)
        return found


_CELLS: dict[int, tuple[Window, _Cells]] = {}  # id(window) -> (window, its cells)
MAX_CELLS = 512


def _cells(window: Window) -> _Cells:
    got = _CELLS.get(id(window))
    if got is not None and got[0] is window:
        return got[1]
    w = round((window.size[0] + 2 * BORDER_MM) * SPP)
    h = round((window.size[1] + 2 * BORDER_MM) * SPP)
    where, lab = _cell_labels(tuple(window.size), tuple(tuple(c.rect) for c in window.cells))
    n = len(window.cells)
    cells = _Cells(w, h, np.asarray(where, np.intp), np.asarray(lab, np.intp), n,
                   np.maximum(np.bincount(lab, minlength=n), 1), {})
    if len(_CELLS) >= MAX_CELLS:
        _CELLS.clear()
    _CELLS[id(window)] = (window, cells)  # the window kept with it: its id is not reused
    return cells


def _sampled(crop: Image, offset: tuple[int, int], window: Window,
             ignore: npt.NDArray[np.bool_] | None
             ) -> tuple[Image, npt.NDArray[np.intp], npt.NDArray[np.bool_], _Cells]:
    """The cell pixels of the window's every other pixel each way, white-balanced on the
    window's own (k x 1 x 3: every conversion is per pixel), each one's cell, which cells
    are mostly hidden under ``ignore``, and the window's ``_Cells``."""
    cells = _cells(window)
    w, h = cells.w, cells.h
    x0, y0 = offset
    if x0 < 0 or y0 < 0 or x0 + w > crop.shape[1] or y0 + h > crop.shape[0]:
        pad = max(-x0, -y0, x0 + w - crop.shape[1], y0 + h - crop.shape[0])
        crop = np.asarray(cv2.copyMakeBorder(crop, pad, pad, pad, pad, cv2.BORDER_REPLICATE),
                          np.uint8)
        x0, y0 = x0 + pad, y0 + pad
    # every other pixel each way is plenty for a block of colour: one white balance and one
    # colour conversion for the whole window, then every cell at once (per-cell sums by label)
    gain = _white_gain(crop[y0:y0 + h:4, x0:x0 + w:4])  # every other sample each way
    # the gain as a per-channel lookup table: the same rounding as scaling every pixel
    # (convertScaleAbs of the float32 product), computed for 256 levels instead of each pixel
    lut = cv2.convertScaleAbs(_LEVELS * gain)
    crop = np.ascontiguousarray(crop)
    at = cells.pixels(crop.shape[1]) + (y0 * crop.shape[1] + x0)
    lab, n = cells.lab, cells.n
    hidden = np.zeros(n, bool)
    if ignore is not None:
        seen = ~ignore[::2, ::2].ravel()[cells.where]
        # a cell mostly under the figure is not read from the little left of it
        hidden = np.bincount(lab[seen], minlength=n) < MIN_VISIBLE * np.bincount(lab, minlength=n)
        at, lab = at[seen], lab[seen]
    picked = crop.reshape(-1, 3)[at].reshape(-1, 1, 3)
    return np.asarray(cv2.LUT(picked, lut), np.uint8), lab, hidden, cells


def _background(value: npt.NDArray[Any], lab: npt.NDArray[np.intp], n: int,
                count1: npt.NDArray[np.intp] | None = None) -> npt.NDArray[np.bool_]:
    """A cell's background pixels: the ink is the darker part of the cell. ``count1``: each
    cell's pixel count (at least 1), when known."""
    v = value.astype(np.float64)
    if count1 is None:
        count1 = np.maximum(np.bincount(lab, minlength=n), 1)
    vmean = np.bincount(lab, weights=v, minlength=n) / count1
    return np.asarray(v >= vmean[lab], np.bool_)


def _votes(hue: npt.NDArray[np.uint8], palette: tuple[int, ...]) -> npt.NDArray[np.intp]:
    """Per pixel, the index of the palette hue nearest its hue, or len(palette) when none is
    within MAX_HUE_DIFF."""
    if not palette:
        return np.zeros(len(hue), np.intp)
    return np.asarray(_vote_table(palette)[hue], np.intp)


@lru_cache(maxsize=16)
def _vote_table(palette: tuple[int, ...]) -> npt.NDArray[np.intp]:
    """``_votes`` of every 8-bit hue, once per palette (a pixel's vote is its hue's)."""
    hue = np.arange(256, dtype=np.intp)
    d = np.abs(hue[:, None] - np.array(palette, np.intp)[None, :]) % 180
    d = np.minimum(d, 180 - d)
    best = np.argmin(d, axis=1)
    best[d[np.arange(len(hue)), best] > MAX_HUE_DIFF] = len(palette)
    return np.asarray(best, np.intp)


def _white_gain(win: Image) -> npt.NDArray[np.float32]:
    """Per-channel gain that makes the window's plain (unsaturated) bright pixels cream-white
    (``win``: a sample of them, every fourth each way). Only the window itself and only its
    greyish pixels count: a coloured figure leaning into the crop, or the colour blocks,
    must not set the white point."""
    ref = np.ascontiguousarray(win).reshape(-1, 1, 3)
    sat = cv2.cvtColor(ref, cv2.COLOR_BGR2HSV)[:, 0, 1]
    grey = ref[sat < WHITE_MAX_SATURATION, 0]
    if len(grey) < 20:
        grey = ref[:, 0]
    k = int(0.9 * (len(grey) - 1))
    white = np.partition(grey, k, axis=0)[k].astype(np.float32) + 1.0
    return np.asarray(230.0 / white, np.float32)
