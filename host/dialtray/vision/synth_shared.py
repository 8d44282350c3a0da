"""One ``Synthesis`` per distinct dial, shared by every classifier of it in the process.

A ``Synthesis`` is fixed once made (its blurred banks and warp fitter are built on the first
read that needs them, the same every time), but building the banks costs ~0.15 s a dial
(``synth._gram``): a reader made again for the same references (a camera restarted, a
second reader reading afresh beside a live loop, each test and bench reader) paid it again.
Keyed by the content it is made from, never by identity: references captured again differ
and get their own. Reads share nothing else (each classifier keeps its own last read).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from dialtray.vision.synth import F32, Synthesis

KEPT = 64  # distinct dials kept (a tray holds 8 figures of 1-2 dials; ~1 MB each at most)

_shared: OrderedDict[bytes, Synthesis] = OrderedDict()
_lock = threading.Lock()


def _key(references: Sequence[F32], groups: Sequence[int], width: int,
         mean_template: F32) -> bytes:
    h = hashlib.blake2b(digest_size=20)
    h.update(repr((list(groups), width, mean_template.shape, str(mean_template.dtype),
                   [(r.shape, str(r.dtype)) for r in references])).encode())
    h.update(np.ascontiguousarray(mean_template).tobytes())
    for r in references:
        h.update(np.ascontiguousarray(r).tobytes())
    return h.digest()


def shared_synthesis(references: Sequence[F32], groups: Sequence[int], width: int,
                     mean_template: F32) -> Synthesis:
    """``Synthesis(references, groups, width, mean_template)``, the same object for the same
    content (the least recently used dropped past ``KEPT``)."""
    key = _key(references, groups, width, mean_template)
    with _lock:
        found = _shared.get(key)
        if found is not None:
            _shared.move_to_end(key)
            return found
    made = Synthesis(references, groups, width, mean_template)
    with _lock:
        found = _shared.setdefault(key, made)
        _shared.move_to_end(key)
        while len(_shared) > KEPT:
            _shared.popitem(last=False)
    return found
