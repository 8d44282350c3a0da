"""Which windows changed since the last frame: the camera's own view of the dials moving.

Split out of ``witness.py``: with ``watch`` on (or a camera-only tray), every frame is compared
with the last for every docked window (``still.Change``, the live loop's test). A window that
changed is a ``moves`` entry and drops its photograph in the making; a camera-only dial is
read once its window has been still ``STILL_FRAMES`` frames; a held disagreement is read again
once its window changed and is still (re-seated); a window change no encoder turn explains
within ``unexplained_s`` drops that window's photographs (a knock, a hand).
"""

from __future__ import annotations

import cv2
import numpy as np

from dialtray.vision.register import Image, Registration
from dialtray.vision.still import PRINT_NOISE, Change
from dialtray.vision.witness_state import STILL_FRAMES, Job, Watch, WitnessState


class WindowWatch(WitnessState):
    """The watch of every docked window, frame by frame (the camera's thread)."""

    def still_for(self, dock: int, dial: str, now: float) -> float:
        """Seconds ``dock``'s ``dial`` window has been still up to ``now`` (0 while it moves,
        while it is being read, or before it is watched). (The camera's thread.)"""
        key = (dock, dial)
        w = self._watch.get(key)
        job = self._jobs.get(key)
        if w is None or w.moving_since is not None or (job is not None and not job.held):
            return 0.0
        return max(0.0, now - w.changed)


    def _look(self, frame: Image, reg: Registration, level: float, now: float) -> None:
        """Which windows changed since the last frame (moves; camera-only dials' settles)."""
        for dock, figure in self.docks.items():
            for dial in self.reader.classifiers(figure):
                key = (dock, dial)
                bt = self.reader.layout.base_type(self.reader.refs[figure].base_type)
                w = self._watch.get(key)
                if w is None:  # its history unknown: still from now on
                    w = self._watch[key] = Watch(changed=now)
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
                        self._jobs[key] = Job(key, None, True, now)
                if self.camera_only and key not in self._jobs and w.moving_since is None \
                        and self._retry.get(key, -1) == self.frames:
                    self._jobs[key] = Job(key, None, True, now)  # unsure: read it again

    def _explain(self, now: float) -> None:
        """Window changes with no encoder turn near them drop the window's photographs."""
        for key, at in list(self._unexplained.items()):
            if abs(self._asked.get(key, -1e9) - at) <= self.unexplained_s:
                del self._unexplained[key]
            elif now - at > self.unexplained_s:
                del self._unexplained[key]
                self.album.drop(key)
