"""Issue 8, defect 1: one byte must not kill the virtual tray, and every firmware exit is a reset.

A Pico's USB CDC knows one special byte, the keyboard-interrupt character; the virtual tray's
pty used to hand the line discipline's signal characters (0x1C SIGQUIT, 0x1A SIGTSTP, ...) to
MicroPython, and its supervisor restarted the firmware only on its own reset exit code.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

import serial
from dialrig import config
from dialtray.virtual.tray import VirtualTray

WAIT_S = 30.0  # generous: the machine may be loaded; the tests wait on conditions


def wait_for(cond: Callable[[], bool], what: str, timeout: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def tail(tray: VirtualTray) -> bytes:
    return bytes(tray.bridge.device_tail)


def booted(tray: VirtualTray, n: int) -> Callable[[], bool]:
    """Boot n has printed its banner (callers clear the console before causing a boot)."""
    return lambda: tray.boots >= n and tray.running and b"docks" in tail(tray)


def clear(tray: VirtualTray) -> None:
    tray.bridge.device_tail.clear()


def quick_tray() -> VirtualTray:
    cfg = config.default_config(2)
    cfg["watchdog_ms"] = 800
    return VirtualTray(cfg, seed=3, report=lambda note: None)


def test_no_byte_but_ctrl_c_stops_the_running_firmware() -> None:
    """Defect 1: 0x1C (SIGQUIT), 0x1A (SIGTSTP) and every other byte except the interrupt
    character reach the firmware as data: same process, no reset, the watchdog still fed."""
    with quick_tray() as tray, serial.Serial(tray.port, 115200, timeout=0.1) as port:
        wait_for(booted(tray, 1), "the first boot")
        pid = tray.pid
        for b in (0x1C, 0x1A, 0x7F, 0x11, 0x13, 0x15, 0x17, 0x12, 0x16, 0x0F, 0x19):
            port.write(bytes([b]))
            time.sleep(0.05)
        port.write(bytes(b for b in range(256) if b != 0x03) * 4)
        sent = 4 * 255 + 11
        wait_for(lambda: tray.bridge.bytes_to_device >= sent, "the firmware to take every byte")
        time.sleep(1.2)  # past the 0.8 s watchdog: a stopped (SIGTSTP) firmware would be reset
        assert tray.pid == pid and tray.resets == [] and tray.boots == 1, tray.notes
        assert b">>> " not in tail(tray)


def test_ctrl_c_without_a_host_gives_the_repl_as_on_a_pico() -> None:
    """Defect 1: the interrupt character is the one byte that stops the firmware (no host)."""
    with quick_tray() as tray, serial.Serial(tray.port, 115200, timeout=0.1) as port:
        wait_for(booted(tray, 1), "the first boot")
        pid = tray.pid
        port.write(b"\x03")
        wait_for(lambda: tail(tray).endswith(b">>> "), "the REPL prompt")
        assert tray.bridge.interrupts == 1
        port.write(b"print('still', 40 + 2)\r")
        wait_for(lambda: b"still 42" in tail(tray), "the REPL to answer")
        time.sleep(1.0)  # the firmware disabled the watchdog before handing over the REPL
        assert tray.pid == pid and tray.resets == []


def test_ctrl_d_at_the_repl_soft_resets_like_a_pico() -> None:
    """Defect 1: the unix port exits on Ctrl-D; the tray boots the firmware again (soft)."""
    notes: list[str] = []
    with VirtualTray(config.default_config(2), seed=3, report=notes.append) as tray, \
            serial.Serial(tray.port, 115200, timeout=0.1) as port:
        wait_for(booted(tray, 1), "the first boot")
        port.write(b"\x03")
        wait_for(lambda: tail(tray).endswith(b">>> "), "the REPL prompt")
        clear(tray)
        port.write(b"\x04")
        wait_for(booted(tray, 2), "the soft reset")
        assert tray.resets == ["soft"] and tray.power_ons == 1
        assert any("Ctrl-D" in n for n in notes), notes


def test_the_supervisor_notices_every_exit_and_boots_again() -> None:
    """Defect 1: any exit status and any signal is noticed, reported, and the tray comes back;
    `on` still works afterwards (it used to do nothing once the firmware had died)."""
    notes: list[str] = []
    with VirtualTray(config.default_config(2), seed=3, report=notes.append) as tray, \
            serial.Serial(tray.port, 115200, timeout=0.1) as port:
        wait_for(booted(tray, 1), "the first boot")
        pid = tray.pid
        assert pid is not None
        clear(tray)
        os.kill(pid, signal.SIGQUIT)  # what a 0x1C used to do through the line discipline
        wait_for(booted(tray, 2), "a boot after SIGQUIT")
        assert any("SIGQUIT" in n for n in notes), notes
        port.write(b"\x03")
        wait_for(lambda: tail(tray).endswith(b">>> "), "the REPL prompt")
        clear(tray)
        port.write(b"import sys\rsys.exit(7)\r")
        wait_for(booted(tray, 3), "a boot after exit status 7")
        assert any("status 7" in n for n in notes), notes
        assert tray.resets == ["crash", "exit"]
        tray.power_off()
        assert not tray.running
        clear(tray)
        tray.power_on()
        wait_for(booted(tray, 4), "power on")
        assert tray.power_ons == 2
