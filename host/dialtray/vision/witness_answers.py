"""What a burst read of a settled dial becomes: a ``Witnessed`` answer, a read again, or a
read deferred.

Split out of ``witness.py``: the burst's read is fused with the encoder (``fusion.fuse``) into
one of the states ``witness.py``'s docstring lists (confirmed, disagree, mid-turn, unsure,
camera-only); a disagreeing or mid-turn read of a window that has just changed waits
(``_defer``); an open read that confirms a click leaves this scene's photograph of it
(``_kept``); and each answer is handed over in one step with its job's end (``_finish``).
"""

from __future__ import annotations

from dialtray.vision.burst import MOVING, BurstRead
from dialtray.vision.fusion import CONFIRMED, CameraView, fuse
from dialtray.vision.layout import place_text
from dialtray.vision.reading import BETWEEN, CLICK
from dialtray.vision.witness_state import RETRY_FRAMES, Job, Key, WitnessState
from dialtray.vision.witnessed import CAMERA_ONLY, CONFIRM, DISAGREE, MIDTURN, UNSURE, Witnessed


class Answers(WitnessState):
    """From a burst's read to the answer (the camera's thread)."""

    def _kept(self, job: Job, a: BurstRead) -> None:
        """An open read named the dial's click: its frames are this scene's photograph of it,
        grown while the window stays still."""
        if a.scene or a.seen is None or job.encoder is None or self.camera_only:
            return
        self.album.keep(job.key, job.encoder, a.seen)
        if self.watch:
            self.album.grow(job.key, job.encoder, a.seen, self.photo_frames)
    def _answer(self, job: Job, a: BurstRead, now: float) -> None:
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

    def _defer(self, job: Job, now: float) -> bool:
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

    def _finish(self, job: Job, state: str, a: BurstRead | None, reason: str, todo: str,
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
