"""What a player types at `dialtray play`'s live screen stays in sight: the screen, not the
terminal, echoes the line being typed (``ui/terminal/keyline.py``). Before, the half-typed
decision was wiped by every redraw and each Enter left a stale copy of the screen's head."""

from __future__ import annotations

import os
import queue
import signal
import sys
import termios
import time
from pathlib import Path

import pexpect
import pyte
from dialtray.ui.terminal.keyline import KeyLine

BIN = Path(sys.executable).parent


AGAINST_A_BOT = ("airaction", "--sim", "--seats", "human,bot", "--dice", "seeded", "--seed", "2026")


def play(tmp_path: Path, *args: str) -> pexpect.spawn:
    """`dialtray play ARGS` in an 80x24 terminal of its own."""
    return pexpect.spawn(str(BIN / "dialtray"), ["--data-dir", str(tmp_path), "play", *args],
                         dimensions=(24, 80), timeout=60,
                         env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin"})
HEAD = "Crimson Skies: Air Action"


class Terminal:
    """An 80×24 terminal (pyte) fed by a pexpect child: what a player sees."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""

    def lines(self) -> list[str]:
        return [ln.rstrip() for ln in self.screen.display]

    def pump(self, timeout: float) -> None:
        try:
            chunk = self.child.read_nonblocking(65536, timeout=timeout)
        except pexpect.TIMEOUT:
            return
        self.raw += chunk
        self.stream.feed(chunk)

    def wait(self, seen: object, what: str, timeout: float = 60) -> None:
        """Until ``seen(lines)`` holds (a callable), ``timeout`` s at most."""
        end = time.monotonic() + timeout
        while not seen(self.lines()):  # type: ignore[operator]
            if time.monotonic() > end:
                raise AssertionError(f"never on screen: {what}\n" + "\n".join(self.lines()))
            self.pump(min(1.0, end - time.monotonic()))


def test_the_line_being_typed_stays_on_screen_through_redraws(tmp_path: Path) -> None:
    child = play(tmp_path, *AGAINST_A_BOT)
    term = Terminal(child)
    try:
        term.wait(lambda s: any("you may type: deploy P1" in ln for ln in s), "deploy offered")
        # no dial is due: the sim's example is the syntax, not a turn the tracker would flag
        assert any(ln.endswith("; sim: turn DOCK DIAL N") for ln in term.lines())
        child.send("deploy P")  # half typed: no Enter yet
        term.wait(lambda s: "> deploy P" in s, "the half-typed line")
        redrawn = len(term.raw)  # the screen redraws itself (twice a second at least)
        term.wait(lambda s: term.raw.find(HEAD.encode(), redrawn) >= 0, "a redraw")
        assert "> deploy P" in term.lines(), "\n".join(term.lines())
        child.send("1\r")  # Enter as a terminal sends it
        term.wait(lambda s: any("P1 played: deploy P1" in ln for ln in s), "deploy P1 played")
        lines = term.lines()
        assert lines[0].startswith(HEAD), "\n".join(lines)
        assert sum(ln.startswith(HEAD) for ln in lines) == 1, "\n".join(lines)  # no stale head
        assert all(len(ln) <= 80 for ln in lines)
        # Ctrl-Z and `fg`: stopped, the shell hands the terminal back cooked and echoing (as
        # bash does), continued; the screen takes cbreak back and shows the typed line again
        os.kill(child.pid, signal.SIGSTOP)
        attrs = termios.tcgetattr(child.child_fd)
        attrs[3] |= termios.ECHO | termios.ICANON
        termios.tcsetattr(child.child_fd, termios.TCSANOW, attrs)
        os.kill(child.pid, signal.SIGCONT)
        child.send("leg")
        term.wait(lambda s: "> leg" in s, "the line typed after fg")
        child.send("\x15")  # Ctrl-U: the line let go
        child.send("quit\r")
        child.expect(pexpect.EOF, timeout=30)
        assert termios.tcgetattr(child.child_fd)[3] & termios.ECHO, "echo not restored"
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, term.raw[-2000:]


def test_keys_edit_the_line_as_a_terminal_would() -> None:
    inbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()
    keys = KeyLine(inbox)
    keys.feed("speed A1 55\x7f\r\n")  # Backspace, then CR LF: one line
    keys.feed("shoot A1 \x1b[Dfront\x1bOA\x17legal\n")  # arrows ignored, Ctrl-W a word
    keys.feed("junk\x15more\r")  # Ctrl-U the whole line
    keys.feed("\x04")  # Ctrl-D on an empty line: input ends
    got = []
    while not inbox.empty():
        got.append(inbox.get())
    assert got == ["speed A1 5", "shoot A1 legal", "more", None]
    assert keys.text == ""


def test_ctrl_c_stops_the_game_as_quit_does_and_says_how_to_carry_on(tmp_path: Path) -> None:
    """Ctrl-C in the middle of play: the game stays stored, the screen says how to carry it on,
    the log is written and replays; the terminal gets its echo back."""
    child = play(tmp_path, *AGAINST_A_BOT)
    term = Terminal(child)
    try:
        term.wait(lambda s: any("you may type: deploy P1" in ln for ln in s), "deploy offered")
        child.send("deploy P1\r")
        term.wait(lambda s: any("P1 played: deploy P1" in ln for ln in s), "deploy P1 played")
        child.sendintr()  # Ctrl-C, as the terminal sends it
        child.expect(pexpect.EOF, timeout=30)
        term.stream.feed(child.before)
        assert termios.tcgetattr(child.child_fd)[3] & termios.ECHO, "echo not restored"
    finally:
        child.close(force=True)
    text = "".join(term.screen.display)  # lines wrapped at 80 joined again
    assert "stays stored as game 1: dialtray play --resume 1" in text, text
    assert child.exitstatus == 130, text
    logs = list((tmp_path / "games").glob("play-airaction-*.log"))
    assert len(logs) == 1 and "deploy P1" in logs[0].read_text(), logs


def test_fasa_at_80_columns_wraps_between_words(tmp_path: Path) -> None:
    """`play fasa` prints each plane's sheet as one long line: at a terminal it is wrapped
    between words, continuation indented (the terminal's own wrap cut words in half)."""
    child = play(tmp_path, "fasa", "--dice", "seeded", "--seats", "human,bot")
    term = Terminal(child)
    try:
        term.wait(lambda s: any(ln.endswith("plot (hidden):") for ln in s), "the plot asked")
        lines = term.lines()
        child.send("quit\r")
        child.expect(pexpect.EOF, timeout=30)
    finally:
        child.close(force=True)
    cut = [ln for ln in lines if len(ln) >= 80]  # a line the terminal had to wrap
    assert not cut, "\n".join(lines)
    assert any("rockets_s1 FK/FL" in ln for ln in lines), "\n".join(lines)


def test_typed_dice_are_asked_and_shown_on_the_live_screen(tmp_path: Path) -> None:
    """--dice typed: while the engine waits for the faces the live screen shows the ask and the
    faces as they are typed (it does not redraw itself then, and the terminal does not echo)."""
    child = play(tmp_path, "airaction", "--sim", "--seats", "human,bot", "--dice", "typed")
    term = Terminal(child)
    try:
        for faces in ("3 4", "5 6"):  # the first player, before the live screen starts
            term.wait(lambda s: any("roll 2 d6 for first player" in ln for ln in s),
                      "the first ask")
            child.send(faces + "\r")
        term.wait(lambda s: any("you may type: deploy P1" in ln for ln in s), "deploy offered")
        child.send("deploy P1\r")
        term.wait(lambda s: any("roll 2 d6 for initiative, then type the faces" in ln
                                for ln in s), "the ask on the live screen")
        child.send("1 x")
        term.wait(lambda s: "> 1 x" in s, "the faces as they are typed")
        child.send("\r")
        term.wait(lambda s: any(ln.startswith("faces are 1-6: roll 2 d6 for initiative")
                                for ln in s), "the faces refused, asked again")
        child.send("1 2\r")
        term.wait(lambda s: any("roll 2 d6 for initiative" in ln for ln in s), "P2's ask")
        child.send("6 6\r")
        term.wait(lambda s: any("P2 rolls 6+6 (initiative)" in ln for ln in s), "the rolls")
        assert any("P1 rolls 1+2 (initiative)" in ln for ln in term.lines()), term.lines()
        child.send("quit\r")
        child.expect(pexpect.EOF, timeout=30)
    finally:
        child.close(force=True)
