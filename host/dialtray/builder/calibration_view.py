"""How a tray's dials read to a person: calibrated clicks from zero, direction, the dock's name.

The host keeps a copy of each tray's calibration in the user's data directory
(``<data dir>/calibration/tray-<board uid>.json``, written by ``dialtray calibrate``). A dial
without an entry there is shown with its raw position and marked, so nobody mistakes an
uncalibrated reading for a figure's real click.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dialrig import config

from dialtray.builder.calibration import CalibrationError, CalibrationFile, load_calibration
from dialtray.link.messages import Click, DialState

UNCALIBRATED = "UNCALIBRATED"


def host_copy(data_dir: Path, uid: str) -> Path:
    """Where the host keeps tray ``uid``'s calibration."""
    return data_dir / "calibration" / f"tray-{uid}.json"


@dataclass
class TrayView:
    """One tray's calibration as the host knows it (possibly none), and how to word a dial."""

    source: Path
    cal: CalibrationFile | None
    problem: str = ""

    @classmethod
    def load(cls, path: Path) -> TrayView:
        if not path.exists():
            return cls(path, None, f"no calibration for this tray at {path}")
        try:
            return cls(path, load_calibration(path))
        except CalibrationError as e:
            return cls(path, None, "; ".join(e.problems))
        except OSError as e:
            return cls(path, None, f"cannot read {path}: {e.strerror or e}")

    def dock_label(self, dock: int) -> str:
        name = self.cal.names.get(dock) if self.cal else None
        return f"dock {dock} ({name})" if name else f"dock {dock}"

    def calibrated(self, dock: int, dial: int) -> bool:
        return self.cal is not None and config.DIAL_NAMES[dial] in self.cal.docks.get(dock, {})

    def click(self, ev: Click) -> str:
        """'dock 2 (Show-stopper) combat: click 3 of 12 from zero (+1, clockwise)'."""
        name = config.DIAL_NAMES[ev.dial] if ev.dial < len(config.DIAL_NAMES) else str(ev.dial)
        way = "clockwise" if ev.delta > 0 else "counter-clockwise"
        move = f"{ev.delta:+d}, {way}"
        tag = " (recovered from a snapshot)" if ev.recovered else ""
        where = f"{self.dock_label(ev.dock)} {name}"
        if self.cal is not None and self.calibrated(ev.dock, ev.dial):
            d = self.cal.docks[ev.dock][name]
            return f"{where}: click {ev.position} of {d.detents} from zero ({move}){tag}"
        return (f"{where}: position {ev.position} ({move}){tag}  [{UNCALIBRATED}: "
                f"`dialtray calibrate --dock {ev.dock} --dial {name}`]")

    def dial_row(self, d: DialState) -> str:
        name = config.DIAL_NAMES[d.dial] if d.dial < len(config.DIAL_NAMES) else str(d.dial)
        where = f"{self.dock_label(d.dock)} {name}"
        if self.cal is not None and self.calibrated(d.dock, d.dial):
            c = self.cal.docks[d.dock][name]
            note = "" if c.detents == d.detents else \
                f"  [the tray counts {d.detents} clicks a turn, the calibration {c.detents}: " \
                "send it with `dialtray calibrate --apply`]"
            return f"{where}: click {d.position} of {c.detents} from zero ({d.sensor}){note}"
        return f"{where}: position {d.position} ({d.sensor})  [{UNCALIBRATED}]"
