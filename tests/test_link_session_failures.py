"""Issue 8 defect 5: sequence numbers past 2^32 − 1, and errors on the session's thread.

The thread used to die with ``struct.error`` when the next expected sequence number reached 2^32
(an ACK_EVENTS cannot pack it), and nothing told the caller: wait_synced() timed out, requests
timed out, stream() waited forever. Now the wire carries counts modulo 2^32 (``seqspace``), and
whatever ends the thread ends the session in FAILED and is raised to every caller.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from dialrig import proto
from dialtray.link.bootstream import BootStream
from dialtray.link.messages import Click, RawEvent, TrayEvent
from dialtray.link.seqspace import to_wire, unwrap
from dialtray.link.session import SessionFailed, SessionState, TraySession
from dialtray.link.transport import Transport
from link_scripted_tray import ScriptedTray
from test_link_session import Got, wait_until

WRAP = 1 << 32


def test_unwrap_reads_a_32_bit_number_as_the_count_nearest_our_own() -> None:
    """Issue 8 defect 5: the wrap is defined — counts modulo 2^32 on the wire."""
    assert to_wire(WRAP - 1) == 0xFFFFFFFF and to_wire(WRAP) == 0 and to_wire(WRAP + 5) == 5
    for near in (1, 5000, WRAP - 3, WRAP, WRAP + 2, 7 * WRAP + 123):
        for count in range(max(1, near - 5000), near + 5000, 997):
            assert unwrap(to_wire(count), near) == count


def test_the_hold_back_buffer_delivers_exactly_once_in_order_across_the_wrap() -> None:
    """Issue 8 defect 5, without a port: frames out of order and duplicated around 2^32."""
    s = BootStream(boot_id=1, expected=WRAP - 4)
    counts = list(range(WRAP - 4, WRAP + 6))
    order = [counts[i] for i in (1, 0, 0, 5, 3, 2, 4, 4, 9, 8, 6, 7, 7, 1)]
    out: list[int] = []
    for c in order:
        raw = RawEvent(to_wire(c), 0, proto.EV_CLICK, 0, 0, c % 12, 1)
        out += [r.seq for r in s.offer(raw)]
    assert out == counts
    assert not s.missing and s.expected == WRAP + 6


@pytest.fixture
def wrapping_tray() -> Iterator[ScriptedTray]:
    dev = ScriptedTray(boot_id=0xC, first_seq=WRAP - 6)
    yield dev
    dev.close()


def test_clicks_across_2_32_arrive_exactly_once_in_order(wrapping_tray: ScriptedTray) -> None:
    """Issue 8 defect 5: a tray whose count passes 2^32 − 1 while clicks flow, with a hole at
    exactly the wrap (wire seq 0) refilled by a NACK: every click once, in order."""
    tray = wrapping_tray
    with TraySession(tray.port, name="wrap") as session:
        got = Got(session)
        session.wait_synced(10)
        tray.withheld_once.add(WRAP)  # the first event past the wrap is lost once
        seqs = [tray.click(0, 0, +1) for _ in range(12)]
        assert seqs[0] < WRAP - 1 < WRAP < seqs[-1]
        wait_until(lambda: len(got.clicks(0, 0)) >= 12, what="12 clicks")
        session.wait_synced(10)
        time.sleep(0.3)
        clicks = got.clicks(0, 0)
        assert [c.seq for c in clicks] == seqs
        assert [c.position for c in clicks] == [(i + 1) % 12 for i in range(12)]
        assert session.counters["held past a hole"] >= 1, "the hole at the wrap was real"
        assert session.state == SessionState.LIVE and session.error is None
        assert session.expected == seqs[-1] + 1


def test_an_error_on_the_link_thread_reaches_every_caller(wrapping_tray: ScriptedTray) -> None:
    """Issue 8 defect 5: the thread never dies silently. A subscriber that raises (a consumer's
    bug, run on the link thread) ends the session in FAILED; wait_synced(), wait_state(),
    requests and stream() raise SessionFailed with the original error as its cause."""
    tray = wrapping_tray

    class Boom(Exception):
        pass

    def bad_listener(ev: TrayEvent) -> None:
        if isinstance(ev, Click):
            raise Boom("consumer bug")

    with TraySession(tray.port, name="boom") as session:
        session.wait_synced(10)
        session.subscribe(bad_listener)
        tray.click(0, 0, +1)
        assert session.wait_state(SessionState.FAILED, timeout=10) == SessionState.FAILED
        assert isinstance(session.error, Boom)
        with pytest.raises(SessionFailed) as failed:
            session.wait_synced(5)
        assert isinstance(failed.value.__cause__, Boom)
        with pytest.raises(SessionFailed):
            session.wait_state(SessionState.LIVE, timeout=5)
        with pytest.raises(SessionFailed):
            session.stats(timeout=5)
        with pytest.raises(SessionFailed):
            session.synced.wait(5)

        async def consume() -> list[TrayEvent]:
            return [ev async for ev in session.stream()]

        # On a thread of its own: a page test earlier on this worker leaves Playwright's event
        # loop running on the main thread, where asyncio.run() refuses to start another.
        with pytest.raises(SessionFailed), ThreadPoolExecutor(1) as own:
            own.submit(asyncio.run, asyncio.wait_for(consume(), 5)).result(timeout=30)
        assert session.state_history[-1].new == SessionState.FAILED
    assert session.state == SessionState.FAILED, "stop() does not hide the failure"


def test_a_failure_while_connecting_is_raised_not_waited_out() -> None:
    """Issue 8 defect 5: an unexpected error on the way to the port (a bug, not a cable
    problem to retry: those are LinkDown) fails the session at once; wait_synced() raises it
    instead of timing out."""
    def connect() -> Transport:
        raise KeyError("port settings: 'baudrate'")

    with TraySession(connect=connect, name="broken") as session:
        start = time.monotonic()
        with pytest.raises(SessionFailed, match="baudrate") as failed:
            session.wait_synced(30)
        assert time.monotonic() - start < 10
        assert isinstance(failed.value.__cause__, KeyError)
