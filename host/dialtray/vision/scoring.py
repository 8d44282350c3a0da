"""Scoring an aligned window against every template of a dial, region by region (``decision.py``
decides from the scores).

Each region (a stat cell, or a mark outside the cells) is compared on its own, and in each,
what every click shows alike (box, plastic) is taken out: the correlation is of what differs.
Banks of the same templates blurred more let a photo blurrier than the capture meet templates
as blurred as it. ``RegionScorer`` holds, per region, every bank's templates as unit rows; one
matrix product per region scores them all.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]


def unit(a: F32) -> F32:
    """Zero mean, unit length, flat (so that a dot product is a correlation)."""
    v = a.ravel()
    v = v - np.float32(np.add.reduce(v) / v.size)
    n = float(np.sqrt(v @ v))
    return np.asarray(v / n if n > 1e-6 else v, np.float32)


def blurred(t: F32, sigma: float) -> F32:
    """``t`` as a bank's templates are: blurred ``sigma`` px more (0: as it is)."""
    if sigma == 0:
        return t
    return np.asarray(cv2.GaussianBlur(t, (0, 0), sigma), np.float32)


class RegionScorer:
    """Every bank's templates, per region, as unit rows of what differs between clicks."""

    def __init__(self, templates: Sequence[F32], banks: Sequence[float],
                 rects: Sequence[tuple[int, int, int, int]], clicks: Sequence[int],
                 shared: bool = True) -> None:
        """``rects``: the regions (x0, y0, x1, y1) in template pixels; ``clicks``: the template
        rows that are clicks (their mean is what every click shows alike, taken out when
        ``shared``)."""
        self.regions = [(slice(y0, y1), slice(x0, x1)) for x0, y0, x1, y1 in rects]
        # every region's pixels, region after region, as indices into the flat template:
        # a read gathers them in one step and takes each region's mean and length at once
        grid = np.arange(templates[0].size).reshape(templates[0].shape)
        picks = [grid[ix].ravel() for ix in self.regions]
        self._pick = np.concatenate(picks)
        self._sizes = np.array([len(q) for q in picks], np.intp)
        self._starts = np.concatenate([[0], np.cumsum(self._sizes)[:-1]]).astype(np.intp)
        self.banks = list(banks)
        self.nt = len(templates)
        self.px = np.array([(x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in rects], np.float32)
        self.weight = self.px / self.px.sum()
        per_bank: list[list[F32]] = []
        commons: list[list[F32]] = []
        for spec in self.banks:
            ts = [blurred(t, spec) for t in templates]
            mats, means = [], []
            for ix in self.regions:
                raw = np.stack([unit(t[ix]) for t in ts])
                mean = raw[list(clicks)].mean(axis=0) if shared else \
                    np.zeros(raw.shape[1], np.float32)
                mats.append(np.stack([unit(r - mean) for r in raw]))
                means.append(np.asarray(mean, np.float32))
            per_bank.append(mats)
            commons.append(means)
        nb = len(self.banks)
        # the banks stacked per region, for one matrix product per region at read time:
        # m @ unit(u - mu) = (m @ u - m @ mu) / |u - mu|, and |u - mu|^2 = 1 - 2 u.mu + mu.mu;
        # per bank its templates' rows, then its mean's row (u.mu from the same product)
        self._rows = [np.concatenate([np.vstack([per_bank[b][r], commons[b][r][None]])
                                      for b in range(nb)]) for r in range(len(self.regions))]
        self._offsets = np.stack([np.stack([per_bank[b][r] @ commons[b][r] for b in range(nb)])
                                  for r in range(len(self.regions))])  # region, bank, template
        self._mean_sq = np.stack([np.stack([np.sum(commons[b][r] * commons[b][r])
                                            for b in range(nb)])
                                  for r in range(len(self.regions))])  # region, bank
        # per bank and region: how alike each two templates are (what differs between them)
        self.sim = [np.stack([m @ m.T for m in mats]) for mats in per_bank]

    def scores(self, patch: F32, lo: int = 0, hi: int | None = None) -> F32:
        """Regions x banks ``lo``..``hi``-1 x templates: each region's correlation."""
        hi = len(self.banks) if hi is None else hi
        k = self.nt + 1  # a bank's rows: its templates, then its mean
        # each region made zero-mean and unit length (``unit``), every region at once
        v = patch.ravel()[self._pick]
        means = (np.add.reduceat(v, self._starts) / self._sizes).astype(np.float32)
        v -= np.repeat(means, self._sizes)
        norms = np.sqrt(np.add.reduceat(v * v, self._starts))
        norms[norms <= 1e-6] = 1.0  # a flat region stays zero, as ``unit`` leaves it
        ends = self._starts + self._sizes
        raw = (np.stack([self._rows[r][lo * k:hi * k] @ v[a:b]
                         for r, (a, b) in enumerate(zip(self._starts, ends, strict=True))])
               / norms[:, None]).reshape(-1, hi - lo, k)
        norm = np.sqrt(np.maximum(1.0 - 2.0 * raw[:, :, -1] + self._mean_sq[:, lo:hi], 1e-12))
        return np.asarray((raw[:, :, :-1] - self._offsets[:, lo:hi]) / norm[:, :, None],
                          np.float32)
