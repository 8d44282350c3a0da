"""`dialtray demo --rp2040`: a whole bot game of Air Action, shortened to one turn (on the
default 8 docks: the game needs 7), on the firmware running on the emulated Pico, to its
victory table (issue 29)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow(cost=18)  # (tests/conftest.py: dealt out first)

DEMO_TIMEOUT_S = 1500.0


def test_demo_rp2040_plays_air_action_to_its_victory_table(tmp_path: Path) -> None:
    dialtray = str(Path(sys.executable).parent / "dialtray")
    r = subprocess.run([dialtray, "--data-dir", str(tmp_path), "demo", "--rp2040", "--game",
                        "airaction", "--fast", "--turns", "1"],
                       capture_output=True, text=True, timeout=DEMO_TIMEOUT_S)
    out = r.stdout
    assert r.returncode == 0, out[-3000:] + r.stderr[-3000:]
    assert "every one put right" in out
    assert "winner" in out.lower() and "VP" in out
    assert "every roll matches the revealed seed" in out
    assert "Traceback" not in out + r.stderr
