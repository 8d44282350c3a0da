"""Burst reads: a settled dial read from several frames of its window, fused.

The held-back photographs do not hold enough to read 99.9 % of dials from one frame at a safe
margin (docs/vision.md, bench/ideal_observer.py); a webcam films a still dial at 30 frames a
second, and each frame's sensor noise and JPEG rounding are new. So when the encoder says a
dial has settled, the camera reads a short burst of that window: the window's crops are
averaged frame by frame (the reader is linear up to its first step, so the average is a
photo of the same dial with the noise shrunk by the square root of the frames) and the
average read by the same classifier, the same safety thresholds; while it stays unsure more
frames are added, up to ``most``. What is left unsure then is ``unknown``: the caller reads it
again later (a re-read), never takes it for a confirmation.

Averaging is only honest while the window does not change: a hand passing, a figure knocked
over it, the dial turning again. Each frame's window is compared with the previous one's
(``still.Change``: the print-band energy, in units of the frame's own noise measured on the
tray's corner markers, the live loop's own test with its threshold ``PRINT_NOISE``); a change
starts the average again from that frame (``restarts``), and a burst that keeps changing ends
``moving`` (the caller waits and reads again). A read that is mid-turn is ``between``.

A read the correlation leaves unsure is synthesised on the worker (``synth_worker.py``), never
on the camera's thread: the burst goes on adding frames meanwhile, and the worker's answer
counts on a later frame if the window has not changed since (a burst at ``most`` frames waits
up to ``WAIT_FRAMES`` more frames for it, without blocking). An unsure answer has the latest
average synthesised in its turn (up to ``most`` frames), so the last answer a burst waits for
is of (nearly) all its frames: before, a synthesis that took the burst's whole length was of
its first two frames, and the burst ended on it.

A burst told the encoder's click (``judge``, ``scene_looks.py``) that would end unsure has one
more chance, also on the worker: its frames against this scene's own photographs of the
rival clicks (a burst confirmed that way says so in ``scene``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import cv2
import numpy as np

from dialtray.vision.classify import DialClassifier
from dialtray.vision.layout import Window
from dialtray.vision.reading import BETWEEN, CLICK, UNKNOWN, DialRead
from dialtray.vision.register import Image, Registration
from dialtray.vision.scene_looks import MIN_FRAMES, Frames
from dialtray.vision.still import PRINT_NOISE, Change, marker_boxes
from dialtray.vision.synth_worker import WORKER, Pending

FIRST = 2  # frames averaged before the first read (one more than a single frame: a change
# between the two is seen before anything is trusted)
MOST = 12  # frames a burst may use, restarts included
MOVING = "moving"
WAIT_FRAMES = 60  # frames past ``most`` a burst waits for the worker's synthesis (2 s at 30 fps)


@dataclass
class BurstRead:
    """A burst's answer: ``status`` click / between / unknown / moving; ``read`` the fused
    frames' read; ``frames`` frames used; ``restarts`` changes seen in the window."""

    status: str
    read: DialRead | None
    frames: int
    restarts: int = 0
    reason: str = ""
    scene: str = ""  # confirmed by this scene's photographs (scene_looks.py): how
    seen: Frames | None = None  # the still frames the answer is of (since the last change)

    @property
    def clicks(self) -> tuple[int, ...]:
        return self.read.clicks if self.read is not None and self.status == CLICK else ()


def frame_noise(frame: Image, prev: Image, reg: Registration) -> float:
    """The frame-to-frame noise energy on the tray's corner markers (their median: a hand over
    one does not move it)."""
    levels = []
    for box in marker_boxes(reg):
        then = np.asarray(cv2.cvtColor(prev[box], cv2.COLOR_BGR2GRAY), np.uint8)
        levels.append(Change.of(frame[box], then).typical)
    return float(np.median(levels)) if levels else float("inf")


