"""A person at `dialtray play --sim` in a real 80x24 terminal (pexpect), reading the screen as
drawn (pyte, a terminal emulator) and typing only what it offers: the first decision under "you
may type", or a dial turned on the virtual tray ("turn N combat ±K") when the tray waits for
one of theirs. One deliberate dial mistake (a click too many), which the screen must flag and
the person then puts right the way the screen says."""

from __future__ import annotations

import random
import re
import sys
import time
from pathlib import Path

import pexpect
import pyte

BIN = Path(sys.executable).parent
ROWS, COLS = 24, 80
DUE = re.compile(r"the tray waits for: dock (\d+) (\w+) dial \(([^)]+)\): (\d+) clicks? "
                 r"(counter-clockwise|clockwise)( to put right)?")
OFFER = re.compile(r"^you may type: (.*)$")


def joined(lines: list[str]) -> list[str]:
    """A wrapped "the tray waits for" line and its continuation ("  …") as one."""
    out: list[str] = []
    for ln in lines:
        if ln.startswith("  ") and out and out[-1].startswith("the tray waits for:"):
            out[-1] += " " + ln.strip()
        else:
            out.append(ln)
    return out


class Person:
    def __init__(self, args: list[str], tmp: Path) -> None:
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(str(BIN / "dialtray"), ["--data-dir", str(tmp), *args],
                                   dimensions=(ROWS, COLS), timeout=30,
                                   env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin"})
        self.raw = b""
        self.typed: list[str] = []
        self.mistake = ""  # the turn made one click too many, once made
        self.fixed: list[str] = []  # turns made because the screen said "to put right"

    def read(self, wait: float = 0.2) -> bool:
        try:
            chunk = self.child.read_nonblocking(1 << 16, timeout=wait)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        self.raw += chunk
        self.stream.feed(chunk)
        return True

    def lines(self) -> list[str]:
        return [ln.rstrip() for ln in self.screen.display]

    def type(self, line: str) -> None:
        self.typed.append(line)
        self.child.sendline(line)

    def play(self, mine: set[str], deadline_s: float = 240.0, mistake: bool = True,
             seed: int = 1, rest: float = 1.0, until: re.Pattern[bytes] | None = None) -> str:
        """Play to the end (or until the output matches ``until``), picking at random among
        the decisions on screen; returns the whole output (ANSI codes stripped)."""
        rng = random.Random(seed)
        end = time.monotonic() + deadline_s
        seen: dict[str, float] = {}
        made = not mistake
        last_offer = ("", 0.0)
        alive = True
        while alive and time.monotonic() < end:
            alive = self.read()
            lines = self.lines()
            assert len(lines) == ROWS
            lines = joined(lines)
            if b"game log:" in self.raw:  # (after "game over" the last clicks are still due)
                break
            if until is not None and until.search(re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"",
                                                          self.raw[-1 << 16:])):
                return self.text()
            now = time.monotonic()
            resting = False  # a dial of ours is due: turned once it has rested on screen
            for ln in lines:
                m = DUE.search(ln)
                if not m:
                    continue
                dock, dial, fig, k, way, fix = m.groups()
                if fig not in mine and not fix:
                    continue
                if self.mistake and not self.fixed and not fix and \
                        self.mistake.startswith(f"turn {dock} {dial} "):
                    continue  # a person waits for the tray to judge what they turned
                key = ln
                seen.setdefault(key, now)
                wait = rest if fig not in mine else min(rest, 0.1)  # a bot's to put right
                if now - seen[key] < wait:  # rested on screen: not a bot's, ours to turn
                    resting = True
                    continue
                clicks = int(k) * (1 if way == "clockwise" else -1)
                if not made and not fix:
                    made = True
                    clicks += 1 if clicks > 0 else -1  # the deliberate mistake
                    self.mistake = f"turn {dock} {dial} {clicks:+d}"
                self.type(f"turn {dock} {dial} {clicks:+d}")
                if fix and self.mistake:
                    self.fixed.append(self.typed[-1])
                seen.clear()
                break
            else:
                offer = next((OFFER.match(ln) for ln in lines if OFFER.match(ln)), None)
                if offer is not None and not resting:  # the dials first, as the screen says
                    shown = offer.group(1)
                    words = [w.strip().rstrip(",") for w in shown.split(", ") if w.strip()]
                    if words and (last_offer[0] != shown or now - last_offer[1] > 1.0):
                        last_offer = (shown, now)
                        self.type(rng.choice(words))
        deadline = time.monotonic() + 30
        while alive and time.monotonic() < deadline and b"stored as game" not in self.raw:
            alive = self.read()
        return self.text()

    def text(self) -> str:
        """Everything written so far, ANSI codes stripped."""
        return re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", self.raw).decode(errors="replace")

    def close(self) -> None:
        self.child.close(force=True)
