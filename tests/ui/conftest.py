"""The web UI's fixtures (helpers in uikit.py): a served game on the virtual tray and a real
Chromium driven by Playwright. Browser tests skip, saying why, where Playwright or Chromium cannot
be had; CI installs both (scripts/install_test_tools.sh).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web UI needs the `ui` extra (dialtray[ui])")
sys.path.insert(0, str(Path(__file__).parent))  # uikit.py

from dialtray.ui.server import Served
from uikit import serve


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A game at the virtual tray with no bots: the tests are the players."""
    s = serve(tmp_path_factory.mktemp("ui"))
    try:
        yield s
    finally:
        s.close()
