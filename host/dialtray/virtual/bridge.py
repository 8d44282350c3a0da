"""The virtual tray's USB cable: two pseudo-terminals joined by a thread.

The firmware process owns one pty (its "USB CDC" side, with ISIG on so a 0x03 byte raises
KeyboardInterrupt exactly as the Pico's USB stack does). The host side is a second pty whose
slave path is published through a stable symlink, like /dev/serial/by-id/… on a real machine,
so pyserial and mpremote open it like any serial port.

Unplugging closes the host-side pty: the host's reads fail as they do when a real cable is
pulled. Replugging makes a new pty and moves the symlink. While unplugged, the device's output
is read and discarded, as USB CDC drops output when no host is attached.
"""

from __future__ import annotations

import os
import select
import termios
import threading
import time
import tty
from pathlib import Path

from dialtray.link.faults import FaultInjector


def make_raw(fd: int, isig: bool = False) -> None:
    """Raw mode (no echo, no line editing, no CR/LF translation); optionally keep ISIG."""
    tty.setraw(fd)
    attrs = termios.tcgetattr(fd)
    if isig:
        attrs[3] |= termios.ISIG
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


class UsbBridge:
    def __init__(self, link_path: Path, to_host: FaultInjector | None = None,
                 to_device: FaultInjector | None = None) -> None:
        self.link_path = link_path
        self.to_host = to_host or FaultInjector()
        self.to_device = to_device or FaultInjector()
        self._device_fd: int | None = None
        self._host_fd: int | None = None
        self._host_slave: int | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self.bytes_to_host = 0
        self.bytes_to_device = 0
        self.overflowed = 0
        self.plugged = False
        # The last bytes the device wrote, before any cable damage: its console, for people
        # debugging the firmware (tracebacks, the REPL banner).
        self.device_tail = bytearray()
        self._thread = threading.Thread(target=self._run, name="usb-bridge", daemon=True)
        self._thread.start()

    # ---- the two ends ---------------------------------------------------------------------------

    def attach_device(self, fd: int | None) -> None:
        """The firmware process's pty master (None while the tray is powered off)."""
        with self._lock:
            self._device_fd = fd
        self._wake()

    def plug(self) -> str:
        """Create the host-side port; returns the real pty path the symlink points at."""
        with self._lock:
            if self.plugged:
                return os.readlink(self.link_path)
            master, slave = os.openpty()
            make_raw(slave)
            os.set_blocking(master, False)
            name = os.ttyname(slave)
            tmp = self.link_path.with_suffix(".new")
            if tmp.is_symlink() or tmp.exists():
                tmp.unlink()
            tmp.symlink_to(name)
            tmp.replace(self.link_path)
            self._host_fd, self._host_slave = master, slave
            self.plugged = True
        self._wake()
        return name

    def unplug(self) -> None:
        with self._lock:
            if not self.plugged:
                return
            assert self._host_fd is not None and self._host_slave is not None
            os.close(self._host_fd)
            # Keeping our copy of the slave open would keep the port alive: close it too.
            os.close(self._host_slave)
            self._host_fd = self._host_slave = None
            self.plugged = False
        self._wake()

    def close(self) -> None:
        self._stop.set()
        self._wake()
        self._thread.join(timeout=2)
        self.unplug()
        if self.link_path.is_symlink():
            self.link_path.unlink()

    # ---- the pump -------------------------------------------------------------------------------

    def _wake(self) -> None:
        os.write(self._wake_w, b"x")

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                dev, host = self._device_fd, self._host_fd
            fds = [self._wake_r] + [fd for fd in (dev, host) if fd is not None]
            try:
                ready, _, _ = select.select(fds, [], [], 0.5)
            except (OSError, ValueError):
                continue  # an fd closed under us by unplug(): take the new set
            if self._wake_r in ready:
                os.read(self._wake_r, 4096)
            if dev is not None and dev in ready:
                self._pump(dev, host, to_host=True)
            if host is not None and host in ready:
                self._pump(host, dev, to_host=False)

    def _pump(self, src: int, dst: int | None, to_host: bool) -> None:
        try:
            data = os.read(src, 65536)
        except BlockingIOError:
            return
        except OSError:
            # The other side hung up (the process is gone, or nobody has the port open): a
            # pty master then stays "readable" with EIO, so pause instead of spinning.
            time.sleep(0.01)
            return
        if not data:
            return
        if to_host:
            self.device_tail += data
            del self.device_tail[:-8192]
        injector = self.to_host if to_host else self.to_device
        data = injector.apply(data)
        if dst is None or not data:
            return
        with self._lock:
            still = dst in (self._device_fd, self._host_fd)
        if not still:
            return
        try:
            os.write(dst, data)
        except BlockingIOError:
            # Nobody is reading the port and its buffer is full: like a USB host that stopped
            # polling, the bytes are lost. The protocol's replay covers it.
            self.overflowed += len(data)
            return
        except OSError:
            return
        if to_host:
            self.bytes_to_host += len(data)
        else:
            self.bytes_to_device += len(data)
