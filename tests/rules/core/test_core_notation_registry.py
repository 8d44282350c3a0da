"""Shared log notation, the game-kind registry and replay (file:line errors)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from dialtray.rules.core import registry
from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.errors import IllegalActionError, InvalidActionError, NotationError
from dialtray.rules.core.events import Action, Event
from dialtray.rules.core.notation import GameLog, format_action_line, format_log, parse_log
from dialtray.rules.core.replay import replay_log


def test_parse_log_header_body_faces_comments() -> None:
    log = parse_log(
        "# hi\nGame: Toy\nPlayer: P1 Ann\n---\nroll | 3 4  # c\n#   report\npass\n", "f.log"
    )
    assert log.kind == "toy" and log.one("player") == "P1 Ann"
    assert [(b.text, b.faces, b.line) for b in log.body] == [
        ("roll", (3, 4), 5),
        ("pass", None, 7),
    ]


@pytest.mark.parametrize(
    "text,line",
    [("Player: x\n---\n", 1), ("Game: t\n---\nroll | 3 9\n", 3), ("Game: t\nnot header\n", 2)],
)
def test_parse_log_errors_name_line(text: str, line: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_log(text, "bad.log")
    assert info.value.line == line and str(info.value).startswith(f"bad.log:{line}:")


def test_format_round_trip() -> None:
    body = [format_action_line("roll", [3, 4], ["P1 rolled 7"]), format_action_line("pass", [])]
    text = format_log("toy", [("Player", "P1")], body, comment="a toy")
    log = parse_log(text)
    assert [(b.text, b.faces) for b in log.body] == [("roll", (3, 4)), ("pass", None)]


@dataclass(frozen=True)
class Roll:
    def text(self) -> str:
        return "roll"


class ToyGame:
    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.total = 0

    def parse_action(self, text: str) -> Action:
        if text != "roll":
            raise InvalidActionError(text)
        return Roll()

    def apply(self, action: Action) -> Sequence[Event]:
        if self.total >= 10:
            raise IllegalActionError(action.text(), "enough", "T-M01", "Toy")
        self.total += sum(self.dice.roll(2, "toy"))
        return [Event()]

    def report(self) -> str:
        return f"total {self.total}"


class ToyKind:
    name = "toy"
    title = "Toy"

    def new_game(self, log: GameLog, dice: DiceSource) -> ToyGame:
        return ToyGame(dice)


def test_registry_and_replay_fail_at_first_bad_line() -> None:
    registry.register(ToyKind())
    assert "toy" in registry.kinds()
    ok = replay_log(parse_log("Game: toy\n---\nroll | 1 2\nroll | 3 3\n", "t.log"))
    assert ok.actions == 2 and ok.game.report() == "total 9"
    cases = {
        "roll | 1 2\nfly\n": (4, "fly"),
        "roll | 6 6\nroll | 1 1\n": (4, "T-M01"),
        "roll | 1\n": (3, "needs 2 dice"),
        "roll | 1 2 3\n": (3, "not used"),
    }
    for body, (line, needle) in cases.items():
        with pytest.raises(NotationError) as info:
            replay_log(parse_log("Game: toy\n---\n" + body, "t.log"))
        assert info.value.line == line and needle in str(info.value)
    with pytest.raises(NotationError, match="unknown game kind"):
        replay_log(parse_log("Game: chess\n---\n", "t.log"))
