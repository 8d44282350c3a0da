"""A rival click this scene never photographed, predicted from one it did (issue 33).

Why: ``scene_looks.judge`` excludes a close rival click by this scene's own photograph of it;
a rival the dial has never visited here (a plane's combat dial at click 2, its close rival
click 3, the dial not yet damaged that far) has no photograph, and the synthesis alone leads
it by 0.1-1.2 noise units where 1.5-2.5 are needed (the reader's model: more frames do not
lift it). But the window *has* been photographed here at another click ``k``, and what turns
the references into this window's photographs (its blur, whatever its shape: a motion blur
is no Gaussian; its light and shadows; its offset) is the same at every click. So:

- a *transfer* is learned from the photograph of ``k`` against ``k``'s reference (both in
  template px): photo ~ light(x) * (kernel * reference)(x) + offset, the light a cubic
  across the window (as the synthesis's), the kernel a free 7 x 7 one (normalised to sum 1),
  fitted in turn by least squares; pixels it leaves far out (a figure's wing) are left out
  and it is fitted again;
- any click ``x``'s photograph is then *predicted* as the photograph of ``k`` plus the
  transfer of the difference between the two references:
  ``P_k + T(R_x) - T(R_k)``. Where the two clicks print alike (the rim, the cells they
  share: ``prints.consistent`` made those references equal) the prediction *is* the
  photograph, and whatever the transfer does not model there (the rim, a shadow's edge, a
  figure over the window) is carried over unchanged;
- the burst's average ``A`` (the encoder's click ``c``), the predictions of ``c`` and of the
  rival ``r``: ``share`` = <A - P_r, P_c - P_r> / |P_c - P_r|^2 after a gain, an offset, a
  fraction of a pixel of the window and a slide of the print are taken out of both (0: the
  burst is the rival's predicted photograph; 1: it is ``c``'s). The rival is excluded when
  ``share`` reaches ``SHARE`` *and* that lead is ``scene_looks.EXCLUDE`` times the noise the
  two averages carry along it (a print difference too faint for the frames to show
  excludes nothing), the burst matches ``c``'s prediction on the window's rim
  (``scene_looks.RIM_MAX``) and the transfer explains the photograph (``EXPLAINED``). Cells
  printed in colour are left out (``colour_masks``: a colour block's grey depends on the
  scene's white balance, which the grey references do not share); the photograph used is
  the one whose print is nearest the rival's (``predict_rival``).

The prediction's error is the model's, not the sensor's: a dial at a never-photographed
click, predicted from another's photograph, sat up to 0.94-1.05 of the way towards another
click's prediction (STRESS, a combat dial predicted across 4 cells), always where the
synthesis put the truth well ahead. So ``scene_looks.judge`` asks this only of a rival the
encoder's click leads by synthesis (a prediction never overrules the synthesis), and
``SHARE`` was chosen with the encoder wrong on purpose (``bench/calibrate_scene_looks.py``:
the largest share of a reachable impostor, docs/vision.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.align import warped
from dialtray.vision.classify import DialClassifier
from dialtray.vision.faces import Face
from dialtray.vision.layout import Window
from dialtray.vision.noise_units import outside, sd_along
from dialtray.vision.regions import region_rects, region_shows
from dialtray.vision.register import BORDER_MM, SPP
from dialtray.vision.synth import SYNTH_SIGMAS, Look

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

RADIUS = 3  # px: the learned kernel is (2 RADIUS + 1)^2 (a held-back blur: sigma 0.8-1.2 and
# 2-3 px of motion; STRESS: up to 1.5 and 4)
ROUNDS = 2  # kernel, then light, fitted in turn this many times
RIDGE = 1e-3  # of the kernel's normal matrix's mean diagonal: a kernel over flat print stays put
OUTLIER = 4.0  # robust sigmas of the fit's residual beyond which a pixel is left out (a wing)
SHARE = 0.85  # of the way from the rival's predicted photograph to c's the burst must be
# (calibrate_scene_looks.py: impostors where judge asks, at most 0.60 on STRESS 8809,8810,
# 0.43 on 8803,8804; the right rivals in the live games 0.99-1.00; 0.75 was first chosen)
EXPLAINED = 0.9  # of the photograph's variance the transfer must explain (else: no prediction)


@dataclass(frozen=True)
class Transfer:
    """What turns a reference into this window's photograph (template px)."""

    light: F32
    kernel: F64
    offset: float
    explained: float

    def apply(self, reference: F32) -> F32:
        s = _shifts(reference).reshape(len(self.kernel), -1)
        flat = self.light.ravel() * (self.kernel @ s) + self.offset
        return np.asarray(flat.reshape(reference.shape), np.float32)


