"""The serial port under the link: pyserial, by path or by finding the Pico on USB.

A real USB unplug makes the port vanish; reads then fail. Everything below reports that as
:class:`LinkDown` so the session above can reconnect without caring whether it was a cable, a
reboot or the virtual tray's unplug button.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Protocol

import serial
from dialrig import config
from serial.tools import list_ports

BAUD = 115_200  # ignored by USB CDC, needed by pyserial
READ_TIMEOUT_S = 0.005


class LinkDown(ConnectionError):
    """The port is gone or failed; reconnecting may bring it back."""


class NoTrayFound(LinkDown):
    """Auto-discovery found no Raspberry Pi Pico (VID:PID 2E8A:0005) on USB."""


class Transport(Protocol):
    """What the session needs from a byte pipe. Reads return b'' on timeout."""

    def read(self) -> bytes: ...

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...


def discover() -> list[str]:
    """Ports that look like a dialtray: a Pico running MicroPython (by USB VID:PID)."""
    return sorted(p.device for p in list_ports.comports()
                  if p.vid == config.USB_VID and p.pid == config.USB_PID)


@dataclass
class SerialTransport:
    """A pyserial port. ``open(None)`` picks the only Pico on USB, or refuses to guess."""

    port: serial.Serial

    @classmethod
    def open(cls, path: str | None) -> SerialTransport:
        if path is None:
            found = discover()
            if not found:
                raise NoTrayFound("no tray found on USB (looked for VID:PID 2E8A:0005); "
                                  "plug it in or give the port, e.g. /dev/ttyACM0")
            if len(found) > 1:
                raise NoTrayFound(f"several Picos found ({', '.join(found)}): name the port")
            path = found[0]
        try:
            port = serial.Serial(path, BAUD, timeout=READ_TIMEOUT_S, write_timeout=1.0)
        except (serial.SerialException, OSError) as e:
            raise LinkDown(f"cannot open {path}: {e}") from e
        return cls(port)

    def read(self) -> bytes:
        try:
            waiting = self.port.in_waiting
            data: bytes = self.port.read(waiting or 1)
            return data
        except (serial.SerialException, OSError, TypeError) as e:
            # TypeError: pyserial's posix read after the fd was closed under it.
            raise LinkDown(f"read failed: {e}") from e

    def write(self, data: bytes) -> None:
        try:
            self.port.write(data)
        except (serial.SerialException, OSError) as e:
            raise LinkDown(f"write failed: {e}") from e

    def close(self) -> None:
        with contextlib.suppress(serial.SerialException, OSError):
            self.port.close()
