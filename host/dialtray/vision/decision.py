"""Deciding a read from the correlation scores: the best look if it beats every other by a
clear margin, else ``unknown`` — never a guess.

Split out of ``classify.py`` so that the decision (which look, how sure, why not) is apart from
finding the window and from the synthesis that checks an unsure read (``synth_check.py``).
A read scores every template of the dial (``scoring.RegionScorer``); the best look must beat
each close rival in every region where their prints differ, by a margin measured against what
the photo shows of the best and against the photo's own noise (``_margin_over``). A close
runner-up that wins where the prints differ is what the photo shows. A click read less surely
whose colour blocks do not look like its reference's is ``unknown`` too (the colours are read
when asked: ``seen_colours.py``); clicks that print alike are named together (``clicks``: the
encoder decides).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from dialtray.vision.align import Alignment
from dialtray.vision.dial_model import F32, DialModel
from dialtray.vision.reading import BETWEEN, CLICK, UNKNOWN, DialRead
from dialtray.vision.seen_colours import COLOUR_SURE

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
OWN_FLOOR = 0.05  # a region's own score below this is noise: no smaller scale than it


class CorrelationDecision(DialModel):
    """A dial model that decides a read from its scores (``_classify``), keeping why an
    unsure read was unsure (for its reason, and for the synthesis that may read it again)."""

    def _fresh_decision(self) -> None:
        """What a decision changes (never shared)."""
        # the correlation's likeliest look of an unsure read, and whether it scored MIN_SCORE
        self._unsure_top: tuple[tuple[str, int, int], bool] | None = None
        self._pair_masks: dict[tuple[int, int], F32] = {}
        self.last_alignment: Alignment | None = None
        self._rival = ""
        self._margin = ""

    def _classify(self, patch: F32, seen: Mapping[str, str], lo: int, hi: int) -> DialRead:
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

    def _region_mask(self, a: int, b: int) -> F32:
        """1 in the regions where labels ``a`` and ``b`` print differently, else 0."""
        if (a, b) not in self._pair_masks:
            m = np.zeros(len(self.regions), np.float32)
            m[self._differing(self.label_list[a], self.label_list[b])] = 1.0
            self._pair_masks[a, b] = m
        return self._pair_masks[a, b]


    def _decide(self, best: int, s1: float, s2: float, min_score: float,
                seen: Mapping[str, str], z: float = 1.0) -> DialRead:
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
        members, why = self.click_groups.by_colour(a, seen, conf >= COLOUR_SURE)
        if not members:
            return DialRead(self.dial, UNKNOWN, (), colours_seen=seen, score=s1, reason=why)
        face = self.faces[members[0]]
        return DialRead(self.dial, CLICK, members, dict(face.values), dict(face.colours), seen,
                        float(conf), s1)