def _shifts(picture: F32) -> F64:
    """``picture`` shifted by every offset of the kernel (k x h x w, the edge replicated)."""
    r = RADIUS
    h, w = picture.shape
    pad = cv2.copyMakeBorder(picture, r, r, r, r, cv2.BORDER_REPLICATE)
    return np.stack([pad[r + dy:r + dy + h, r + dx:r + dx + w]
                     for dy in range(-r, r + 1) for dx in range(-r, r + 1)]).astype(np.float64)


def learn(photo: F32, reference: F32, basis: npt.NDArray[np.float32],
          on: npt.NDArray[np.bool_] | None = None) -> Transfer:
    """The transfer from ``reference`` to ``photo`` (both template px; ``basis``: the
    synthesis's light field, k x pixels; ``on``: the pixels it is fitted on, None: all).
    Starts from the synthesis's own model (a Gaussian blur of one of ``SYNTH_SIGMAS``),
    then the kernel and the light in turn."""
    p = photo.ravel().astype(np.float64)
    b = basis.astype(np.float64)
    keep = np.ones(p.size, bool) if on is None else on.ravel().copy()
    best: tuple[float, F64, float] | None = None
    for sigma in SYNTH_SIGMAS:
        blurred = reference if sigma == 0 else cv2.GaussianBlur(reference, (0, 0), sigma)
        x = np.column_stack([(b * blurred.ravel()).T, np.ones(p.size)])[keep]
        coef = np.linalg.lstsq(x, p[keep], rcond=None)[0]
        rss = float(np.sum((x @ coef - p[keep]) ** 2))
        if best is None or rss < best[0]:
            best = (rss, coef[:-1] @ b, float(coef[-1]))
    assert best is not None
    _, light, offset = best
    shifted = _shifts(reference).reshape((2 * RADIUS + 1) ** 2, -1)
    kernel = np.zeros(len(shifted))
    kernel[len(kernel) // 2] = 1.0
    for attempt in range(2):  # the second without the pixels the first left far out
        for _ in range(ROUNDS):
            x = np.column_stack([(shifted * light).T, np.ones(p.size)])[keep]
            gram = x.T @ x
            ridge = RIDGE * float(np.trace(gram)) / len(gram)
            gram[:-1, :-1] += ridge * np.eye(len(gram) - 1)
            sol = np.linalg.solve(gram, x.T @ p[keep])
            kernel, total = sol[:-1], float(np.sum(sol[:-1]))
            if abs(total) < 1e-6:
                break
            kernel = kernel / total
            conv = kernel @ shifted
            x = np.column_stack([(b * conv).T, np.ones(p.size)])
            coef = np.linalg.lstsq(x[keep], p[keep], rcond=None)[0]
            light, offset = coef[:-1] @ b, float(coef[-1])
        resid = light * (kernel @ shifted) + offset - p
        if attempt == 0:
            spread = 1.4826 * float(np.median(np.abs(resid[keep]))) + 1e-6
            keep &= np.abs(resid) <= OUTLIER * spread
    var = float(np.var(p[keep])) + 1e-9
    explained = 1.0 - float(np.mean(resid[keep] ** 2)) / var
    return Transfer(np.asarray(light.reshape(photo.shape), np.float32), kernel, offset,
                    explained)


@dataclass(frozen=True)
class Predicted:
    """How a never-photographed rival fared: ``share`` of the way from its predicted
    photograph to ``c``'s, that lead in noise units (``z``), the transfer's ``explained``."""

    share: float
    z: float
    explained: float
    rim: float = 0.0  # the burst's difference from c's predicted photograph on the window's
    # rim, in units of the noise energy both carry (as ``scene_looks.exclusion``'s rim)


def predicted_exclusion(mean: F32, n: int, shot_mean: F32, shot_frames: int,
                        references: tuple[F32, F32, F32], warp: npt.NDArray[np.float32],
                        size: tuple[int, int], cov: F32, nuisance: Callable[[F32], F32],
                        basis: F32, masks: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]],
                        box: tuple[int, int, int, int]) -> Predicted:
    """The burst's average ``mean`` (crop px, ``n`` frames) against the prediction of a rival
    from a photograph (``shot_mean``, crop px). ``references``: the photographed click's,
    ``c``'s and the rival's (template px); ``cov``: the frame noise's covariance at lags up
    to ``scene_looks.LAG`` (``scene_looks._noise_maps``); ``nuisance``: what a photograph of
    the same click may differ by, from the photograph (``scene_looks._nuisance``: m x h x w);
    ``basis``: the synthesis's light field; ``masks``: the pixels the transfer is learned on
    and those compared (``colour_masks``); ``box``: the print's (x0, x1, y0, y1), inside the
    rim."""
    learn_on, compared = masks
    ref_k, ref_c, ref_r = references
    a = warped(mean, warp, size)
    p = warped(shot_mean, warp, size)
    t = learn(p, ref_k, basis, learn_on)
    base = t.apply(ref_k)
    pred_r = p + t.apply(ref_r) - base
    pred_c = p + t.apply(ref_c) - base
    w = compared.ravel()
    extra = nuisance(pred_r)
    q = extra.reshape(len(extra), -1).T[w].astype(np.float64)
    q, _ = np.linalg.qr(q)
    d = (a - pred_r).ravel()[w].astype(np.float64)
    u = (pred_c - pred_r).ravel()[w].astype(np.float64)
    d -= q @ (q.T @ d)
    u -= q @ (q.T @ u)
    k = (cov.shape[0] - 1) // 2
    scale = 1.0 / n + 1.0 / shot_frames
    on_rim = outside((size[1], size[0]), box).ravel()[w]
    rim = float(np.mean((d - u)[on_rim] ** 2)) / max(float(cov[k, k]) * scale, 1e-9) \
        if on_rim.sum() > 20 else 0.0  # (d - u: the burst less c's prediction)
    uu = float(u @ u)
    if uu < 1e-9:
        return Predicted(0.0, 0.0, t.explained, rim)
    share = float(d @ u) / uu
    flat = np.zeros(w.size, np.float32)
    flat[w] = u / np.sqrt(uu)
    z = float(d @ u) / np.sqrt(uu) / sd_along(flat.reshape(size[1], size[0]), cov, scale)
    return Predicted(share, z, t.explained, rim)


