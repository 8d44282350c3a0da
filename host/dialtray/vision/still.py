"""Which dial windows have not changed since they were last read, so that a live loop can
return their kept reads instead of reading them again (most dials rest most of the time).

A window read as a click keeps that read and the grey frame pixels it was read from (a window
the reader could not name keeps its unsure read too, for a few frames only). On a
later frame of the same registration, confirmed by ``TrayReader.follow`` on that very frame
(the markers have not moved, so the camera has not), the window's pixels are compared with
the kept ones (those of the frame it was read from, not the last frame: a slow drift adds
up). What counts as the print changing (a digit, a mark, a box edge moving) is the grey
difference band-passed like the reader's own view, its energy pooled around each pixel; the
window is still while its largest pooled energy is within ``PRINT_NOISE`` times what the
frame's sensor noise alone gives. Light and soft shadows change no read and are not looked
for. A window is read afresh at least every ``REFRESH_FRAMES`` frames all the same.

The noise is measured where nothing changes: the corner markers the registration was just
confirmed on (compared with their pixels when the registration was new; the median of the
markers, so a hand over one does not move it), and no more than the median of the compared
windows (a dial that turned is one window of many). The markers keep the estimate honest
when most windows change at once: every speed dial set in the same throttle phase, figures
swapped, a shadow over the whole tray.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.reading import CLICK, UNKNOWN, DialRead
from dialtray.vision.register import Image, Registration
from dialtray.vision.synth_worker import Pending

REFRESH_FRAMES = 30  # a window kept this many frames in a row is read afresh all the same
# A still window the reader could not name is read afresh every UNSURE_FRAMES frames: each
# frame's noise is new, so another look may name it, but an unsure read can cost the synthesis
# (5-10 ms) and a dim corner of the tray may stay unsure for a whole game.
UNSURE_FRAMES = 4
# The print band of the grey difference, at half size: ``cv2.pyrDown`` (a 1 px blur: finer is
# mostly sensor noise, then every other pixel) less its mean over SLOW half-size px (slower is
# light), its energy pooled over AREA half-size px around each pixel. Box filters at half size
# (issue 35): 0.10 -> 0.03 ms a window where Gaussian blurs of sigma 1, 4 and 3 px at full
# size took 0.06 and the median of full-size energy 0.05.
SLOW, AREA = 7, 5
# The largest pooled energy of a still window, in units of the frame's noise energy. Chosen
# with bench/calibrate_reuse.py on TRAIN, its hard end and STRESS, 15 scenes each (never
# HELD_BACK): still windows p50 5.0, p99 8.7, max 14.2 of 14 233 (98.7 % kept at 8.5); every
# change that altered a read scored 52 or more (a whole click; turns of 0.05-0.5 click 144 or
# more), a base nudged 1 px 26.4, and none of 334 turns, fingertips and nudges was missed.
# The Gaussian measure before it (same seeds, 12 scenes): still p99 8.5, max 14.1, 98.1 %
# kept at 8; a whole click 46, a nudge 21.9. Checked on 12 HELD_BACK scenes: 0 of 99 changes
# missed, 99.7 % of still windows kept. Well under half the least change: a still window read
# again costs time, a missed change a wrong read.
PRINT_NOISE = 8.5

Key = tuple[int, str, str]  # dock, figure, dial
Box = tuple[slice, slice]


@dataclass(frozen=True)
class Change:
    """How a patch of the frame differs from the grey pixels kept of it."""

    local: float  # the largest pooled print-band energy
    typical: float  # its median over the patch: mostly the noise's

    @staticmethod
    def of(now: Image, then_grey: Image) -> Change:
        grey = cv2.subtract(cv2.cvtColor(now, cv2.COLOR_BGR2GRAY), then_grey, dtype=cv2.CV_32F)
        fine = cv2.pyrDown(grey)
        band = fine - cv2.blur(fine, (SLOW, SLOW))
        energy = np.asarray(cv2.blur(band * band, (AREA, AREA)), np.float32)
        return Change(float(energy.max()), upper_median(energy))


def upper_median(a: npt.NDArray[np.float32]) -> float:
    """The element of rank ``size // 2`` of ``a`` (finite): what ``np.partition`` picks,
    in ~60 % of its time. A non-negative float's bits sort as integers, so its top 16 bits
    find the bucket the median falls in (one ``bincount``) and only that bucket is
    partitioned."""
    flat = a.ravel()
    k = flat.size // 2
    top = flat.view(np.int32) >> 16
    low = int(top.min())
    if low < 0:  # a negative (rounding below 0): bits no longer sort as values
        return float(np.partition(flat, k)[k])
    seen = np.cumsum(np.bincount(top - low))
    b = int(np.searchsorted(seen, k, side="right"))
    inside = flat[top == b + low]
    r = k - (int(seen[b - 1]) if b else 0)
    return float(np.partition(inside, r)[r])


@dataclass
class _Kept:
    grey: Image
    read: DialRead
    reused: int = 0
    pending: Pending | None = None  # the synthesis finishing this read, on the worker


def _grey(image: Image, box: Box) -> Image:
    return np.asarray(cv2.cvtColor(image[box], cv2.COLOR_BGR2GRAY), np.uint8)


def marker_boxes(reg: Registration) -> list[Box]:
    """The frame pixels of each marker the registration rests on."""
    w, h = reg.image_size
    out = []
    for pts in reg.corners.values():
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        x0, y0 = max(int(lo[0]), 0), max(int(lo[1]), 0)
        x1, y1 = min(int(hi[0]) + 1, w), min(int(hi[1]) + 1, h)
        if x1 - x0 >= 4 and y1 - y0 >= 4:
            out.append((slice(y0, y1), slice(x0, x1)))
    return out


class StillWindows:
    """Kept reads of one registration, and the comparison of a frame with them."""

    def __init__(self) -> None:
        self._kept: dict[Key, _Kept] = {}
        self._markers: list[tuple[Box, Image]] = []
        self.level = 0.0  # the frame's noise energy
        self.marker_level = 0.0
        self.changes: dict[Key, Change] = {}  # the last compared frame's, per kept window

    def compare(self, image: Image, reg: Registration, boxes: dict[Key, Box]) -> None:
        """Compare ``image`` with every kept window (``boxes``: where each is) and measure
        the frame's noise."""
        if not self._markers:
            self._markers = [(b, _grey(image, b)) for b in marker_boxes(reg)]
        self.changes = {k: Change.of(image[b], self._kept[k].grey)
                        for k, b in boxes.items() if k in self._kept}
        marks = [Change.of(image[b], g).typical for b, g in self._markers]
        wins = [c.typical for c in self.changes.values()]
        self.marker_level = float(np.median(marks)) if marks else float("inf")
        self.level = min(self.marker_level, float(np.median(wins)) if wins else float("inf"))

    def print_ratio(self, change: Change) -> float:
        """A window's largest print-band energy in units of the frame's noise."""
        return change.local / max(self.level, 1e-3)

    def kept_read(self, key: Key) -> DialRead | None:
        """The kept read of a window the last ``compare`` found still, else None. A read
        whose synthesis is still running on the worker stays as it is (unsure) while the
        window is still, however long: reading it again would only ask for another; once
        the synthesis is done its answer is the kept read (it read these very pixels)."""
        kept, change = self._kept.get(key), self.changes.get(key)
        if kept is None or change is None or not np.isfinite(self.level) \
                or self.print_ratio(change) > PRINT_NOISE:
            if kept is not None and kept.pending is not None:
                kept.pending.cancel()  # the window changed: that answer is for other pixels
            return None
        if kept.pending is not None:
            if not kept.pending.done():
                kept.reused += 1
                return kept.read
            kept.read, kept.pending = kept.pending.result(), None
        if kept.reused >= _kept_for(kept.read):
            return None
        kept.reused += 1
        return kept.read

    def keep(self, key: Key, image: Image, box: Box, read: DialRead, stagger: int,
             pending: Pending | None = None) -> None:
        """Keep a fresh read and its pixels (``stagger``: windows first refresh at different
        frames, not all on the same one; ``pending``: the synthesis finishing the read)."""
        first = stagger % (REFRESH_FRAMES // 2) if read.status == CLICK else 0
        old = self._kept.get(key)
        if old is not None and old.pending is not None:
            old.pending.cancel()
        self._kept[key] = _Kept(_grey(image, box), read, first, pending)

    def pending(self) -> list[Pending]:
        """The syntheses still running for kept reads."""
        return [k.pending for k in self._kept.values() if k.pending is not None]

    def forget_all_but(self, keys: set[Key]) -> None:
        """A figure taken off its dock: nothing kept for it."""
        for key in set(self._kept) - keys:
            old = self._kept.pop(key)
            if old.pending is not None:
                old.pending.cancel()


def _kept_for(read: DialRead) -> int:
    """How many frames a still window's read may be returned: a click's for long, an unsure
    one's for a few, a mid-turn one's never (the dial is moving)."""
    return REFRESH_FRAMES if read.status == CLICK else UNSURE_FRAMES - 1 \
        if read.status == UNKNOWN else 0
