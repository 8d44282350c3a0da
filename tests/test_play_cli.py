"""`dialtray play` without a terminal: two bots play a whole game on the virtual tray, the view
is printed as it changes, the log replays; bad arguments are refused before anything starts
(tests/test_cli_errors.py has the one-line checks)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


@pytest.mark.slow
@pytest.mark.parametrize("game", ["aces", "airaction"])
def test_two_bots_play_a_whole_game_on_the_virtual_tray(game: str, tmp_path: Path) -> None:
    log = tmp_path / "g.log"
    r = subprocess.run([str(BIN / "dialtray"), "--data-dir", str(tmp_path), "play", game,
                        "--sim", "--seats", "bot,bot", "--dice", "fair", "--pace", "0",
                        "--turns", "1", "--log", str(log)],  # a short game: still to the winner
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    out = r.stdout
    assert "the tray waits for" in out and "dock 0" in out
    assert "winner" in out.lower()
    assert "bot refused" not in out
    assert "every roll matches the revealed seed" in out
    replay = subprocess.run([str(BIN / "dialtray"), "replay", str(log)], capture_output=True,
                            text=True, timeout=60)
    assert replay.returncode == 0, replay.stdout + replay.stderr
