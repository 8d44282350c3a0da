"""Suite-wide ordering: the long end-to-end tests start first.

The suite runs on pytest-xdist workers (``-n auto --dist worksteal`` in pyproject). A long test
collected late starts when the other worker has almost nothing left, and the run waits for it
alone; started first, the short tests fill the other workers around it. Only the order
changes: every test still runs.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest
from browsers import chromium_path


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C and Ctrl-\\ reach the programs the tests start, whatever started pytest.

    A shell without job control starts a background command (``pytest … &`` in a script) with
    SIGINT and SIGQUIT ignored, and an ignored signal stays ignored in every child after exec.
    Then `dialtray serve` never sees the Ctrl-C a test sends it as a person would, and a
    firmware sent SIGQUIT (a crash) never dies: tests that pass in the foreground fail after
    waiting. Each pytest process (controller and xdist workers) puts the defaults back."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGQUIT) is signal.SIG_IGN:
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)


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


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One real Chromium, driven by Playwright, for every page test of a worker (tests/ui and
    tests/hub). One, not one per folder: a second sync Playwright started in the same process
    while the first runs fails ("Sync API inside the asyncio loop"), which made a worker that
    ran a hub page test and then a UI page test error."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright is not installed (pip install playwright; part of the test extra)")
    exe = chromium_path()
    if exe is None:
        pytest.skip("no Chromium: run scripts/install_test_tools.sh (Debian's `chromium`) or "
                    "set DIALTRAY_CHROMIUM")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe,
                              args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield b
        b.close()
