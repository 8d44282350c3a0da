"""The line a player is typing at `dialtray play`'s live screen, echoed by the screen itself.

Why: the live screen redraws itself (the tray, the bots, the clock) while a person types. With the
terminal's own echo the half-typed decision was written after the hint line and wiped by the next
redraw, twice a second, and each Enter scrolled the screen by a line, leaving a stale copy of its
head behind. So while the live screen runs, the terminal is put in cbreak mode without echo (Ctrl-C
still interrupts) and the screen draws the line being typed as its last line, ``> deploy P1``.
Where there is no terminal to put in that mode (a pipe, Windows' console without termios) the
lines are read as they come (``front.read_lines``) and the terminal echoes them as before.
"""

from __future__ import annotations

import codecs
import contextlib
import importlib.util
import os
import queue
import sys
import threading
from collections.abc import Iterator

ERASE = ("\x7f", "\x08")  # Backspace (DEL on most terminals, ^H on some)
KILL_LINE = "\x15"  # Ctrl-U
KILL_WORD = "\x17"  # Ctrl-W
END_OF_INPUT = "\x04"  # Ctrl-D on an empty line


class KeyLine:
    """The line being typed, fed the terminal's characters as they come; whole lines go to the
    play loop's inbox (``None`` when input ends), the rest is shown by the screen."""

    def __init__(self, inbox: queue.SimpleQueue[str | None]) -> None:
        self.inbox = inbox
        self.text = ""
        self.version = 0  # bumped on every change: the screen redraws when it moves
        self._escape = ""  # an escape sequence (an arrow key) being skipped
        self._after_cr = False
        self._lock = threading.Lock()

    def feed(self, chars: str) -> None:
        """Characters from the terminal: printable ones typed, Backspace, Ctrl-U, Ctrl-W and
        Ctrl-D edit, Enter (CR, LF or CR LF) sends the line; cursor keys are ignored."""
        with self._lock:
            for ch in chars:
                self._one(ch)
            self.version += 1

    def _one(self, ch: str) -> None:
        after_cr, self._after_cr = self._after_cr, ch == "\r"
        if self._escape:  # ESC [ … or ESC O …: a key this line does not use (an arrow, F1)
            self._escape += ch
            body = self._escape[1:]
            if (len(body) == 1 and ch not in "[O") or \
                    (len(body) > 1 and (ch.isalpha() or ch == "~")) or len(body) > 8:
                self._escape = ""
            return
        if ch == "\x1b":
            self._escape = ch
        elif ch in "\r\n":
            if ch == "\n" and after_cr:
                return  # CR LF: one Enter
            self.inbox.put(self.text)
            self.text = ""
        elif ch in ERASE:
            self.text = self.text[:-1]
        elif ch == KILL_LINE:
            self.text = ""
        elif ch == KILL_WORD:
            kept = self.text.rstrip()
            self.text = kept[:kept.rfind(" ") + 1]
        elif ch == END_OF_INPUT:
            if not self.text:
                self.inbox.put(None)
        elif ch.isprintable():
            self.text += ch

    def read(self, fd: int) -> None:
        """The input thread: bytes from ``fd`` until it ends (then ``None`` to the inbox)."""
        decode = codecs.getincrementaldecoder("utf-8")(errors="replace")
        while True:
            try:
                data = os.read(fd, 1024)
            except OSError:
                data = b""
            if not data:
                self.inbox.put(None)
                return
            self.feed(decode.decode(data))


def can_edit(fd: int) -> bool:
    """Whether ``fd`` is a terminal this process can put in cbreak mode (POSIX termios)."""
    try:
        return os.isatty(fd) and importlib.util.find_spec("termios") is not None
    except (OSError, ValueError):
        return False


class Cbreak:
    """The terminal kept in cbreak mode without echo while the live screen runs."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def kept(self) -> bool:
        """Put cbreak back if something turned echo on again; True when it had to (the screen
        is then redrawn whole). Why: after Ctrl-Z and `fg` the shell hands the terminal back
        cooked and echoing (it restores what it saved), the typed line invisible again."""
        import termios
        import tty

        try:
            if not termios.tcgetattr(self.fd)[3] & (termios.ECHO | termios.ICANON):
                return False
            tty.setcbreak(self.fd, termios.TCSANOW)
        except termios.error:
            return False
        return True


@contextlib.contextmanager
def no_echo(fd: int) -> Iterator[Cbreak | None]:
    """The terminal in cbreak mode without echo for the block; restored however it ends.
    Ctrl-Z is left to its default (a Python handler that stops the program inside it left the
    main loop's timed queue wait waiting forever once continued, CPython 3.11): the shell's
    line editor sets its own modes, and the main loop puts cbreak back after `fg`
    (``Cbreak.kept``)."""
    import termios
    import tty

    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        yield None
        return
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        yield Cbreak(fd)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def stdin_fd() -> int:
    """The standard input's file descriptor, -1 when it has none (a test's captured stdin)."""
    try:
        return sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return -1
