"""The emulated Pico's tests: the firmware on the official MicroPython build for RPI_PICO.

Every test here skips, naming the reason, where the emulator cannot run (no Node, rp2040js not
installed by scripts/install_test_tools.sh, the shared MicroPython build or boot ROM missing).
The chip runs at a fraction of real time and is CPU-heavy: each test boots one chip and walks
a whole journey on it, and every wait is for a condition (an event, a frame), never a rate.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    from dialtray.virtual.rp2040 import missing

    why = missing()
    if why is None:
        return
    for item in items:
        if "rp2040" in item.path.parts:
            item.add_marker(pytest.mark.skip(reason=f"emulated RP2040: {why}"))
