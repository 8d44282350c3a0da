"""One table a game: while a `dialtray play` is playing a stored game, a second
`play --resume` of it is refused in one line (exit 2), and so is `games --close`; once the first
has stopped, the game is carried on. Before: both tables appended their own decisions to the
one chain and `dialtray verify` said FAILED (store/claim.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from play_process import Player

BIN = Path(sys.executable).parent


def dialtray(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "dialtray"), *argv], capture_output=True, text=True,
                          timeout=120)


def test_a_game_being_played_is_not_resumed_or_closed_by_another_dialtray(tmp_path: Path
                                                                          ) -> None:
    data = ["--data-dir", str(tmp_path)]
    first = Player([*data, "play", "airaction", "--sim", "--seats", "human,bot", "--dice",
                    "seeded", "--plain"])
    try:
        first.wait_for("you may type: deploy P1")  # the game is stored and being played
        second = dialtray(*data, "play", "--resume", "1", "--sim", "--seats", "bot,bot",
                          "--pace", "0", "--turns", "1", "--plain")
        assert second.returncode == 2, second
        assert second.stderr.strip() == (
            f"dialtray play: argument --resume: {tmp_path / 'games.sqlite3'}: game 1 is being "
            "played right now by another dialtray on this computer (a play, serve or demo "
            "still running): carry it on there, or stop that one first"), second.stderr
        close = dialtray(*data, "games", "--close", "1", "--reason", "abandoned")
        assert close.returncode == 2 and "is being played right now" in close.stderr, close
        first.type("quit")
        first.wait_for("stored as game 1")
        assert first.proc.wait(timeout=30) == 0
    finally:
        first.proc.kill()
        first.proc.wait()
    # stopped: carried on by the next table (its claim let go), the stored game whole
    again = Player([*data, "play", "--resume", "1", "--sim", "--seats", "human,bot", "--dice",
                    "seeded", "--plain"])
    try:
        again.wait_for("resumed stored game 1 at action")
        again.type("quit")
        assert again.proc.wait(timeout=30) == 0, again.text[-2000:]
    finally:
        again.proc.kill()
        again.proc.wait()
    check = dialtray(*data, "verify", "1")
    assert check.returncode == 0, check.stdout + check.stderr
