"""`dialtray play --sim` in a real terminal, as a person plays it: read the live screen, type
decisions, turn virtual dials from the sim console, make a mistake and put it right, quit, and
replay the log that was written."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

BIN = Path(sys.executable).parent
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


class Screen:
    """A terminal session with everything printed so far, ANSI codes stripped."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.text = ""

    def wait_for(self, needle: str, timeout: float = 60) -> None:
        """Until ``needle`` is on the screen, ``timeout`` seconds at most in all: a live screen
        redraws on its own, so output that keeps coming must not keep the wait going (a run
        once waited 30 minutes here for a line that never came)."""
        pattern = re.compile(re.escape(needle))
        seen = len(self.text)
        end = time.monotonic() + timeout
        while True:
            if pattern.search(self.text, max(0, seen - len(needle))):
                return
            left = end - time.monotonic()
            try:
                if left <= 0:
                    raise pexpect.TIMEOUT("deadline")
                chunk = self.child.read_nonblocking(65536, timeout=left)
            except pexpect.TIMEOUT:
                raise AssertionError(f"{needle!r} never appeared in {timeout:.0f} s; screen "
                                     f"ends with:\n{self.text[-3000:]}") from None
            self.text += ANSI.sub(b"", chunk).decode(errors="replace")

    def type(self, line: str) -> None:
        self.child.sendline(line)


@pytest.mark.slow(cost=6)
def test_a_person_plays_air_action_on_the_virtual_tray(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    child = pexpect.spawn(str(BIN / "dialtray"),
                          ["--data-dir", str(tmp_path), "play", "airaction", "--sim",
                           "--seats", "human,bot", "--dice", "seeded", "--seed", "2026",
                           "--log", str(log)],
                          dimensions=(60, 220), timeout=60,
                          env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin"})
    screen = Screen(child)
    try:
        screen.wait_for("to move: P1  (you)")
        screen.wait_for("you may type: deploy P1")
        screen.type("deploy P1")
        screen.wait_for("played: deploy P1")
        screen.wait_for("played: deploy P2")  # the bot
        assert "bot refused" not in screen.text
        screen.wait_for("you may type: speed A1 1")
        screen.type("shoot A1 front B2")  # not now: the rules say why
        screen.wait_for("refused: shoot A1 front B2")
        # the first-turn speed is set by turning the dial (AA-M18): four clicks up
        screen.type("turn 0 speed -4")
        screen.wait_for("played: speed A1 5")
        # someone knocks a dial: the tracker says what to put right, the game waits
        screen.type("turn 1 combat 1")
        screen.wait_for("nobody caused")
        screen.wait_for("turn it 1 click counter-clockwise back")
        screen.type("speed A2 6")
        screen.wait_for("refused: the tray waits for the dials first")
        screen.type("turn 1 combat -1")
        screen.type("speed A2 6")  # typed works too; the tray then waits for the dial
        screen.wait_for("played: speed A2 6")
        screen.wait_for("dock 1 speed dial (A2): 5 clicks counter-clockwise")
        screen.type("turn 1 speed -3")
        screen.type("turn 1 speed -2")
        screen.type("dispute A3 rear arc")
        screen.wait_for("dispute 'A3 rear arc': rolled")
        screen.type("quit")
        screen.wait_for("game log:")
        child.expect(pexpect.EOF, timeout=30)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, screen.text[-2000:]
    assert "Traceback" not in screen.text
    text = log.read_text()
    assert "speed A1 5" in text and "# flag unexpected" in text and "# put right" in text
    r = subprocess.run([str(BIN / "dialtray"), "replay", str(log)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    # issue 31: the refused typed decisions are stored as the store's README says
    with sqlite3.connect(tmp_path / "games.sqlite3") as c:
        refused = [json.loads(x)["data"]["text"] for (x,) in c.execute(
            "SELECT content FROM records WHERE kind = 'refused' ORDER BY n")]
    assert refused[:2] == ["shoot A1 front B2", "speed A2 6"], refused
