"""What several commands share: their error type, the data directory, the ``--rp2040`` and
``--quadrature`` options of a virtual tray.

Whether the virtual tray can run here, starting it and how long it may take to answer are
``dialtray.virtual.factory``'s; which port a ``PORT`` names is ``dialtray.link.port``'s: the
front ends (``ui/``) and the table use them without importing a command. Nothing here imports a
POSIX-only module: the virtual tray (fcntl, termios, pty) is imported only when a command that
runs it is actually run.
"""

from __future__ import annotations

import argparse
from pathlib import Path

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


QUADRATURE_HELP = ("with --sim: a virtual tray built with incremental encoders on its first "
                   f"{config.MAX_QUADRATURE_DIALS} dials (one PIO state machine each) and "
                   "AS5600s on the rest; an encoder loses track at every boot, so each is "
                   "confirmed by eye before play (play's `eye DOCK combat|speed [CLICK]`, the "
                   "page's Confirm by eye)")


def add_quadrature_flag(parser: argparse.ArgumentParser, help_text: str = QUADRATURE_HELP
                        ) -> None:
    """The ``--quadrature`` option of the commands that start a virtual tray for a game
    (``virtual.factory.tray_config`` builds the tray it names)."""
    parser.add_argument("--quadrature", action="store_true", help=help_text)


def quadrature_needs_sim(args: argparse.Namespace) -> None:
    """``--quadrature`` says how the virtual tray is built: refused without ``--sim``, and with
    a camera (it reads a dial in its encoder's frame, which an encoder that lost track lacks:
    tracker/README.md)."""
    if not getattr(args, "quadrature", False):
        return
    if not getattr(args, "sim", True):
        raise CommandError("argument --quadrature: only with --sim (it builds the virtual "
                           "tray; a real tray says which sensors it has)", 2)
    if getattr(args, "camera", None) is not None:
        raise CommandError("argument --quadrature: not with --camera (the camera reads a dial "
                           "in its encoder's frame, which an encoder that lost track lacks)", 2)
