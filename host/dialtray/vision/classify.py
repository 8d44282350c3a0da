"""Reading a dial: one window crop against that figure's own reference crops, one per click.

A closed set, no OCR. The references become templates, one per click and mid-turn composites
between neighbouring clicks (``dial_model.py``, made once per distinct dial and shared). A read
aligns the crop once (``cv2.matchTemplate`` against the mean template: the rim and cell grid
are common to every click), then scores every template by normalised correlation (one matrix
product, ``scoring.py``) and decides (``decision.py``): the best class if it beats every
*other* class by a clear margin, else ``unknown`` — never a guess. Clicks that print exactly
the same values, colours and marks are one class: the camera cannot tell them apart, and says
so (``clicks`` lists them; the encoder decides). A read left unsure is made again by
synthesis, and a click read with little confidence is checked by it (``synth_check.py``).

This module is the read itself (where the window is, which bank to score with, when to align
exactly, when a synthesis runs or is deferred); the layers it stands on each have one job.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from dialtray.vision import prints
from dialtray.vision.align import Alignment, align, shift
from dialtray.vision.colours import palette_hues
from dialtray.vision.dial_model import BANK_BLUR, BETWEEN_FRACTIONS, F32
from dialtray.vision.faces import Face
from dialtray.vision.layout import Layout, Window
from dialtray.vision.normal import SMOOTH, highpass, normalise
from dialtray.vision.reading import CLICK, UNKNOWN, DialRead
from dialtray.vision.register import BORDER_MM, SPP, Image
from dialtray.vision.scoring import unit as _unit
from dialtray.vision.seen_colours import SeenColours
from dialtray.vision.synth_check import CHECK_BELOW, SynthesisChecks
from dialtray.vision.synth_shared import Shared, content_key
from dialtray.vision.synth_worker import pending_read

# what a classifier makes from its references, shared by every classifier of the same dial
_MODELS: Shared[dict[str, Any]] = Shared()

SINGLE_MIN_SCORE = 0.6  # a dial with one look: correlation with it that counts as seen
MIN_WINDOW_FIT = 0.5  # the aligned crop must look this much like the figure's window at all
# A read from a search's alignment without OpenCV's last ECC step (align.py) stands at this
# confidence (a click or mid-turn); below it the window is aligned exactly and read again
ROUGH_SURE = 0.7


class DialClassifier(SynthesisChecks):
    """The templates of one figure's dial through one window, and reads with them."""

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


    def _fresh(self) -> None:
        """What this classifier's reads change (never shared)."""
        self._fresh_decision()
        self._fresh_synthesis()
        self.deferred: Callable[[], DialRead] | None = None  # the last read's synthesis, deferred
        self._found: tuple[F32, npt.NDArray[np.float32], Mapping[str, str]] | None = None

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
        seen = SeenColours(crop, (x, y), self.window, self.hues)  # read if a decision asks
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
