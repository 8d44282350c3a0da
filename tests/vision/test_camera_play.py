"""`dialtray play --sim --camera virtual` (issue 33): a person in a real 80x24 terminal (a
pty, pexpect, the live screen read as drawn: `--plain` output scrolls stale lines past the
helper) plays Air Action against a bot on the virtual tray filmed by the virtual camera,
typing what the screen offers and turning their dials as it says (one deliberate click too
many, flagged and put right). Every settled click of theirs and the bot's is confirmed by the
camera on the screen, the game reaches its winner, and the camera's answers are in the game
log. 1 turn, held-back photographs (CPU kept small). Also: the plain refusals of --camera."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "table"))
from journey import BIN, Person

CONFIRMED = re.compile(r"camera: dock (\d) (speed|combat): click (\d+) confirmed by the camera")


@pytest.mark.slow
def test_a_person_plays_with_the_camera_confirming_every_click(tmp_path: Path) -> None:
    p = Person(["play", "airaction", "--sim", "--camera", "virtual", "--seats",
                "human,bot", "--pace", "0", "--dice", "seeded", "--turns", "1", "--seed", "11"],
               tmp_path)
    try:
        out = p.play({"A1", "A2", "A3"}, mistake=True, rest=1.0)
    finally:
        p.close()
    assert "Traceback" not in out, out[-3000:]
    assert "game over" in out and "winner" in out and "stored as game" in out, out[-3000:]
    seen = {(m[0], m[1]) for m in CONFIRMED.findall(out)}
    assert seen, f"no click confirmed by the camera:\n{out[-3000:]}"
    assert {d for d, _ in seen} >= {"0", "3"}, seen  # a dock of each seat's (A1 and B1)
    assert p.mistake, "no dial of the person's was ever due"
    assert "disagree" not in out, out[-3000:]  # one hand turns the dial the camera films
    log = next(tmp_path.rglob("*.log")).read_text()
    assert "# camera dock" in log and "confirmed by the camera" in log


@pytest.mark.parametrize(("extra", "said"), [
    (["--sim", "--camera", "2"], "with --sim the camera is the virtual one"),
    (["--camera", "virtual", "--port", "/dev/null"], "only with --sim"),
    (["--sim", "--camera", "2", "--no-encoders"], "built on the virtual tray only"),
    (["--camera", "virtual", "--no-encoders", "--port", "/dev/null"],
     "built on the virtual tray only"),
    (["--sim", "--camera", "nope"], "not a webcam's number"),
])
def test_camera_refusals_are_plain(extra: list[str], said: str, tmp_path: Path) -> None:
    r = subprocess.run([str(BIN / "dialtray"), "--data-dir", str(tmp_path), "play",
                        "airaction", *extra], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and said in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_webcam_that_is_not_there_is_said_plainly(tmp_path: Path) -> None:
    """--camera 9 on a machine with no /dev/video9: OpenCV opens nothing, the command says
    which camera and stops before any tray is asked for (the tray port is a dead file)."""
    r = subprocess.run([str(BIN / "dialtray"), "--data-dir", str(tmp_path), "play",
                        "airaction", "--camera", "9", "--port", "/dev/null"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "camera 9 could not be opened" in r.stderr and "/dev/video9" in r.stderr, r.stderr
    assert "WARN" not in r.stderr, r.stderr  # OpenCV's own warning kept off the screen
