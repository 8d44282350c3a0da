"""The synthesis off the frame thread: a window the correlation left unsure is finished here.

A synthesis (``synth.py``) costs 5-25 ms, several frames' worth of a live loop's budget; run on
the thread that reads frames it was the whole of the live loop's p95 (issue 35). A live loop
(``TrayReader`` with a registration ``follow`` confirmed, ``WindowBurst``) hands it to this
worker instead and carries on: the window's read stays *unsure* (``pending_read``: never a
click that has not been checked) until the worker's answer comes back, which the frame thread
picks up on a later frame without waiting for it (``Pending.done``), and only while the window
still shows the pixels the synthesis read (``still.py``, ``burst.py``).

One daemon thread for the whole process, started by the first job: on one core it uses the
time the frame thread spends waiting for the camera's next frame (``NICE``: why its priority is
not lowered). Jobs a window no longer needs (it changed) are dropped before they start
(``Pending.cancel``).
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from collections.abc import Callable
from dataclasses import replace

from dialtray.vision.reading import UNKNOWN, DialRead

# The worker thread's niceness (Linux: per thread). 0: a niced worker starved on a machine
# busy with other work (a burst then waited seconds for its answer: test_camera_witness timed
# out at nice 10 with the machine's load at 29), and it buys the frame thread little: waking
# from its wait for the camera, the frame thread is scheduled ahead of a running worker anyway.
NICE = 0
PENDING = "the synthesis is still reading it"


class Pending:
    """A synthesis handed to the worker: ``done()`` without waiting, then ``result()``."""

    def __init__(self, job: Callable[[], DialRead]) -> None:
        self._job: Callable[[], DialRead] | None = job
        self._done = threading.Event()
        self._result: DialRead | None = None
        self._error: Exception | None = None
        self.cancelled = False

    def done(self) -> bool:
        return self._done.is_set()

    def result(self) -> DialRead:
        """The finished read (only once ``done()``; an error in the synthesis is raised here,
        on the frame thread, not swallowed by the worker)."""
        if not self._done.is_set():
            raise RuntimeError("the synthesis has not finished: ask done() first")
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result

    def wait(self, timeout: float | None = None) -> bool:
        """Block until it is done: for tests and benches that need the answer (a condition,
        not a clock); a live loop never calls it."""
        return self._done.wait(timeout)

    def cancel(self) -> None:
        """The window changed: the answer is no longer wanted (dropped unless started)."""
        self.cancelled = True

    def run(self) -> None:
        job, self._job = self._job, None
        try:
            if job is not None and not self.cancelled:
                self._result = job()
        except Exception as e:  # handed to the frame thread (result()), not swallowed
            self._error = e
        finally:
            if self._result is None and self._error is None:
                self._error = RuntimeError("cancelled")
            self._done.set()


class SynthesisWorker:
    """A queue of ``Pending`` jobs and the one thread that runs them in order."""

    def __init__(self, nice: int = NICE) -> None:
        self.nice = nice
        self._jobs: queue.SimpleQueue[Pending] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._idle = threading.Condition()
        self._open = 0
        self.done_count = 0  # jobs run to an answer (not dropped)

    def submit(self, job: Callable[[], DialRead]) -> Pending:
        p = Pending(job)
        with self._idle:
            self._open += 1
        self._jobs.put(p)
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="vision-synthesis",
                                                daemon=True)
                self._thread.start()
        return p

    def drain(self, timeout: float = 60.0) -> bool:
        """Wait until every job handed in so far is done (tests, benches: a condition)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._open == 0, timeout)

    def _run(self) -> None:
        if self.nice and hasattr(os, "setpriority"):
            # Linux: a thread's own niceness (the frame thread's stays as it was)
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)
        while True:
            p = self._jobs.get()
            p.run()
            with self._idle:
                self._open -= 1
                self.done_count += p.cancelled is False
                self._idle.notify_all()


WORKER = SynthesisWorker()  # the process's one worker


def pending_read(read: DialRead, why: str = PENDING) -> DialRead:
    """What a window reads while its synthesis runs: unknown, saying so."""
    if read.status == UNKNOWN:
        return replace(read, reason=f"{read.reason}; {why}" if read.reason else why)
    clicks = "/".join(str(c) for c in read.clicks)
    return replace(read, status=UNKNOWN, clicks=(), values={}, colours={}, confidence=0.0,
                   reason=f"click {clicks} by correlation (confidence {read.confidence:.2f}), "
                          f"being checked: {why}")
