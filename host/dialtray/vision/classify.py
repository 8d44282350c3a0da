"""Reading a dial: one window crop against that figure's own reference crops, one per click.

A closed set, no OCR. Each reference (captured click by click, ``capture.py``) becomes a
template: grey, log (light is multiplicative, so uneven light and shadows become an additive
slope), high-pass (the slope goes), a light blur (a base seated a little off still overlaps).
Mid-turn views are templates too: with the dial a fraction ``f`` past click ``k`` the window
shows the end of click ``k`` and the start of click ``k+1`` (the strip slides past the window),
so each neighbouring pair gives composites at f = 0.2, 0.25, ... 0.8.

A read aligns the crop once (``cv2.matchTemplate`` against the mean template: the rim and cell
grid are common to every click), then scores every template by normalised correlation (one
matrix product). Clicks that print exactly the same values, colours and marks are one class:
the camera cannot tell them apart, and says so (``clicks`` lists them; the encoder decides).
The result is the best class if it beats every *other* class by a clear margin, else
``unknown`` — never a guess; and a click whose colour blocks do not look like its reference's
is ``unknown`` too.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from dialtray.vision import prints
from dialtray.vision.align import Alignment, Target, align, shift, warped
from dialtray.vision.click_groups import ClickGroups
from dialtray.vision.colours import palette_hues, read_colours
from dialtray.vision.faces import Face
from dialtray.vision.layout import Layout, Window
from dialtray.vision.normal import SMOOTH, highpass, normalise
from dialtray.vision.prints import consistent
from dialtray.vision.reading import BETWEEN, CLICK, UNKNOWN, DialRead
from dialtray.vision.regions import region_names, region_shows, window_regions
from dialtray.vision.register import BORDER_MM, SPP, CropGeometry, Image
from dialtray.vision.scoring import RegionScorer, blurred
from dialtray.vision.scoring import unit as _unit
from dialtray.vision.synth import MAX_HIDDEN, Synthesis, SynthRead, grey
from dialtray.vision.synth_shared import Shared, content_key, shared_synthesis
from dialtray.vision.synth_worker import pending_read

F32 = npt.NDArray[np.float32]
# what a classifier makes from its references, shared by every classifier of the same dial
_MODELS: Shared[dict[str, Any]] = Shared()

MIN_SCORE = 0.3  # correlation (of what differs between clicks) the best class must reach
RIVAL_WINDOW = 0.25  # runner-ups scoring within this of the best are weighed against it
CONFIDENCE_THRESHOLD = 0.3  # below: unknown. Chosen on the TRAIN profile (bench_vision.py)
# A mid-turn read must be surer (a settled dial seen as mid-turn makes the tracker hold and ask
# for a re-seat when nothing moved). Chosen on the validation draws (docs/vision.md), where
# every right mid-turn read of the held-back profile scored above 0.5.
BETWEEN_THRESHOLD = 0.5
# The margin over the runner-up in units of the photo's own noise (what the best template does
# not explain, per pixel) must reach this; a margin below it is a coin the noise could have
# tossed. Chosen on the validation draws of the held-back profile (docs/vision.md).
NOISE_MARGIN = 6.5
# A read the correlation leaves unsure is made again by synthesis (synth.py); its lead in units
# of the photo's noise must reach SYNTH_MARGIN (a click), SYNTH_BETWEEN (mid-turn),
# SYNTH_AGREED (the correlation's likeliest look is the same) or SYNTH_WEAK (the same, scored
# below MIN_SCORE): chosen on 12 STRESS seeds by bench/calibrate_synthesis.py. Its best look
# must explain SYNTH_EXPLAINED of the window's variance (a hand over half a window fitted no
# look, yet one mid-turn look least badly). A click the correlation reads with less confidence
# than CHECK_BELOW is checked by synthesis: unknown if its best look is another (an 8 read as
# a 9 at 0.40 on a fresh held-back photo; 0: never checked). Why each value: docs/vision.md.
SYNTH_MARGIN = 2.5
SYNTH_BETWEEN = 1.5
SYNTH_AGREED = 1.5
SYNTH_WEAK = 1.5
SYNTH_EXPLAINED = 0.7
CHECK_BELOW = 0.5
AGREED, WEAK = "agreed", "weak"  # how the correlation's likeliest look agreed with a synthesis
BETWEEN_FRACTIONS = tuple(i / 20 for i in range(4, 17))  # 0.2 .. 0.8
SINGLE_MIN_SCORE = 0.6  # a dial with one look: correlation with it that counts as seen
BANK_BLUR = (0.0, 1.0, 1.8)  # px of extra blur of each template bank
MIN_WINDOW_FIT = 0.5  # the aligned crop must look this much like the figure's window at all
OWN_FLOOR = 0.05  # a region's own score below this is noise: no smaller scale than it
# A read from a search's alignment without OpenCV's last ECC step (align.py) stands at this
# confidence (a click or mid-turn); below it the window is aligned exactly and read again
ROUGH_SURE = 0.7


class DialClassifier:
    """The templates of one figure's dial through one window."""

    def __init__(self, dial: str, faces: list[Face], crops: list[Image], window: Window,
                 layout: Layout) -> None:
        if len(faces) != len(crops) or not faces:
            raise ValueError("one reference crop per click is needed")
        hues = palette_hues(layout)
        # what follows from the references alone is made once per distinct dial
        # (synth_shared.py); what a read changes is this classifier's own (_fresh)
        key = content_key(dial, faces, list(crops), window, hues, BANK_BLUR, BETWEEN_FRACTIONS,
                          SMOOTH, BORDER_MM, SPP, prints.CONSISTENT)
        self.__dict__.update(_MODELS.get(key, lambda: self._model(dial, faces, crops, window,
                                                                  hues)))
        self._fresh()

    def _model(self, dial: str, faces: list[Face], crops: list[Image], window: Window,
               hues: dict[str, int]) -> dict[str, Any]:
        """The templates, scorer and click groups made from the references (set on this
        classifier, and returned to be shared)."""
        self.dial, self.faces, self.window = dial, faces, window
        self.geometry = g = CropGeometry.of(window)
        self.hues = hues
        norms = [normalise(c) for c in crops]
        tw, th = g.template
        m = g.margin
        anchor = norms[0][m:m + th, m:m + tw]
        aligned: list[F32] = []
        offsets: list[tuple[int, int]] = []
        warps: list[npt.NDArray[np.float32]] = []
        for _ in range(2):  # align every reference to the anchor, then to their mean
            aligned, offsets, warps = [], [], []
            for n in norms:
                patch, off, _, al = align(n, anchor)
                aligned.append(patch)
                offsets.append(off)
                warps.append(al.warp if al is not None else shift(off))
            anchor = np.mean(aligned, axis=0).astype(np.float32)
        self.mean_template = anchor
        self._bank_units = np.stack([_unit(blurred(anchor, b)) for b in BANK_BLUR])
        # the references in grey and linear light, aligned as the templates: what a read
        # the correlation leaves unsure is synthesised from (synth.py, built when needed)
        self._references = consistent([warped(grey(c), w, (tw, th))
                                       for c, w in zip(crops, warps, strict=True)], faces, window)
        # the rim around the window (the base's plastic): the same on every click, where a
        # kept alignment is checked (the dial's print changes from frame to frame)
        b = round(BORDER_MM * SPP)
        yy, xx = np.mgrid[0:th, 0:tw]
        self._target = Target(anchor, np.flatnonzero((xx < b) | (xx >= tw - b) | (yy < b)
                                                     | (yy >= th - b)))
        self.click_groups = ClickGroups(faces, crops, offsets, window, self.hues)
        self.classes, self.groups = self.click_groups.classes, self.click_groups.groups
        self.group_of, cls_of = self.click_groups.group_of, self.click_groups.class_of
        self.regions = window_regions(window)
        self.region_names = region_names(window)
        self.region_shows = region_shows(window)  # its stat or mark, and marks in a cell
        templates: list[F32] = []
        self.labels: list[tuple[str, int, int]] = []  # (kind, a, b) per template
        for ci, members in enumerate(self.classes):
            for i in members:
                templates.append(aligned[i])
                self.labels.append((CLICK, self.group_of[ci], self.group_of[ci]))
        x0, width = round(BORDER_MM * SPP), round(window.size[0] * SPP)
        count = len(faces)
        for i in range(count if count > 1 else 0):
            j = (i + 1) % count
            if self.group_of[cls_of[i]] == self.group_of[cls_of[j]]:
                continue  # mid-turn between clicks alike in grey looks like either of them
            for frac in BETWEEN_FRACTIONS:
                cut = round(frac * width)
                t = aligned[i].copy()
                t[:, x0:x0 + width] = np.concatenate(
                    [aligned[i][:, x0 + cut:x0 + width], aligned[j][:, x0:x0 + cut]], axis=1)
                templates.append(t)
                self.labels.append((BETWEEN, i, j))
        # per region (cell or mark), every bank's templates as unit rows of what differs
        # between clicks (scoring.py)
        self._whole = np.stack([_unit(t) for t in templates])  # each look, whole window
        clicks = [i for i, lb in enumerate(self.labels) if lb[0] == CLICK]
        self.scorer = RegionScorer(templates, BANK_BLUR, self.regions, clicks,
                                   shared=len(self.classes) > 1)  # a region's say: its size
        label_ids: dict[tuple[str, int, int], int] = {}
        self.row_label = np.array([label_ids.setdefault(lb, len(label_ids))
                                   for lb in self.labels])
        self.label_list = list(label_ids)
        self._click_labels = np.array([i for i, lb in enumerate(self.label_list)
                                       if lb[0] == CLICK], np.intp)
        self._label_rows = [np.nonzero(self.row_label == i)[0] for i in range(len(label_ids))]
        # the rows grouped by label, for each label's best row in one reduceat
        self._by_label = np.concatenate(self._label_rows)
        self._label_starts = np.cumsum([0] + [len(r) for r in self._label_rows[:-1]])
        return dict(self.__dict__)

    def _fresh(self) -> None:
        """What this classifier's reads change (never shared)."""
        self._synthesis: Synthesis | None = None
        self._synth_lock = threading.Lock()
        self.deferred: Callable[[], DialRead] | None = None  # the last read's synthesis, deferred
        self._found: tuple[F32, npt.NDArray[np.float32], dict[str, str]] | None = None
        # the correlation's likeliest look of an unsure read, and whether it scored MIN_SCORE
        self._unsure_top: tuple[tuple[str, int, int], bool] | None = None
        # the last synthesis and how the correlation's likeliest look agreed: AGREED, WEAK, ""
        self.last_synthesis: tuple[SynthRead, str] | None = None
        # the last check of a click read with little confidence: the synthesis, and whether
        # it agreed (``CHECK_BELOW``)
        self.last_check: tuple[SynthRead | None, bool] | None = None
        self._pair_masks: dict[tuple[int, int], F32] = {}
        self.last_alignment: Alignment | None = None
        self._rival = ""
        self._margin = ""

    def read(self, crop: Image, hint: Alignment | None = None, defer: bool = False,
             log_grey: F32 | None = None) -> DialRead:
        """The dial in ``crop``; ``hint``: the alignment of the previous frame (see
        ``last_alignment``), tried first. Only a window read as a click hints the next
        frame: mid-turn the strip's boxes slide in the window, and an alignment locked on
        them is off by the turn once the dial settles. ``defer``: a synthesis this read needs
        is not run here but left in ``deferred`` (a live loop hands it to the worker,
        ``synth_worker.py``) and the read returned is unknown until it has run.
        ``log_grey``: the crop's ``logged`` grey when already made (``mosaic.py``)."""
        self.deferred = None
        n = normalise(crop) if log_grey is None else highpass(log_grey)
        out = self._read(crop, n, hint, exact=False)
        if out.status != CLICK and hint is not None:
            # A kept alignment that still fits the rim may be a little off inside, which
            # looks like a dial mid-turn or makes a read unsure: such a read is made again
            # from a fresh search (a live loop read settled dials as mid-turn without this)
            out = self._read(crop, n, None, exact=False)
        if out.confidence < ROUGH_SURE and self.last_alignment is not None \
                and not self.last_alignment.exact:  # not sure: aligned exactly, read again
            out = self._read(crop, n, None)
        job: Callable[[], DialRead] | None = None
        if out.status == UNKNOWN and self._found is not None:
            job = partial(self._by_synthesis, crop, out, *self._found, self._unsure_top)
        elif out.status == CLICK and out.confidence < CHECK_BELOW and self._found is not None:
            job = partial(self._checked, crop, out, *self._found[:2])
        if job is not None and defer:
            self.deferred = job
            out = pending_read(out)
        elif job is not None:
            out = job()
        if out.status != CLICK:
            self.last_alignment = None
        return out

    def _read(self, crop: Image, n: F32, hint: Alignment | None, exact: bool = True
              ) -> DialRead:
        # the quick pass searches at half size, the exact one as before; a one-look dial's
        # window found well enough is not refined (whether it is there is all that is read)
        enough = SINGLE_MIN_SCORE if len(self.label_list) == 1 and not exact else None
        patch, (x, y), fit, self.last_alignment = align(n, self._target, hint, exact,
                                                        coarse=not exact, enough=enough)
        coarse = fit
        seen = read_colours(crop, (x, y), self.window, self.hues)
        self._found = None  # where the window was found, for a synthesis when unsure
        self._unsure_top = self.last_synthesis = self.last_check = None
        if fit < MIN_WINDOW_FIT:  # a dial mid-turn fits the mean less well: its best look?
            fit = max(fit, float(np.max(self._whole @ _unit(patch))))
        if fit < MIN_WINDOW_FIT:  # not this figure's window where the layout says it is
            return DialRead(self.dial, UNKNOWN, (), colours_seen=seen, score=fit,
                            reason=f"the window is not where the tray layout puts it (fit "
                                   f"{fit:.2f}): base moved or covered, or the camera moved")
        if len(self.label_list) == 1:  # one look only (a token's single click): is it there?
            return self._decide(0, coarse, -1.0, SINGLE_MIN_SCORE, seen)
        self._found = (n, self.last_alignment.warp if self.last_alignment is not None
                       else shift((x, y)), seen)
        # The bank (blur) found for this place in the last frame is scored alone first (a
        # window that has not moved is as blurred as it was), at a new place the bank whose
        # mean template fits the photo best (issue 35: a third of the templates read); a read
        # that is not sure with it is scored with every bank (the best bank varies a little
        # with what the dial shows)
        kept = self.last_alignment.bank if self.last_alignment is not None else -1
        if kept < 0:
            kept = int(np.argmax(self._bank_units @ _unit(patch)))
        out = self._classify(patch, seen, kept, kept + 1)
        if out.status != UNKNOWN:
            return out
        return self._classify(patch, seen, 0, len(BANK_BLUR))

    def _classify(self, patch: F32, seen: dict[str, str], lo: int, hi: int) -> DialRead:
        """Score the aligned ``patch`` with banks ``lo``..``hi``-1 and decide."""
        all_scores = self.scorer.scores(patch, lo, hi)  # regions x banks x templates
        weight = self.scorer.weight
        pick = 0 if hi - lo == 1 else \
            int(np.argmax(np.einsum("r,rbt->bt", weight, all_scores).max(axis=1)))
        bank = lo + pick
        if self.last_alignment is not None:
            self.last_alignment.bank = bank
        cell_scores = all_scores[:, pick, :]
        scores = weight @ cell_scores
        # each label's best row (np.maximum.at from -1, as one reduceat)
        per_label = np.maximum(np.maximum.reduceat(scores[self._by_label], self._label_starts),
                               np.float32(-1.0))
        top = int(np.argmax(per_label))
        near = set(np.nonzero(per_label >= per_label[top] - RIVAL_WINDOW)[0].tolist())
        # the runner-up is weighed however far behind: with none close, a blurred blob
        # matching one click a little read at confidence 1.0 (STRESS: truth 2, read 8)
        near.update(np.argsort(per_label)[-2:].tolist())
        if self.label_list[top][0] == BETWEEN:  # mid-turn must beat the likeliest click,
            clicks = self._click_labels  # however far below: a settled dial read as
            near.add(int(clicks[np.argmax(per_label[clicks])]))  # mid-turn: a false alarm
        close, best = sorted(near), top
        z_min, rival_label, self._margin = self._margin_over(top, close, scores, cell_scores, bank)
        if z_min < self._threshold(top):
            # The whole window's score also weighs what the two prints show alike, where only
            # noise differs: a close runner-up that wins, against every other close label, in
            # the regions where the prints differ is what the photo shows (at most one can).
            for c in sorted((int(c) for c in close if c != top), key=lambda c: -per_label[c]):
                zc, rc, mc = self._margin_over(c, close, scores, cell_scores, bank)
                if zc >= self._threshold(c):
                    best, z_min, rival_label, self._margin = c, zc, rc, mc
                    break
        self._rival = self._label_text(rival_label) if rival_label >= 0 else ""
        rival = float(per_label[rival_label]) if rival_label >= 0 else -1.0
        return self._decide(best, float(per_label[best]), rival, MIN_SCORE, seen, z_min)

    def _threshold(self, label: int) -> float:
        return BETWEEN_THRESHOLD if self.label_list[label][0] == BETWEEN else CONFIDENCE_THRESHOLD

    def _margin_over(self, best: int, close: list[int], scores: F32,
                     cell_scores: F32, bank: int) -> tuple[float, int, str]:
        """How sure ``best`` is against each other ``close`` label, region by region where
        their templates differ; the least sure (z), that rival and why. z = 1: the crop is
        as far from the rival as the best itself scores, 0: halfway, < 0: nearer the rival;
        capped by the margin in units of the photo's noise (``NOISE_MARGIN`` maps to
        ``CONFIDENCE_THRESHOLD``). Every differing region must side with the best."""
        rows_b = self._label_rows[best]
        row = int(rows_b[np.argmax(scores[rows_b])])
        z_min, rival_label, why = 1.0, -1, ""
        mid = self.label_list[best][0] == BETWEEN  # mid-turn against mid-turn: which pair it
        others = [o for o in close if o != best and not (  # sits between is a hint only
            mid and self.label_list[o][0] == BETWEEN)]
        if not others:
            return z_min, rival_label, why
        # every rival at once (its best row; mask: the regions where the prints differ)
        orows = [int(r[0]) if len(r) == 1 else int(r[np.argmax(scores[r])])
                 for r in (self._label_rows[o] for o in others)]
        mask = np.stack([self._region_mask(best, o) for o in others])
        d = 1.0 - self.scorer.sim[bank][:, row, orows].T  # (rivals, regions)
        mine = cell_scores[:, row]
        nums = ((mine - cell_scores[:, orows].T) * mask).sum(axis=1).tolist()
        # on the scale of what this photo shows of the best (a dark, blurred or noisy photo
        # matches even the right click only so well); and in units of the photo's noise: per
        # region, what the best template leaves unexplained (1 - score^2 of a unit vector),
        # per pixel, along the direction that tells the two apart (|best - other|^2 = 2d)
        owns = (np.maximum(mine, OWN_FLOOR) * d * mask).sum(axis=1).tolist()
        spans = (d * mask).sum(axis=1).tolist()
        noises = (np.maximum(1.0 - mine * mine, 1e-3) * 2.0 * d / self.scorer.px
                  * mask).sum(axis=1).tolist()
        for other, num, own, span, noise in zip(others, nums, owns, spans, noises, strict=True):
            z = num / own if span > 1e-6 else 0.0
            in_noise = num / math.sqrt(noise) if noise > 0 else math.inf
            noisy = CONFIDENCE_THRESHOLD * in_noise / NOISE_MARGIN < z
            if noisy:
                z = CONFIDENCE_THRESHOLD * in_noise / NOISE_MARGIN
            if z < z_min:
                z_min, rival_label = max(z, -1.0), other
                why = (f"{in_noise:.1f} times the photo's noise apart (needs {NOISE_MARGIN})"
                       if noisy else f"{z:.2f} of the way from the second to the first")
        return z_min, rival_label, why

    def synthesis(self) -> Synthesis:
        if self._synthesis is None:
            groups = [0] * len(self.faces)
            for ci, members in enumerate(self.classes):
                for i in members:
                    groups[i] = self.group_of[ci]
            # the same dial's synthesis is shared by every classifier of it (synth_shared.py)
            self._synthesis = shared_synthesis(self._references, groups,
                                               round(self.window.size[0] * SPP),
                                               self.mean_template)
        return self._synthesis

    def synthesise(self, crop: Image, n: F32 | None = None,
                   warp: npt.NDArray[np.float32] | None = None) -> SynthRead | None:
        """The look a synthesis finds in ``crop`` (``synth.py``), at the whole window's
        alignment (``warp``, found here when not given) and at one found on its rim."""
        if n is None or warp is None:
            n = normalise(crop)
            _, offset, _, found = align(n, self._target)
            warp = found.warp if found is not None else shift(offset)
        with self._synth_lock:  # the worker and a frame thread's plain read may share it
            syn = self.synthesis()
            rim = syn.rim_alignment(n, warp)
            warps = [warp]
            for w in (rim, syn.rim_refined(n, rim)):
                if w is not None and not any(np.allclose(w, o, atol=0.25) for o in warps):
                    warps.append(w)  # a pose the others do not already give
            return syn.read(crop, warps)

    def _by_synthesis(self, crop: Image, unsure: DialRead, n: F32,
                      warp: npt.NDArray[np.float32], seen: dict[str, str],
                      top: tuple[tuple[str, int, int], bool] | None) -> DialRead:
        """A read the correlation left unsure, made again by synthesising each look
        (``synth.py``): the reading if its lead reaches ``SYNTH_MARGIN``. ``top``: the
        correlation's likeliest look and whether it scored ``MIN_SCORE`` (passed in: on the
        worker the classifier may already be reading the next frame)."""
        r = self.synthesise(crop, n, warp)
        if r is None:
            return unsure
        look = r.best
        agreed = ""
        if top is not None:
            (kind, a, _), scored = top
            if kind == look.kind and (kind == BETWEEN or a == look.a):
                agreed = AGREED if scored else WEAK
        self.last_synthesis = (r, agreed)
        need = SYNTH_AGREED if agreed == AGREED else SYNTH_WEAK if agreed == WEAK else \
            SYNTH_BETWEEN if look.kind == BETWEEN else SYNTH_MARGIN
        name = self._look_text(look.kind, look.a, look.b)
        if r.unexplained > MAX_HIDDEN or r.explained < SYNTH_EXPLAINED:
            share = r.unexplained if r.unexplained > MAX_HIDDEN else 1.0 - r.explained
            return replace(unsure, reason=f"{unsure.reason}; by synthesis no look explains "
                           f"the window ({share:.0%} of it unexplained: something over it?)")
        if r.z < need:
            rival = self._look_text(r.rival.kind, r.rival.a, r.rival.b) if r.rival else "-"
            return replace(unsure, reason=f"{unsure.reason}; by synthesis {name} leads "
                           f"{rival} by {max(r.z, -99):.1f} times the photo's noise "
                           f"(needs {need})")
        if look.kind == BETWEEN:
            conf = min(1.0, BETWEEN_THRESHOLD * r.z / need)
            return DialRead(self.dial, BETWEEN, (look.a, look.b), colours_seen=seen,
                            confidence=conf, score=unsure.score)
        conf = min(1.0, CONFIDENCE_THRESHOLD * r.z / need)
        offset = (round(float(warp[0, 2])), round(float(warp[1, 2])))
        members, why = self.click_groups.by_colour(look.a, seen)
        if not members and r.over is not None:
            # a figure over a cell can hide or tint the colour block that tells two clicks
            # apart: read the blocks again without the pixels the synthesis found it on
            seen = read_colours(crop, offset, self.window, self.hues, r.over)
            members, why = self.click_groups.by_colour(look.a, seen)
        if not members:  # a block too dark or too hidden to name: nearest its own reference?
            members, why = self.click_groups.by_chroma(look.a, crop, offset, r.over, seen, why)
        if not members:
            return replace(unsure, reason=f"{unsure.reason}; by synthesis {name}, but {why}")
        face = self.faces[members[0]]
        return DialRead(self.dial, CLICK, members, dict(face.values), dict(face.colours), seen,
                        conf, unsure.score)

    def _checked(self, crop: Image, read: DialRead, n: F32, warp: npt.NDArray[np.float32]
                 ) -> DialRead:
        """A click the correlation reads with a confidence below ``CHECK_BELOW``, checked
        by synthesis: when the look that explains the photo best is another one, the read
        is unknown (a thin-stroked 8 read as a 9 at confidence 0.40 on a fresh held-back
        photo, where the synthesis found the 8)."""
        r = self.synthesise(crop, n, warp)
        agree = r is None or (r.best.kind == CLICK
                              and set(read.clicks) <= set(self._group_clicks(r.best.a)))
        self.last_check = (r, agree)
        if r is None or agree:
            return read
        name = self._look_text(r.best.kind, r.best.a, r.best.b)
        clicks = "/".join(str(c) for c in read.clicks)
        return replace(read, status=UNKNOWN, clicks=(), values={}, colours={}, confidence=0.0,
                       reason=f"click {clicks} by correlation (confidence "
                              f"{read.confidence:.2f}), but by synthesis {name} "
                              f"({r.z:.1f} times the photo's noise ahead)")

    def _look_text(self, kind: str, a: int, b: int) -> str:
        if kind == BETWEEN:
            return f"mid-turn {a}-{b}"
        return "click " + "/".join(str(c) for c in self._group_clicks(a))

    def _group_clicks(self, group: int) -> tuple[int, ...]:
        return self.click_groups.clicks(group)

    def _label_text(self, label: int) -> str:
        return self._look_text(*self.label_list[label])

    def _region_mask(self, a: int, b: int) -> F32:
        """1 in the regions where labels ``a`` and ``b`` print differently, else 0."""
        if (a, b) not in self._pair_masks:
            m = np.zeros(len(self.regions), np.float32)
            m[self._differing(self.label_list[a], self.label_list[b])] = 1.0
            self._pair_masks[a, b] = m
        return self._pair_masks[a, b]

    def _differing(self, a: tuple[str, int, int], b: tuple[str, int, int]) -> list[int]:
        """The regions in which two labels' prints differ (all of them for a mid-turn)."""
        if a[0] != CLICK or b[0] != CLICK:
            return list(range(len(self.regions)))
        ga, gb = self.groups[a[1]], self.groups[b[1]]
        return [i for i, shown in enumerate(self.region_shows)
                if any(self._differ(self.faces[self.classes[ca][0]],
                                    self.faces[self.classes[cb][0]], k)
                       for k in shown for ca in ga for cb in gb)]

    @staticmethod
    def _differ(fa: Face, fb: Face, k: str) -> bool:
        return fa.values.get(k) != fb.values.get(k) or fa.colours.get(k) != \
            fb.colours.get(k) or fa.marks.get(k) != fb.marks.get(k)

    def _decide(self, best: int, s1: float, s2: float, min_score: float,
                seen: dict[str, str], z: float = 1.0) -> DialRead:
        conf = min(1.0, max(0.0, z)) if s1 >= min_score else 0.0
        kind, a, b = self.label_list[best]
        if conf < (BETWEEN_THRESHOLD if kind == BETWEEN else CONFIDENCE_THRESHOLD):
            # the likeliest look of an ambiguous read: a synthesis that agrees needs less
            self._unsure_top = (self.label_list[best], s1 >= min_score)
            why = f"best match {s1:.2f} is below {min_score}" if s1 < min_score else \
                f"ambiguous: {self._label_text(best)} ({s1:.2f}) or {self._rival} ({s2:.2f}): " \
                f"{self._margin or 'no runner-up close'}; confidence {conf:.2f}"
            return DialRead(self.dial, UNKNOWN, (), colours_seen=seen, score=s1, reason=why)
        if kind == BETWEEN:
            return DialRead(self.dial, BETWEEN, (a, b), colours_seen=seen, confidence=float(conf),
                            score=s1)
        members, why = self.click_groups.by_colour(a, seen)
        if not members:
            return DialRead(self.dial, UNKNOWN, (), colours_seen=seen, score=s1, reason=why)
        face = self.faces[members[0]]
        return DialRead(self.dial, CLICK, members, dict(face.values), dict(face.colours), seen,
                        float(conf), s1)
