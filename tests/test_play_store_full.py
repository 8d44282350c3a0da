"""The store fills up mid-game (here a file-size limit, as a full disk does it): `dialtray play`
stops in one line that says what is kept and how to carry the game on once the store can be
written again (before: only that the batch was not stored)."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
LIMIT = 150_000  # bytes a file may grow to: the game's store outgrows it in its first turn


def small_files() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def test_a_store_that_fills_mid_game_says_how_to_carry_it_on(tmp_path: Path) -> None:
    r = subprocess.run([str(BIN / "dialtray"), "--data-dir", str(tmp_path), "play",
                        "airaction", "--sim", "--seats", "bot,bot", "--pace", "0", "--plain"],
                       capture_output=True, text=True, timeout=120, preexec_fn=small_files)
    assert r.returncode == 2, r.stdout[-2000:] + r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith(f"dialtray play: {tmp_path / 'games.sqlite3'}: could not store the "
                           "game (nothing of this batch was stored or acknowledged)"), last
    assert last.endswith("; the game is stored up to there: once the store can be written "
                         "again, `dialtray play --resume 1` carries it on"), last
    assert "Traceback" not in r.stderr
