"""TraySession's consumer-driven acknowledgement and public resume, on the virtual tray (the real
firmware under MicroPython, a real pty): what the store's ack-after-commit rests on (issue 12)."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

import pytest
from dialrig import config
from dialtray.link.messages import Click, Snapshot, TrayEvent
from dialtray.link.session import TraySession
from dialtray.virtual.tray import VirtualTray


def fast_config() -> dict[str, object]:
    cfg = config.default_config(2)
    cfg["settle_ms"] = 10
    cfg["sample_ms"] = 1
    return cfg


def next_click(session: TraySession, timeout: float = 20.0) -> Click:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            ev: TrayEvent = session.events.get(timeout=0.1)
        except queue.Empty:
            continue
        if isinstance(ev, Click):
            return ev
    raise AssertionError("no click arrived")


def wait_for(cond: Callable[[], bool], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_resume_from_a_stored_point_replays_exactly_what_was_not_stored() -> None:
    with VirtualTray(fast_config(), seed=5) as tray:
        with TraySession(tray.port, name="first", ack_policy="manual") as a:
            a.wait_synced(60)
            clicks = []
            for _ in range(3):
                tray.turn(0, "combat", 1)
                clicks.append(next_click(a))
            boot = a.boot_id
            assert boot is not None
            a.acknowledge(boot, clicks[1].seq)  # the third click was never stored
            assert a.acknowledged == (boot, clicks[1].seq)
        for _ in range(2):  # the host is away: two more clicks
            tray.turn(0, "combat", 1)
            time.sleep(0.1)
        with TraySession(tray.port, name="second", ack_policy="manual",
                         resume_from=(boot, clicks[1].seq)) as b:
            b.wait_synced(60)
            got = [next_click(b) for _ in range(3)]
            assert [c.seq for c in got] == [clicks[1].seq + 1 + i for i in range(3)]
            assert [c.delta for c in got] == [1, 1, 1]
            assert not any(c.recovered for c in got)
            seen: list[TrayEvent] = []
            while not b.events.empty():
                seen.append(b.events.get())
            assert not [e for e in seen if isinstance(e, Snapshot | Click)], seen


def test_manual_policy_holds_acknowledgements_until_the_consumer_acknowledges() -> None:
    """Unacknowledged events are offered again by the tray (it goes back after 150 ms without
    progress): the host sees them again and drops them as duplicates, until the consumer says
    they are stored."""
    with VirtualTray(fast_config(), seed=6) as tray, \
            TraySession(tray.port, name="manual", ack_policy="manual") as s:
        s.wait_synced(60)
        tray.turn(1, "speed", 2)
        next_click(s)
        wait_for(lambda: s.counters["duplicates dropped"] >= 3, 20,
                 "the tray to offer the unacknowledged click again")
        boot = s.boot_id
        assert boot is not None

        def quiet() -> bool:
            # the consumer stores (and acknowledges) everything delivered so far; a click that
            # settles late under load is a new event, acknowledged on the next round
            s.acknowledge(boot, s.expected - 1)
            before = s.counters["duplicates dropped"]
            time.sleep(0.8)
            return s.counters["duplicates dropped"] == before

        wait_for(quiet, 20, "the tray to stop offering the acknowledged click")


def test_bad_policy_refused_and_auto_has_no_consumer_acks() -> None:
    with pytest.raises(ValueError, match="ack_policy"):
        TraySession("/dev/null", ack_policy="sometimes")
    assert TraySession("/dev/null").acknowledged is None
