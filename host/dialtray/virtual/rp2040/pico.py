"""One emulated Pico on its bench: the Node process running ``harness.mjs``, seen from Python.

:class:`EmulatedPico` starts the harness with the board's flash file (made from the official
MicroPython UF2 and, optionally, a littlefs image when the file does not exist yet: a power
cycle later keeps what the firmware wrote), reads its events on a thread (boots with their
reason, LED frames decoded from the WS2812 data pin, statistics) and sends it commands (turn a
magnet or an encoder, press the button, pull a multiplexer, power). The USB CDC is a TCP socket
on 127.0.0.1; :attr:`socket_url` is what pyserial and mpremote open.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dialrig import config

from dialtray.virtual.rp2040 import (
    BOOTROM_NAME,
    HERE,
    UF2_NAME,
    binaries_dir,
    missing,
    node_binary,
)
from dialtray.virtual.rp2040.image import FS_OFFSET

START_TIMEOUT_S = 20.0


class PicoError(RuntimeError):
    """The emulated Pico could not start or answer; the message says why in one line."""


@dataclass
class Boot:
    """One start of the chip: 'power' (power-on) or 'watchdog' (WATCHDOG.REASON: 1 timer,
    2 forced by machine.reset())."""

    n: int
    reason: str
    watchdog_reason: int


@dataclass
class LedFrame:
    t: float  # simulated seconds since this chip's power-on
    grb: bytes


@dataclass
class _Events:
    boots: list[Boot] = field(default_factory=list)
    frames: list[LedFrame] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    replies: dict[int, dict[str, Any]] = field(default_factory=dict)


class EmulatedPico:
    """``with EmulatedPico(flash_file) as pico: pico.socket_url``.

    flash_file   the board's 2 MiB flash, created on first use from the UF2 (+ ``lfs_image``)
    uid          the flash chip's unique ID (machine.unique_id), 16 hex digits
    realtime     never run the chip ahead of the wall clock (a user's tray); False for benches
    """

    def __init__(self, flash_file: Path, *, lfs_image: bytes | None = None,
                 uid: str = "e660583883724a32", seed: int = 1, realtime: bool = True,
                 on_frame: Callable[[LedFrame], None] | None = None) -> None:
        why = missing()
        if why is not None:
            raise PicoError(f"the emulated Pico cannot run: {why}")
        shared = binaries_dir()
        assert shared is not None
        self.flash_file = Path(flash_file)
        self.flash_file.parent.mkdir(parents=True, exist_ok=True)
        lfs_path = None
        if lfs_image is not None and not self.flash_file.exists():
            lfs_path = self.flash_file.with_suffix(".lfs")
            lfs_path.write_bytes(lfs_image)
        self._cfg = {
            "bootrom": str(shared / BOOTROM_NAME), "uf2": str(shared / UF2_NAME),
            "flash": str(self.flash_file), "lfs": str(lfs_path) if lfs_path else None,
            "lfs_offset": FS_OFFSET, "uid": uid, "seed": seed, "realtime": realtime,
            "pins": config.PINS, "mux_addrs": list(config.MUX_ADDRS),
            "sensor_addr": config.AS5600_ADDR,
        }
        self.on_frame = on_frame
        # Called (on the events thread) with each `at` event once ``send("follow", on=True)``:
        # a dial where the firmware found it somewhere new ({mux, ch, angle} or {quad, count}).
        self.on_at: Callable[[dict[str, Any]], None] | None = None
        self.events = _Events()
        self._cond = threading.Condition()
        self._ids = itertools.count(1)
        self._proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.stderr_tail: list[str] = []

    # ---- life cycle ------------------------------------------------------------------------------

    def start(self) -> EmulatedPico:
        node = node_binary()
        assert node is not None
        self._proc = subprocess.Popen(
            [node, str(HERE / "harness.mjs"), json.dumps(self._cfg)], cwd=HERE,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            bufsize=1)
        assert self._proc.stdout is not None
        first = self._proc.stdout.readline()
        try:
            ready = json.loads(first)
            self.port = int(ready["port"])
        except (ValueError, KeyError, TypeError):
            err = self._proc.stderr.read() if self._proc.stderr else ""
            self.close()
            last = (err.strip().splitlines() or [first.strip() or "no output"])[-1]
            raise PicoError(f"the emulator did not start: {last}") from None
        threading.Thread(target=self._read_events, name="pico-events", daemon=True).start()
        threading.Thread(target=self._read_stderr, name="pico-stderr", daemon=True).start()
        return self

    def __enter__(self) -> EmulatedPico:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError, ValueError):
            assert proc.stdin is not None
            proc.stdin.write('{"op":"quit"}\n')
            proc.stdin.flush()
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=3)

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def socket_url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    def connect(self) -> socket.socket:
        """A new connection to the USB CDC (replacing any other, like reopening the port)."""
        return socket.create_connection(("127.0.0.1", self.port), timeout=5)

    # ---- commands --------------------------------------------------------------------------------

    def send(self, op: str, wait: bool = False, **args: Any) -> dict[str, Any]:
        """One command to the bench; ``wait``: until the harness has applied it (its reply)."""
        if self._proc is None or self._proc.stdin is None:
            raise PicoError("the emulated Pico is not running")
        ident = next(self._ids)
        line = json.dumps({"op": op, "id": ident, **args})
        with self._cond:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        if not wait:
            return {}
        self.wait_for(lambda ev: ident in ev.replies, 10, f"the bench to apply {op}")
        return self.events.replies.pop(ident)

    def stats(self) -> dict[str, Any]:
        """sim_s (simulated seconds since this chip started), cycles, boots, i2c_transfers."""
        return self.send("stats", wait=True)

    # ---- events ----------------------------------------------------------------------------------

    def wait_for(self, cond: Callable[[_Events], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not cond(self.events):
                left = deadline - time.monotonic()
                if left <= 0 or not self.alive:
                    state = "timed out" if self.alive else "the emulator stopped"
                    raise PicoError(f"waiting for {what}: {state}"
                                    + (f" ({self.stderr_tail[-1]})" if self.stderr_tail else ""))
                self._cond.wait(min(left, 0.5))

    def _read_events(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        for line in proc.stdout:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            kind = ev.get("ev")
            if kind == "at":  # (the hot one while dials turn: no lock, no wake-up)
                if self.on_at is not None:
                    self.on_at(ev)
                continue
            with self._cond:
                if kind == "boot":
                    self.events.boots.append(Boot(ev["boots"], ev["reason"],
                                                  ev["watchdog_reason"]))
                elif kind == "leds":
                    frame = LedFrame(ev["t"], bytes.fromhex(ev["grb"]))
                    self.events.frames.append(frame)
                    del self.events.frames[:-200]
                    if self.on_frame is not None:
                        self.on_frame(frame)
                elif kind == "ok":
                    self.events.replies[ev["id"]] = ev
                elif kind == "error":
                    self.events.errors.append(ev.get("message", ""))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def _read_stderr(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stderr is not None
        for line in proc.stderr:
            self.stderr_tail.append(line.rstrip())
            del self.stderr_tail[:-50]
