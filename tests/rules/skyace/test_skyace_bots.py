"""Bot duels and missions to the end, and their logs replayed exactly (issue 16 acceptance)."""

from __future__ import annotations

import pytest
from dialtray.rules.core.game import Game, state_json
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.skyace import events as ev
from dialtray.rules.skyace.bots import bot_game

CHUNKS = 4


def _transcript(g: Game) -> list[str]:
    return [line for e in g.history for line in (e.action.text(), *(x.text() for x in e.events))]


def _run(seeds: range, mission: bool) -> dict[str, int]:
    seen: dict[str, int] = {}
    for seed in seeds:
        g, log = bot_game(seed, mission=mission)
        out = g.outcome()
        assert out is not None, seed
        seen[out.termination] = seen.get(out.termination, 0) + 1
        again = replay_log(parse_log(log, f"seed{seed}.log")).game
        assert isinstance(again, Game)
        assert state_json(again) == state_json(g), seed
        assert _transcript(again) == _transcript(g), seed
        if any(isinstance(e, ev.Reshuffled) for e in g.events()):
            seen["reshuffled"] = seen.get("reshuffled", 0) + 1
    return seen


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_sa_m32_1000_bot_duels_end_and_replay_exactly(chunk: int) -> None:
    """1 000 seeded bot duels (SA-M32 turn after turn until SA-M30's knock-out or the turn
    limit) finish without an exception; each log replays to the same events and state."""
    n = 1000 // CHUNKS
    seen = _run(range(chunk * n, (chunk + 1) * n), mission=False)
    assert sum(v for k, v in seen.items() if k != "reshuffled") == n
    assert seen.get("knock-out", 0) > n // 2


@pytest.mark.parametrize("chunk", range(2))
def test_sa_m35_200_bot_missions_end_and_replay_exactly(chunk: int) -> None:
    """200 seeded bot missions (SA-M35: heroes against the GM's thugs in The Mugging) finish and
    replay exactly; over them the decks run out and are reshuffled (SA-M33)."""
    seen = _run(range(10_000 + chunk * 100, 10_000 + (chunk + 1) * 100), mission=True)
    assert sum(v for k, v in seen.items() if k != "reshuffled") == 100
    assert len(set(seen) - {"reshuffled"}) >= 2
    assert seen.get("reshuffled", 0) > 10


def test_sa_m01_physical_deck_bot_games_replay_with_typed_cards() -> None:
    """SA-M01 with physical decks: every card drawn is a ``draw DECK CARD`` line (no dice at all)
    and the log replays exactly."""
    for seed in range(20):
        g, log = bot_game(seed, mission=seed % 2 == 1, physical=True)
        assert "|" not in log.split("---", 1)[1]
        assert "draw P1 " in log
        again = replay_log(parse_log(log)).game
        assert isinstance(again, Game) and state_json(again) == state_json(g)


def test_sa_m15_draws_are_uniform_choices_from_dice_and_never_loop() -> None:
    """SA-M15 "Each Player shuffles their deck": a draw is a uniform choice made with d6 rolls
    (D-SA-01); with dice that always show 6 (a tracker's trial run) it still ends."""
    from collections import Counter

    from dialtray.rules.core.dice import ManualDice, SeededDice
    from dialtray.rules.skyace.flow import MAX_REROLLS, draw_index

    assert draw_index(ManualDice([6] * 3 * (MAX_REROLLS + 1)), 53, "card") == 215 % 53
    dice = SeededDice(1)
    counts = Counter(draw_index(dice, 54, "card") for _ in range(54_000))
    assert set(counts) == set(range(54)) and max(counts.values()) < 1.2 * 1000
    assert draw_index(ManualDice([1, 2]), 7, "card") == 1  # 0*6 + 1 = 1 < 36 - 36 % 7
