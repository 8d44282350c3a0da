"""The camera witness hears of a settled click before the tracker's queue has it (issue 33).

The link delivers an event to its listeners in turn, on its own thread. A tracker's queue
(``TrackedTray``) wakes the tracker's thread, which feeds the click and lets a hand turn the
dial on; the camera witness (``EncoderWitness``) only asks for a read. Told after the queue,
the witness could hear of a settle only once the dial had moved on (its read asked for a
dial already turning, its settle -> answer time counted from the wrong moment). So the
witness is subscribed ``first`` and the link tells every listener before its own queue:
here, the moment the witness is asked (its clock is read), nothing waits on either queue."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("cv2")

from dialtray.link.messages import Click
from dialtray.link.session import TraySession
from dialtray.rules.core.dice import SeededDice
from dialtray.table.build import binding_for, tracker_for
from dialtray.table.camera import TableCamera, WitnessedTray
from dialtray.table.camera_game import TIMING, virtual_witness
from dialtray.table.games import new_game
from dialtray.tracker.dice import TableDice
from dialtray.tracker.runner import TrackedTray
from dialtray.vision.layout import Layout


@pytest.fixture(scope="module")
def table(layout: Layout) -> tuple[Any, Any, Any, tuple[int, int]]:
    """A tracker, its camera witness (not started) and camera dials, and a filmed dial:
    built once (the scene's drawing is the cost); each test has a session of its own."""
    dice = TableDice(SeededDice(5))
    setup = new_game("aces", dice, 5, 2)
    tracker = tracker_for(setup, binding_for(setup, 8), dice, TIMING)
    witness, _world, dials = virtual_witness("aces", tracker, 5, fps=30.0, layout=layout)
    filmed = next(k for k, d in dials.items() if d.place in witness.docks)
    return tracker, witness, dials, filmed


def _probe(tracked: TrackedTray, session: TraySession
           ) -> tuple[list[tuple[int, int]], Callable[[], float]]:
    """A clock for the witness, and what waited on the tracker's and the session's queues
    each time this thread (the link's, here) asked the witness for a read
    (``CameraWitness.settled`` reads its clock as it queues the request)."""
    seen: list[tuple[int, int]] = []
    me = threading.current_thread()

    def clock() -> float:
        if threading.current_thread() is me:  # (not the camera's thread, reading frames)
            seen.append((tracked.queue.qsize(), session.events.qsize()))
        return time.monotonic()
    return seen, clock


def test_a_witnessed_tray_tells_the_camera_before_the_tracker(table: Any) -> None:
    tracker, witness, dials, (dock, reader) = table
    session = TraySession("unused", name="order")  # never started: its link thread's
    tracked = WitnessedTray(tracker, session, witness, dials)  # delivery is called below
    seen, witness.clock = _probe(tracked, session)
    session._deliver(Click(1, dock, reader, 1, 1))
    assert seen == [(0, 0)], "the tracker's queue had the click before the witness heard of it"
    assert tracked.queue.qsize() == 1 and session.events.qsize() == 1


def test_a_table_camera_is_told_before_the_table_it_joins(table: Any) -> None:
    tracker, witness, dials, (dock, reader) = table
    session = TraySession("unused", name="order")
    tracked = TrackedTray(tracker, session)  # the table's link, subscribed before the camera
    seen, witness.clock = _probe(tracked, session)
    camera = TableCamera(witness, session, dials).start()
    try:
        session._deliver(Click(1, dock, reader, 1, 1))
    finally:
        camera.close()
    assert seen == [(0, 0)], "the table's queue had the click before the camera heard of it"
    assert tracked.queue.qsize() == 1 and session.events.qsize() == 1
