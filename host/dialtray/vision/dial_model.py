"""What a dial's classifier makes from that figure's reference crops, once per distinct dial.

Split out of ``classify.py`` so that building the templates is apart from reading with them:
this is made once and shared by every classifier of the same dial (``synth_shared.Shared``);
nothing a read changes lives here.

Each reference (captured click by click, ``capture.py``) becomes a template: grey, log (light
is multiplicative, so uneven light and shadows become an additive slope), high-pass (the slope
goes), a light blur (a base seated a little off still overlaps). Mid-turn views are templates
too: with the dial a fraction ``f`` past click ``k`` the window shows the end of click ``k``
and the start of click ``k+1`` (the strip slides past the window), so each neighbouring pair
gives composites at f = 0.2, 0.25, ... 0.8. Clicks that print exactly the same values, colours
and marks are one class (``click_groups.py``); each template is labelled with the look it is
(a click's grey group, or a mid-turn pair), and the model knows in which regions two looks'
prints differ (where the decision weighs them against each other, ``decision.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from dialtray.vision.align import Target, align, shift, warped
from dialtray.vision.click_groups import ClickGroups
from dialtray.vision.faces import Face
from dialtray.vision.layout import Window
from dialtray.vision.normal import normalise
from dialtray.vision.prints import consistent
from dialtray.vision.reading import BETWEEN, CLICK
from dialtray.vision.regions import region_names, region_shows, window_regions
from dialtray.vision.register import BORDER_MM, SPP, CropGeometry, Image
from dialtray.vision.scoring import RegionScorer, blurred
from dialtray.vision.scoring import unit as _unit
from dialtray.vision.synth import grey

F32 = npt.NDArray[np.float32]

BETWEEN_FRACTIONS = tuple(i / 20 for i in range(4, 17))  # 0.2 .. 0.8
BANK_BLUR = (0.0, 1.0, 1.8)  # px of extra blur of each template bank


class DialModel:
    """The templates, labels, region scorer and click groups of one figure's dial through
    one window (``_model`` makes them; ``DialClassifier`` shares them between classifiers of
    the same dial), and what follows from the labels alone."""

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


    def _look_text(self, kind: str, a: int, b: int) -> str:
        if kind == BETWEEN:
            return f"mid-turn {a}-{b}"
        return "click " + "/".join(str(c) for c in self._group_clicks(a))

    def _group_clicks(self, group: int) -> tuple[int, ...]:
        return self.click_groups.clicks(group)

    def _label_text(self, label: int) -> str:
        return self._look_text(*self.label_list[label])


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
