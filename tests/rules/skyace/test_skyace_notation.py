"""Sky Ace logs: header, replay through the registry, and bad input named by file and line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from dialtray.rules.core import registry
from dialtray.rules.core.errors import InvalidActionError, NotationError
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.skyace import SkyAceGame, parse_action
from dialtray.rules.skyace.bots import bot_game

DUEL_HEAD = "Game: skyace\nMode: duel\nHeroes: sky-ace-1.3 twilight\nDeck: physical\n---\n"
DUEL = DUEL_HEAD + """draw P1 AS
draw P2 KH
layout 1,0
""" + "".join(f"draw P1 {c}\n" for c in ("4S", "2C", "6C", "8C", "10C")) + \
    "".join(f"draw P2 {c}\n" for c in ("2D", "4D", "6D", "8D", "10D")) + """move 1,1 4S
attack P2 2C 6C 8C 10C
draw P1 3C
draw P1 5C
draw P1 7C
draw P1 9C
draw P1 JC
"""


def test_sa_m22_a_typed_duel_replays_and_the_kind_is_discovered() -> None:
    """The registry finds ``Game: skyace``; a typed-in physical duel replays (SA-M22: Head ->
    Hand-to-Hand, 2 LIFE lost)."""
    assert registry.get("skyace").title == "Sky Ace v0.8"
    g = replay_log(parse_log(DUEL, "duel.log")).game
    assert isinstance(g, SkyAceGame) and g.state.pawns["P2"].life == 3
    assert "P2   Twilight   LIFE 3" in g.report()


@pytest.mark.parametrize(("line", "words"), [
    ("move 0,1 4S", "SA-M09"),  # a black card on a red cell
    ("move 1,1 9H", "not in P1's hand"),
    ("attack P2 -", "SA-M22"),
    ("moov 1,1 4S", "not a Sky Ace action"),
    ("move 1;1 4S", "not a cell"),
    ("move 1,1 4X", "not a card"),
])
def test_sa_m18_a_bad_line_is_named_by_file_and_line(line: str, words: str) -> None:
    """A malformed or illegal log line: ``FILE:LINE: reason`` with the rule's id, and replay
    stops there."""
    text = DUEL.replace("move 1,1 4S\n", line + "\n")
    n = text.splitlines().index(line) + 1
    with pytest.raises(NotationError) as info:
        replay_log(parse_log(text, "bad.log"))
    assert info.value.line == n and words in str(info.value)


@pytest.mark.parametrize(("header", "words"), [
    ("Mode: melee", "Mode"),
    ("Heroes: sky-ace", "2..12 heroes"),
    ("Heroes: nobody twilight", "unknown hero"),
    ("Turn-limt: 4", "unknown header key"),
    ("Mission: mugging", "only with Mode: mission"),
])
def test_sa_m15_a_bad_header_is_refused(header: str, words: str) -> None:
    """Setup problems name the header line."""
    old = "Mode: duel\nHeroes: sky-ace-1.3 twilight\n"
    text = DUEL.replace(old, "Mode: duel\n" + header + "\n")
    with pytest.raises(NotationError) as info:
        replay_log(parse_log(text, "bad.log"))
    assert words in str(info.value) and info.value.line == 3


def test_sa_m33_dice_faces_missing_or_left_over_are_errors() -> None:
    """A dice-dealt log whose faces were edited: the line is named."""
    _, log = bot_game(3)
    lines = log.splitlines()
    i = next(k for k, x in enumerate(lines) if x.startswith("deal |"))
    cut = [*lines[:i], lines[i].rsplit(" ", 1)[0], *lines[i + 1:]]
    with pytest.raises(NotationError) as info:
        replay_log(parse_log("\n".join(cut), "cut.log"))
    assert info.value.line == i + 1


def test_sa_m23_action_text_round_trips() -> None:
    """The notation pair: ``parse_action(a.text())`` gives ``a`` back."""
    for t in ("deal", "draw P1 10H", "layout -1,1", "move 2,-3 JK", "knock 2,2 QS",
              "attack T1 JS QH", "attack P2 -", "hold", "discard P2 4C 7S", "pass"):
        assert parse_action(t).text() == t
    with pytest.raises(InvalidActionError):
        parse_action("attack")


def test_sa_m30_dialtray_replay_cli_plays_a_skyace_log(tmp_path: Path) -> None:
    """``dialtray replay`` on a Sky Ace log: exit 0 with the report; a bad line exits 2 with
    FILE:LINE and no traceback."""
    good, bad = tmp_path / "duel.log", tmp_path / "bad.log"
    good.write_text(DUEL)
    bad.write_text(DUEL.replace("move 1,1 4S", "move 0,1 4S"))
    run = [sys.executable, "-m", "dialtray.cli", "replay"]
    ok = subprocess.run([*run, str(good)], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "Twilight" in ok.stdout
    no = subprocess.run([*run, str(bad)], capture_output=True, text=True, timeout=120)
    assert no.returncode == 2 and "Traceback" not in no.stderr
    assert f"{bad}:" in no.stderr + no.stdout and "SA-M09" in no.stderr + no.stdout
