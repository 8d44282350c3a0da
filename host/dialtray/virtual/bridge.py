"""The virtual tray's USB cable: two pseudo-terminals joined by a thread.

The firmware process owns one pty (its "USB CDC" side). That pty is fully raw, ISIG included:
a Pico's USB CDC knows exactly one special byte, the keyboard-interrupt character, and nothing
of a terminal's line discipline (0x1C SIGQUIT, 0x1A SIGTSTP, 0x7F, ...), any of which would
otherwise kill or stop MicroPython. The bridge plays the CDC's interrupt logic itself: a 0x03
from the host becomes SIGINT for the firmware process exactly when that process has asked for
it (MicroPython's unix port installs its SIGINT handler while kbd_intr is 3 and code is running,
and removes it at the REPL prompt and under kbd_intr(-1)), and is swallowed, as the CDC does;
otherwise it is delivered as a data byte. See :func:`deliver_interrupt`.

The host side is a second pty whose slave path is published through a stable symlink, like
/dev/serial/by-id/… on a real machine, so pyserial and mpremote open it like any serial port.
Host-to-device bytes are flow-controlled like USB: while the firmware is not reading, the
bridge stops reading the host side, so a writer blocks instead of losing bytes.

Unplugging closes the host-side pty: the host's reads fail as they do when a real cable is
pulled. It also removes the symlink, as udev removes /dev/serial/by-id/… when a device goes:
left in place it would point at a pty number the kernel soon hands to another pseudo-terminal
(any virtual tray's firmware side, another program's terminal), and a host reconnecting through
it would talk to that one instead — swallowing its bytes and sending it ours. Replugging makes a
new pty and publishes the symlink again. While unplugged, the device's output
is read and discarded, as USB CDC drops output when no host is attached.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from dialtray.link.faults import FaultInjector

CTRL_C = 0x03
# Host-to-device bytes are taken from the host's port a little at a time, like the few USB
# packets a Pico's CDC buffers: what is in the bridge when the firmware resets is lost with it.
HOST_READ = 1024
_STOP_WAIT_S = 1.0


def make_raw(fd: int) -> None:
    """Raw mode: no echo, no line editing, no CR/LF translation and no signal characters."""
    tty.setraw(fd)


def _proc_field(pid: int, name: str) -> str | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(name + ":"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float:
    """CPU time process ``pid`` has used (user + system), from /proc; 0.0 if unknown."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def has_sigint_handler(pid: int) -> bool:
    caught = _proc_field(pid, "SigCgt")
    return caught is not None and bool(int(caught, 16) >> (signal.SIGINT - 1) & 1)


# Blocking system calls where MicroPython waits for time or input (x86-64 and aarch64 numbers):
# the only places a SIGINT may land safely, see deliver_interrupt.
_WAITING_SYSCALLS = {
    "x86_64": {0, 7, 23, 35, 219, 230, 232, 270, 271, 281},  # read poll select nanosleep
    # restart_syscall clock_nanosleep epoll_wait pselect6 ppoll epoll_pwait
    "aarch64": {22, 63, 72, 73, 101, 115, 128},  # epoll_pwait read pselect6 ppoll nanosleep
    # clock_nanosleep restart_syscall
}
_INTERRUPT_WAIT_S = 1.0


def _waiting(pid: int) -> bool | None:
    """Is stopped process ``pid`` inside a waiting system call? None: cannot tell here."""
    table = _WAITING_SYSCALLS.get(os.uname().machine)
    if table is None:
        return None
    try:
        with open(f"/proc/{pid}/syscall") as f:
            nr = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return False
    return nr in table


