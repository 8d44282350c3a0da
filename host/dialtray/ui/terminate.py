"""SIGTERM ends ``play`` and ``serve`` as Ctrl-C does: the game stored, said how to carry it on.

A service manager, ``kill`` or a closing session sends SIGTERM; Python's default for it ends the
process on the spot, without the line that says the game stays stored as game N and how to carry
it on (``play --resume N``). The handler raises :class:`Terminated`, a KeyboardInterrupt, so
every ``except KeyboardInterrupt`` that already finishes a game on Ctrl-C (the store's rollback
of an interrupted commit included) finishes it the same way; the command then exits 143
(128 + SIGTERM, the shell's convention) instead of Ctrl-C's 130.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

EXIT_TERM = 128 + signal.SIGTERM  # 143


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: raised in the main thread where Ctrl-C's KeyboardInterrupt would be."""


def _raise(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM while finishing: ends it
    raise Terminated


def sigterm_as_interrupt() -> None:
    """Turn SIGTERM into :class:`Terminated` (main thread only: a signal handler can be set
    nowhere else, and a test's in-process call from a worker thread keeps the default)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise)


def exit_status(e: KeyboardInterrupt) -> int:
    """143 for SIGTERM, 130 for Ctrl-C."""
    return EXIT_TERM if isinstance(e, Terminated) else 130


def how(e: KeyboardInterrupt) -> str:
    """The interrupt's name for the line saying the game stopped."""
    return "SIGTERM" if isinstance(e, Terminated) else "Ctrl-C"
