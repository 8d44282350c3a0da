"""Helpers shared by the emulated Pico's tests: the bench's tray config, waits, an event log."""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from dialrig import config
from dialtray.link.messages import TrayEvent
from dialtray.link.session import TraySession

E = TypeVar("E", bound=TrayEvent)


def bench_config() -> dict[str, Any]:
    """Two docks with every kind of sensor and both multiplexers: dock 0 on AS5600s (mux 0x70
    channels 0, 1), dock 1's combat dial on quadrature encoder 0 (GPIO 6/7, PIO0 SM0), its speed
    dial on an AS5600 behind mux 0x71 channel 0; two LED dice; a 1 s watchdog."""
    cfg: dict[str, Any] = config.default_config(2)
    cfg["dice"] = 2
    cfg["watchdog_ms"] = 1000
    cfg["docks"][1][0].update(sensor=config.SENSOR_QUADRATURE, quad=0, mux=-1, channel=-1)
    cfg["docks"][1][1].update(mux=config.MUX_ADDRS[1], channel=0)
    return cfg


SYNC_S = 300.0  # the chip boots in ~0.5 s of its time; under load it runs at ~0.1x real time


def wait_until(cond: Callable[[], bool], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


class Got:
    """Everything a session delivers, in order."""

    def __init__(self, session: TraySession) -> None:
        self.events: list[TrayEvent] = []
        self.lock = threading.Lock()
        session.subscribe(self.add)

    def add(self, ev: TrayEvent) -> None:
        with self.lock:
            self.events.append(ev)

    def of(self, kind: type[E]) -> list[E]:
        with self.lock:
            return [e for e in self.events if isinstance(e, kind)]


def interrupt(proc: subprocess.Popen[str], errors: Any, timeout: float = 60) -> str:
    """Ctrl-C to a command started with its stderr in the file ``errors``; its stderr text
    once it has exited (killed if it has not within ``timeout``)."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
    errors.close()
    with open(errors.name) as f:
        return f.read()
