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

The witness is layered, one job a module: ``witness_state.py`` (settings and their defaults,
``SUPERSEDE_S`` and the rest; per-dial jobs and watches), ``witness_watch.py`` (which windows
changed), ``witness_answers.py`` (a burst's read to an answer), and this module (the tracker's
side, the camera's thread, a frame's step).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from functools import partial

import cv2

from dialtray.vision.burst import WindowBurst, frame_noise
from dialtray.vision.errors import VisionError
from dialtray.vision.register import Image, Registration
from dialtray.vision.scene_looks import read_by_photos
from dialtray.vision.witness_answers import Answers
from dialtray.vision.witness_state import LOST_FRAMES, Job
from dialtray.vision.witness_watch import WindowWatch
from dialtray.vision.witnessed import CAMERA_ONLY, CONFIRM, DISAGREE, MIDTURN, UNSURE, Witnessed

__all__ = ["CAMERA_ONLY", "CONFIRM", "DISAGREE", "MIDTURN", "UNSURE", "CameraWitness",
           "Witnessed"]


class CameraWitness(WindowWatch, Answers):
    """See the module docstring; its settings are ``WitnessState``'s fields (``docks``: dock
    -> figure id on it)."""

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
                        self._jobs[key] = Job(key, click, plausible, now, photo=True)
                    continue
                self._jobs[key] = Job(key, click, plausible, now, asked=asked)


    def _advance(self, job: Job, frame: Image, reg: Registration, now: float) -> None:
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
