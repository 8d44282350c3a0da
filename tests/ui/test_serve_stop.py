"""`dialtray serve` stopped with Ctrl-C in the middle of a game says what became of the game:
it stays stored, and how to carry it on or close it (before: "stopping …" and nothing more, the
game left 'running' in `dialtray games` with no word of it)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_ctrl_c_says_the_game_stays_stored_and_how_to_carry_it_on(tmp_path: Path) -> None:
    proc = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(tmp_path), "serve",
                             "--sim", "--bots", "--pace", "5", "--port", str(free_port())],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        seen = ""
        for line in proc.stdout:  # until the page is served
            seen += line
            if "(Ctrl-C stops)" in line:
                break
        assert "(Ctrl-C stops)" in seen, seen
        proc.send_signal(signal.SIGINT)  # what Ctrl-C at the terminal sends
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 0, seen + out
    assert ("game 1 is not over: it stays stored (dialtray play --resume 1 --sim carries it on "
            "at a terminal, dialtray games --close 1 --reason TEXT closes it)") in out, out
    assert "Traceback" not in out
