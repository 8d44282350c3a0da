"""The monkey at the real terminal: `dialtray play KIND --sim --plain`, a person's seat that
reads the lines as printed and picks a random decision from the last "you may type:" line, or
turns a dial of its own that "the tray waits for" names (now and then one click too many, put
right when the screen says so). Several games run side by side from one test process (each its
own `play` with its virtual tray), polled in turn without blocking: the games wait on the
tray's clocks, not on the CPU."""

from __future__ import annotations

import random
import re
import sys
import time
from pathlib import Path

import pexpect

BIN = Path(sys.executable).parent
DUE = re.compile(r"^the tray waits for: dock (\d+) (\w+) dial \(([^)]+)\): (\d+) clicks? "
                 r"(counter-clockwise|clockwise)( to put right)?")
OFFER = "you may type: "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class PlainMonkey:
    """One game at `play --plain`; ``step()`` never blocks, ``done`` once the log is written."""

    def __init__(self, kind: str, seed: int, tmp: Path, mine: set[str],
                 slips: float = 0.05) -> None:
        self.kind, self.seed, self.mine = kind, seed, mine
        self.rng = random.Random(seed)
        self.slips = slips
        self.child = pexpect.spawn(
            str(BIN / "dialtray"),
            ["--data-dir", str(tmp), "play", kind, "--sim", "--plain", "--seats", "human,bot",
             "--pace", "0", "--dice", "seeded", "--turns", "1", "--seed", str(seed),
             *(("--plots", "open") if kind == "fasa" else ())],
            dimensions=(24, 200), timeout=30, encoding="utf-8", codec_errors="replace",
            env={"TERM": "dumb", "PATH": "/usr/bin:/bin"})
        self.text = ""
        self.block: list[str] = []  # the lines printed since the last view's header
        self.fresh = False  # a new view arrived since the last line typed
        self.typed: list[str] = []
        self.last_typed = 0.0
        self.done = False
        self.alive = True

    def _read(self) -> None:
        try:
            chunk = self.child.read_nonblocking(1 << 16, timeout=0)
        except pexpect.TIMEOUT:
            return
        except pexpect.EOF:
            self.alive = False
            return
        chunk = ANSI.sub("", chunk).replace("\r", "")
        self.text += chunk
        for line in chunk.splitlines():
            if "  tracker: " in line:  # a view's header: what follows is the screen now
                self.block = []
                self.fresh = True
            self.block.append(line)

    def step(self) -> None:
        if self.done:
            return
        self._read()
        if "stored as game" in self.text or not self.alive:
            self.done = True
            return
        if "game log:" in self.text:  # (after "game over" the last clicks may still be due)
            return
        now = time.monotonic()
        if not self.fresh and now - self.last_typed < 3.0:
            return  # the screen has not changed since the last line typed: not answered yet
        line = self._choose()
        if line is not None:
            self.typed.append(line)
            self.child.sendline(line)
            self.last_typed, self.fresh = now, False

    def _choose(self) -> str | None:
        for ln in self.block:
            m = DUE.match(ln)
            if not m:
                continue
            dock, dial, fig, k, way, fix = m.groups()
            if fig not in self.mine:
                continue  # a bot's dial (it puts its own right)
            clicks = int(k) * (1 if way == "clockwise" else -1)
            if not fix and self.rng.random() < self.slips:
                clicks += 1 if clicks > 0 else -1  # one click too many: the screen flags it
            return f"turn {dock} {dial} {clicks:+d}"
        offer = next((ln for ln in reversed(self.block) if ln.startswith(OFFER)), None)
        if offer is None:
            return None
        words = [w.strip() for w in offer[len(OFFER):].split(", ") if w.strip()]
        return self.rng.choice(words) if words else None

    def close(self) -> None:
        self.child.close(force=True)


def run_all(monkeys: list[PlainMonkey], deadline_s: float) -> None:
    """Step every game in turn until all are done (or the deadline passes)."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end and not all(m.done for m in monkeys):
        for m in monkeys:
            m.step()
        time.sleep(0.02)
