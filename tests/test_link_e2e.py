"""End to end: the real firmware in MicroPython, a real pty, pyserial, and a cable that misbehaves.

The virtual tray's USB bridge corrupts 1 % and drops 0.5 % of the bytes in both directions, the
cable is pulled every ~2 s, and the tray is power-cycled twice. The host must still see every
click exactly once and in order.

About the reboots: the ring log lives in RAM, so a power cut loses events the host has not yet
received. Before each power cut this test waits, like a player who lets the tray catch up, until
the host has every click made so far; what happens to clicks made *while* the tray is down is
the subject of test_dials_turned_while_unpowered_are_recovered_from_the_snapshot.
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict

import pytest
from dialrig import config
from dialtray.link.faults import FaultInjector
from dialtray.link.messages import Click, DialFault, Snapshot
from dialtray.link.session import TraySession
from dialtray.virtual.tray import VirtualTray

SETTLE_MS = 10
TURN_MS = 6
# A person can't click the same dial again before the last click settled; nor do we.
# About the fastest a person clicks one dial (8/s); 16 dials in parallel keep the link busy.
# It also leaves the firmware process room when CI is busy: the virtual tray reads the dials
# every few ms, but only if the machine gives it the CPU, which a real Pico always has.
SAME_DIAL_GAP_S = 0.12


def fast_config(docks: int = 8) -> dict[str, object]:
    cfg = config.default_config(docks)
    cfg["settle_ms"] = SETTLE_MS
    cfg["sample_ms"] = 1
    return cfg


class Recorder:
    """Collects what the host delivers, per dial, as unit clicks (+1 / -1)."""

    def __init__(self, session: TraySession) -> None:
        self.clicks: dict[int, list[int]] = defaultdict(list)
        self.total = 0
        self.recovered = 0
        self.seqs: list[int] = []
        self.snapshots: list[Snapshot] = []
        self.faults: list[DialFault] = []
        self.lock = threading.Lock()
        session.subscribe(self.on_event)

    def on_event(self, ev: object) -> None:
        with self.lock:
            if isinstance(ev, Click):
                unit = 1 if ev.delta > 0 else -1
                self.clicks[ev.dock * 2 + ev.dial].extend([unit] * abs(ev.delta))
                self.total += abs(ev.delta)
                if ev.recovered:
                    self.recovered += abs(ev.delta)
                else:
                    self.seqs.append(ev.seq)
            elif isinstance(ev, Snapshot):
                self.snapshots.append(ev)
            elif isinstance(ev, DialFault):
                self.faults.append(ev)

    def wait_for(self, n: int, timeout: float) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                if self.total >= n:
                    return
            time.sleep(0.01)
        raise AssertionError(f"host has {self.total} of {n} clicks after {timeout} s")


def click_storm(tray: VirtualTray, n: int, rng: random.Random, sent: dict[int, list[int]],
                pause: threading.Event, dials: int = 16, rate: float = 150.0) -> None:
    """Turn random dials one detent at a time, never the same dial before it settled."""
    ready_at = [0.0] * dials
    done = 0
    while done < n:
        if pause.is_set():
            time.sleep(0.005)
            continue
        now = time.monotonic()
        free = [k for k in range(dials) if ready_at[k] <= now]
        if not free:
            time.sleep(0.002)
            continue
        k = rng.choice(free)
        step = rng.choice((1, -1))
        tray.turn(k // 2, k % 2, step, ms=TURN_MS)
        sent[k].append(step)
        ready_at[k] = now + SAME_DIAL_GAP_S
        done += 1
        time.sleep(1 / rate)


@pytest.mark.slow
def test_ten_thousand_clicks_through_a_bad_cable_arrive_exactly_once_in_order() -> None:
    rng = random.Random(2026)
    damage = {"corrupt": 0.01, "drop": 0.005}
    with VirtualTray(fast_config(), seed=7,
                     to_host=FaultInjector(**damage, seed=1),
                     to_device=FaultInjector(**damage, seed=2)) as tray, \
            TraySession(tray.port) as session:
        rec = Recorder(session)
        session.wait_synced(15)
        sent: dict[int, list[int]] = defaultdict(list)
        pause = threading.Event()
        stop_cable = threading.Event()
        cuts = [0]

        def flaky_cable() -> None:
            crng = random.Random(3)
            while not stop_cable.wait(crng.uniform(1.5, 2.5)):
                tray.unplug()
                time.sleep(crng.uniform(0.05, 0.3))
                tray.replug()
                cuts[0] += 1

        cable = threading.Thread(target=flaky_cable, daemon=True)
        cable.start()
        total = 10_000
        for part, reboot_after in ((3_300, True), (3_300, True), (total - 6_600, False)):
            click_storm(tray, part, rng, sent, pause)
            if reboot_after:
                rec.wait_for(sum(map(len, sent.values())), timeout=60)
                tray.reboot()
        try:
            rec.wait_for(total, timeout=90)
        except AssertionError as e:
            raise AssertionError(f"{e}; resets {tray.resets}, boots {tray.boots}, recovered "
                                 f"{rec.recovered}, counters {dict(session.counters)}, "
                                 f"tray errors {tray.errors}") from None
        stop_cable.set()
        cable.join()
        time.sleep(0.3)  # anything extra (a double delivery) would arrive now

        assert tray.boots == 3
        assert cuts[0] >= 10, "the cable should have been pulled every ~2 s"
        assert tray.bridge.to_host.corrupted > 100 and tray.bridge.to_host.dropped > 50
        assert rec.recovered == 0, "nothing was lost to a reboot in this run"
        assert rec.total == total
        for k in range(16):
            assert rec.clicks[k] == sent[k], f"dial {k}: clicks differ"
        # Delivered in device order: sequence numbers rise by one within each boot.
        runs = 0
        for a, b in zip(rec.seqs, rec.seqs[1:], strict=False):
            assert b > a or b < 20, f"out of order: {a} then {b}"
            runs += b < a
        assert runs == 2  # the sequence restarted at each of the two reboots
        for k in range(16):
            assert sum(sent[k]) % 12 == tray.detent(k // 2, k % 2) % 12
        assert session.counters["duplicates dropped"] > 0
        assert session.counters["replays requested"] > 0
        rejected = session.rejection_counts()
        assert rejected.get("rejected: corrupt", 0) > 0
        stats = session.stats(timeout=10)
        assert stats.corrupt > 0  # the device counted the damaged commands it refused


def test_dials_turned_while_unpowered_are_recovered_from_the_snapshot() -> None:
    cfg = fast_config(3)
    # Dock 2 is built with incremental encoders: they cannot know what happened while off.
    for i in range(2):
        cfg["docks"][2][i].update(sensor="quadrature", quad=i, mux=-1, channel=-1)  # type: ignore[index]
    with VirtualTray(cfg, seed=3) as tray, TraySession(tray.port) as session:
        rec = Recorder(session)
        session.wait_synced(15)
        tray.turn(0, "combat", 2)
        rec.wait_for(2, timeout=10)
        tray.power_off()
        tray.turn(0, "combat", 3)  # damage clicked while the tray was off
        tray.turn(1, "speed", -1)
        tray.turn(2, "combat", 4)
        tray.power_on()
        rec.wait_for(6, timeout=15)
        time.sleep(0.3)
        assert rec.clicks[0] == [1, 1, 1, 1, 1]
        assert rec.clicks[3] == [-1]
        assert rec.recovered == 4
        assert rec.clicks[4] == [], "an incremental dial cannot recover what it never saw"
        lost = [f for f in rec.faults if f.code == 1 and (f.dock, f.dial) == (2, 0)]
        assert lost, "the quadrature dial must say it lost track"
        assert rec.snapshots[-1].reason == "tray rebooted"
