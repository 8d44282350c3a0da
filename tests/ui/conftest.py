"""The web UI's fixtures (helpers in uikit.py): a served game on the virtual tray and a real
Chromium driven by Playwright. Browser tests skip, saying why, where Playwright or Chromium cannot
be had; CI installs both (scripts/install_test_tools.sh).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web UI needs the `ui` extra (dialtray[ui])")
sys.path.insert(0, str(Path(__file__).parent))  # uikit.py

from dialtray.ui.server import Served
from uikit import chromium_path, serve


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
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


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A game at the virtual tray with no bots: the tests are the players."""
    s = serve(tmp_path_factory.mktemp("ui"))
    try:
        yield s
    finally:
        s.close()
