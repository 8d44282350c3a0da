"""Suite-wide ordering: the long end-to-end tests start first.

The suite runs on pytest-xdist workers (``-n auto --dist worksteal`` in pyproject). A long test
collected late starts when the other worker has almost nothing left, and the run waits for it
alone; started first, the short tests fill the other workers around it. Only the order
changes: every test still runs.
"""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Stable sort: tests marked ``slow`` first, each group in its collected order."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: three workers for every two cores.

    Most long tests wait on something slow by design (a virtual tray's MicroPython booting, a
    person's pace of clicking, a broker restarting) and leave their core idle meanwhile; a
    third worker per two cores runs CPU-bound tests in those gaps. Every test waits for
    conditions, never for a rate, so sharing the CPU changes its time, not its result.
    """
    return max(2, (3 * (os.cpu_count() or 1) + 1) // 2)
