"""Does the tray's calibration match this computer's copy? One place says, for every command.

The tray keeps its calibration on its flash and reports the file's CRC-32 (``dialrig.calstore``,
``dialtray.link.calinfo``); the host keeps its own copy in the data directory
(``dialtray.builder.calibration_view.host_copy``). The copy holds only what calibration measured
(clicks per turn, direction, zero, pulses), the tray's file every dial's full settings, so the host
rebuilds what the tray would hold had the copy been sent with ``dialtray calibrate --apply``
(the default wiring of ``dialrig.config``, every other dial at its defaults) and checksums that
with the firmware's own ``calstore.checksum``. Equal checksums: nothing to say. Otherwise one
line says which side has what and what to do, so nobody plays on dials that read otherwise than
the computer believes.

Known limit: a tray wired otherwise than the default (its own dialrig.json, an AS5600 moved
with ``calibrate --channel``) stores that wiring too, so its checksum differs from the copy's
even when the measured values agree; the warning says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from dialrig import calstore, config

from dialtray.builder.calibration import CalibrationError, CalibrationFile, apply_calibration
from dialtray.builder.calibration_view import TrayView, host_copy
from dialtray.link.calinfo import BoardCalibration, SessionLike, calibration_info
from dialtray.link.session import CommandFailed

FIX = "run `dialtray calibrate --dock N --apply` for each dock"


def host_crc(cal: CalibrationFile, docks: int) -> int:
    """The CRC-32 the tray would report holding this copy (sent with the default wiring)."""
    cfg = apply_calibration(config.default_config(docks), cal)
    return cast(int, calstore.checksum(cast(list[Any], cfg["docks"])))


@dataclass(frozen=True)
class CalCheck:
    """The comparison's outcome: ``agree`` or not, and one line saying which."""

    agree: bool
    text: str

    def line(self) -> str:
        """What a command prints: the warning marked as one."""
        return self.text if self.agree else f"warning: {self.text}"


def compare(board: BoardCalibration, view: TrayView) -> CalCheck:
    """Whether the tray's calibration and the host's copy agree, with a line naming both
    checksums and, when they differ, what to do."""
    warning = _differs(board, view)
    if warning is not None:
        return CalCheck(False, warning)
    return CalCheck(True, f"tray {board.uid}: its calibration matches this computer's copy "
                          f"(crc {board.crc:08x}, {view.source})")


def _differs(board: BoardCalibration, view: TrayView) -> str | None:
    tray, path = f"tray {board.uid}", view.source
    mine: int | None = None
    if view.cal is not None:
        try:
            mine = host_crc(view.cal, board.docks)
        except CalibrationError as e:
            return (f"{tray}: this computer's copy ({path}) cannot be compared with the tray's "
                    f"calibration: {'; '.join(e.problems)}")
    if board.damaged or not board.stored:
        return _flash_unused(board, view, mine)
    if mine is None:
        return (f"{tray} keeps a calibration (crc {board.crc:08x}) but this computer has no "
                f"usable copy ({view.problem}): copy tray-{board.uid}.json from the computer "
                f"that calibrated it, or {FIX} to measure again")
    if board.crc == mine:
        return None
    return (f"{tray}: the tray's calibration (crc {board.crc:08x}) differs from this computer's "
            f"copy (crc {mine:08x}, {path}): {FIX} to send yours, or, if the tray's "
            "dialrig.json wires its dials otherwise than the default, the wiring alone may "
            "differ (the copy is compared as if sent with the default wiring)")


def _flash_unused(board: BoardCalibration, view: TrayView, mine: int | None) -> str:
    """The tray reads its dials with the defaults: its flash has no calibration, or one that
    failed its checksum. What to do depends on whether this computer has a copy (CRC ``mine``):
    send it, or measure the dials."""
    tray = f"tray {board.uid}"
    if mine is None:
        ours, todo = f"this computer has none ({view.problem})", "measure them and send the result"
    else:
        ours, todo = f"this computer has a copy (crc {mine:08x}, {view.source})", "send yours"
    if board.damaged:
        return (f"{tray}: the calibration on its flash failed its checksum and is ignored (its "
                f"dials read with the defaults); {ours}: {FIX} to {todo}")
    if mine is None:
        return (f"{tray} has no calibration, neither on its flash nor on this computer "
                f"({view.problem}): its dials read with the defaults; {FIX} to {todo}")
    return (f"{tray} has no calibration on its flash (its dials read with the defaults) but "
            f"{ours}: {FIX} to {todo}")


def check_on_connect(session: SessionLike, path: Path, timeout: float = 3.0) -> CalCheck:
    """Ask a synchronised tray for its calibration and compare it with the copy at ``path``.
    Never raises for a tray that cannot say: that is a warning too."""
    try:
        board = calibration_info(session, timeout)
    except CommandFailed as e:
        return CalCheck(False, f"the tray does not report its calibration ({e}): its firmware "
                               "predates the calibration store; `dialtray flash` updates it")
    except (TimeoutError, RuntimeError) as e:
        return CalCheck(False, f"could not ask the tray which calibration it keeps: {e}")
    return compare(board, TrayView.load(path))


def warn_if_different(session: SessionLike, data_dir: Path) -> str | None:
    """For commands that only mention a difference (``play``): the warning line, or None when
    the tray keeps this computer's copy (``<data dir>/calibration/tray-<uid>.json``)."""
    if session.hello is None:
        return None
    check = check_on_connect(session, host_copy(data_dir, session.hello.uid))
    return None if check.agree else check.line()
