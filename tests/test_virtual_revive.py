"""Issue 8, defect 2: whatever state garbage leaves a tray in, the host's connect brings it back.

Random bytes holding a 0x03 drop a tray with no host to the MicroPython REPL (as on any
MicroPython board); more garbage can put it in the raw REPL, in paste mode or half-way through a
line. The host's connect (dialtray.link.revive, on the session's connect path) must bring it back
to running firmware and synchronise, without a power cycle, and must never disturb firmware that
is running. The first tests drive the guard with scripted bytes; the rest use the virtual tray.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
import serial
from dialrig import config, proto
from dialtray.link import revive
from dialtray.link.session import TraySession
from dialtray.virtual.tray import VirtualTray

WAIT_S = 60.0  # generous: the machine may be loaded; tests wait on conditions, not rates


class Scripted:
    """A transport whose reads come from a script of (at_s, bytes); records every write."""

    def __init__(self, script: list[tuple[float, bytes]]) -> None:
        self.t0 = time.monotonic()
        self.script = list(script)
        self.written: list[bytes] = []

    def read(self) -> bytes:
        time.sleep(0.005)
        if self.script and time.monotonic() - self.t0 >= self.script[0][0]:
            return self.script.pop(0)[1]
        return b""

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def close(self) -> None:
        pass


def heartbeat(n: int) -> bytes:
    return proto.encode(proto.T_HEARTBEAT, proto.HEARTBEAT_FMT, 77, n, n * 500)


def run_guard(script: list[tuple[float, bytes]], seconds: float) -> tuple[revive.ReviveGuard,
                                                                          Scripted]:
    t = Scripted(script)
    g = revive.guard(t)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        g.read()
    return g, t


def test_the_guard_never_writes_to_running_firmware_even_among_repl_text() -> None:
    """Defect 2: running firmware (a heartbeat every 0.5 s) is never sent a single byte, even
    when REPL-looking text is on the line (an old prompt from before a soft reset, noise)."""
    script = [(0.0, b">>> raw REPL; CTRL-B to exit\r\n>")]
    script += [(0.05 + 0.5 * i, heartbeat(i) + b"paste mode; Ctrl-C\r\n=== ") for i in range(7)]
    g, t = run_guard(script, 3.6)
    assert t.written == [] and g.revives == 0 and g.wakes == 0


def test_the_guard_revives_a_repl_with_the_picos_keys() -> None:
    """Defect 2: no frame for a second and a REPL prompt: CR Ctrl-C Ctrl-C, Ctrl-B, Ctrl-C,
    Ctrl-D — and nothing at all before the quiet second is over."""
    g, t = run_guard([(0.0, b"Traceback (most recent call last):\r\n>>> ")], 0.8)
    assert t.written == []
    end = time.monotonic() + 0.6
    while time.monotonic() < end:
        g.read()
    assert t.written == list(revive.REVIVE_KEYS) and g.revives == 1


def test_the_guard_asks_a_silent_port_harmlessly_first() -> None:
    """Defect 2: the raw REPL echoes nothing. A silent port gets Ctrl-B CR (never a 0x03: the
    interrupt character is only sent once the REPL has shown itself)."""
    g, t = run_guard([], 1.3)
    assert t.written == [revive.WAKE] and b"\x03" not in revive.WAKE
    # ... and once the REPL shows itself (the raw REPL's Ctrl-B prints the banner), it revives.
    t.script = [(0.0, b"\r\nMicroPython v1.24.0 on 2024-10-25; Raspberry Pi Pico\r\n>>> ")]
    g.read()
    assert t.written[1:] == list(revive.REVIVE_KEYS)


# ---- the virtual tray ---------------------------------------------------------------------------


def wait_for(cond: Callable[[], bool], what: str, timeout: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def console(tray: VirtualTray) -> bytes:
    return bytes(tray.bridge.device_tail)


# Garbage that leaves the tray in each state, and what the console shows once it is there.
STATES = {
    "repl": (b"\x03", b">>> "),
    "raw REPL": (b"\x03\x01", b"raw REPL; CTRL-B to exit\r\n>"),
    "raw REPL half line": (b"\x03\x01print(1 +", b"raw REPL; CTRL-B to exit\r\n>"),
    "paste mode": (b"\x03\x05x = (1,\r", b"=== "),
    "half line": (b"\x03for i in range(3):\r", b"... "),
    "half frame": (b"\x00\x21\xa4\xa4\x13", b""),
}


@pytest.mark.parametrize("state", list(STATES))
def test_a_host_brings_a_tray_back_from_any_state_garbage_leaves(state: str) -> None:
    """Defect 2: REPL, raw REPL, paste mode, half a line, half a frame: the host's connect
    brings the firmware back and synchronises, and the tray is never power-cycled."""
    garbage, shows = STATES[state]
    cfg = config.default_config(2)
    with VirtualTray(cfg, seed=5, report=lambda note: None) as tray:
        wait_for(lambda: b"docks" in console(tray), "the first boot")
        with serial.Serial(tray.port, 115200, timeout=0.1) as port:
            port.write(garbage)
            wait_for(lambda: shows in console(tray)[-64:] if shows else
                     tray.bridge.bytes_to_device >= len(garbage), f"the tray in {state}")
        started = time.monotonic()
        with TraySession(tray.port) as session:
            session.wait_synced(WAIT_S)
            took = time.monotonic() - started
            assert session.hello is not None
        assert tray.power_ons == 1 and tray.running
        if shows:  # at a REPL: the soft reset brought the firmware back
            assert tray.resets == ["soft"], (tray.resets, tray.notes)
        else:
            assert tray.resets == []
        print(f"{state}: synchronised {took:.2f} s after connecting")


def test_a_host_never_disturbs_the_running_firmware() -> None:
    """Defect 2: connecting, staying and reconnecting to a running tray sends no interrupt,
    causes no reset and keeps the same boot."""
    with VirtualTray(config.default_config(2), seed=6, report=lambda note: None) as tray:
        for _ in range(3):
            with TraySession(tray.port) as session:
                session.wait_synced(WAIT_S)
                time.sleep(1.5)
        assert tray.resets == [] and tray.boots == 1 and tray.bridge.interrupts == 0
        assert b">>> " not in console(tray)
