"""Game-log notation and `dialtray replay` for Air Action (docs/notation.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.rules.airaction.actions import parse_action
from dialtray.rules.airaction.bots import STANDARD_SQUADRONS, play_game
from dialtray.rules.airaction.notation import write_log
from dialtray.rules.core.errors import InvalidActionError, NotationError
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log

EXAMPLE = (Path(__file__).resolve().parents[3] / "docs" / "notation.md").read_text()


def doc_example() -> str:
    block = EXAMPLE.split("### Example", 1)[1].split("```", 2)[1]
    return block.strip() + "\n"


@pytest.mark.parametrize(
    "text",
    [
        "first-player",
        "deploy P1",
        "speed A1 6",
        "throttle A1 -2",
        'plan A1 "Tight Turn" left',
        "plan A1 random",
        "left A1",
        "overlap A1 B2",
        "overlaps-done",
        "no-collision-fate A1",
        "feat A1 B2",
        "no-feat A1",
        "feat-choice A1 ride",
        "shoot A1 rear B2 +rear-arc +point-blank +fate",
        "pass A1",
        "fate B2",
        "bail-out B2 crash-site",
        "cancel A1 front_gunnery",
        "dispute the shot nicks the marker",
        "end time",
    ],
)
def test_action_text_round_trip(text: str) -> None:
    assert parse_action(text).text() == text


@pytest.mark.parametrize("bad", ["fly A1", "throttle A1 fast", "shoot A1 side B1", 'plan A1 "Turn'])
def test_bad_action_text(bad: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(bad)


def test_documented_example_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "example.log"
    f.write_text(doc_example())
    assert main(["replay", str(f)]) == 0
    out = capsys.readouterr().out
    assert "B1" in out and "P1" in out


def test_bot_game_log_replays_to_same_state() -> None:
    g, _ = play_game(STANDARD_SQUADRONS, seed=3, campaign=True)
    text = write_log(g, comment="bot game")
    result = replay_log(parse_log(text, "bot.log"))
    assert result.game.state == g.state  # type: ignore[attr-defined]
    assert result.game.report() == g.report()


def test_replay_fails_at_first_illegal_line_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = doc_example().splitlines()
    i = lines.index("pass B1")
    lines[i] = "shoot B1 front A1 | 1 1"  # legal: B1's front shot (2 dice)
    lines.insert(i + 1, "shoot B1 front A1 | 1 1")  # a second front shot: AA-M36
    f = tmp_path / "bad.log"
    f.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(f)]) == 2
    err = capsys.readouterr().err
    assert f"bad.log:{i + 2}: shoot B1 front A1" in err
    assert "AA-M36" in err


def test_replay_header_errors_name_the_line() -> None:
    text = (
        "Game: airaction\nPlayer: P1\nPlayer: P2\nPlane: P1 A1 no-such-figure\n"
        "Plane: P2 B1 sample-militia-fighter\n---\n"
    )
    with pytest.raises(NotationError) as info:
        replay_log(parse_log(text, "h.log"))
    assert info.value.line == 4 and "AA-M01" in str(info.value)
    with pytest.raises(NotationError) as info2:
        replay_log(parse_log("Game: airaction\nPlayer: P1\nPlane: P9 A1 x\n---\n", "h.log"))
    assert info2.value.line == 3


def test_too_few_typed_faces_refused_and_state_unchanged() -> None:
    """Physical dice: an action whose faces run out mid-way leaves no trace."""
    from aa_helpers import new_game, run, start
    from dialtray.rules.core.errors import DiceError

    g, d = new_game()
    start(g, d)
    run(g, d, "plan A1 Cruise straight", "plan A2 Cruise straight")
    run(g, d, "plan B1 Cruise straight", "plan B2 Cruise straight")
    run(g, d, "moved A1", "moved A2", "moved B1", "moved B2", "overlap A1 B1")
    before, n = g.rebuilt_state(), len(g.history)
    d.feed([4, 4, 4])  # two pilot checks need four dice
    with pytest.raises(DiceError):
        g.apply(parse_action("overlaps-done"))
    assert g.state == before and len(g.history) == n


def test_replay_verbose_prints_every_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "example.log"
    f.write_text(doc_example())
    assert main(["replay", "-v", str(f)]) == 0
    out = capsys.readouterr().out
    assert "B1 combat dial 2 click(s) clockwise (hits)" in out and "P1 rolls 5+4" in out
