"""The failure a user can act on, in one type that every part of the host may raise.

The CLI (``dialtray.cli.main``) prints such an error as one line, ``dialtray CMD: message``, and
exits with its ``status`` (2 for a bad argument, as argparse does; 1 otherwise); no traceback.
It lives here, beside no package, so that the table (``dialtray.table``), the front ends and the
commands each raise their own kind of it without importing one another: a command module parses
arguments and calls the package that owns the work, never the other way round.
"""

from __future__ import annotations


class UserError(Exception):
    """A failure the user can act on: its message is the whole story, shown as one line."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status
