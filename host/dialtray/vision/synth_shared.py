"""What a dial's classifier derives from its references, made once per distinct dial in the
process and shared by every classifier of it.

A classifier's templates, region scorer and click groups, and its ``Synthesis`` (blurred
banks, warp fitter), are fixed once made, the same every time for the same references, but
cost ~0.1 s and ~0.07 s a dial: a reader made again for the same references (a camera
restarted, a second reader reading afresh beside a live loop, each test and bench reader)
paid them again. Keyed by the content they are made from, never by identity: references
captured again differ and get their own. Nothing a read changes is shared (each classifier
keeps its own last read, alignment and deferred synthesis).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import numpy as np

from dialtray.vision import synth
from dialtray.vision.synth import F32, Synthesis

KEPT = 64  # distinct dials kept (a tray holds 8 figures of 1-2 dials; ~1 MB each at most)

T = TypeVar("T")


def content_key(*parts: Any) -> bytes:
    """A digest of ``parts``: arrays (also inside lists and tuples) by shape, type and bytes,
    anything else by its ``repr``."""
    h = hashlib.blake2b(digest_size=20)

    def feed(p: Any) -> None:
        if isinstance(p, np.ndarray):
            h.update(repr((p.shape, str(p.dtype))).encode())
            h.update(np.ascontiguousarray(p).tobytes())
        elif isinstance(p, list | tuple):
            h.update(f"<{type(p).__name__} {len(p)}>".encode())
            for q in p:
                feed(q)
        else:
            h.update(repr(p).encode())
        h.update(b"|")

    for part in parts:
        feed(part)
    return h.digest()


class Shared(Generic[T]):
    """The value made for a key, kept for the next asker (least recently used dropped past
    ``KEPT``); thread-safe (two threads making the same key at once keep the first)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[bytes, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: bytes, make: Callable[[], T]) -> T:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        made = make()
        with self._lock:
            found = self._kept.setdefault(key, made)
            self._kept.move_to_end(key)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return found


_syntheses: Shared[Synthesis] = Shared()


def shared_synthesis(references: Sequence[F32], groups: Sequence[int], width: int,
                     mean_template: F32) -> Synthesis:
    """``Synthesis(references, groups, width, mean_template)``, the same object for the same
    content."""
    key = content_key(list(references), list(groups), width, mean_template,
                      synth.SYNTH_SIGMAS, synth.SYNTH_FRACTIONS, synth.RIM_INSIDE)
    return _syntheses.get(key, lambda: Synthesis(references, groups, width, mean_template))
