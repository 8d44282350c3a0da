"""The virtual tray's output FIFO (``dialrig.hw_sim``'s lines out: ``at``, ``leds``, ``feed``…),
read line by line by a thread of its own, and on demand: ``drain`` takes every line written so
far, so a caller that must not miss one already written (the virtual camera asking where a dial
is, ``VirtualTray.seen``) reads it before it answers."""

from __future__ import annotations

import contextlib
import os
import select
import threading
from collections.abc import Callable
from pathlib import Path


class OutLines:
    """Lines from the FIFO at ``path`` to ``on_line`` (on whichever thread drains them, one
    drain at a time). The FIFO is opened O_RDWR: it never blocks and stays open across the
    firmware's restarts."""

    def __init__(self, path: Path, on_line: Callable[[str], None]) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        self.on_line = on_line
        self.lock = threading.Lock()
        self.buf = b""
        self.closed = False
        self.thread = threading.Thread(target=self._run, daemon=True, name="sim-out")

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        while not self.closed:
            try:
                select.select([self.fd], [], [], 0.1)
            except (OSError, ValueError):
                return
            if not self.drain():
                return

    def drain(self) -> bool:
        """Hand on every line written so far. False once the FIFO is closed."""
        with self.lock:
            while not self.closed:
                try:
                    chunk = os.read(self.fd, 65536)
                except BlockingIOError:
                    return True
                except OSError:
                    return False
                self.buf += chunk
                *lines, self.buf = self.buf.split(b"\n")
                for raw in lines:
                    self.on_line(raw.decode(errors="replace"))
            return False

    def close(self) -> None:
        with self.lock:  # (no drain reads a closed descriptor's number reused)
            self.closed = True
            with contextlib.suppress(OSError):
                os.close(self.fd)
