"""Aligning a window crop on its template: where the window's print sits in the crop.

``align`` finds it with an integer search (``cv2.matchTemplate``) and then the ECC criterion
(Evangelidis & Psarakis: the zero-mean normalised correlation) maximised for a rotation and
sub-pixel shift (a base seated a few degrees off turns its windows); a live loop passes the
last frame's ``Alignment`` as a hint and skips the search while the window has not moved. The
classifier (``classify.py``) and the synthesis (``synth.py``) read what it finds.

The ECC steps are the inverse-compositional form (``ecc.py``): the template's gradients and
their normal equations are made once per template, so a step is one ``warpAffine`` of the
crop and one small product, where ``cv2.findTransformECC`` warps the crop and its two
gradients and rebuilds the normal equations every step; one step of ``findTransformECC``
then finishes (``polished``). Issue 35: 0.26 -> ~0.17 ms a window, the same reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.ecc import EuclideanECC
from dialtray.vision.scoring import unit as _unit

F32 = npt.NDArray[np.float32]

HINT_STEPS = 4  # ECC steps from a kept alignment
HINT_SLACK = 0.05  # a kept alignment still fits if it matches nearly as well as when found
STILL_SLACK = 0.02  # ... and is used as it is, with no ECC step, if it matches this well
ECC_STEPS = 12  # ECC steps from the search's integer offset (3 are usually enough)
# A rotation and a shift (an affine motion fitted the noise: more ambiguous reads). The
# inverse-compositional steps stop where the template's gradients put the optimum (~0.01 px
# from findTransformECC's at the median, 0.13 at the 95th percentile); then one step of
# OpenCV's own ECC, with the crop's gradients, lands where findTransformECC does (0.001 px at
# the median). Without it 2 of 7 072 held-back, train and STRESS window reads changed (a
# click read at confidence 0.31 became unknown, an unknown became the right click).
POLISH_STOP = (cv2.TERM_CRITERIA_COUNT, 1, 0)


class Alignment:
    """Where a window's template sat in the last crop (kept between frames: a base that
    has not moved needs no new search) and how well it matched then (``score``: given, or
    computed when first asked, as only a frame that uses it as a hint does)."""

    def __init__(self, warp: npt.NDArray[np.float32], score: float | Callable[[], float],
                 bank: int = -1, exact: bool = True) -> None:
        self.warp = warp
        self._score = score
        self.bank = bank  # the template bank (blur) the window's photo matched best, once known
        self.exact = exact  # False: the inverse-compositional steps' optimum, not polished

    @property
    def score(self) -> float:
        if callable(self._score):
            self._score = self._score()
        return self._score


def shift(offset: tuple[int, int]) -> npt.NDArray[np.float32]:
    """The alignment of a plain integer offset (no rotation)."""
    return np.array([[1, 0, offset[0]], [0, 1, offset[1]]], np.float32)


def warped(n: F32, warp: npt.NDArray[np.float32], size: tuple[int, int]) -> F32:
    """``n`` seen through an alignment (template px -> crop px): the aligned patch."""
    return np.asarray(cv2.warpAffine(n, warp, size, flags=cv2.INTER_LINEAR |
                                     cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE),
                      np.float32)


def halved(a: F32) -> F32:
    """``a`` at half size, each pixel the mean of a 2 x 2 block (so an offset ``k`` there is
    ``2k`` at full size)."""
    h, w = a.shape
    return np.asarray(cv2.resize(a, (w // 2, h // 2), interpolation=cv2.INTER_AREA),
                      np.float32)


def search(n: F32, tg: Target, coarse: bool) -> tuple[int, int, float | None]:
    """The integer offset where ``tg``'s template matches ``n`` best and the match there
    (the zero-mean normalised correlation). ``coarse``: searched at half size, so the offset
    is even and up to a pixel from the full-size peak (ECC steps from there find the same
    optimum): ``matchTemplate``'s cost is a DFT of the template's size, ~4x less at half
    size (issue 35); the match at the offset is not computed there (None: the first ECC
    step measures it)."""
    if not coarse:
        r = cv2.matchTemplate(n, tg.template, cv2.TM_CCOEFF_NORMED)
        _, score, _, (x, y) = cv2.minMaxLoc(r)
        return x, y, float(score)
    r = cv2.matchTemplate(halved(n), tg.half, cv2.TM_CCOEFF_NORMED)
    _, _, _, (x, y) = cv2.minMaxLoc(r)
    return 2 * x, 2 * y, None


def polished(template: F32, n: F32, warp: npt.NDArray[np.float32]
             ) -> npt.NDArray[np.float32]:
    """``warp`` after one step of ``cv2.findTransformECC`` (as it was where that step fails)."""
    try:
        _, out = cv2.findTransformECC(template, n, warp, cv2.MOTION_EUCLIDEAN, POLISH_STOP,
                                      None, 1)  # type: ignore[call-overload]
    except cv2.error:
        return warp
    return np.asarray(out, np.float32)


@dataclass(frozen=True)
class Target:
    """What a crop is aligned on: a template, its rim (pixel indices; ``None``: all of it)
    and both as unit vectors, computed once."""

    template: F32
    rim: npt.NDArray[np.intp] | None = None
    unit: F32 = field(init=False)
    rim_unit: F32 = field(init=False)
    ecc: EuclideanECC = field(init=False)
    half: F32 = field(init=False)  # the template at half size, for a coarse search

    def __post_init__(self) -> None:
        object.__setattr__(self, "unit", _unit(self.template))
        object.__setattr__(self, "rim_unit", self.unit if self.rim is None
                           else _unit(self.template.ravel()[self.rim]))
        object.__setattr__(self, "ecc", EuclideanECC(self.template))
        object.__setattr__(self, "half", halved(self.template))

    def still(self, patch: F32) -> float:
        """How well ``patch`` sits where the template is: on the rim only when there is one
        (the same in every click, so the dial's turning does not change it)."""
        if self.rim is None:
            return float(_unit(patch) @ self.unit)
        return float(_unit(patch.ravel()[self.rim]) @ self.rim_unit)


def align(n: F32, target: F32 | Target, hint: Alignment | None = None, exact: bool = True,
          coarse: bool = False, enough: float | None = None
          ) -> tuple[F32, tuple[int, int], float, Alignment | None]:
    """``n`` (a read crop) aligned on ``template``: an integer search (``matchTemplate``) and
    then ECC steps for a rotation and sub-pixel shift (a base seated a few degrees
    off turns its windows). With a ``hint`` (where the window was in the last frame) the
    search is skipped: the hint itself when it still fits as well as when it was found (the
    base has not moved: no ECC at all), else ECC from there, a few steps; if that does not
    fit either, the full search runs. Returns the aligned patch, the integer offset, the
    match (correlation with ``template``) and the alignment to hint the next frame with.
    Whether a hint still fits is judged on the target's rim when it has one. ``exact``
    False: a search's alignment is not polished by OpenCV's ECC step (``Alignment.exact``
    says so; a reader that is not sure of what it read there aligns again, exactly).
    ``coarse``: the integer search at half size (``search``). ``enough``: a search whose
    integer offset matches this well is not refined (a reader that only asks whether the
    window is there: ECC's fit is never below the offset's)."""
    tg = target if isinstance(target, Target) else Target(target)
    template, tu = tg.template, tg.unit
    th, tw = template.shape
    if hint is not None:
        patch = warped(n, hint.warp, (tw, th))
        still = tg.still(patch)
        if still < hint.score - STILL_SLACK:  # moved a little? ECC from there, a few steps
            stepped = tg.ecc.refine(n, hint.warp, HINT_STEPS)
            if stepped is None:
                still = -1.0  # lost it: search afresh
            else:
                stepped = polished(template, n, stepped)
                patch = warped(n, stepped, (tw, th))
                still = tg.still(patch)
                hint = Alignment(stepped, hint.score, hint.bank)
        if still >= hint.score - HINT_SLACK:
            w = hint.warp
            return patch, (round(float(w[0, 2])), round(float(w[1, 2]))), \
                float(_unit(patch) @ tu), Alignment(w, hint.score, hint.bank)
    x, y, score = search(n, tg, coarse)
    if enough is not None:
        start = n[y:y + th, x:x + tw]
        score = float(_unit(start) @ tu) if score is None else score
        if score >= enough:
            return start, (x, y), score, Alignment(shift((x, y)), partial(tg.still, start),
                                                   exact=False)
    refined = tg.ecc.refine_seen(n, shift((x, y)), ECC_STEPS)
    if refined is None:  # kept the integer alignment
        start = n[y:y + th, x:x + tw]
        return start, (x, y), float(_unit(start) @ tu) if score is None else score, None
    warp = polished(template, n, refined.warp) if exact else refined.warp
    if score is None:  # the coarse search's offset: the first ECC step's look measured it
        score = refined.first
    if refined.patch is not None and not exact:
        # the ECC steps converged: their last look is the aligned patch, its match theirs
        patch, fit = refined.patch, refined.fit
    else:
        patch = warped(n, warp, (tw, th))
        fit = float(_unit(patch) @ tu)
    if fit < score:  # ECC wandered off (a dial mid-turn can pull it round, even off the
        # window): a refinement that fits worse than where it started is no refinement
        return n[y:y + th, x:x + tw], (x, y), float(score), None
    rim = partial(tg.still, patch)  # measured when a later frame is hinted with it
    return patch, (round(float(warp[0, 2])), round(float(warp[1, 2]))), fit, \
        Alignment(np.asarray(warp, np.float32), rim, exact=exact)
