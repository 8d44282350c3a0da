"""Reading a window by synthesis, for a read the correlation left unsure (``synth_check.py``).

The correlation compares what is left of a photo after a log and a high-pass; on a dark,
blurred, noisy photo (or one a figure leans over) that can leave too little to tell two clicks
apart, although the photo still holds the answer: an observer who knew the photo's light, blur
and geometry picks the right click of every settled dial of the held-back set (though a few by
less than two units of the photo's noise, docs/vision.md). This module comes closer to that
observer. For each look a dial can show (a click, or mid-turn between two), the photo that look
would give is *synthesised* from the look's captured reference, in grey and linear light: the
reference blurred (a few sigmas) and multiplied by a smooth light field (a cubic across the
window) plus an offset, fitted to the photo by least squares. The look that leaves the least
residual is the reading if it leads every other look by ``SYNTH_MARGIN`` units of the photo's
noise:

    z = (RSS_other - RSS_best) / (2 sigma |fit_best - fit_other|)

with sigma^2 |fit_best - fit_other|^2 replaced by what the residual can project onto the
difference between the two fits (``_noise_lead``: a blurred, JPEG-blocked photo's residual
is smooth, and so is that difference). With pure white sensor noise z is the lead in
standard deviations. The thresholds are chosen on the STRESS
profile, never on HELD_BACK (``synth_check.SYNTH_MARGIN``).

Each look is fitted at up to three alignments, and keeps its best: the correlation's (the
whole window: best for a settled dial), one found on the window's rim alone (a dial mid-turn
slides its print, and a whole-window alignment can follow the print instead of the window),
and that one turned and moved a fraction of a pixel by ECC on the rim (``rim_refined``).
The likeliest mid-turn look is tried a pixel at a time around its cut (and when a mid-turn
look is among the closest, the columns where its two references join are left out for every
look); pixels no close look explains that reach the crop's edge (a figure's wing over the
window) are left out and the looks fitted again, and a window more than MAX_HIDDEN of which
no look explains is read as nothing; then the closest looks are each fitted with a small
affine warp of their own (``warpfit.py``). The references are the dial's consistent ones
(``prints.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.align import warped
from dialtray.vision.reading import BETWEEN, CLICK
from dialtray.vision.register import BORDER_MM, SPP, Image
from dialtray.vision.warpfit import WarpFitter

F32 = npt.NDArray[np.float32]

SYNTH_SIGMAS = (0.0, 1.0, 1.8, 2.6)  # px of extra blur of the references tried
SYNTH_FRACTIONS = tuple(i / 10 for i in range(2, 9))  # mid-turn looks: 0.2 .. 0.8 of a click
REFINE = 0.05  # of a click: the likeliest mid-turn look is also tried this far either way
RIM_ECC_STOP = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 20, 1e-4)
RIM_INSIDE = 2  # px of the window inside its rim that the rim alignment also looks at


def grey(bgr: Image) -> F32:
    return np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), np.float32)


@dataclass(frozen=True)
class Look:
    """What the window can show: ``kind`` "click" (a grey ``group`` of clicks) or "between"
    (clicks ``a`` and ``b``), and its reference picture."""

    kind: str
    a: int
    b: int
    picture: F32
    cut: int = 0  # mid-turn: how many px of the window already show click ``b``


@dataclass(frozen=True)
class SynthRead:
    best: Look
    rival: Look | None
    z: float  # the lead over the closest other look, in units of the photo's noise
    noise: float  # grey levels
    hidden: float = 0.0  # share of the window left out: explained by no look (a figure over
    # it) or where a mid-turn look joins its two references
    unexplained: float = 0.0  # above MAX_HIDDEN: the share no look explains (then z <= 0)
    explained: float = 1.0  # of the photo's variance (over the pixels compared), by the best look
    over: npt.NDArray[np.bool_] | None = None  # where a figure is over the window (template px)
    # the closest other looks (``SPREAD_RIVALS``), each with its lead and the difference
    # between the two fits (template px, the compared pixels only); and the alignment the
    # best look was fitted at (template px -> crop px): what ``scene_looks.py`` tests a
    # photograph of a rival along
    rivals: tuple[Rival, ...] = ()
    warp: npt.NDArray[np.float32] | None = None


@dataclass(frozen=True)
class Rival:
    """One of the looks closest to a synthesis's best: its lead (noise units) and
    ``difference`` = (fit of the best - fit of this look), template px, zero where not
    compared."""

    look: Look
    z: float
    difference: F32


class Synthesis:
    """A dial's looks, and how to read a window crop by synthesising each of them."""

    def __init__(self, references: Sequence[F32], groups: Sequence[int], width: int,
                 mean_template: F32) -> None:
        """``references``: each click's picture (grey, aligned as the templates);
        ``groups``: each click's grey group; ``width``: the window's, px."""
        self.references, self.width = list(references), width
        self.looks = self._looks(groups)
        th, tw = mean_template.shape
        self.size = (tw, th)
        self.mean_template = mean_template
        b = round(BORDER_MM * SPP) + RIM_INSIDE
        yy, xx = np.mgrid[0:th, 0:tw]
        self.rim_mask = ((xx < b) | (xx >= tw - b) | (yy < b) | (yy >= th - b)).astype(np.float32)
        self._rim_u8 = (self.rim_mask * 255).astype(np.uint8)
        x = ((xx - tw / 2) / tw).astype(np.float32).ravel()
        y = ((yy - th / 2) / th).astype(np.float32).ravel()
        # the light field: a cubic across the window (a quadratic left more of a shadow's
        # edge unexplained: fewer reads made on STRESS at the same safety)
        self.basis = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y,
                               x * x * x, x * x * y, x * y * y, y * y * y])  # k x N
        k = len(self.basis)
        self._pairs = [(i, j) for i in range(k) for j in range(i, k)]
        self._products = np.stack([self.basis[i] * self.basis[j] for i, j in self._pairs])
        self._banks: list[tuple[F32, npt.NDArray[np.float64]]] = []
        self._warper: WarpFitter | None = None

    def _looks(self, groups: Sequence[int]) -> list[Look]:
        """One look per grey group (clicks that print alike look alike in grey) and the
        mid-turn looks between neighbouring clicks of different groups."""
        looks, seen = [], set()
        for i, g in enumerate(groups):
            if g not in seen:
                seen.add(g)
                looks.append(Look(CLICK, g, g, self.references[i]))
        n = len(self.references)
        for i in range(n if n > 1 else 0):
            j = (i + 1) % n
            if groups[i] != groups[j]:
                looks += [self._mid_turn(i, j, round(f * self.width)) for f in SYNTH_FRACTIONS]
        return looks

    def _mid_turn(self, i: int, j: int, cut: int) -> Look:
        """The window with the dial ``cut`` px past click ``i`` towards ``j``: the end of
        ``i``'s print, then the start of ``j``'s (the strip slides past the window)."""
        x0, w, refs = round(BORDER_MM * SPP), self.width, self.references
        t = refs[i].copy()
        t[:, x0:x0 + w] = np.concatenate([refs[i][:, x0 + cut:x0 + w], refs[j][:, x0:x0 + cut]],
                                         axis=1)
        return Look(BETWEEN, i, j, t, cut)

    def rim_alignment(self, normalised: F32, warp: npt.NDArray[np.float32]
                      ) -> npt.NDArray[np.float32]:
        """``warp``'s rotation, moved to where the window's rim matches best."""
        r = cv2.matchTemplate(normalised, self.mean_template, cv2.TM_CCORR_NORMED,
                              mask=self.rim_mask)
        _, _, _, (x, y) = cv2.minMaxLoc(r)
        out = warp.copy()
        out[0, 2], out[1, 2] = x, y
        return out

    def rim_refined(self, normalised: F32, rim: npt.NDArray[np.float32]
                    ) -> npt.NDArray[np.float32] | None:
        """``rim`` turned and moved a fraction of a pixel by ECC on the rim alone (a dial
        caught mid-turn: neither the whole window nor an integer step on the rim finds the
        window's own pose), or ``None`` when ECC does not converge."""
        try:
            _, out = cv2.findTransformECCWithMask(  # type: ignore[call-overload]
                self.mean_template, normalised, self._rim_u8, None, rim.copy(),
                cv2.MOTION_EUCLIDEAN, RIM_ECC_STOP, 1)
        except cv2.error:
            return None
        return np.asarray(out, np.float32)

    def read(self, crop: Image, warps: Sequence[npt.NDArray[np.float32]]) -> SynthRead | None:
        """The look nearest the photo and its lead (``None``: fewer than two looks). When
        some pixels are explained by no look (a figure leaning over the window), the looks
        are fitted again without them. The likeliest mid-turn look is first tried a pixel at
        a time around where it cuts (the looks are 0.1 of a click apart, and a cut a few
        pixels off leaves the join between the two prints unexplained, or worse, left out as
        if a figure hid it)."""
        if len(self.looks) < 2:
            return None
        g = grey(crop)
        photos = [warped(g, w, self.size).ravel() for w in warps]
        looks, banks = self.looks, self._blurred()
        fits = self._fit_all(photos, None, banks)
        mids = [i for i, lk in enumerate(looks) if lk.kind == BETWEEN]
        base: F32 | None = None  # pixels every look is compared on (None: all)
        if mids:
            m = looks[min(mids, key=lambda i: fits[0][i])]
            step = max(1, round(REFINE * self.width))
            extra = [self._mid_turn(m.a, m.b, c) for c in range(m.cut - step, m.cut + step + 1)
                     if c != m.cut and 0 < c < self.width]
            if extra:
                more = self._bank_of(extra)
                add = self._fit_all(photos, None, more)
                looks = looks + extra
                banks = [(np.concatenate([t, te]), np.concatenate([g, ge]))
                         for (t, g), (te, ge) in zip(banks, more, strict=True)]
                fits = tuple(np.concatenate([a, b]) for a, b in  # type: ignore[assignment]
                             zip(fits, add, strict=True))
            close = [looks[i] for i in np.argsort(fits[0])[:JOIN_CLOSE]]
            if JOIN > 0 and any(lk.kind == BETWEEN for lk in close):
                # a dial that may be mid-turn: compared without the join's columns (a settled
                # dial is compared on all of them: they can hold a digit's stroke)
                base = self._join_mask(m.cut - step, m.cut + step)
                fits = self._fit_all(photos, base, banks)
        keep, unexplained = self._explained(photos, *fits[:3]) if OUTLIER > 0 else (None, 0.0)
        if unexplained > MAX_HIDDEN:
            # more of the window than a figure's wing fits no look (a hand over it, a
            # foreign object): whatever look fits the rest best, it is no reading
            out = self._lead(looks, photos, *fits[:3], base)
            return None if out is None else replace(out, z=min(out.z, 0.0),
                                                    unexplained=unexplained)
        over = None if keep is None else (keep < 0.5).reshape(self.mean_template.shape)
        if keep is not None:
            keep = keep if base is None else keep * base
            fits = self._fit_all(photos, keep, banks)
        else:
            keep = base
        rss, fit, photo, bank = fits
        if WARP_LOOKS > 0:
            rss = self._warp_closest(banks, photos, rss, fit, photo, bank, keep)
        out = self._lead(looks, photos, rss, fit, photo, keep)
        if out is not None:
            out = replace(out, over=over, warp=warps[int(photo[int(np.argmin(rss))])])
        return out

    def _join_mask(self, first: int, last: int) -> F32:
        """Every pixel but the columns where a mid-turn look cut ``first``..``last`` px joins
        its two references (and ``JOIN`` either side): each reference's columns at the
        window's edge carry the rim's blur, which no photo of a dial mid-turn shows there.
        Left out for every look alike, so the comparison stays fair."""
        th, tw = self.mean_template.shape
        x0 = round(BORDER_MM * SPP)
        out = np.ones((th, tw), np.float32)
        lo = max(x0, x0 + self.width - last - JOIN)
        hi = min(x0 + self.width, x0 + self.width - first + JOIN)
        out[:, lo:hi] = 0.0
        return out.ravel()

    def _warp_closest(self, banks: list[tuple[F32, npt.NDArray[np.float64]]],
                      photos: list[F32], rss: npt.NDArray[np.float64], fit: F32,
                      photo: npt.NDArray[np.intp], bank: npt.NDArray[np.intp],
                      weight: F32 | None) -> npt.NDArray[np.float64]:
        """The ``WARP_LOOKS`` closest looks each fitted again with a small affine warp of its
        own (``warpfit.py``), ``fit`` updated in place. A look not warped is credited with
        the most any warped look gained (it might have gained as much), so no lead is
        taken over a look that was not given the same chance; one that could then be the
        best is warped too."""
        if self._warper is None:
            self._warper = WarpFitter(self.mean_template.shape, self.basis)
        th, tw = self.mean_template.shape
        out = rss.copy()
        warped_looks = np.zeros(len(rss), bool)
        todo = np.argsort(rss)[:WARP_LOOKS]
        while len(todo):
            for i in todo:
                picture = banks[bank[i]][0][i].reshape(th, tw)
                r, f, _ = self._warper.fit(picture, photos[photo[i]], weight)
                if r < rss[i]:
                    out[i], fit[i] = r, f
            warped_looks[todo] = True
            gained = float(np.max(rss[warped_looks] - out[warped_looks]))
            rest = ~warped_looks
            out[rest] = np.maximum(rss[rest] - gained, 0.0)
            # a look that, credited so, could be the best is given its own warp too: the
            # reading is always a look that was fitted, never one merely credited
            todo = np.flatnonzero(rest & (out <= out[warped_looks].min()))
        return out

    def _fit_all(self, photos: list[F32], weight: F32 | None,
                 banks: list[tuple[F32, npt.NDArray[np.float64]]]
                 ) -> tuple[npt.NDArray[np.float64], F32, npt.NDArray[np.intp],
                            npt.NDArray[np.intp]]:
        """Each look of ``banks`` at its best blur and alignment: residual, fitted picture,
        which photo, which blur. The residuals come from the normal equations; only the
        winners' pictures are made."""
        nl, k = len(banks[0][0]), self.basis.shape[0]
        best_rss = np.full(nl, np.inf)
        best_coef = np.zeros((nl, k + 1))
        best_bank = np.zeros(nl, np.intp)
        best_photo = np.zeros(nl, np.intp)
        for bi, (ts, gram) in enumerate(banks):
            if weight is not None:
                gram = self._gram(ts, weight)
            for i, photo in enumerate(photos):
                rss, coef = self._fit(ts, gram, photo, weight)
                better = rss < best_rss
                best_rss[better], best_coef[better] = rss[better], coef[better]
                best_bank[better], best_photo[better] = bi, i
        fits = np.empty((nl, self.basis.shape[1]), np.float32)
        for bi, (ts, _) in enumerate(banks):
            rows = np.flatnonzero(best_bank == bi)
            if len(rows):
                c = best_coef[rows]
                fits[rows] = ts[rows] * (c[:, :k] @ self.basis) + c[:, k:]
        return best_rss, fits, best_photo, best_bank

    def _explained(self, photos: list[F32], rss: npt.NDArray[np.float64], fit: F32,
                   photo: npt.NDArray[np.intp]) -> tuple[F32 | None, float]:
        """The pixels some look explains (1) and those none of the closest looks does (0,
        with their neighbours: a figure's edge is blurred) *and* that reach the crop's edge
        (a figure comes in from outside the window; a look's own misfit inside, like a
        mid-turn composite's digits, is kept, or leaving it out would favour that look), or
        ``None`` when there are too few or too many to be a figure over the window; and the
        share of the window they are."""
        close = np.argsort(rss)[:OUTLIER_LOOKS]
        least = np.min(np.abs(np.stack([photos[photo[i]] - fit[i] for i in close])), axis=0)
        sigma = 1.4826 * float(np.median(least))
        out = (least > OUTLIER * max(sigma, 1e-3)).astype(np.uint8).reshape(
            self.mean_template.shape)
        out = _touching_border(np.asarray(cv2.dilate(out, np.ones((3, 3), np.uint8)),
                                          np.uint8)).ravel()
        share = float(out.mean())
        if not MIN_HIDDEN <= share <= MAX_HIDDEN:
            return None, share
        return (1 - out).astype(np.float32), share

    def _lead(self, looks: list[Look], photos: list[F32], best_rss: npt.NDArray[np.float64],
              best_fit: F32, best_photo: npt.NDArray[np.intp], weight: F32 | None
              ) -> SynthRead | None:
        """The best look's lead over the others, in units of the photo's noise along their
        difference (``_noise_lead``), over the ``SPREAD_RIVALS`` closest in white-noise
        units (the least of those leads)."""
        w = np.ones(best_fit.shape[1], np.float32) if weight is None else weight
        order = np.argsort(best_rss)
        b = int(order[0])
        dof = float(w.sum()) - self.basis.shape[0] - 1
        noise = float(np.sqrt(max(best_rss[b], 1e-6) / dof))
        leads = []
        for o in (int(i) for i in order[1:]):
            if looks[o].kind == BETWEEN and looks[b].kind == BETWEEN:
                continue  # mid-turn is mid-turn: which pair it sits between is a hint only
            d = (best_fit[b] - best_fit[o]) * w
            sep = max(float(np.sqrt(d @ d)), 1e-6)
            leads.append((float(best_rss[o] - best_rss[b]) / (2.0 * noise * sep), o))
        if not leads:
            return None
        th, tw = self.mean_template.shape
        resid = ((photos[best_photo[b]] - best_fit[b]) * w).reshape(th, tw)
        each = [(_noise_lead(resid, dof, float(best_rss[o] - best_rss[b]), diff), o, diff)
                for _, o in sorted(leads)[:SPREAD_RIVALS]
                for diff in [((best_fit[b] - best_fit[o]) * w).reshape(th, tw)]]
        z, rival, _ = min(each, key=lambda e: e[0])
        hidden = 0.0 if weight is None else 1.0 - float(weight.mean())
        p = photos[best_photo[b]]
        spread = float(w @ (p - float(w @ p) / float(w.sum())) ** 2)
        return SynthRead(looks[b], looks[rival], float(z), noise, hidden=hidden,
                         explained=1.0 - float(best_rss[b]) / max(spread, 1e-6),
                         rivals=tuple(Rival(looks[o], float(lead), diff)
                                      for lead, o, diff in each))

    def _blurred(self) -> list[tuple[F32, npt.NDArray[np.float64]]]:
        """Every look's picture blurred by each of ``SYNTH_SIGMAS``, flat, with its normal
        matrices (made once, when the first read needs them)."""
        if not self._banks:
            self._banks = self._bank_of(self.looks)
        return self._banks

    def _bank_of(self, looks: Sequence[Look]) -> list[tuple[F32, npt.NDArray[np.float64]]]:
        pictures = np.stack([lk.picture for lk in looks])
        out = []
        for sigma in SYNTH_SIGMAS:
            ts = pictures if sigma == 0 else np.stack(
                [cv2.GaussianBlur(p, (0, 0), sigma) for p in pictures])
            ts = np.ascontiguousarray(ts.reshape(len(looks), -1))
            out.append((ts, self._gram(ts)))
        return out

    def _gram(self, ts: F32, weight: F32 | None = None) -> npt.NDArray[np.float64]:
        """Each look's normal matrix for photo ~ (light field . look) + offset, with each
        pixel weighed by ``weight`` (the photo does not enter it: one per blur, shared by
        both alignments). The light field's basis products are shared by every look: a
        few matrix products."""
        nl, k = len(ts), self.basis.shape[0]
        tw = ts if weight is None else ts * weight
        gram = np.empty((nl, k + 1, k + 1), np.float64)
        sq = (tw * ts) @ self._products.T  # nl x pairs
        for col, (i, j) in enumerate(self._pairs):
            gram[:, i, j] = gram[:, j, i] = sq[:, col]
        gram[:, :k, k] = gram[:, k, :k] = tw @ self.basis.T  # against the offset's column
        gram[:, k, k] = ts.shape[1] if weight is None else float(weight.sum())
        gram[:, range(k + 1), range(k + 1)] += 1e-6
        return gram

    def _fit(self, ts: F32, gram: npt.NDArray[np.float64], photo: F32,
             weight: F32 | None = None
             ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Every look fitted to ``photo`` at once (one small solve per look): each look's
        (weighed) residual, |p|^2 - c . A'p at the least-squares solution c, and c."""
        k = self.basis.shape[0]
        pw = photo if weight is None else photo * weight
        rhs = np.empty((len(ts), k + 1), np.float64)
        rhs[:, :k] = ts @ (self.basis * pw).T
        rhs[:, k] = float(pw.sum())
        coef = np.asarray(np.linalg.solve(gram, rhs[:, :, None])[:, :, 0], np.float64)
        rss = float(pw @ photo) - np.einsum("ij,ij->i", coef, rhs)
        return np.asarray(np.maximum(rss, 0.0), np.float64), coef


SPREAD_LAG = 4  # px: the lags over which the residual's covariance is summed (``_noise_lead``)
SPREAD_RIVALS = 8  # the closest looks (in white-noise units) whose lead is corrected for it
# Pixels none of the OUTLIER_LOOKS closest looks explains within OUTLIER times the typical
# residual are left out (a figure over the window) when they are between MIN_HIDDEN and
# MAX_HIDDEN of it (0: never).
OUTLIER = 4.0
OUTLIER_LOOKS = 6
MIN_HIDDEN, MAX_HIDDEN = 0.01, 0.35
JOIN = 2  # px either side of a mid-turn join left out of the comparison (0: none)
JOIN_CLOSE = 2  # ... when a mid-turn look is one of this many closest looks
WARP_LOOKS = 8  # the closest looks fitted again with a small warp of their own (0: none)


def _touching_border(mask: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The parts of ``mask`` connected to the crop's edge: a figure over the window comes
    in from outside it; unexplained pixels inside are a look's own misfit, not a figure."""
    n, labels = cv2.connectedComponents(mask, connectivity=8)
    if n <= 1:
        return mask
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    return np.isin(labels, edge[edge > 0]).astype(np.uint8)


def _noise_lead(resid: F32, dof: float, gain: float, difference: F32) -> float:
    """``gain`` (RSS_other - RSS_best) in units of the noise along the difference d between
    the two fits: z = gain / (2 sqrt(var(e . d))), var(e . d) = sum over lags of the residual's
    covariance times the difference's autocorrelation (a blurred, JPEG-blocked residual is
    smooth, and so is the difference: many pixels move together, and a lead is worth less
    than white noise would make it); never less than white noise of the residual's power
    would give. (Measuring the covariance only near where the two looks differ was tried: at
    the same safety on STRESS it read no more, docs/vision.md.)"""
    k = SPREAD_LAG
    padded = cv2.copyMakeBorder(resid, k, k, k, k, cv2.BORDER_CONSTANT, value=0)
    cov = np.asarray(cv2.matchTemplate(padded, np.ascontiguousarray(resid), cv2.TM_CCORR),
                     np.float32) / max(dof, 1.0)  # per pixel, with the fit's own freedom
    var = max(float(np.sum(cov * _autocorrelation(difference))),
              float(cov[k, k]) * float(np.sum(difference * difference)), 1e-12)
    return gain / (2.0 * float(np.sqrt(var)))


def _autocorrelation(a: F32) -> F32:
    """Sum of a[i] * a[i + lag] for every lag within +-SPREAD_LAG px (zero outside ``a``)."""
    k = SPREAD_LAG
    padded = cv2.copyMakeBorder(a, k, k, k, k, cv2.BORDER_CONSTANT, value=0)
    return np.asarray(cv2.matchTemplate(padded, a, cv2.TM_CCORR), np.float32)
