"""`dialtray demo` as its user meets it: one command, a whole bot game on the virtual tray, every
deliberate mistake caught and put right, the victory table, fair dice checked, and a log that
`dialtray replay` re-runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent

AIR_ACTION_MISTAKES = ("flag too-few", "flag too-many", "flag wrong-direction", "flag wrong-dial",
                       "flag unexpected", "a peek (AA-M81", "flag refused")


def dialtray(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "dialtray"), *args], capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.slow(cost=6)
@pytest.mark.parametrize("game", ["airaction", "aces"])
def test_demo_plays_a_whole_game_catches_every_mistake_and_its_log_replays(
        game: str, tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    r = dialtray("--data-dir", str(tmp_path), "demo", "--game", game, "--fast", "--log", str(log))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    out = r.stdout
    wanted = AIR_ACTION_MISTAKES if game == "airaction" else AIR_ACTION_MISTAKES[:-1]
    for mistake in wanted:
        assert mistake in out, f"{mistake!r} not shown"
    assert "every one put right" in out
    assert "winner" in out.lower()
    assert "every roll matches the revealed seed" in out
    assert "Traceback" not in out + r.stderr
    if game == "airaction":
        assert "red line" in out or "at most two clicks" in out
        assert "VP" in out
    replay = dialtray("replay", str(log))
    assert replay.returncode == 0, replay.stdout + replay.stderr
    text = log.read_text()
    assert "# click dock" in text and "# flag" in text and "# put right" in text


def test_demo_log_goes_to_the_data_directory_by_default(tmp_path: Path) -> None:
    r = dialtray("--data-dir", str(tmp_path), "demo", "--game", "aces", "--fast")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    logs = list((tmp_path / "games").glob("demo-aces-*.log"))
    assert len(logs) == 1 and str(logs[0]) in r.stdout
