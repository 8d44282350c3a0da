"""The virtual tray's console for ``dialtray sim``: lines of ``dialtray.virtual.script`` read
from a file or from standard input, each failure one line in the user's words (never a
traceback or Python's wording). ``commands.sim`` parses the arguments and starts the tray.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dialtray.virtual.rp2040.tray import Rp2040Tray
    from dialtray.virtual.tray import VirtualTray


class ConsoleError(Exception):
    """A console line that failed; the message is one line, naming the line, no internals."""


_INTERNALS = (
    (re.compile(r"invalid literal for int\(\) with base 10: ('[^']*')"),
     r"expected a whole number, got \1"),
    (re.compile(r"could not convert string to float: ('[^']*')"), r"expected a number, got \1"),
    (re.compile(r"(?:list|tuple) index out of range"), "a value is missing or out of range"),
    (re.compile(r"tuple\.index\(x\): x not in tuple"), "a name is not one of those it takes"),
)


def plain(message: str) -> str:
    """A console error in the user's words: Python's own phrasings replaced, one line."""
    for pattern, words in _INTERNALS:
        message = pattern.sub(words, message)
    return " ".join(message.split())


def console_line(tray: VirtualTray | Rp2040Tray, line: str, where: str) -> str:
    """Run one console line; any failure becomes a ConsoleError naming the line.

    The console's parser (dialtray.virtual.script) raises ScriptError for what it checks;
    anything else it lets through (a dock out of range, a bad dial name deep in the tray) is
    caught here too, so the console never shows a traceback or Python's wording.
    """
    from dialtray.virtual.script import ScriptError, run_line

    at = f"{where}: " if where else ""
    try:
        return run_line(tray, line, where)
    except ScriptError as e:  # already names the place at fault
        raise ConsoleError(plain(str(e))) from None
    except Exception as e:  # the console must survive any line a user types
        words = plain(str(e)) or type(e).__name__
        raise ConsoleError(f"{at}{' '.join(line.split())!r}: {words} "
                           "(type `help` for the commands)") from None


def run_file(tray: VirtualTray | Rp2040Tray, path: Path) -> bool:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        print(f"dialtray sim: cannot read {path}: {e}", file=sys.stderr)
        return False
    for n, line in enumerate(lines, 1):
        try:
            out = console_line(tray, line, f"{path}:{n}")
        except ConsoleError as e:
            print(f"dialtray sim: {e}", file=sys.stderr)
            return False
        if out:
            print(out, flush=True)
    return True


def run_stream(tray: VirtualTray | Rp2040Tray, interactive: bool) -> None:
    from dialtray.virtual.script import HELP

    n = 0
    while True:
        if interactive:
            print("sim> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        n += 1
        if line.strip() in ("quit", "exit"):
            return
        if line.strip() == "help":
            print(HELP)
            continue
        try:
            out = console_line(tray, line, "" if interactive else f"<stdin>:{n}")
        except ConsoleError as e:
            print(f"error: {e}", file=sys.stderr if not interactive else sys.stdout, flush=True)
            continue
        if out:
            print(out, flush=True)
