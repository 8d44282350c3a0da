"""The tray on an emulated Raspberry Pi Pico: the official MicroPython build for RPI_PICO, the
firmware's real ``dialrig.hw_rp2`` backend, and the parts around the chip modelled at its pins.

Node runs the emulator (``harness.mjs``: rp2040js plus what it lacks, see ``chip.mjs``); Python
builds the flash image (:mod:`.image`), starts and drives the bench (:mod:`.pico`) and plays
the physical world for the host's tools (:mod:`.tray`). :func:`missing` says, in one sentence,
why the emulated tray cannot run here (no Node, rp2040js not installed, the MicroPython build
or boot ROM not found), or None when it can.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
UF2_NAME = "micropython-v1.28.0-rpi-pico.uf2"
BOOTROM_NAME = "bootrom-b1.bin"
INSTALL_HINT = "scripts/install_test_tools.sh (npm install --prefix host/dialtray/virtual/rp2040)"


def binaries_dir() -> Path | None:
    """Where the MicroPython UF2 and the boot ROM are: $DIALTRAY_RP2040_DIR, else the project's
    shared/rp2040 beside (or above) the checkout."""
    env = os.environ.get("DIALTRAY_RP2040_DIR")
    candidates = [Path(env)] if env else []
    for parent in HERE.parents:
        candidates.append(parent / "shared" / "rp2040")
    for c in candidates:
        if (c / UF2_NAME).is_file() and (c / BOOTROM_NAME).is_file():
            return c
    return None


def node_binary() -> str | None:
    return shutil.which("node")


def missing() -> str | None:
    """Why the emulated Pico cannot run here, or None when it can."""
    if node_binary() is None:
        return "Node.js is not installed (Debian package nodejs)"
    if not (HERE / "node_modules" / "rp2040js" / "package.json").is_file():
        return f"the rp2040js emulator is not installed: run {INSTALL_HINT}"
    if binaries_dir() is None:
        return (f"the official MicroPython build ({UF2_NAME}) and the RP2040 boot ROM "
                f"({BOOTROM_NAME}) were not found in shared/rp2040 or $DIALTRAY_RP2040_DIR")
    try:
        import littlefs  # noqa: F401
    except ImportError:
        return "littlefs-python is not installed (pip install 'dialtray[sim]')"
    return None
