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
