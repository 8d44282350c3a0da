"""The camera at the table: a thread that films the tray and checks each settled dial.

``CameraWitness`` owns the camera (a webcam, or the virtual tray's ``VirtualCamera``) and a
``TrayReader``. The tracker never waits for it: ``settled`` and ``turning`` only queue a
request and return; the camera's thread answers each settled click with a burst read
(``burst.py``) fused with the encoder by ``fusion.fuse``, and hands back a ``Witnessed``
through ``on_result`` (called on the camera's thread: a table marshals it to its own loop)
and in ``results``:

- ``confirmed``: the camera sees the encoder's click (an open read names it; or, left unsure,
  the synthesis's best look is the encoder's click and every close rival is excluded by this
  scene's own photograph of it: ``scene_looks.py``, ``reason`` says so);
- ``disagree``: the camera is sure of another click: the value to use stays the last confirmed
  one (``click``), and ``todo`` says what to do (re-seat the figure, turn the dial to ...); the
  window is read again once it has changed and is still, until they agree. Not yet when the
  window changed under ``SUPERSEDE_S`` ago (``deferred``, mid-turn too): the dial may have
  been turned on since it settled (a person's next click; on the virtual tray, also the
  firmware off the CPU between seeing a dial and reporting it), that click's report on its
  way. It is read again once still that long; a newer settle supersedes it (``superseded``);
- ``mid-turn``: the dial sits between two clicks: wait (read again shortly);
- ``unsure``: bursts (``rereads`` of them) left the camera unsure: the encoder's click stands,
  unconfirmed; a hand, a figure knocked over the window or a base off its dock end here,
  held, never misread;
- ``camera-only``: a dial with no encoder (``--no-encoders``), read by the camera alone.

With ``watch`` on, every frame is also compared with the last for every docked window
(``still.Change``, the live loop's test): a window that changed is a ``moves`` entry (the
camera saw the dial or something over it move: a peek, a wrong dial turned), and a dial with
no encoder is burst-read once its window has been still ``STILL_FRAMES`` frames: its reads
are the dial events (``camera-only``).

**Photographs of the scene** (``album``, ``scene_looks.Album``): each click an open read
confirmed leaves its burst's average as that window's photograph of that click, grown while
the window stays still (up to ``PHOTO_FRAMES``); ``photograph`` asks for one of a dial's
start (the game's first click, confirmed by the camera before it counts). They are forgotten
when the camera moved (a registration whose markers moved, ``scene_looks.MOVED_PX``), a
disagreement (a re-seat asked for), a burst that kept changing (a hand), and a window that
changed with no encoder turn near it (``UNEXPLAINED_S``: a knock, a hand);
``scene_looks.judge`` also refuses a photograph whose rim no longer matches.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial

import cv2
import numpy as np

from dialtray.vision.burst import MOST, MOVING, BurstRead, WindowBurst, frame_noise
from dialtray.vision.errors import VisionError
from dialtray.vision.fusion import CONFIRMED, CameraView, fuse
from dialtray.vision.layout import place_text
from dialtray.vision.reader import TrayReader
from dialtray.vision.reading import BETWEEN, CLICK
from dialtray.vision.register import Image, Registration
from dialtray.vision.scene_looks import Album, read_by_photos
from dialtray.vision.still import PRINT_NOISE, Change
from dialtray.vision.virtual_camera import FrameSource
from dialtray.vision.witnessed import CAMERA_ONLY, CONFIRM, DISAGREE, MIDTURN, UNSURE, Witnessed

__all__ = ["CAMERA_ONLY", "CONFIRM", "DISAGREE", "MIDTURN", "UNSURE", "CameraWitness",
           "Witnessed"]

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
class _Job:
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
class _Watch:
    grey: Image | None = None
    box: tuple[slice, slice] | None = None  # the window's frame pixels (the camera's pose)
    still: int = 0
    moving_since: float | None = None
    changed: float = float("-inf")  # when the window was last seen changing (or first seen)


@dataclass
class CameraWitness:
    """See the module docstring. ``docks``: dock -> figure id on it."""

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
        self._jobs: dict[Key, _Job] = {}
        self._watch: dict[Key, _Watch] = {}
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

    # ---- the tracker's side: never blocks -------------------------------------------------

    def settled(self, dock: int, dial: str, click: int | None, plausible: bool = True) -> None:
        """The encoder says ``dock``'s ``dial`` settled on ``click`` (the figure's click
        index); ``plausible``: the rules move this dial now (``fusion.may_move``)."""
        with self._cond:
            self._pending += 1
        self._requests.put(("settled", (dock, dial), click, plausible, self.clock()))

    def photograph(self, dock: int, dial: str, click: int) -> None:
        """The dial rests at ``click`` (the game's start): a burst of it is kept as this
        scene's photograph of that click if an open read names it (no answer is given)."""
        with self._cond:
            self._pending += 1
        self._requests.put(("photo", (dock, dial), click, True, self.clock()))

    def turning(self, dock: int, dial: str) -> None:
        """The encoder says the dial is moving: any read of it in progress is dropped."""
        self._requests.put(("turning", (dock, dial), None, True, self.clock()))

    def last_confirmed(self, dock: int, dial: str) -> int | None:
        return self._last.get((dock, dial))

    def set_confirmed(self, dock: int, dial: str, click: int) -> None:
        """Where the game starts a dial (both sources agree by construction)."""
        self._last[(dock, dial)] = click

    def idle(self) -> bool:
        """Nothing to read now (a held disagreement waits for the player, not the camera)."""
        with self._cond:
            return self._pending == 0 and all(j.held for j in list(self._jobs.values()))

    def still_for(self, dock: int, dial: str, now: float) -> float:
        """Seconds ``dock``'s ``dial`` window has been still up to ``now`` (0 while it moves,
        while it is being read, or before it is watched). (The camera's thread.)"""
        key = (dock, dial)
        w = self._watch.get(key)
        job = self._jobs.get(key)
        if w is None or w.moving_since is not None or (job is not None and not job.held):
            return 0.0
        return max(0.0, now - w.changed)

    def wait(self, what: Callable[[], bool], timeout: float = 60.0) -> bool:
        """Wait (on the camera's own progress) until ``what()`` holds; False on timeout or
        when the camera thread ended."""
        end = time.monotonic() + timeout
        with self._cond:
            while not what():
                left = end - time.monotonic()
                if left <= 0 or (self._thread is not None and not self._thread.is_alive()):
                    return what()
                self._cond.wait(min(left, 0.5))
            return True

    # ---- the camera's thread ---------------------------------------------------------------

    def start(self) -> CameraWitness:
        self._thread = threading.Thread(target=self._run, name="camera-witness", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        self.camera.release()

    def __enter__(self) -> CameraWitness:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        cv2.setNumThreads(1)
        try:
            while not self._stop.is_set():
                taken = self.clock()  # the frame is no older than this
                ok, frame = self.camera.read()
                if not ok or frame is None:
                    self.error = "the camera stopped sending frames"
                    break
                c0 = time.thread_time()
                self.step(frame, taken)
                self.cpu_s += time.thread_time() - c0
        finally:
            with self._cond:
                self._cond.notify_all()

    def step(self, frame: Image, taken: float | None = None) -> None:
        """One frame: requests in, registration, watch, bursts. (The thread's loop; a test or
        bench may call it directly with frames of its own.) ``taken``: when the camera was
        asked for the frame; a read asked for after that does not use it (it may show the
        dial before it settled)."""
        self.frames += 1
        now = self.clock()
        self._take_requests(now)
        try:
            reg = self.reader.follow(frame)
            self._lost = 0
        except VisionError as e:
            self._lost += 1
            if self._lost >= LOST_FRAMES:
                for job in list(self._jobs.values()):
                    self._finish(job, UNSURE, None, f"the camera cannot find the tray ({e})",
                                 "clear the tray's corners; the camera reads it again", now)
            self._prev = None
            return
        if reg is not self._reg:
            self._reg = reg
            if not self.album.registered(reg):  # the camera moved: photographs forgotten,
                self._watch.clear()  # every burst begun again, every window watched anew
                for job in self._jobs.values():  # (one on the markers' noise leaves them:
                    job.burst = None  # the crops map the same dial, the same pixels)
        level = frame_noise(frame, self._prev, reg) if self._prev is not None else float("inf")
        self._prev = frame
        if self.watch or self.camera_only:
            self._look(frame, reg, level, now)
        for job in list(self._jobs.values()):
            if taken is None or job.since <= taken:
                self._advance(job, frame, reg, now)
        self._explain(now)
        if self.on_frame is not None:
            self.on_frame(now)
        with self._cond:
            self._cond.notify_all()

    def _take_requests(self, now: float) -> None:
        while True:
            try:
                kind, key, click, plausible, asked = self._requests.get_nowait()
            except queue.Empty:
                return
            self.album.stop(key)  # the dial moves: its photograph is done
            if kind == "turning":
                job = self._jobs.get(key)
                if job is not None:
                    job.burst = None
                continue
            if kind == "settled":
                self._asked[key] = asked
                old = self._jobs.get(key)  # unanswered, overtaken by a newer click:
                self.superseded += old is not None and old.encoder is not None and \
                    not (old.photo or old.held)
            with self._cond:  # the request becomes a job in one step (``idle`` never sees
                self._pending -= 1  # it in neither)
                if key[0] not in self.docks:  # (no figure on that dock: nothing to read)
                    continue
                if kind == "photo":
                    if key not in self._jobs and not self.camera_only:
                        self._jobs[key] = _Job(key, click, plausible, now, photo=True)
                    continue
                self._jobs[key] = _Job(key, click, plausible, now, asked=asked)

    def _look(self, frame: Image, reg: Registration, level: float, now: float) -> None:
        """Which windows changed since the last frame (moves; camera-only dials' settles)."""
        for dock, figure in self.docks.items():
            for dial in self.reader.classifiers(figure):
                key = (dock, dial)
                bt = self.reader.layout.base_type(self.reader.refs[figure].base_type)
                w = self._watch.get(key)
                if w is None:  # its history unknown: still from now on
                    w = self._watch[key] = _Watch(changed=now)
                if w.box is None:  # its frame pixels while the camera stays put (not moved
                    # a pixel to and fro by re-registrations on the markers' noise)
                    w.box = reg.window_box(self.reader.layout.places[dock], bt.windows[dial],
                                           bt.name)
                box = w.box
                grey = np.asarray(cv2.cvtColor(frame[box], cv2.COLOR_BGR2GRAY), np.uint8)
                if w.grey is not None and np.isfinite(level):
                    if Change.of(frame[box], w.grey).local > PRINT_NOISE * max(level, 1e-3):
                        self.album.stop(key)
                        self._unexplained.setdefault(key, now)
                        w.changed = now
                        if w.moving_since is None:
                            w.moving_since = now
                            self.moves.append((dock, dial, now))
                        w.still = 0
                        job = self._jobs.get(key)
                        if self.camera_only and job is not None and job.encoder is None:
                            del self._jobs[key]  # read once it is still again
                    else:
                        w.still += 1
                        if self.album.growing(key):
                            self.album.add(key, reg.crop(frame, self.reader.layout.places[dock],
                                                         bt.windows[dial], bt.name))
                w.grey = grey
                if w.moving_since is not None and w.still >= STILL_FRAMES:
                    w.moving_since = None
                    job = self._jobs.get(key)
                    if job is not None and job.held:
                        job.held, job.bursts = False, 0  # re-seated: read it again
                    elif self.camera_only and job is None:
                        self._jobs[key] = _Job(key, None, True, now)
                if self.camera_only and key not in self._jobs and w.moving_since is None \
                        and self._retry.get(key, -1) == self.frames:
                    self._jobs[key] = _Job(key, None, True, now)  # unsure: read it again

    def _explain(self, now: float) -> None:
        """Window changes with no encoder turn near them drop the window's photographs."""
        for key, at in list(self._unexplained.items()):
            if abs(self._asked.get(key, -1e9) - at) <= self.unexplained_s:
                del self._unexplained[key]
            elif now - at > self.unexplained_s:
                del self._unexplained[key]
                self.album.drop(key)

    def _kept(self, job: _Job, a: BurstRead) -> None:
        """An open read named the dial's click: its frames are this scene's photograph of it,
        grown while the window stays still."""
        if a.scene or a.seen is None or job.encoder is None or self.camera_only:
            return
        self.album.keep(job.key, job.encoder, a.seen)
        if self.watch:
            self.album.grow(job.key, job.encoder, a.seen, self.photo_frames)

    def _advance(self, job: _Job, frame: Image, reg: Registration, now: float) -> None:
        if job.held or (job.deferred and (self._recent(job.key, now)
                                           or self._unreported(job.key))):
            return  # (a deferred read waits for the window to be still ``SUPERSEDE_S``)
        dock, dial = job.key
        figure = self.docks[dock]
        if job.burst is None:
            bt = self.reader.layout.base_type(self.reader.refs[figure].base_type)
            c = self.reader.classifiers(figure)[dial]
            job.burst = WindowBurst(c, self.reader.layout.places[dock], bt.windows[dial],
                                    bt.name, most=self.most)
            photos = self.album.photos(job.key)
            if job.encoder is not None and not job.photo and set(photos) - {job.encoder}:
                job.burst.judge = partial(read_by_photos, c, photos, job.encoder)
            job.bursts += 1
        answer = job.burst.feed(frame, reg)
        job.frames += 1
        if answer is not None:
            job.burst = None
            self._answer(job, answer, now)

    def _answer(self, job: _Job, a: BurstRead, now: float) -> None:
        key = job.key
        last = self._last.get(key)
        if job.photo:  # the dial's known click photographed if an open read names it
            if a.status == CLICK and a.read is not None and job.encoder in a.read.clicks:
                self._kept(job, a)
            self._finish(job, CONFIRM, a, "", "", now)
            return
        if a.status == CLICK and a.read is not None:
            if job.encoder is None:  # no encoder: the camera's read is the dial's value; clicks
                # that print alike are one read (the last one if it is among them, else None:
                # which of them is for the rules to say, camera_tray.CameraTray.expect)
                clicks = a.read.clicks
                one = clicks[0] if len(clicks) == 1 else last if last in clicks else None
                if one is not None:
                    self._last[key] = one
                self._finish(job, CAMERA_ONLY, a, "" if one is not None else
                             f"clicks {', '.join(map(str, clicks))} print alike", "", now,
                             click=one)
                return
            f = fuse(last, job.encoder, CameraView(CLICK, a.read.clicks, a.read.confidence),
                     job.plausible)
            if f.state == CONFIRMED:
                self._last[key] = job.encoder
                self._kept(job, a)
                self._finish(job, CONFIRM, a, a.scene, "", now, click=job.encoder)
                return
            if self._defer(job, now):
                return
            self.album.drop(key)  # a re-seat is asked for: the base may move
            seen = " or ".join(str(c) for c in a.read.clicks)
            self._finish(job, DISAGREE, a,
                         f"the encoder says click {job.encoder}, the camera sees click {seen}",
                         f"re-seat the figure on {place_text(key[0])} (press it flat into its "
                         f"seat) and check its {key[1]} dial shows click {job.encoder}; the "
                         f"game keeps click {last} until the camera agrees", now, click=last,
                         keep=True)
            return
        if job.bursts < self.rereads:
            return  # read again: a new burst on the next frame
        if a.status == BETWEEN:
            if self._defer(job, now):
                return
            self._finish(job, MIDTURN, a, "the dial sits between two clicks",
                         "turn it onto a click", now, click=last if job.encoder is None
                         else job.encoder)
            return
        if a.status == MOVING:
            self.album.drop(key)  # a hand, a figure knocked: the scene may have changed
        why = a.reason if a.status == MOVING else (a.reason or "the camera is not sure")
        self._finish(job, UNSURE, a, why, "" if job.encoder is not None else
                     "the camera reads it again when the tray is still", now,
                     click=job.encoder if job.encoder is not None else last)

    def _recent(self, key: Key, now: float) -> bool:
        """The watch saw ``key``'s window change less than ``supersede_s`` ago."""
        w = self._watch.get(key)
        return w is not None and now - w.changed < self.supersede_s

    def _unreported(self, key: Key) -> bool:
        return self.unreported is not None and self.unreported(key)

    def _defer(self, job: _Job, now: float) -> bool:
        """A disagreeing or mid-turn read of a window just changed: turned on since it
        settled? Read again once still ``supersede_s`` (a newer settle supersedes it), or,
        while the encoder has a report of the dial on its way (``unreported``), once it
        has none."""
        if not self._unreported(job.key) and (job.deferred >= self.rereads
                                              or not self._recent(job.key, now)):
            return False
        job.deferred, job.bursts = job.deferred + 1, 0
        self.deferred += 1
        return True

    def _finish(self, job: _Job, state: str, a: BurstRead | None, reason: str, todo: str,
                now: float, click: int | None = None, keep: bool = False) -> None:
        dock, dial = job.key
        if job.photo:  # a start's photograph: no answer (nothing asked for one)
            with self._cond:
                self._jobs.pop(job.key, None)
                self._cond.notify_all()
            return
        w = Witnessed(dock, dial, self.docks[dock], job.encoder, state,
                      a.read.clicks if a is not None and a.read is not None
                      and a.status == CLICK else (), click, job.frames, job.bursts, reason,
                      todo, now, job.since if job.asked is None else min(job.asked, job.since))
        with self._cond:  # the job ends and its answer is there in one step: a caller that
            # waited for ``idle`` finds every answer in ``results``
            if keep:
                job.held = True
            else:
                self._jobs.pop(job.key, None)
            if self.camera_only and job.encoder is None and state in (UNSURE, MIDTURN):
                self._retry[job.key] = self.frames + RETRY_FRAMES
            self.results.append(w)
            self._cond.notify_all()
        if self.on_result is not None:
            self.on_result(w)
