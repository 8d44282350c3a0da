"""`dialtray play --sim --rp2040` and `dialtray serve --sim --rp2040`: the two front ends on the
firmware running on the emulated Pico (issue 29), each walked as its user would, shortened to one
turn with bots in every seat.

- play: two bots play Air Action to the victory table in the terminal; the game is stored and
  its fair dice check out.
- serve: the page's HTML answers, and its websocket carries the live state of a game of Aces
  while the bots turn the emulated tray's dials, up to the game's end with its winner.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from picohelp import interrupt
from websockets.sync.client import connect

pytestmark = pytest.mark.slow(cost=12)

DIALTRAY = str(Path(sys.executable).parent / "dialtray")
GAME_TIMEOUT_S = 900.0


def test_play_rp2040_bots_play_air_action_to_the_victory_table(tmp_path: Path) -> None:
    r = subprocess.run([DIALTRAY, "--data-dir", str(tmp_path), "play", "airaction", "--sim",
                        "--rp2040", "--seats", "bot,bot", "--turns", "1", "--plain", "--pace",
                        "0", "--docks", "7"],  # the game's 7: 14 sensors to read, not 16
                       stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=GAME_TIMEOUT_S)
    out = r.stdout
    assert r.returncode == 0, out[-3000:] + r.stderr[-3000:]
    assert "emulated Raspberry Pi Pico" in out, out[:2000]
    assert "speed dial set to" in out  # the bots' turns came back as clicks from the chip
    assert "winner" in out and "VP" in out, out[-3000:]
    assert "every roll matches the revealed seed" in out
    assert "stored as game 1" in out
    assert "Traceback" not in out + r.stderr


def test_play_rp2040_needs_sim() -> None:
    r = subprocess.run([DIALTRAY, "play", "airaction", "--rp2040"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "--rp2040: only with --sim" in r.stderr, r.stderr


def read_until(ws: Any, want: Any, timeout: float) -> list[dict[str, Any]]:
    """Messages from the page's websocket until ``want(message)``; all of them, in order."""
    seen: list[dict[str, Any]] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        m = json.loads(ws.recv(timeout=max(1.0, end - time.monotonic())))
        seen.append(m)
        if want(m):
            return seen
    raise AssertionError(f"timed out; last messages: {seen[-3:]}")


def test_serve_rp2040_page_and_live_state_to_the_game_end(tmp_path: Path) -> None:
    errors = (tmp_path / "stderr.txt").open("w")
    proc = subprocess.Popen([DIALTRAY, "--data-dir", str(tmp_path), "serve", "--sim",
                             "--rp2040", "--bots", "--pace", "0", "--turns", "1", "--port", "0",
                             "--game", "aces", "--docks", "5"],  # its 9 dials: 10 to read
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors,
                            text=True)
    said: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # the page's address is printed once the tray is in sync
            said.append(line)
            if line.startswith("open "):
                break
        url = said[-1].split()[1] if said else ""
        assert url.startswith("http://127.0.0.1:"), said
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200 and "<html" in page.read().decode().lower()
        with connect(url.replace("http://", "ws://") + "ws") as ws:
            seen = read_until(ws, lambda m: m["op"] == "game" and m["game"]["outcome"],
                              GAME_TIMEOUT_S)
        states = [m for m in seen if m["op"] == "state"]
        assert states and "virtual tray" in json.dumps(states[0]), states[:1]
        assert any(m["op"] == "patch" and m.get("docks") for m in seen)  # dials sensed
        end = seen[-1]["game"]
        assert end["winner"] and end["vp"], end
    finally:
        err = interrupt(proc, errors)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
