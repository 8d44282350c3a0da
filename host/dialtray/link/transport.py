"""The serial port under the link: pyserial, by path or by finding the Pico on USB.

pyserial is imported when a port is first listed or opened, not with this module: its POSIX
backend loads termios and fcntl, and the CLI starts without either (they do not exist on
Windows, and the virtual tray's own use of them is an optional extra).

A real USB unplug makes the port vanish; reads then fail. Everything below reports that as
:class:`LinkDown` so the session above can reconnect without caring whether it was a cable, a
reboot or the virtual tray's unplug button.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from dialrig import config

if TYPE_CHECKING:
    import serial

BAUD = 115_200  # ignored by USB CDC, needed by pyserial
READ_TIMEOUT_S = 0.005


class LinkDown(ConnectionError):
    """The port is gone or failed; reconnecting may bring it back."""


class NoTrayFound(LinkDown):
    """Auto-discovery found no Raspberry Pi Pico (VID:PID 2E8A:0005) on USB."""


class SeveralTrays(NoTrayFound):
    """Auto-discovery found more than one Pico: the user must name the port."""


class PortError(LinkDown):
    """A named port that does not exist or that this user may not open; the message says why."""


class NoSuchPort(PortError):
    """The named port does not exist."""


UDEV_RULE = "hardware/99-dialtray.rules"


def permission_fix(path: str) -> str:
    """What to do about a port this user may not open, in one sentence for this system."""
    if sys.platform.startswith("linux"):
        return (f"permission denied on {path}: add yourself to the port's group "
                "(`sudo usermod -aG dialout $USER`, then log out and back in), or install the "
                f"udev rule shipped in dialtray's {UDEV_RULE} (`sudo cp {UDEV_RULE} "
                "/etc/udev/rules.d/ && sudo udevadm control --reload`, then replug the tray)")
    if sys.platform == "darwin":
        return f"permission denied on {path}: check the port's owner with `ls -l {path}`"
    return (f"permission denied on {path}: another program (a serial terminal, Thonny, "
            "mpremote) may have the port open; close it and try again")


def check_port(path: str) -> None:
    """Refuse, in words, a port path that does not exist or that this user may not open.

    Cheap and without opening the port (opening a tray's port is the session's job). On
    Windows, COM ports are not files: nothing to check before opening.
    """
    if sys.platform == "win32":
        return
    if not os.path.exists(path):
        found = discover()
        trays = f"trays on USB: {', '.join(found)}" if found else "no tray found on USB"
        raise NoSuchPort(f"no such port {path} ({trays})")
    if not os.access(path, os.R_OK | os.W_OK):
        raise PortError(permission_fix(path))


def describe(device: str) -> str:
    """'/dev/ttyACM0 (Board in FS mode, serial e66038b7131b5c2f)' for a discovered port."""
    for p in comports():
        if p.device == device:
            bits = [b for b in (p.product or p.description, p.serial_number and
                                f"serial {p.serial_number}") if b and b != "n/a"]
            return f"{device} ({', '.join(bits)})" if bits else device
    return device


def find_tray() -> str:
    """The one Pico on USB; NoTrayFound or SeveralTrays (naming each) otherwise."""
    found = discover()
    if not found:
        raise NoTrayFound("no tray found on USB (looked for a Raspberry Pi Pico, VID:PID "
                          "2E8A:0005): plug it in, or give the port, e.g. /dev/ttyACM0 or COM3; "
                          "no tray at all? start a virtual one with `dialtray sim`")
    if len(found) > 1:
        raise SeveralTrays(f"{len(found)} trays found on USB, not guessing which: "
                           f"{'; '.join(describe(d) for d in found)}: name the port to use")
    return found[0]


class Transport(Protocol):
    """What the session needs from a byte pipe. Reads return b'' on timeout."""

    def read(self) -> bytes: ...

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...


def comports() -> list[Any]:
    """Every serial port the operating system lists (pyserial's ListPortInfo)."""
    from serial.tools import list_ports

    return list(list_ports.comports())


def discover() -> list[str]:
    """Ports that look like a dialtray: a Pico running MicroPython (by USB VID:PID)."""
    return sorted(p.device for p in comports()
                  if p.vid == config.USB_VID and p.pid == config.USB_PID)


@dataclass
class SerialTransport:
    """A pyserial port. ``open(None)`` picks the only Pico on USB, or refuses to guess."""

    port: serial.Serial

    @classmethod
    def open(cls, path: str | None) -> SerialTransport:
        import serial

        if path is None:
            path = find_tray()
        try:
            port = serial.Serial(path, BAUD, timeout=READ_TIMEOUT_S, write_timeout=1.0)
        except (serial.SerialException, OSError) as e:
            code = getattr(e, "errno", None)
            if code in (errno.EACCES, errno.EPERM) or isinstance(e, PermissionError):
                raise PortError(permission_fix(path)) from e
            if code == errno.ENOENT or isinstance(e, FileNotFoundError):
                raise NoSuchPort(f"no such port {path}") from e
            raise LinkDown(f"cannot open {path}: {e}") from e
        return cls(port)

    def read(self) -> bytes:
        try:
            waiting = self.port.in_waiting
            data: bytes = self.port.read(waiting or 1)
            return data
        except (OSError, TypeError) as e:  # serial.SerialException is an OSError
            # TypeError: pyserial's posix read after the fd was closed under it.
            raise LinkDown(f"read failed: {e}") from e

    def write(self, data: bytes) -> None:
        try:
            self.port.write(data)
        except OSError as e:  # serial.SerialException included
            raise LinkDown(f"write failed: {e}") from e

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.port.close()
