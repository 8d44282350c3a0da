"""Long lines fitted to the terminal between words, for the front ends that print line by line
(`demo`'s narration, `play fasa`'s sheets, `selftest`'s prompts and table). Why: their lines run
to 100-200 characters and the terminal's own wrap cut words in half at 80 columns; piped, a line
stays one line (scripts and tests read it whole)."""

from __future__ import annotations

import shutil
import sys
import textwrap


def fitted(line: str, width: int, indent: int | None = None) -> str:
    """``line`` wrapped between words to ``width`` - 1 columns (a full last column makes some
    terminals add a blank line), each continuation indented ``indent`` columns (default: two
    more than the line)."""
    if len(line) < width:
        return line
    if indent is None:
        indent = len(line) - len(line.lstrip(" ")) + 2
    return "\n".join(textwrap.wrap(line, width - 1, subsequent_indent=" " * indent,
                                   break_on_hyphens=False)) or line


def fit(text: str, indent: int | None = None) -> str:
    """At a terminal, every line of ``text`` fitted to its width (continuations ``indent``
    columns in: :func:`fitted`); elsewhere ``text`` as it is."""
    if not sys.stdout.isatty():
        return text
    width = shutil.get_terminal_size().columns
    return "\n".join(fitted(line, width, indent) for line in text.split("\n"))
