"""A read the correlation leaves unsure, made again by synthesis; a click it reads with little
confidence, checked by synthesis.

Split out of ``classify.py`` so that the second opinion (``synth.py`` synthesises each look of
the dial and finds which explains the photo) is apart from the correlation's decision
(``decision.py``). It runs only when needed, on the frame's thread or deferred to the worker
(``synth_worker.py``), and its thresholds are where a synthesis's lead counts.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from dialtray.vision.align import align, shift
from dialtray.vision.colours import read_colours
from dialtray.vision.decision import BETWEEN_THRESHOLD, CONFIDENCE_THRESHOLD, CorrelationDecision
from dialtray.vision.dial_model import F32
from dialtray.vision.normal import normalise
from dialtray.vision.reading import BETWEEN, CLICK, UNKNOWN, DialRead
from dialtray.vision.register import SPP, Image
from dialtray.vision.synth import MAX_HIDDEN, Synthesis, SynthRead
from dialtray.vision.synth_shared import shared_synthesis

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


class SynthesisChecks(CorrelationDecision):
    """A deciding dial model that can read a window again by synthesis (``_by_synthesis``)
    and check a click read with little confidence (``_checked``)."""

    def _fresh_synthesis(self) -> None:
        """What a synthesis changes (never shared)."""
        self._synthesis: Synthesis | None = None
        self._synth_lock = threading.Lock()
        # the last synthesis and how the correlation's likeliest look agreed: AGREED, WEAK, ""
        self.last_synthesis: tuple[SynthRead, str] | None = None
        # the last check of a click read with little confidence: the synthesis, and whether
        # it agreed (``CHECK_BELOW``)
        self.last_check: tuple[SynthRead | None, bool] | None = None

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
                      warp: npt.NDArray[np.float32], seen: Mapping[str, str],
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
