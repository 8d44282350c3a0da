"""Fixtures for the store's tests (helpers in storehelp.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from storehelp import Played, play_stored


@pytest.fixture
def aces_game(tmp_path: Path) -> Played:
    return play_stored(tmp_path / "games.sqlite3", "aces")


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each store test keeps its chain key and judge tokens (keys/ in the data directory,
    issue 31) in its own data directory, not the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv("DIALTRAY_DATA_DIR", str(d))
    return d
