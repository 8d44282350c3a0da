"""`dialtray play … --plain` driven in its own process, as a person at the keyboard would: lines
typed in, everything it prints kept.

One copy for the tests that kill a playing host and start `play --resume`
(tests/test_play_resume.py, tests/hub/test_resume_event.py), so that how the process is started
and read is decided once."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

BIN = Path(sys.executable).parent


class Player:
    """`dialtray play ... --plain` in its own process: lines typed in, everything printed kept."""

    def __init__(self, args: list[str]) -> None:
        self.proc = subprocess.Popen([str(BIN / "dialtray"), *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env={**os.environ, "COLUMNS": "200"})
        self.text = ""
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in iter(lambda: self.proc.stdout.readline(), b""):  # type: ignore[union-attr]
            with self.lock:
                self.text += raw.decode(errors="replace")

    def wait_for(self, needle: str, timeout: float = 120, after: int = 0) -> int:
        """Where needle first appears in the output at or after `after`; fails (with the output's
        tail) after timeout seconds, or as soon as the process has ended without printing it."""
        end = time.monotonic() + timeout
        while True:
            with self.lock:
                at = self.text.find(needle, after)
            if at >= 0:
                return at
            if time.monotonic() > end or (self.proc.poll() is not None and
                                          self.text.find(needle, after) < 0):
                time.sleep(0.2)
                raise AssertionError(f"{needle!r} never appeared:\n{self.text[-3000:]}")
            time.sleep(0.05)

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
