"""The host session against a scripted tray (real pty, pyserial, the real codec) doing exactly
what a tray does by bad luck under a noisy cable: holes, reboots without the link dropping, a
cable pulled in the middle of a replay. Issue 8, defects 3 and 6.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from dialrig import proto
from dialtray.link.messages import Booted, Click, Snapshot, TrayEvent
from dialtray.link.session import SessionState, StateChange, TraySession
from dialtray.link.transport import LinkDown, SerialTransport, Transport
from link_scripted_tray import ScriptedTray


def wait_until(cond: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.005)
    raise AssertionError(f"timed out after {timeout} s waiting for {what or cond}")


class Got:
    """Everything the session delivers, in order (collected on the link thread)."""

    def __init__(self, session: TraySession) -> None:
        self.events: list[TrayEvent] = []
        self.lock = threading.Lock()
        session.subscribe(self.add)

    def add(self, ev: TrayEvent) -> None:
        with self.lock:
            self.events.append(ev)

    def clicks(self, dock: int, dial: int) -> list[Click]:
        with self.lock:
            return [e for e in self.events if isinstance(e, Click) and (e.dock, e.dial) == (
                dock, dial) and not e.recovered]

    def after_reboot(self) -> list[TrayEvent]:
        with self.lock:
            marks = [i for i, e in enumerate(self.events)
                     if isinstance(e, Snapshot) and e.reason == "tray rebooted"]
            return self.events[marks[-1] + 1:] if marks else []


@pytest.fixture
def tray() -> Iterator[ScriptedTray]:
    dev = ScriptedTray(boot_id=0xA)
    yield dev
    dev.close()


def test_a_reboot_without_the_link_dropping_delivers_no_event_of_the_old_boot(
        tray: ScriptedTray) -> None:
    """Issue 8 defect 3: hole in boot A (events held past it), reboot noticed from a heartbeat,
    replay of boot B. The held events of boot A must not be delivered as boot B's, and boot B's
    events with the same sequence numbers must not be dropped as duplicates."""
    with TraySession(tray.port, name="d3") as session:
        got = Got(session)
        session.wait_synced(10)
        for _ in range(4):
            tray.click(0, 0, +1)  # boot A, seqs 2..5: delivered
        wait_until(lambda: len(got.clicks(0, 0)) == 4, what="boot A's first clicks")
        tray.withheld.add(tray.next_seq)  # boot A seq 6 never arrives: a hole
        for _ in range(6):
            tray.click(0, 0, +1)  # seqs 7..11: held past the hole
        wait_until(lambda: session.counters["held past a hole"] >= 5, what="events held")
        with tray.lock:  # reboot and click before the host can say a word to boot B
            tray.reboot(0xB, announce=False)  # the host learns of it from a heartbeat only
            b_seqs = [tray.click(0, 1, -1) for _ in range(12)]  # boot B, seqs 2..13
        wait_until(lambda: len(got.after_reboot()) >= 1 + len(b_seqs)
                   and session.synced.is_set(), what="boot B delivered")
        time.sleep(0.3)  # a double delivery would arrive now
        after = [e for e in got.after_reboot() if not (isinstance(e, Click) and e.recovered)]
        assert after[0] == Booted(1, proto.BOOT_POWER_ON)
        clicks = after[1:]
        assert all(isinstance(c, Click) for c in clicks)
        assert [c.seq for c in clicks] == b_seqs, "every boot B event exactly once, in order"
        old = [c for c in clicks if isinstance(c, Click) and c.t_ms // 1000 != 0xB]
        assert old == [], "events of boot A delivered after the reboot"
        assert all(isinstance(c, Click) and (c.dock, c.dial) == (0, 1) for c in clicks)
        # What boot A logged but never delivered (6..11) is the snapshot's net movement.
        recovered = [e for e in got.after_reboot() if isinstance(e, Click) and e.recovered]
        assert [(c.dock, c.dial, c.delta) for c in recovered] == [(0, 0, 6)]
        assert session.counters["held events dropped at a reboot"] == 5


class CuttableCable:
    """The real serial port, with a cable the test can pull (reads then fail as on unplug)."""

    def __init__(self, port: str) -> None:
        self.port = port
        self.cut = threading.Event()

    def connect(self) -> Transport:
        if self.cut.is_set():
            raise LinkDown("cable out")
        inner = SerialTransport.open(self.port)
        cable = self

        class Wire:
            def read(self) -> bytes:
                if cable.cut.is_set():
                    raise LinkDown("cable pulled")
                return inner.read()

            def write(self, data: bytes) -> None:
                inner.write(data)

            def close(self) -> None:
                inner.close()

        return Wire()


def test_a_cable_pulled_during_the_replay_of_a_new_boot_loses_nothing(tray: ScriptedTray) -> None:
    """Issue 8, the cause of test_ten_thousand_clicks… failing with `recovered == 13`: the events
    of a new boot collected while it was being replayed from seq 1 were thrown away when the
    cable dropped mid-replay, and the replay resumed after them — so they were never delivered
    (and turned up as "recovered" clicks at the next reboot)."""
    cable = CuttableCable(tray.port)
    with TraySession(connect=cable.connect, name="cut") as session:
        got = Got(session)
        session.wait_synced(10)
        with tray.lock:
            tray.reboot(0xB)
            b_seqs = [tray.click(0, 1, +1) for _ in range(20)]  # seqs 2..21
            tray.withheld.add(12)  # the boot replay stalls after seq 11
        wait_until(lambda: session.counters["held past a hole"] >= 9,
                   what=f"replay stalled {session.counters}")
        assert got.clicks(0, 1) == [], "nothing of boot B before its boot-time positions"
        cable.cut.set()
        wait_until(lambda: not session.connected.is_set(), what="the link down")
        tray.withheld.clear()
        cable.cut.clear()
        session.wait_synced(10)
        wait_until(lambda: len(got.clicks(0, 1)) >= 20, what="all of boot B")
        time.sleep(0.3)
        assert [c.seq for c in got.clicks(0, 1)] == b_seqs
        assert not [e for e in got.events if isinstance(e, Click) and e.recovered]


def test_the_state_is_never_live_while_events_may_be_missing(tray: ScriptedTray) -> None:
    """Issue 8 defect 6: `synced` stayed true while the session resynchronised after a reboot.
    The state says what is true at every moment: CATCHING_UP while a hole is open, RESYNCING
    while a rebooted tray is handshaken and replayed; LIVE (and `synced`) only otherwise."""
    with TraySession(tray.port, name="d6") as session:
        changes: list[StateChange] = []
        session.on_state(changes.append)
        seen_at_reboot: list[tuple[SessionState, bool]] = []

        def on_event(ev: TrayEvent) -> None:
            if isinstance(ev, Snapshot) and ev.reason == "tray rebooted":
                seen_at_reboot.append((session.state, session.synced.is_set()))
            if isinstance(ev, Click) and ev.dial == 1:
                seen_at_reboot.append((session.state, session.synced.is_set()))

        session.subscribe(on_event)
        assert session.wait_state(SessionState.LIVE, timeout=10) == SessionState.LIVE
        assert session.synced.is_set()
        tray.withheld.add(tray.next_seq)
        for _ in range(3):
            tray.click(0, 0, +1)
        session.wait_state(SessionState.CATCHING_UP, timeout=10)
        assert not session.synced.is_set()
        time.sleep(0.2)
        # Still not live: catching up, or (after STALL_S without progress) handshaking again.
        assert session.state in (SessionState.CATCHING_UP, SessionState.RESYNCING)
        assert not session.synced.is_set(), "the hole is still open"
        tray.withheld.clear()  # the next NACK refills it
        session.wait_state(SessionState.LIVE, timeout=10)
        with tray.lock:
            tray.reboot(0xB, announce=False)
            for _ in range(3):
                tray.click(0, 1, +1)
        session.wait_state(SessionState.RESYNCING, timeout=10)
        assert not session.synced.is_set()
        session.wait_state(SessionState.LIVE, timeout=10)
        wait_until(lambda: len(seen_at_reboot) >= 4, what="boot B's events")
        # While the rebooted tray's snapshot and replay are delivered, nobody is told "live".
        assert all(state == SessionState.RESYNCING and not synced
                   for state, synced in seen_at_reboot), seen_at_reboot
        path = [(c.old, c.new) for c in changes]
        assert (SessionState.LIVE, SessionState.CATCHING_UP) in path
        assert (SessionState.LIVE, SessionState.RESYNCING) in path
        assert (SessionState.RESYNCING, SessionState.LIVE) in path
        assert session.state_history[-1].new == SessionState.LIVE
    assert session.state == SessionState.STOPPED