def colour_masks(faces: Sequence[Face], window: Window, shape: tuple[int, int], source: int,
                 clicks: Sequence[int]) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """(learned on, compared): template px. A colour block's grey depends on the scene's white
    balance, which the grey references do not share (a STRESS scene's balance is 0.8-1.15 per
    channel): the transfer is learned without the cells the photographed click ``source``
    colours, and the burst compared without the cells whose colours differ between it and
    any of ``clicks`` (the encoder's and the rival's), each widened by the kernel and a blur."""
    h, w = shape
    learn_on = np.ones((h, w), bool)
    compared = np.ones((h, w), bool)
    grow = RADIUS + 2
    for rect, shown in zip(region_rects(window), region_shows(window), strict=True):
        x, y, rw, rh = rect
        x0, y0 = round((BORDER_MM + x) * SPP) - grow, round((BORDER_MM + y) * SPP) - grow
        x1, y1 = round((BORDER_MM + x + rw) * SPP) + grow, round((BORDER_MM + y + rh) * SPP) + grow
        box = (slice(max(y0, 0), max(y1, 0)), slice(max(x0, 0), max(x1, 0)))
        colours = {tuple(faces[i].colours.get(k) for k in shown) for i in (source, *clicks)}
        if any(faces[source].colours.get(k) for k in shown):
            learn_on[box] = False
        if len(colours) > 1:
            compared[box] = False
    return learn_on, compared


def cells_apart(faces: Sequence[Face], window: Window, a: int, b: int) -> int:
    """How many of the window's cells and marks clicks ``a`` and ``b`` print differently."""
    fa, fb = faces[a], faces[b]
    return sum(any((fa.values.get(k), fa.colours.get(k), fa.marks.get(k)) !=
                   (fb.values.get(k), fb.colours.get(k), fb.marks.get(k)) for k in shown)
               for shown in region_shows(window))


class _Photo(Protocol):
    click: int
    mean: F32
    frames: int


def predict_rival(classifier: DialClassifier, mean: F32, n: int, photos: Mapping[int, _Photo],
                  looks: tuple[Look, Look], warp: npt.NDArray[np.float32],
                  size: tuple[int, int], cov: F32, box: tuple[int, int, int, int],
                  nuisance: Callable[[F32], F32]) -> tuple[Predicted, int] | None:
    """The burst (``mean``, ``n`` frames) against the rival look's photograph predicted from
    this scene's photograph of another click (``looks``: the encoder's click's and the
    rival's), and which click's; None when every photograph is of one of the two. The
    photograph used is the one whose print differs from the rival's in the fewest cells (the
    least of the prediction is the transfer's), of those the one of most frames."""
    mine, rival = looks
    groups = classifier.click_groups
    ours, theirs = groups.clicks(mine.a), groups.clicks(rival.a)
    others = [p for k, p in photos.items() if k not in ours and k not in theirs]
    if not others:
        return None
    faces, window = classifier.faces, classifier.window
    shot = min(others, key=lambda p: (cells_apart(faces, window, p.click, theirs[0]),
                                      -p.frames))
    syn = classifier.synthesis()
    masks = colour_masks(faces, window, syn.mean_template.shape, shot.click, ours + theirs)
    got = predicted_exclusion(mean, n, shot.mean, shot.frames,
                              (syn.references[shot.click], mine.picture, rival.picture), warp,
                              size, cov, nuisance, syn.basis, masks, box)
    return got, shot.click


__all__ = ["EXPLAINED", "SHARE", "Predicted", "Transfer", "cells_apart", "colour_masks",
           "learn", "predict_rival", "predicted_exclusion"]
