"""A webcam over the virtual tray: the reader opens it as it opens a real one.

``open_camera("0")`` is a real ``cv2.VideoCapture``; ``VirtualCamera`` answers the same calls
(``read() -> (ok, frame)``, ``isOpened``, ``release``, ``get``) from a rendered scene
(``scene.TrayScene``). The dials' true positions come from a ``DialWorld``: the physical dials
the virtual tray's person turns, a turn taking time, so a frame taken while a dial moves shows
it mid-turn. Every frame carries fresh sensor noise and the distortions of the chosen profile;
``read`` waits for the next frame time at ``fps`` (``pace=False``: at once, for tests and
benches, which wait for conditions, not rates).

What else a person does over a tray is in ``DialWorld`` too: a hand over it (``hand``), a
base seated off its dock (``unseat``), a figure knocked over a window (``knock``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from dialtray.vision.errors import VisionError
from dialtray.vision.render_dial import Image
from dialtray.vision.scene import Overlay, TrayScene

TURN_S_PER_CLICK = 0.12  # a person turns a dial about 8 clicks a second


class FrameSource(Protocol):
    """What the reader needs of a camera: ``cv2.VideoCapture``'s own calls."""

    def read(self) -> tuple[bool, Any]: ...

    def isOpened(self) -> bool: ...  # OpenCV's name

    def release(self) -> None: ...


@dataclass
class _Turn:
    start: float
    end: float
    frm: float
    to: float


@dataclass
class DialWorld:
    """The physical dials of a tray and what hovers over it, in clicks (a fraction:
    mid-turn), as time passes (``clock``).

    ``follow``: dials this world does not move itself but films where another world has them
    (a function giving the position now): the virtual tray's simulated dials, as its firmware
    last looked at them (``VirtualTray.seen``). Turned as two worlds, one after the other, the
    camera could show a dial the encoder had not reached under load (or the reverse) and call
    an honest turn a disagreement; followed, camera and encoder see one motion on one clock.
    A followed dial is turned through the world it follows (``turn`` refuses it)."""

    positions: dict[int, dict[str, float]]
    clock: Callable[[], float] = time.monotonic
    turns: dict[tuple[int, str], list[_Turn]] = field(default_factory=dict)  # in order
    hands: list[tuple[float, float, Overlay]] = field(default_factory=list)
    seats: dict[int, tuple[float, float, float] | None] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    follow: dict[tuple[int, str], Callable[[], float]] = field(default_factory=dict)

    def turn(self, dock: int, dial: str, clicks: float, seconds: float | None = None,
             after: float = 0.0) -> None:
        """A person turns a dial ``clicks`` (positive: clockwise), taking ``seconds``. A turn
        asked for while the dial is still turning is the hand's next motion: it starts where
        the last one ends, ``after`` seconds later (a regrip, a look at the dial)."""
        if (dock, dial) in self.follow:
            raise ValueError(f"dock {dock} {dial} follows another world's dial: turn it there")
        now = self.clock()
        with self.lock:
            queue = [t for t in self.turns.get((dock, dial), []) if t.end > now]
            start = max(now, queue[-1].end + after) if queue else now
            frm = self.positions[dock][dial]  # where the motions asked for so far leave it
            secs = TURN_S_PER_CLICK * max(abs(clicks), 1) if seconds is None else seconds
            self.turns[(dock, dial)] = [*queue, _Turn(start, start + secs, frm, frm + clicks)]
            self.positions[dock][dial] = frm + clicks

    def busy_until(self) -> float:
        """When the last motion asked for ends (the clock's time; now or earlier: still)."""
        with self.lock:
            return max((t.end for q in self.turns.values() for t in q), default=0.0)

    def at(self, dock: int, dial: str, now: float) -> float:
        followed = self.follow.get((dock, dial))
        if followed is not None:
            return followed()
        for t in self.turns.get((dock, dial), []):  # in order: the first not yet over
            if now < t.end:
                if now <= t.start:
                    return t.frm
                return t.frm + (t.to - t.frm) * (now - t.start) / max(t.end - t.start, 1e-9)
        return self.positions[dock][dial]

    def still(self, now: float | None = None) -> bool:
        now = self.clock() if now is None else now
        return all(now >= t.end for q in self.turns.values() for t in q)

    def now_positions(self, now: float) -> dict[int, dict[str, float]]:
        with self.lock:
            return {d: {k: self.at(d, k, now) for k in dials}
                    for d, dials in self.positions.items()}

    def over(self, paint: Overlay, seconds: float) -> None:
        """Something over the tray for ``seconds`` (a hand, a knocked figure)."""
        now = self.clock()
        with self.lock:
            self.hands.append((now, now + seconds, paint))

    def overlays(self, now: float) -> list[Overlay]:
        with self.lock:
            self.hands = [h for h in self.hands if h[1] > now]
            return [p for s, e, p in self.hands if s <= now]

    def unseat(self, dock: int, seat: tuple[float, float, float] | None) -> None:
        """The base on ``dock`` knocked ``seat`` (degrees, mm, mm) off its dock (None: seated
        again as it was)."""
        with self.lock:
            self.seats[dock] = seat


