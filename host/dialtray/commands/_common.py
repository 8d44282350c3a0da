"""What several commands share: their error type, the data directory, the virtual-tray extra
(whether it can run here is ``dialtray.virtual.factory``'s to say).

Nothing here imports a POSIX-only module: the virtual tray (fcntl, termios, pty) is imported
by :func:`require_sim` only when a command that runs it is actually run.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import platformdirs
from dialrig import config

from dialtray.errors import UserError

# The default wiring: two TCA9548A muxes of 8 channels, one channel per dial.
MAX_DOCKS = config.MAX_DOCKS


class CommandError(UserError):
    """A command's failure the user can act on: cli.main prints the message as one line, no
    traceback (``dialtray.errors.UserError``)."""


def default_data_dir() -> Path:
    """The user's data directory for dialtray (platformdirs), e.g. ~/.local/share/dialtray."""
    return Path(platformdirs.user_data_dir("dialtray", appauthor=False))


def calibration_dir(data_dir: Path) -> Path:
    """Where the host keeps its copy of each tray's calibration (tray-<board uid>.json)."""
    return data_dir / "calibration"


def micropython_found() -> str | None:
    """The MicroPython unix port (``dialtray.virtual.factory.micropython_found``)."""
    from dialtray.virtual.factory import micropython_found as found

    return found()


def sim_missing() -> str | None:
    """Why the virtual tray cannot run here (``dialtray.virtual.factory.sim_missing``)."""
    from dialtray.virtual.factory import sim_missing as why

    return why()


RP2040_HELP = ("run the virtual tray on an emulated Raspberry Pi Pico (the official MicroPython "
               "build and the firmware's real RP2040 backend; slower than the default)")


def add_rp2040_flag(parser: argparse.ArgumentParser) -> None:
    """The ``--rp2040`` option, worded the same for every command that starts a virtual tray
    (dialtray.virtual.factory makes the tray it names)."""
    parser.add_argument("--rp2040", action="store_true", help=RP2040_HELP)


def rp2040_needs_sim(args: argparse.Namespace) -> None:
    """``--rp2040`` says which virtual tray: refused without ``--sim``."""
    if getattr(args, "rp2040", False) and not args.sim:
        raise CommandError("argument --rp2040: only with --sim (a virtual tray on an emulated "
                           "Pico)", 2)


def sync_timeout(args: argparse.Namespace, real: float = 30.0) -> float:
    """Seconds a tray has to answer: the emulated Pico (``--rp2040``) boots at a fraction of
    real time."""
    return max(real, 180.0) if getattr(args, "rp2040", False) else real


def start_virtual(args: argparse.Namespace, cfg: dict[str, Any], **kwargs: Any) -> Any:
    """The virtual tray ``--sim`` asks for (``--rp2040``: on the emulated Pico), started and
    quiet; when it is the emulated chip, the player is told (it runs slower)."""
    rp2040 = bool(getattr(args, "rp2040", False))
    require_sim(rp2040)
    from dialtray.virtual.factory import virtual_tray

    tray = virtual_tray(cfg, rp2040=rp2040, report=lambda _note: None, **kwargs).start()
    if rp2040:
        print("the virtual tray: the firmware on an emulated Raspberry Pi Pico (official "
              "MicroPython v1.28.0)", flush=True)
    return tray


def require_sim(rp2040: bool = False) -> None:
    """Raise a CommandError saying how to get the virtual tray, unless it can run here.

    ``rp2040``: the tray on the emulated Pico (Node, rp2040js, the MicroPython build).
    Callers then import dialtray.virtual.* inside the function that needs it.
    """
    from dialtray.virtual.factory import missing

    why = missing(rp2040)
    if why is not None:
        raise CommandError(why)


def resolve_port(port: str | None) -> str:
    """The port to use: the one named (if it exists and may be opened), or the one tray on USB.

    Every refusal is a CommandError with the fix: no tray, several trays (named, never a
    guess), no such port, or a port this user may not open (the dialout group / udev rule).
    """
    from dialtray.link.transport import LinkDown, NoSuchPort, check_port, describe, find_tray

    try:
        if port is None:
            found = find_tray()
            print(f"found the tray on USB: {describe(found)}", flush=True)
            return found
        check_port(port)
    except NoSuchPort as e:
        raise CommandError(f"argument PORT: {e}", 2) from e
    except LinkDown as e:
        raise CommandError(str(e)) from e
    return port
