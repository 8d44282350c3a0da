"""What the camera at the table is told and keeps: its settings, and per dial the read in
progress (``Job``) and what its window looked like last (``Watch``).

Split out of ``witness.py`` so that the witness's parts (the watch of every window,
``witness_watch.py``; the answer a burst read becomes, ``witness_answers.py``; the tracker's
side and the camera's thread, ``witness.py``) share one declared state rather than each
assuming the others' attributes. Nothing here reads a frame or decides anything.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from dialtray.vision.burst import MOST, WindowBurst
from dialtray.vision.reader import TrayReader
from dialtray.vision.register import Image, Registration
from dialtray.vision.scene_looks import Album
from dialtray.vision.virtual_camera import FrameSource
from dialtray.vision.witnessed import Witnessed

REREADS = 3  # bursts per settled click before "unsure"
STILL_FRAMES = 3  # a window unchanged this many frames is still (camera-only dials)
RETRY_FRAMES = 10  # camera-only: frames before a dial left unsure is read again
LOST_FRAMES = 30  # frames without the tray's markers before every open read ends unsure
PHOTO_FRAMES = 24  # a confirmed click's photograph grows to this many still frames
SUPERSEDE_S = 1.0  # a disagreeing read of a window changed this recently waits this long still
# for the encoder's report of a newer click (ms after the dial rests, plus the link, the load)
UNEXPLAINED_S = 2.0  # a window change with no settled click of its encoder this near: the
# scene changed under its photographs (a knock, a hand, a figure moved): they are dropped

Key = tuple[int, str]


@dataclass
class Job:
    """A dial the camera is to read: a settle to answer, a start to photograph, or (no
    encoder) the camera's own read; with the burst in progress and how many it took."""

    key: Key
    encoder: int | None
    plausible: bool
    since: float
    burst: WindowBurst | None = None
    bursts: int = 0
    frames: int = 0
    reg: Registration | None = None
    held: bool = False  # a disagreement: read again once the window changed and is still
    asked: float | None = None  # when ``settled`` was called (None: the camera's own read)
    photo: bool = False  # only a photograph of the dial's known click is wanted (no answer)
    deferred: int = 0  # disagreeing reads of a window that had just changed (``SUPERSEDE_S``)


@dataclass
class Watch:
    """A docked window as the watch last saw it (``witness_watch.py``): its grey pixels,
    where it is in the frame, and since when it is still or moving."""

    grey: Image | None = None
    box: tuple[slice, slice] | None = None  # the window's frame pixels (the camera's pose)
    still: int = 0
    moving_since: float | None = None
    changed: float = float("-inf")  # when the window was last seen changing (or first seen)


@dataclass
class WitnessState:
    """The witness's settings and state (``witness.CameraWitness`` is the one to make).
    ``docks``: dock -> figure id on it."""

    camera: FrameSource
    reader: TrayReader
    docks: Mapping[int, str]
    on_result: Callable[[Witnessed], None] | None = None
    on_frame: Callable[[float], None] | None = None  # after each frame the tray was found on
    # (the camera's thread): a camera-only tray's settle window is timed by it
    watch: bool = False
    camera_only: bool = False  # no encoders: the camera's reads are the dial events
    rereads: int = REREADS
    most: int = MOST
    photo_frames: int = PHOTO_FRAMES
    unexplained_s: float = UNEXPLAINED_S
    supersede_s: float = SUPERSEDE_S
    # The encoder has found the dial somewhere it has not reported yet (a virtual tray, whose
    # firmware can be off the CPU between seeing a dial and reporting it for longer than
    # ``supersede_s``): a disagreeing read waits for that report (``_defer``). None: a real
    # tray, which reports within milliseconds of a dial coming to rest.
    unreported: Callable[[Key], bool] | None = None
    clock: Callable[[], float] = time.monotonic
    results: list[Witnessed] = field(default_factory=list)
    moves: list[tuple[int, str, float]] = field(default_factory=list)
    frames: int = 0
    superseded: int = 0  # settles a newer settle of the dial overtook before they were answered
    deferred: int = 0  # disagreeing reads of a window that had just changed, read again
    cpu_s: float = 0.0  # the reading thread's CPU (thread_time), all frames
    error: str = ""

    def __post_init__(self) -> None:
        self.docks = dict(self.docks)
        self._requests: queue.SimpleQueue[tuple[str, Key, int | None, bool, float]] = \
            queue.SimpleQueue()
        self._jobs: dict[Key, Job] = {}
        self._watch: dict[Key, Watch] = {}
        self._last: dict[Key, int] = {}
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reg: Registration | None = None
        self._prev: Image | None = None
        self._lost = 0
        self._pending = 0
        self._retry: dict[Key, int] = {}  # camera-only: the frame an unsure dial is read again
        self.album = Album()  # this scene's photographs of confirmed clicks (scene_looks.py)
        self._asked: dict[Key, float] = {}  # when each dial's encoder last settled
        self._unexplained: dict[Key, float] = {}  # window changes not yet matched to a turn
