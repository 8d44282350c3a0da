"""The synthesis worker (vision/synth_worker.py): jobs run on its own thread, in order; an answer
no longer wanted is never computed; an error in a job reaches the frame thread."""

from __future__ import annotations

import threading

import pytest
from dialtray.vision.reading import CLICK, UNKNOWN, DialRead
from dialtray.vision.synth_worker import PENDING, Pending, SynthesisWorker, pending_read


def test_a_job_runs_on_the_worker_and_its_answer_waits_there() -> None:
    worker = SynthesisWorker()
    ran_on: list[str] = []

    def job() -> DialRead:
        ran_on.append(threading.current_thread().name)
        return DialRead("combat", CLICK, (3,), confidence=0.9)

    p = worker.submit(job)
    assert worker.drain(30)
    assert p.done() and p.result().clicks == (3,)
    assert ran_on == ["vision-synthesis"] != [threading.current_thread().name]
    assert worker.done_count == 1


def test_a_cancelled_job_is_never_run() -> None:
    worker = SynthesisWorker()
    gate = threading.Event()
    ran: list[int] = []

    def blocker() -> DialRead:
        gate.wait(30)
        return DialRead("combat", UNKNOWN)

    def job() -> DialRead:
        ran.append(1)
        return DialRead("combat", CLICK, (1,))

    first = worker.submit(blocker)  # holds the worker while the second is cancelled
    second = worker.submit(job)
    second.cancel()
    gate.set()
    assert worker.drain(30) and first.done() and second.done()
    assert ran == [] and second.cancelled
    assert worker.done_count == 1


def test_an_error_in_a_job_is_raised_on_the_thread_that_asks() -> None:
    worker = SynthesisWorker()

    def broken() -> DialRead:
        raise ValueError("no such look")

    p = worker.submit(broken)
    assert worker.drain(30)
    with pytest.raises(ValueError, match="no such look"):
        p.result()
    with pytest.raises(RuntimeError, match="not finished"):
        Pending(lambda: DialRead("x", UNKNOWN)).result()  # never handed to a worker


def test_a_pending_read_is_never_a_click() -> None:
    checked = pending_read(DialRead("combat", CLICK, (6, 7), confidence=0.42))
    assert checked.status == UNKNOWN and checked.clicks == () and not checked.values
    assert "click 6/7 by correlation (confidence 0.42)" in checked.reason
    assert PENDING in checked.reason
    unsure = pending_read(DialRead("combat", UNKNOWN, reason="ambiguous"))
    assert unsure.reason == f"ambiguous; {PENDING}"
