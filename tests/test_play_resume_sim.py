"""`dialtray play --resume --sim` (issue 30, "A crashed or abandoned game can be resumed (also on
`--sim`: the virtual tray restarts with the stored dial positions)"): a person plays Air Action
on the virtual tray in a real terminal, turns a speed dial, and the host is killed with kill -9
(the virtual tray dies with it). `play --resume --sim` powers a new virtual tray on with every
dial where the store last saw it, so no dial counts as moved; the game goes on into the same
stored game, which `dialtray verify` then passes."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

import pexpect
import pytest
from dialtray.cli import main
from dialtray.store import GameStore
from test_play_terminal import ANSI, Screen

BIN = Path(sys.executable).parent


class Timed(Screen):
    """The terminal screen, failing once ``timeout`` seconds pass (the live screen redraws
    itself, so waiting for silence would never end)."""

    def wait_for(self, needle: str, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        seen = max(0, len(self.text) - len(needle))
        while needle not in self.text[seen:]:
            if time.monotonic() > end:
                raise AssertionError(f"{needle!r} never appeared; screen ends with:\n"
                                     f"{self.text[-3000:]}")
            try:
                chunk = self.child.read_nonblocking(65536, timeout=1)
            except pexpect.TIMEOUT:
                continue
            self.text += ANSI.sub(b"", chunk).decode(errors="replace")


def spawn(tmp_path: Path, *args: str) -> Screen:
    child = pexpect.spawn(str(BIN / "dialtray"),
                          ["--data-dir", str(tmp_path), "play", *args, "--seats", "human,human",
                           "--dice", "seeded", "--db", str(tmp_path / "games.sqlite3")],
                          dimensions=(60, 220), timeout=60,
                          env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin"})
    return Timed(child)


@pytest.mark.slow
def test_play_on_sim_killed_resumes_on_a_new_virtual_tray_with_the_stored_dials(
        tmp_path: Path) -> None:
    first = spawn(tmp_path, "airaction", "--sim", "--log", str(tmp_path / "first.log"))
    try:
        for seat in ("P1", "P2", "P1"):  # whoever won the first-player roll deploys first
            first.wait_for("you may type: deploy")
            first.type(f"deploy {seat}")
            if "played: deploy P1" in first.text and "played: deploy P2" in first.text:
                break
        first.wait_for("played: deploy P1")
        first.wait_for("played: deploy P2")
        first.type("turn 0 speed -4")  # AA-M18: the first-turn speed is set on the dial
        first.wait_for("played: speed A1 5")
    finally:
        first.child.kill(signal.SIGKILL)  # the host and its virtual tray are gone: no goodbye
        first.child.close(force=True)
    st = GameStore.open(tmp_path / "games.sqlite3", readonly=True)
    gid = st.latest("running").id  # type: ignore[union-attr]
    st.close()
    second = spawn(tmp_path, "--resume", "--sim", "--log", str(tmp_path / "second.log"))
    try:
        second.wait_for(f"resumed stored game {gid} at action ")
        second.wait_for("no dial moved while the host was away")  # the stored positions
        second.type("speed A2 6")  # the game goes on: A2's speed, then its dial is set
        second.wait_for("played: speed A2 6")
        second.wait_for("dock 1 speed dial (A2): 5 clicks counter-clockwise")
        second.type("turn 1 speed -5")
        second.wait_for("1s A2 5 ok")  # the clicks of the new boot count (click 5 = speed 6)
        second.type("quit")
        second.wait_for(f"stored as game {gid}")
        second.child.expect(pexpect.EOF, timeout=60)
        second.child.close()
        assert second.child.exitstatus == 0, second.text[-2000:]
    finally:
        if second.child.isalive():
            second.child.kill(signal.SIGKILL)
    assert "Traceback" not in first.text + second.text
    assert main(["--data-dir", str(tmp_path), "verify", str(gid), "--db",
                 str(tmp_path / "games.sqlite3")]) == 0