def _stop(pid: int) -> str | None:
    """SIGSTOP ``pid`` and wait until it is stopped; its state letter, None if it is gone."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + _STOP_WAIT_S
    while True:
        state = _proc_field(pid, "State")
        if state is None or state[:1] in ("T", "t", "Z", "X"):
            return state[:1] if state else None
        if time.monotonic() > deadline:
            return state[:1]  # never stopped: the caller must not gamble
        time.sleep(0.0002)


def deliver_interrupt(pid: int) -> bool:
    """Raise a keyboard interrupt in MicroPython process ``pid`` if it would take one.

    True when the interrupt was raised (the 0x03 is consumed, as the Pico's USB CDC consumes
    it); False when the byte must be delivered as data: the process has no SIGINT handler —
    at the REPL prompt, where readline reads Ctrl-C as a character, or under kbd_intr(-1),
    where the firmware judges 0x03 itself — or it never reached a safe point (below).

    Two hazards of the unix port, neither of which a Pico has:

    * SIGINT to a process without a handler kills it, so the check and the signal must not
      race the process changing its mind: the process is stopped (SIGSTOP) while its handler
      is read from /proc and the signal is queued, then continued; a pending signal is
      delivered with the disposition it was checked against.
    * Its SIGINT handler raises KeyboardInterrupt straight out of whatever was running
      (MICROPY_ASYNC_KBD_INTR). Landing inside the interpreter — parsing a REPL line with the
      qstr mutex held, say — leaves a lock taken and the next use deadlocks. A Pico only
      schedules the exception. So the signal is sent only while the stopped process is waiting
      in a blocking system call (sleep, poll, select, read: where the firmware's event loop
      and the REPL spend their time), retried for up to a second.

    Linux only (/proc); elsewhere the byte goes through as data.
    """
    if not os.path.exists(f"/proc/{pid}/status"):
        return False
    deadline = time.monotonic() + _INTERRUPT_WAIT_S
    while True:
        try:
            try:
                if _stop(pid) not in ("T", "t"):
                    return False
                if not has_sigint_handler(pid):
                    return False
                if _waiting(pid) is not False:
                    os.kill(pid, signal.SIGINT)
                    return True
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            return False
        if time.monotonic() > deadline:
            return False  # busy in the interpreter all along: no safe moment came
        time.sleep(0.001)


class UsbBridge:
    def __init__(self, link_path: Path, to_host: FaultInjector | None = None,
                 to_device: FaultInjector | None = None) -> None:
        self.link_path = link_path
        self.to_host = to_host or FaultInjector()
        self.to_device = to_device or FaultInjector()
        # The device's keyboard-interrupt logic (the tray sets it): called for each 0x03 on its
        # way to the device; True when it became an interrupt and the byte is consumed.
        self.interrupt: Callable[[], bool] | None = None
        self._device_fd: int | None = None
        self._host_fd: int | None = None
        self._host_slave: int | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._to_device = bytearray()  # taken from the host, not yet taken by the device
        self._hold = False  # the device is resetting: leave the host's bytes in its port
        # Device fds the tray is done with, closed by the pump itself (see retire_device).
        self._retired: list[int] = []
        self.bytes_to_host = 0
        self.bytes_from_device = 0  # everything the device wrote, before cable damage
        self.bytes_to_device = 0
        self.interrupts = 0
        self.lost_to_device = 0  # taken from the host, lost to a reset or power-off
        self.overflowed = 0
        self.plugged = False
        # The last bytes the device wrote, before any cable damage: its console, for people
        # debugging the firmware (tracebacks, the REPL banner).
        self.device_tail = bytearray()
        self._thread = threading.Thread(target=self._run, name="usb-bridge", daemon=True)
        self._thread.start()

    # ---- the two ends ---------------------------------------------------------------------------

    def attach_device(self, fd: int | None, hold: bool = False) -> None:
        """The firmware process's pty master (None while the tray is powered off).

        ``hold``: no device for a moment because the chip is resetting; the host's bytes wait
        (flow control) instead of being thrown away as when the tray is off."""
        with self._lock:
            self._device_fd = fd
            self._hold = fd is None and hold
            # Bytes the old firmware never read die with it, as a Pico's USB buffer does.
            self.lost_to_device += len(self._to_device)
            self._to_device.clear()
        self._wake()

    def retire_device(self, fd: int) -> None:
        """Close an old firmware pty master once the pump has finished with it.

        The pump reads and writes a device fd outside the lock. Closed from another thread,
        that fd's number is free at once, and the tray's next openpty usually reuses it — for
        the new pty's *slave* as often as not: the pump's next write of the old boot's host
        bytes then lands on the new firmware's terminal and comes back out as device output
        (the host reads its own commands), and a read steals the new firmware's input. Closed
        here, between the pump's turns, no old number can be in use when it is reused."""
        with self._lock:
            self._retired.append(fd)
        self._wake()

    def _close_retired(self) -> None:
        with self._lock:
            retired, self._retired = self._retired, []
        for fd in retired:
            with contextlib.suppress(OSError):
                os.close(fd)

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
            self._retired.append(self._host_fd)  # closed by the pump: see retire_device
            # Keeping our copy of the slave open would keep the port alive: close it too.
            os.close(self._host_slave)
            self._host_fd = self._host_slave = None
            self.plugged = False
            # The port vanishes (udev semantics): no host may open the closed pty's number,
            # which the kernel reuses for the next pseudo-terminal created on the machine.
            with contextlib.suppress(FileNotFoundError):
                self.link_path.unlink()
            self.lost_to_device += len(self._to_device)
            self._to_device.clear()
        self._wake()

    def close(self) -> None:
        self._stop.set()
        self._wake()
        self._thread.join(timeout=2)
        self.unplug()
        self._close_retired()  # the pump has stopped: what it would have closed, and the port
        if self.link_path.is_symlink():
            self.link_path.unlink()

    # ---- the pump -------------------------------------------------------------------------------

    def _wake(self) -> None:
        os.write(self._wake_w, b"x")

    def _run(self) -> None:
        while not self._stop.is_set():
            self._close_retired()
            with self._lock:
                dev, host = self._device_fd, self._host_fd
                backlog = bool(self._to_device)
                hold = self._hold
            readers = [self._wake_r] + [fd for fd in (dev,) if fd is not None]
            writers = []
            if backlog and dev is not None:
                writers.append(dev)  # flow control: the host waits until the device reads
            elif host is not None and not hold:
                readers.append(host)
            try:
                ready, can_write, _ = select.select(readers, writers, [], 0.5)
            except (OSError, ValueError):
                continue  # an fd closed under us by unplug(): take the new set
            if self._wake_r in ready:
                os.read(self._wake_r, 4096)
            if dev is not None and dev in ready:
                self._from_device(dev, host)
            if host is not None and host in ready:
                self._from_host(host, dev)
            if dev is not None and dev in can_write:
                self._feed_device(dev)

    def _read(self, fd: int, size: int = 65536) -> bytes:
        try:
            return os.read(fd, size)
        except BlockingIOError:
            return b""
        except OSError:
            # The other side hung up (the process is gone, or nobody has the port open): a
            # pty master then stays "readable" with EIO, so pause instead of spinning.
            time.sleep(0.01)
            return b""

    def _from_device(self, dev: int, host: int | None) -> None:
        data = self._read(dev)
        if not data:
            return
        self.device_tail += data
        del self.device_tail[:-8192]
        self.bytes_from_device += len(data)
        data = self.to_host.apply(data)
        if host is None or not data:
            return  # no host on the cable: USB CDC drops what nobody reads
        with self._lock:
            if host != self._host_fd:
                return
        try:
            os.write(host, data)
        except BlockingIOError:
            # Nobody is reading the port and its buffer is full: like a USB host that stopped
            # polling, the bytes are lost. The protocol's replay covers it.
            self.overflowed += len(data)
            return
        except OSError:
            return
        self.bytes_to_host += len(data)

    def _from_host(self, host: int, dev: int | None) -> None:
        data = self._read(host, HOST_READ)
        if not data:
            return
        data = self.to_device.apply(data)
        with self._lock:
            if dev is None or dev != self._device_fd:
                self.lost_to_device += len(data)
                return  # the tray is off: nobody on the other end of the cable
            self._to_device += data
        self._feed_device(dev)

    def _feed_device(self, dev: int) -> None:
        """Hand the device what it will take now; a 0x03 goes through its interrupt logic."""
        with self._lock:
            if dev != self._device_fd:
                return
            pending = bytes(self._to_device)
        done = 0
        while done < len(pending):
            if pending[done] == CTRL_C:
                hook = self.interrupt
                if hook is not None and hook():
                    self.interrupts += 1
                    done += 1
                    continue
                end = done + 1
            else:
                end = pending.find(CTRL_C, done)
                end = len(pending) if end < 0 else end
            try:
                n = os.write(dev, pending[done:end])
            except BlockingIOError:
                break
            except OSError:
                # The firmware process has ended and the tray is resetting: like a Pico's USB
                # during a reset, hold the host off (its writes wait) until the new boot is
                # attached; what is held here is then lost with the old boot (attach_device).
                time.sleep(0.005)
                break
            self.bytes_to_device += n
            done += n
            if done < end:
                break  # the device's input buffer is full: wait until it reads
        with self._lock:
            if dev == self._device_fd:
                del self._to_device[:done]
