"""The tray reader: one frame -> every docked figure's dials (register, crop, classify).

``TrayReader(layout, refs)`` builds each figure's classifiers once (``refs``: figure id ->
``FigureRefs``). ``read(frame, {dock: figure id})`` registers the frame (or reuses a given
``Registration`` — the camera and tray do not move between frames, so a live loop may
re-register only now and then) and reads each window of each docked figure. With a reused
registration each window's alignment from the previous frame is tried first too (a base that
has not moved needs no new search; one that did fits worse and is searched again).
``follow(frame)`` is that live loop's registration: every frame checks the markers near
where they were (cheap) and keeps the registration while they stay put.

A live loop (``follow(frame)``, then ``read`` of that frame with the registration it gave)
also returns the kept reads of windows whose pixels have not changed (``still.py``), and
never runs a synthesis itself: a window the correlation leaves unsure reads unknown while the
worker (``synth_worker.py``) synthesises it, and its answer is the window's kept read from the
first frame after it is done on which the window is still as it was read.
"""

from __future__ import annotations

from collections.abc import Mapping

from dialtray.vision.align import Alignment
from dialtray.vision.camera import CameraModel
from dialtray.vision.classify import DialClassifier
from dialtray.vision.errors import VisionError
from dialtray.vision.layout import Layout
from dialtray.vision.mosaic import Place, mosaic_of
from dialtray.vision.reading import DialRead
from dialtray.vision.refs import FigureRefs
from dialtray.vision.register import (
    Image,
    MarkerFinder,
    Registration,
    check_image,
    follow,
    register,
)
from dialtray.vision.still import Key, StillWindows
from dialtray.vision.synth_worker import WORKER


class TrayReader:
    def __init__(self, layout: Layout, refs: Mapping[str, FigureRefs],
                 camera: CameraModel | None = None, reuse: bool = True) -> None:
        """``reuse``: a live loop returns a window's kept read while its pixels have not
        changed (False: every window is read every frame)."""
        self.layout, self.refs, self.camera = layout, dict(refs), camera
        self.reuse = reuse
        self.finder = MarkerFinder(layout)
        self._classifiers: dict[str, dict[str, DialClassifier]] = {}
        self._hints: dict[Key, Alignment | None] = {}
        self.still = StillWindows()
        self._hints_for: Registration | None = None
        self._followed: Registration | None = None
        self._followed_frame: Image | None = None  # the frame follow() confirmed the markers on
        self.reused: set[tuple[int, str]] = set()  # (dock, dial) answered from a kept read
        self.worker = WORKER  # a live loop's syntheses run there (synth_worker.py)

    def settle(self, timeout: float = 60.0) -> bool:
        """Wait until the syntheses of kept reads have finished (tests and benches that want
        the worker's answers on the next frame; a live loop never waits)."""
        return all(p.wait(timeout) for p in self.still.pending())

    def classifiers(self, figure: str) -> dict[str, DialClassifier]:
        if figure not in self._classifiers:
            if figure not in self.refs:
                known = ", ".join(sorted(self.refs)) or "none"
                raise VisionError(f"unknown figure {figure!r}: no reference crops for it "
                                  f"(captured: {known}; run dialtray capture)")
            r = self.refs[figure]
            bt = self.layout.base_type(r.base_type)
            missing = sorted(set(r.faces) - set(bt.windows))
            if missing:
                raise VisionError(f"figure {figure}: base type {bt.name} has no "
                                  f"{', '.join(missing)} window in {self.layout.file}")
            self._classifiers[figure] = {
                d: DialClassifier(d, r.faces[d], r.crops[d], bt.windows[d], self.layout)
                for d in r.faces}
        return self._classifiers[figure]

    def register(self, image: Image, what: str = "image") -> Registration:
        check_image(image, what, self.camera)
        return register(image, self.finder, self.camera, what)

    def follow(self, image: Image, what: str = "frame") -> Registration:
        """A live loop's registration: the markers looked for near where they were in the
        last frame; while they stay put the same registration (window maps and alignments
        kept) is returned. See ``register.follow``."""
        check_image(image, what, self.camera)
        self._followed = follow(image, self.finder, self._followed, self.camera, what)
        self._followed_frame = image
        return self._followed

    def read(self, image: Image, docks: Mapping[int, str], registration: Registration | None = None,
             what: str = "image") -> dict[int, dict[str, DialRead]]:
        for dock, figure in docks.items():
            if dock not in self.layout.places:  # a dock, or a dock's holder (layout.HOLDER)
                raise VisionError(f"dock {dock} is not in the layout {self.layout.file} "
                                  f"(docks {min(self.layout.docks)}-{max(self.layout.docks)})")
            self.classifiers(figure)
        reg = registration or self.register(image, what)
        if reg is not self._hints_for:  # alignments and kept reads belong to one registration
            self._hints.clear()
            self.still.forget_all_but(set())
            self.still = StillWindows()
            self._hints_for = reg
        windows = [((dock, figure, d), c) for dock, figure in sorted(docks.items())
                   for d, c in self.classifiers(figure).items()]
        # every window's crop from one map of the registration (mosaic.py)
        mosaic = mosaic_of(reg, [self._place(k) for k, _ in windows])
        # kept reads only in a live loop: the markers confirmed on this very frame (a
        # registration passed in without follow() may be stale: the camera may have moved)
        live = self.reuse and reg is self._followed and image is self._followed_frame
        kept: dict[int, DialRead] = {}
        if live:
            self.still.compare(image, reg, {k: mosaic.boxes[i]
                                            for i, (k, _) in enumerate(windows)})
            for i, (key, _) in enumerate(windows):
                read = self.still.kept_read(key)
                if read is not None:
                    kept[i] = read
        crops, logs = mosaic.crops(image, [i for i in range(len(windows)) if i not in kept])
        out: dict[int, dict[str, DialRead]] = {}
        self.reused = set()
        for i, (key, c) in enumerate(windows):
            dock, figure, d = key
            if i in kept:
                read = kept[i]
                self.reused.add((dock, d))
            else:
                read = c.read(crops[i], self._hints.get(key), defer=live, log_grey=logs[i])
                self._hints[key] = c.last_alignment
                pending = self.worker.submit(c.deferred) if c.deferred is not None else None
                if self.reuse:
                    self.still.keep(key, image, mosaic.boxes[i], read, 7 * i, pending)
            out.setdefault(dock, {})[d] = read
        self.still.forget_all_but({k for k, _ in windows})
        return out

    def _place(self, key: Key) -> Place:
        """Where a window's crop is sampled: its base's dock centre, the window, base type."""
        dock, figure, d = key
        bt = self.layout.base_type(self.refs[figure].base_type)
        return self.layout.places[dock], bt.windows[d], bt.name
