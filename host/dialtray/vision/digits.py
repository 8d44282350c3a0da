"""Pre-filling a capture's values by reading the figure's *own* digits (a closed set, no OCR).

``dialtray capture`` asks a person to confirm every click of a new figure. Once a click is
confirmed, each of its stat cells (and each mark outside the cells, such as Air Action's bullet
holes) is a labelled sample of *this* figure's print: its font, its ink, its colour blocks.
Values recur across clicks and across stats (a 3 in front gunnery looks like a 3 in piloting),
so after the first clicks most cells of a new click look like a sample already confirmed.

For each later click, every cell is compared with every sample of the same size (the cells of
one window share a size; a mark only meets samples of that mark) by normalised correlation
(``cv2.matchTemplate``, ``TM_CCOEFF_NORMED``) over a small alignment search (``SEARCH_PX``
each way, after the whole window has been aligned on the mean of every click's crop). A cell is
*read* only when its best value scores at least ``MIN_SCORE`` and beats every sample of a
different value by at least ``MIN_MARGIN``; anything else is left to today's suggestion (a
guess, which the prompt says). A value never seen before matches nothing known well enough,
so it is a guess, not a wrong read: a wrong pre-fill a person presses Enter on is a wrong
catalogue. Both thresholds were chosen on the ``TRAIN`` render profile
(``bench/bench_capture_digits.py``), never on ``HELD_BACK``.

What is compared is grey (luma: the part of a JPEG kept at full resolution; the brightest
channel, tried first, read half as many cells on colour blocks, whose chroma JPEG blurs), band-
passed: a difference of Gaussians (``BLUR`` and ``HIGHPASS`` px) keeps the strokes' outlines.
With a plain blur a 0 and an 8 of ~10 px are two blobs that correlate at up to 0.99; band-
passed and searched in half pixels (``UPSAMPLE``) a wrong value scored at most 0.93 on
``TRAIN`` while the median right one scored 0.97. Correlation ignores the cell's brightness
and contrast, so one sample serves the same value on any colour block (at a lower score: a
dark block leaves the digit less contrast against the photo's noise).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.faces import Face
from dialtray.vision.layout import Window
from dialtray.vision.regions import region_names, window_regions
from dialtray.vision.register import CropGeometry, Image

F32 = npt.NDArray[np.float32]

SEARCH_PX = 2  # residual alignment searched per cell, px each way (1 px = 1/3 mm)
BLUR = 0.8  # px (Gaussian sigma) on both sides of every comparison
MIN_SCORE = 0.95  # correlation the best value must reach (chosen on TRAIN, see above)
MIN_MARGIN = 0.05  # ... and its lead over every sample of another value
MAX_SAMPLES = 6  # per value and pool: later samples add little and cost time
ALIGN_HIGHPASS = 4.0  # px: the window alignment ignores light slopes wider than this
HIGHPASS = 1.5  # px: what is compared keeps the strokes' outlines, not the digit's blob
UPSAMPLE = 2  # the alignment search steps in half pixels


def plane(bgr: Image) -> F32:
    """What is compared: grey, band-passed (module docstring)."""
    v = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return np.asarray(cv2.GaussianBlur(v, (0, 0), BLUR) - cv2.GaussianBlur(v, (0, 0), HIGHPASS),
                      np.float32)


def _fine(p: F32) -> F32:
    """``UPSAMPLE`` times finer (bicubic): the alignment search then steps in fractions of a
    pixel, which a ~10 px digit needs (half a pixel off costs a true match more than
    a wrong one)."""
    if UPSAMPLE == 1:
        return p
    return np.asarray(cv2.resize(p, None, fx=UPSAMPLE, fy=UPSAMPLE,
                                 interpolation=cv2.INTER_CUBIC), np.float32)


def _highpass(p: F32) -> F32:
    return np.asarray(p - cv2.GaussianBlur(p, (0, 0), ALIGN_HIGHPASS), np.float32)


@dataclass(frozen=True)
class CellRead:
    """One cell (or mark) of one click: the value read from the print, or ``None`` (not
    read: a guess is shown instead); the best score, and the best other value and its."""

    value: int | None
    score: float
    rival: int | None
    rival_score: float

    def why(self) -> str:
        rival = f"; next {self.rival} at {self.rival_score:.2f}" if self.rival is not None \
            else ""
        return f"{self.score:.2f}{rival}"


class PrintReader:
    """The print of one figure's dial through one window: every click's crop aligned once,
    samples added as clicks are confirmed (``learn``), cells read from them (``read``)."""

    def __init__(self, window: Window, crops: list[Image]) -> None:
        self.window = window
        self.names = region_names(window)
        self.rects = window_regions(window)
        g = CropGeometry.of(window)
        tw, th = g.template
        m = g.margin
        self.planes = [np.asarray(cv2.copyMakeBorder(plane(c), SEARCH_PX, SEARCH_PX, SEARCH_PX,
                                                     SEARCH_PX, cv2.BORDER_REPLICATE),
                                  np.float32) for c in crops]
        # where each crop's window sits: matched on the mean of every crop's window (the
        # rim and the cell boxes are the same on every click), twice, as the classifier does
        hps = [_highpass(p) for p in self.planes]
        s = SEARCH_PX
        self.offsets: list[tuple[int, int]] = [(m + s, m + s)] * len(crops)
        for _ in range(2):
            mean = np.mean([h[y:y + th, x:x + tw] for h, (x, y) in zip(hps, self.offsets,
                                                                       strict=True)],
                           axis=0).astype(np.float32)
            self.offsets = []
            for h in hps:
                r = cv2.matchTemplate(h, mean, cv2.TM_CCOEFF_NORMED)
                x, y = cv2.minMaxLoc(r)[3]
                self.offsets.append((int(x), int(y)))
        # pools: regions of one size share samples (the cells of a window), a mark its own
        self.pool = [f"cell{x1 - x0}x{y1 - y0}" if i < len(window.cells) else self.names[i]
                     for i, (x0, y0, x1, y1) in enumerate(self.rects)]
        self.samples: dict[str, dict[int, list[F32]]] = {p: {} for p in self.pool}
        # a mark outside the cells (bullet holes) is a thin strip along the window's edge:
        # the edge, the same on every click, would make any two strips look alike, so the
        # part every click shares (the per-pixel median over the clicks) is taken off first
        self.shared: dict[int, F32] = {
            i: np.median([self._raw(c, i, s) for c in range(len(crops))], axis=0
                         ).astype(np.float32)
            for i in range(len(window.cells), len(self.rects))}

    def _raw(self, click: int, region: int, pad: int) -> F32:
        x, y = self.offsets[click]
        x0, y0, x1, y1 = self.rects[region]
        p = self.planes[click]
        return np.ascontiguousarray(p[y + y0 - pad:y + y1 + pad, x + x0 - pad:x + x1 + pad])

    def _patch(self, click: int, region: int, pad: int) -> F32:
        """The region of a click (``pad`` px more each way), the shared part taken off."""
        raw = self._raw(click, region, pad)
        shared = self.shared.get(region)
        if shared is None:
            return raw
        s = SEARCH_PX - pad
        return np.ascontiguousarray(raw - shared[s:shared.shape[0] - s, s:shared.shape[1] - s])

    def learn(self, click: int, face: Face) -> None:
        """Click ``click`` was confirmed as ``face``: its cells are samples of their values."""
        for i, name in enumerate(self.names):
            value = face.values.get(name, face.marks.get(name))
            if value is None:
                continue
            bucket = self.samples[self.pool[i]].setdefault(int(value), [])
            if len(bucket) < MAX_SAMPLES:
                bucket.append(_fine(self._patch(click, i, 0)))

    def scores(self, click: int, region: int) -> dict[int, float]:
        """Best correlation per known value of the region's pool, over the alignment search."""
        area = _fine(self._patch(click, region, SEARCH_PX))
        out: dict[int, float] = {}
        for value, samples in self.samples[self.pool[region]].items():
            best = -1.0
            for s in samples:
                r = cv2.matchTemplate(area, s, cv2.TM_CCOEFF_NORMED)
                best = max(best, float(cv2.minMaxLoc(r)[1]))
            out[value] = best
        return out

    def read(self, click: int) -> dict[str, CellRead]:
        """Each cell and mark of click ``click``: read when one value clearly matches."""
        out: dict[str, CellRead] = {}
        for i, name in enumerate(self.names):
            sc = sorted(self.scores(click, i).items(), key=lambda kv: -kv[1])
            if not sc:
                out[name] = CellRead(None, -1.0, None, -1.0)
                continue
            (best, s1), rival = sc[0], (sc[1] if len(sc) > 1 else (None, -1.0))
            ok = s1 >= MIN_SCORE and s1 - rival[1] >= MIN_MARGIN
            out[name] = CellRead(best if ok else None, s1, rival[0], rival[1])
        return out


class DigitPrefill:
    """One ``PrintReader`` per dial: what ``capture.confirm_faces`` asks for each click's
    suggestion, and tells once the person has confirmed it."""

    def __init__(self, windows: Mapping[str, Window], crops: Mapping[str, list[Image]]) -> None:
        self.readers = {d: PrintReader(windows[d], list(cs)) for d, cs in crops.items()}

    def read(self, dial: str, click: int) -> dict[str, CellRead]:
        return self.readers[dial].read(click) if dial in self.readers else {}

    def learn(self, dial: str, click: int, face: Face) -> None:
        if dial in self.readers:
            self.readers[dial].learn(click, face)
