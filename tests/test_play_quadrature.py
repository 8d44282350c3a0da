"""`dialtray play --sim --quadrature` in a real 80x24 terminal: a tray built with encoders on its
first seven dials (docks 0-2 and dock 3's combat dial) and AS5600s on the rest. Every encoder
lost track at boot; the person confirms theirs by eye with the ``eye`` command (one refused: an
AS5600 reads itself), the bot its own; then the game is played on them: a speed set by turning
an encoder dial (AA-M18), a knocked encoder dial caught (AA-M81) and turned back. Then
`play --resume --sim` (no --quadrature: the stored game says) powers on a tray built the same
way, its encoders lost again in the new boot and placed where they were: A1's speed dial is
confirmed at the rules' click with nothing flagged."""

from __future__ import annotations

import json
import signal
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pexpect
import pytest
from test_play_resume_sim import Timed

BIN = Path(sys.executable).parent


def play(tmp_path: Path, *args: str) -> Timed:
    """`dialtray play` in an 80x24 terminal, P1 a person and P2 a bot, at once (pace 0)."""
    return Timed(pexpect.spawn(str(BIN / "dialtray"),
                               ["--data-dir", str(tmp_path), "play", *args, "--sim", "--seats",
                                "human,bot", "--dice", "seeded", "--pace", "0", "--db",
                                str(tmp_path / "games.sqlite3")],
                               dimensions=(24, 80), timeout=60,
                               env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin"}))


@contextmanager
def playing(tmp_path: Path, *args: str) -> Iterator[Timed]:
    """`play` for the body to drive; then ``quit`` at the prompt, and the program must end
    with its log written and status 0 (killed if it does not end)."""
    screen = play(tmp_path, *args)
    child = screen.child
    try:
        yield screen
        screen.type("quit")
        screen.wait_for("game log:")
        child.expect(pexpect.EOF, timeout=30)
        child.close()
    finally:
        if child.isalive():
            child.kill(signal.SIGKILL)
    assert child.exitstatus == 0, screen.text[-2000:]


@pytest.mark.slow(cost=5)
def test_a_person_confirms_encoder_dials_by_eye_and_plays_on_them(tmp_path: Path) -> None:
    db, log = tmp_path / "games.sqlite3", tmp_path / "game.log"
    with playing(tmp_path, "airaction", "--quadrature", "--turns", "1",
                 "--log", str(log)) as screen:
        screen.wait_for("look at each dial whose encoder lost track and confirm it by eye")
        screen.wait_for("(B1): confirmed by eye at click 0 by P2 (a bot)")  # its own
        screen.type("eye 4 combat")  # an AS5600: nothing to confirm
        screen.wait_for("(B2): its sensor reads it (it has not lost track)")
        for dock in range(3):  # combat: the rules' click; speed (not set yet): the one read
            screen.type(f"eye {dock} combat")
            screen.type(f"eye {dock} speed 0")
        screen.wait_for("(A3): confirmed by eye at click 0 by P1 (the rules have not")
        screen.wait_for("tracker: play")
        screen.wait_for("you may type: deploy P1")
        screen.type("deploy P1")
        screen.wait_for("played: deploy P2")  # (whoever rolled first deploys first)
        screen.type("turn 0 speed -4")  # on the encoder: four clicks up is speed 5
        screen.wait_for("played: speed A1 5")
        screen.type("turn 1 combat 1")  # knocked: an encoder dial is judged like any dial
        screen.wait_for("that nobody caused")
        screen.type("turn 1 combat -1")
    assert "Traceback" not in screen.text
    text = log.read_text()
    eyes = [ln for ln in text.splitlines() if ln.startswith("# eye: ")]
    assert len(eyes) == 7 and sum("by P2 (a bot)" in ln for ln in eyes) == 1, eyes
    assert "speed A1 5" in text and "# flag unexpected" in text
    with sqlite3.connect(db) as c:
        stored = [json.loads(x)["data"] for (x,) in c.execute(
            "SELECT content FROM records WHERE kind = 'eye' ORDER BY n")]
    assert sorted((e["dock"], e["reader"]) for e in stored) == \
        [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0)]
    assert len({e["boot"] for e in stored}) == 1

    with playing(tmp_path, "--resume", "--log", str(tmp_path / "resumed.log")) as screen:
        screen.wait_for("(A1): its encoder lost track")  # the same kind of tray, a new boot
        screen.type("eye 0 speed")  # where the rules put it: speed 5 is click 4
        screen.wait_for("(A1): confirmed by eye at click 4 by P1 (where the rules")
    assert "not where the rules put it" not in screen.text and "Traceback" not in screen.text