@dataclass
class WindowBurst:
    """One window's burst, fed frame by frame (``feed``) until it answers."""

    classifier: DialClassifier
    centre: tuple[float, float]
    window: Window
    base: str
    first: int = FIRST
    most: int = MOST
    frames: int = 0
    restarts: int = 0
    _sum: np.ndarray | None = None
    _n: int = 0
    _prev: Image | None = None
    _prev_frame: Image | None = None
    _box: tuple[slice, slice] | None = None
    history: list[str] = field(default_factory=list)
    _pending: Pending | None = None  # a synthesis of this burst's average, on the worker
    _pending_restarts: int = 0
    _synth_said: str = ""  # the reason of the worker's last unsure answer
    # the encoder's click against this scene's photographs (scene_looks.read_by_photos with
    # the classifier, photographs and click bound): tried once, when the burst would end
    # unsure
    judge: Callable[[Frames], DialRead] | None = None
    _judged: bool = False
    _judging: bool = False  # the pending job is the judge's
    _scene_said: str = ""
    _seen: Frames = field(default_factory=Frames)

    def feed(self, frame: Image, reg: Registration) -> BurstRead | None:
        """Add a frame; the burst's answer once it has one, else None (another frame)."""
        self.frames += 1
        box = reg.window_box(self.centre, self.window, self.base)
        grey = np.asarray(cv2.cvtColor(frame[box], cv2.COLOR_BGR2GRAY), np.uint8)
        if self._box != box:  # registered afresh: the crops still map the same dial; the
            self._prev = None  # pixels are compared from this frame on
        self._box = box
        if self._prev is not None and self._prev_frame is not None:
            level = frame_noise(frame, self._prev_frame, reg)
            change = Change.of(frame[box], self._prev)
            if not np.isfinite(level) or change.local > PRINT_NOISE * max(level, 1e-3):
                self.restarts += 1
                self._sum, self._n = None, 0  # the window changed: average from here
                self._synth_said = ""
                self._seen = Frames()
                self.history.append(f"frame {self.frames}: the window changed")
        self._prev, self._prev_frame = grey, frame
        raw = reg.crop(frame, self.centre, self.window, self.base)
        if self._seen.n < 2 * self.most:  # (a burst waiting for the worker: bounded)
            self._seen.add(raw)
        crop = raw.astype(np.float32)
        self._sum = crop if self._sum is None else self._sum + crop
        self._n += 1
        if self._n < min(self.first, self.most) and self.frames < self.most:
            return None
        avg = np.clip(np.round(self._sum / self._n), 0, 255).astype(np.uint8)
        read = self.classifier.read(avg, defer=True)
        deferred = self.classifier.deferred
        done = self._synthesised()
        scene: DialRead | None = None
        if done is not None and self._judging:
            scene, done, self._judging = done, None, False
            self._scene_said = scene.reason
        if done is not None:
            self._synth_said = done.reason  # what the synthesis found (an unsure end says it)
        if read.status != CLICK and done is not None and done.status in (CLICK, BETWEEN):
            read = done  # the worker's read of an earlier average of these same frames
        elif deferred is not None and self._pending is None and self.frames <= self.most:
            # this average synthesised (the worker's earlier answer, of fewer frames, if any,
            # was unsure: a burst that ended on it had synthesised only its first frames)
            self._pending = WORKER.submit(deferred)
            self._pending_restarts = self.restarts
        if read.status == CLICK:
            self._drop()
            return BurstRead(CLICK, read, self.frames, self.restarts, seen=self._seen)
        if scene is not None and scene.status == CLICK:
            return BurstRead(CLICK, scene, self.frames, self.restarts, scene=scene.reason,
                             seen=self._seen)
        if read.status == BETWEEN and self._n >= self.first:
            return BurstRead(BETWEEN, read, self.frames, self.restarts,
                             "the dial is between two clicks")
        if self.frames >= self.most:
            if self._pending is not None and self.frames < self.most + WAIT_FRAMES:
                return None  # the worker is still reading: its answer on a later frame
            if self.judge is not None and not self._judged and self._seen.n >= MIN_FRAMES \
                    and self.frames < self.most + WAIT_FRAMES:
                self._judged = self._judging = True  # unsure: the scene's photographs
                self._pending = WORKER.submit(partial(self.judge, self._seen.copy()))
                self._pending_restarts = self.restarts
                return None
            self._drop()
            if self.restarts and self._n < self.first:
                return BurstRead(MOVING, read, self.frames, self.restarts,
                                 "the window kept changing (a hand, a figure, the dial "
                                 "turning): read it again when the tray is still")
            said = self._synth_said or read.reason or "the camera is not sure of this dial"
            if self._scene_said:
                said = f"{said}; {self._scene_said}"
            return BurstRead(UNKNOWN, read, self.frames, self.restarts, said)
        return None

    def _synthesised(self) -> DialRead | None:
        """The worker's answer, once done, if the window has not changed since the frames it
        read (else it is dropped)."""
        p = self._pending
        if p is None:
            return None
        if self.restarts != self._pending_restarts:
            self._drop()
            self._judging = False
            return None
        if not p.done():
            return None
        self._pending = None
        return p.result()

    def _drop(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None


__all__ = ["BETWEEN", "CLICK", "FIRST", "MOST", "MOVING", "UNKNOWN", "BurstRead", "WindowBurst",
           "frame_noise"]
