"""Which serial port a front end opens: the one the user named, or the one tray on USB.

Every refusal is a ``dialtray.errors.UserError`` with the fix in it (no tray, several trays,
no such port, a port this user may not open), so that a front end (``ui/``), the table and the
commands all turn a ``--port`` into a port the same way without importing one another.
"""

from __future__ import annotations

from collections.abc import Callable

from dialtray.errors import UserError
from dialtray.link.transport import LinkDown, NoSuchPort, check_port, describe, find_tray


def _say(line: str) -> None:
    print(line, flush=True)


def resolve_port(port: str | None, arg: str = "PORT",
                 say: Callable[[str], None] = _say) -> str:
    """The port to use: the one named (if it exists and may be opened), or the one tray on USB
    (``say`` tells the user which, since they did not name it).

    ``arg`` names the option the port came from in the error (``PORT``, ``--serial``): a
    port that does not exist is a bad argument (status 2); no tray, several trays (named,
    never a guess) or a port this user may not open (the dialout group / udev rule) is status 1.
    """
    try:
        if port is None:
            found = find_tray()
            say(f"found the tray on USB: {describe(found)}")
            return found
        check_port(port)
    except NoSuchPort as e:
        raise UserError(f"argument {arg}: {e}", 2) from e
    except LinkDown as e:
        raise UserError(str(e)) from e
    return port
