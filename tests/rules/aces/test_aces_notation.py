"""Aces logs: written by ``LogWriter``, replayed through the core registry (``dialtray replay``)."""

from __future__ import annotations

import pytest
from dialtray.rules.aces.bots import GreedyBot, RandomBot
from dialtray.rules.aces.notation import LogWriter
from dialtray.rules.aces.scenarios import load_scenario, start_scenario
from dialtray.rules.core import registry
from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.errors import NotationError
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log


def play_logged(seed: int) -> tuple[str, str]:
    g = start_scenario(load_scenario("zeppelin-raid"), SeededDice(seed))
    w = LogWriter(g, "zeppelin-raid", first=0)
    bots = [GreedyBot(seed), RandomBot(seed + 1)]
    while not g.state.over:
        w.apply(bots[g.player_to_move()].choose(g))
    return w.text(), g.report()


def test_aces_is_a_registered_game_kind() -> None:
    assert registry.get("aces").title == "Crimson Skies: Aces"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replay_reproduces_a_bot_game_exactly(seed: int) -> None:
    text, final = play_logged(seed)
    result = replay_log(parse_log(text, "game.log"))
    assert result.game.report() == final
    assert result.actions == sum(
        1
        for ln in text.splitlines()
        if ln and not ln.startswith(("#", "Game:", "Scenario:", "First:", "---"))
    )


def test_replay_names_the_bad_line() -> None:
    text, _ = play_logged(4)
    lines = text.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("move "))
    lines[i] = "move nobody a1"
    with pytest.raises(NotationError) as info:
        replay_log(parse_log("\n".join(lines), "bad.log"))
    assert info.value.line == i + 1


def test_dialtray_replay_command_plays_an_aces_log(tmp_path: object, capsys: object) -> None:
    from pathlib import Path

    from dialtray.cli import main

    text, final = play_logged(5)
    path = Path(str(tmp_path)) / "aces.log"
    path.write_text(text)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "Crimson Skies: Aces" in out and final in out


def test_write_log_with_rolled_first_player_replays() -> None:
    """kim-vs-tim rolls for first player (AC-M04); the log records who it was."""
    g = start_scenario(load_scenario("kim-vs-tim"), SeededDice(8))
    first = g.state.first_player
    bot = GreedyBot(3)
    w = LogWriter(g, "kim-vs-tim")
    for _ in range(40):
        if g.state.over:
            break
        w.apply(bot.choose(g))
    text = w.text()
    assert f"First: {first + 1}" in text
    assert replay_log(parse_log(text, "k.log")).game.report() == g.report()
