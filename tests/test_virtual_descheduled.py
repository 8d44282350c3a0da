"""The virtual tray's dials wait for a firmware that is not given the CPU.

A full run at 4 xdist workers on 2 cores: the 10 000-click storm stalled with the host live,
nothing missing and 3108 of 3300 clicks, every one of them right. The link had lost nothing: the
tray had never logged the rest. Every dial short was short by exactly 12 or 24 clicks and stood
where it was turned to: MicroPython had read a dial's queued turns, begun their motion and lost
the CPU before it ended; back on it, the dial had made a whole turn unseen, which an absolute
sensor cannot tell from no turn at all. A Pico samples every millisecond and never misses one,
so each simulated dial moves on its own clock, which runs while the firmware reads it
(``dialrig.hw_sim.Board.dial_clock``).

This is that moment made on purpose: the firmware takes twelve turns of one dial and is stopped
(SIGSTOP, what a busy machine does to it) for longer than their motion lasts.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

from dialrig import config
from dialtray.link.messages import Click, TrayEvent
from dialtray.link.session import SessionState, TraySession
from dialtray.virtual.tray import VirtualTray

WAIT_S = 30.0  # generous: a loaded machine; the test waits on conditions, never on a rate
TURN_MS = 50  # twelve turns: 600 ms of motion, all of it while the firmware is stopped
STOPPED_S = 1.0  # past the motion's end, inside the host's 1.5 s before it calls the link down


def wait_for(cond: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.005)


def stop(pid: int) -> None:
    """SIGSTOP ``pid`` and wait until the kernel has stopped it."""
    os.kill(pid, signal.SIGSTOP)
    status = Path(f"/proc/{pid}/stat")
    wait_for(lambda: status.read_text().rsplit(")", 1)[1].split()[0] == "T", "the stop")


def test_a_whole_turn_made_while_the_firmware_is_off_the_cpu_arrives_as_twelve_clicks() -> None:
    cfg = config.default_config(1)
    cfg["settle_ms"] = 10
    cfg["sample_ms"] = 1
    with VirtualTray(cfg, seed=3) as tray, TraySession(tray.port) as session:
        clicks: list[int] = []
        lock = threading.Lock()

        def on_event(ev: TrayEvent) -> None:
            if isinstance(ev, Click):
                with lock:
                    clicks.append(ev.delta)

        session.subscribe(on_event)
        session.wait_synced(WAIT_S)
        pid = tray.pid
        assert pid is not None
        stop(pid)
        for _ in range(12):
            tray.turn(0, 0, 1, ms=TURN_MS)
        os.kill(pid, signal.SIGCONT)
        wait_for(lambda: tray.controls_unread() == 0, "the firmware to read its turns")
        stop(pid)  # the turns are read and their motion under way: the CPU goes elsewhere
        time.sleep(STOPPED_S)  # (the condition made here is a stopped process, not a rate)
        os.kill(pid, signal.SIGCONT)

        wait_for(lambda: sum(clicks) >= 12 or session.counters["reboots noticed"] > 0,
                 f"twelve clicks (the host has {clicks})")
        session.wait_state(SessionState.LIVE, timeout=WAIT_S)
        assert tray.detent(0, 0) == 12
        with lock:
            assert sum(clicks) == 12 and all(c > 0 for c in clicks), clicks
        assert tray.resets == [], tray.notes


def test_a_tray_off_the_cpu_for_three_seconds_still_answers_within_the_callers_time() -> None:
    """The 10 000-click storm with the tray stopped in bursts of up to 2.5 s: every click
    arrived, and then ``session.stats(timeout=10)`` failed after 2 s, "no acknowledgement after
    8 tries": a command is resent 8 times, 250 ms apart, and the asking stopped there although
    the caller gave it 10 s. A snapshot or the statistics (asked again safely: they change
    nothing) are asked until the caller's time is up."""
    cfg = config.default_config(1)
    with VirtualTray(cfg, seed=3) as tray, TraySession(tray.port) as session:
        session.wait_synced(WAIT_S)
        pid = tray.pid
        assert pid is not None
        stop(pid)
        asked = time.monotonic()
        threading.Timer(3.0, os.kill, (pid, signal.SIGCONT)).start()
        stats = session.stats(timeout=WAIT_S)
        assert time.monotonic() - asked >= 3.0  # (answered once the tray ran again)
        assert stats.frames_ok > 0
