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

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dialtray.virtual.rp2040.tray import Rp2040Tray
    from dialtray.virtual.tray import VirtualTray

def missing(rp2040: bool = False) -> str | None:
    """Why the chosen virtual tray cannot run here, or None."""
    from dialtray.commands._common import sim_missing

    if not rp2040:
        return sim_missing()
    from dialtray.virtual.rp2040 import missing as rp2040_missing

    why = rp2040_missing()
    return None if why is None else f"the emulated Pico cannot run: {why}"


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
