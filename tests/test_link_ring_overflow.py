"""The tray's ring log overflowing while the host is away, at the link: the real firmware under
MicroPython with a ring of 16 events (its smallest), a real pty, pyserial, ``TraySession``.

The cable is out while more events are logged than the ring holds: the replay is refused
(REPLAY_GAP) and the dials are restored from the snapshot (``dialtray.link.reconcile``), which
says how many events it stands in for (``Snapshot.missed``). Within one boot an incremental
encoder's count is exact, so all its clicks come back, more than a turn; an AS5600 knows its
angle only, so 8 clicks clockwise come back as 4 counter-clockwise. What the players are then
told: tests/tracker/test_ring_overflow.py."""

from __future__ import annotations

import threading
import time

from dialrig import config
from dialtray.link.messages import Click, Snapshot, TrayEvent
from dialtray.link.session import TraySession
from dialtray.virtual.tray import VirtualTray


def test_an_overflowed_ring_restores_an_encoder_exactly_and_an_angle_the_nearer_way() -> None:
    cfg = config.default_config(3)
    cfg["settle_ms"] = 10
    cfg["sample_ms"] = 1
    cfg["ring_size"] = 16
    for i in range(2):
        cfg["docks"][2][i].update(sensor="quadrature", quad=i, mux=-1, channel=-1)  # type: ignore[index]
    got: list[TrayEvent] = []
    lock = threading.Lock()

    def on_event(ev: TrayEvent) -> None:
        with lock:
            got.append(ev)

    def clicks() -> list[Click]:
        with lock:
            return [e for e in got if isinstance(e, Click)]

    with VirtualTray(cfg, seed=3) as tray, TraySession(tray.port) as session:
        session.subscribe(on_event)
        session.wait_synced(15)
        tray.unplug()
        for _ in range(20):  # one event each: seen by the firmware, then its settle time
            target = tray.seen(2, 0) + 1
            tray.turn(2, "combat", 1)
            end = time.monotonic() + 20
            while tray.seen(2, 0) < target - 1e-6:
                assert time.monotonic() < end, "the firmware never saw the encoder turn"
                time.sleep(0.005)
            time.sleep(0.03)
        tray.turn(0, "combat", 8)
        tray.replug()
        end = time.monotonic() + 20
        while sum(abs(c.delta) for c in clicks()) < 24:
            assert time.monotonic() < end, f"restored so far: {clicks()}"
            time.sleep(0.01)
        assert session.counters["replay gaps"] >= 1, dict(session.counters)
        with lock:
            snap = [e for e in got if isinstance(e, Snapshot)][-1]
        assert snap.reason == "replay window lost" and snap.missed > 16, snap
        by_dial = {(c.dock, c.dial): (c.delta, c.recovered) for c in clicks()}
        assert by_dial == {(2, 0): (20, True),  # an encoder's count is exact within a boot
                           (0, 0): (-4, True)}  # an angle is read the nearer way round
