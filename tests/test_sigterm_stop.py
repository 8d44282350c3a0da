"""SIGTERM (kill, a service manager, a closing session) stops ``play`` and ``serve`` as Ctrl-C
does: the game stays stored, the last lines say how to carry it on, exit status 143. Before,
Python's default ended them on the spot, without a word about the game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from dialtray.virtual.factory import sim_missing

BIN = Path(sys.executable).parent


def _run_until(argv: list[str], ready: str, tmp: Path) -> tuple[str, str, int]:
    """Start ``dialtray ARGV``, wait for a line containing READY, send SIGTERM, collect."""
    p = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(tmp), *argv],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert p.stdout is not None
        seen = []
        for line in p.stdout:
            seen.append(line)
            if ready in line:
                break
        assert any(ready in s for s in seen), "".join(seen) + (p.stderr.read() if p.stderr
                                                              else "")
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=30)
        return "".join(seen) + out, err, p.returncode
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_sigterm_stops_play_with_the_game_stored_and_says_how_to_carry_on(
        tmp_path: Path) -> None:
    if sim_missing():
        pytest.skip(str(sim_missing()))
    out, err, code = _run_until(["play", "airaction", "--sim", "--seats", "human,bot",
                                 "--dice", "seeded", "--seed", "2026"],
                                "you may type", tmp_path)
    assert "interrupted (SIGTERM)" in out, out
    assert "stays stored as game 1: dialtray play --resume 1" in " ".join(out.split()), out
    assert code == 143, (out, err)
    assert "Traceback" not in err, err


def test_sigterm_stops_serve_with_the_game_stored_and_says_how_to_carry_on(
        tmp_path: Path) -> None:
    if sim_missing():
        pytest.skip(str(sim_missing()))
    out, err, code = _run_until(["serve", "--sim", "--port", "0"], "open http://", tmp_path)
    assert "stopping (SIGTERM)" in out, (out, err, code)
    assert "game 1 is not over: it stays stored (dialtray play --resume 1 --sim" in out, out
    assert code == 143, (out, err)
    assert "Traceback" not in err, err