def blob(box: tuple[slice, slice], colour: tuple[int, int, int], cover: float = 0.6,
         shade: float = 0.35) -> Overlay:
    """Something opaque over part of a frame box (a hand: skin, a knocked figure: its colour),
    ``cover`` of the box's width, with a soft shadow around it."""
    ys, xs = box

    def paint(img: Any) -> None:
        h, w = ys.stop - ys.start, xs.stop - xs.start
        cx, cy = xs.start + w // 2, ys.start + h // 2
        axes = (max(int(w * cover / 2), 2), max(int(h * 0.7), 2))
        dark: Any = np.zeros(img.shape[:2], np.float32)
        cv2.ellipse(dark, (cx + 6, cy + 6), (axes[0] + 8, axes[1] + 8), 0, 0, 360, 1.0, -1)
        dark = cv2.GaussianBlur(dark, (0, 0), 6.0)
        img *= (1.0 - shade * dark)[:, :, None]
        cv2.ellipse(img, (cx, cy), axes, 0, 0, 360, tuple(float(c) for c in colour), -1)
    return paint


HAND = (120, 150, 200)  # skin, BGR


class VirtualCamera:
    """A webcam filming ``scene`` as ``world`` moves (see the module docstring)."""

    def __init__(self, scene: TrayScene, world: DialWorld, fps: float = 30.0, seed: int = 0,
                 pace: bool = False, sleep: Callable[[float], None] = time.sleep) -> None:
        self.scene, self.world, self.fps, self.pace = scene, world, fps, pace
        self._rng = np.random.default_rng(seed)
        self._sleep = sleep
        self._next = world.clock()
        self._open = True
        self.frames = 0
        self.last_time = 0.0
        self._seats: dict[int, tuple[float, float, float] | None] = {}

    def isOpened(self) -> bool:  # OpenCV's name
        return self._open

    def release(self) -> None:
        self._open = False

    def get(self, prop: int) -> float:
        if prop == cv2.CAP_PROP_FPS:
            return self.fps
        if prop == cv2.CAP_PROP_FRAME_WIDTH:
            return float(self.scene.size[0])
        if prop == cv2.CAP_PROP_FRAME_HEIGHT:
            return float(self.scene.size[1])
        return 0.0

    def read(self) -> tuple[bool, Image | None]:
        """The next frame (at its time, when paced): (True, BGR uint8), or (False, None)
        once released."""
        if not self._open:
            return False, None
        if self.pace:
            wait = self._next - self.world.clock()
            if wait > 0:
                self._sleep(wait)
            self._next = max(self._next + 1.0 / self.fps, self.world.clock())
        now = self.world.clock()
        with self.world.lock:
            seats = dict(self.world.seats)
        for dock, seat in seats.items():
            if self._seats.get(dock) != seat:
                self.scene.reseat(dock, seat)
                self._seats[dock] = seat
        self.scene.set_positions(self.world.now_positions(now))
        frame = self.scene.frame(self._rng, self.world.overlays(now))
        self.frames += 1
        self.last_time = now
        return True, frame


def open_camera(spec: str | int) -> FrameSource:
    """A real webcam by its number (``--camera 0``); the virtual one is built with its tray
    (``VirtualCamera``). Raises VisionError naming the camera when it cannot be opened."""
    try:
        index = int(spec)
    except (TypeError, ValueError):
        raise VisionError(f"--camera {spec!r}: give a webcam's number (0, 1, ...) or "
                          "'virtual' (the virtual tray's camera)") from None
    cap = cv2.VideoCapture(index)
    if not cap.isOpened():
        cap.release()
        raise VisionError(f"camera {index} could not be opened (is a webcam plugged in, and "
                          f"is /dev/video{index} free?)")
    return cap


def dock_positions(docks: Mapping[int, Any]) -> dict[int, dict[str, float]]:
    """The positions of a tray's ``DockSpec``s, as a ``DialWorld`` starts from."""
    return {d: dict(s.positions) for d, s in docks.items()}
