"""The table's own failure: a game that cannot be set up, stored, resumed or joined to an event,
said in one line (``dialtray.errors.UserError``; the CLI shows it as it shows a command's)."""

from __future__ import annotations

from dialtray.errors import UserError


class TableError(UserError):
    """A game at the table failed in a way the user can act on (status 2: a bad argument)."""
