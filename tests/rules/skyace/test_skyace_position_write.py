"""Writing a Sky Ace position from a game (issue 34, D-SA-13; SA-M16 "Turn order", SA-M14
"Active card", SA-M19 "Stacking", SA-M02 "LIFE and hand size"): a saved game's ``Position:``
lines start a new log whose game, once ``deal`` starts the turn, is the saved one; and it plays
on to the same end with the same dice."""

from __future__ import annotations

from typing import Any

import pytest
from dialtray.rules.core.dice import SeededDice
from dialtray.rules.core.notation import format_log, parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.skyace import GAME_KIND, SkyAceGame, format_position, position_of
from dialtray.rules.skyace.bots import Bot, GreedyBot, RandomBot, bot_game, play
from dialtray.rules.skyace.notation import header_of

# History the position does not carry: ``start`` is each pawn's start cards (SA-M15; the cards
# themselves are on the playmat, which it does), ``attack`` the last attack already answered.
HISTORY = {"start", "attack"}


def _state(g: Any) -> dict[str, Any]:
    return {k: v for k, v in g.state.to_dict().items() if k not in HISTORY}


Save = tuple[str, dict[str, Any], int]


def _saves(mission: bool, seed: int, physical: bool = False) -> list[Save]:
    """Every start of a turn in a seeded bot game: (its log with the position, the state, the
    number of actions so far)."""
    saves: list[Save] = []

    def observe(g: SkyAceGame) -> None:
        try:
            pos = position_of(g)
        except ValueError:
            return
        text = format_log("skyace", header_of(g) + format_position(pos), ["deal"])
        saves.append((text, _state(g), len(saves)))

    bot_game(seed, mission=mission, physical=physical, observe=observe)
    return saves


@pytest.mark.parametrize(("mission", "seed"), [(False, 3), (False, 8), (True, 5)])
def test_a_saved_position_starts_the_same_game(mission: bool, seed: int) -> None:
    """A duel with dealt decks; The Mugging with physical decks, saved before each turn's
    preferred-attack card is turned (SA-M39), with the victim's LIFE (SA-M56)."""
    saves = _saves(mission, seed, physical=mission)
    assert len(saves) >= 4, "the bots played too short a game to save positions from"
    for text, state, _ in saves[1::max(1, len(saves) // 6)]:
        g = replay_log(parse_log(text, "saved.log")).game
        assert _state(g) == state, text
        assert position_of(g) == position_of(replay_log(parse_log(text, "again.log")).game)
    # the last save plays on to an end, and its state stays a pure fold of its events
    fresh = GAME_KIND.new_game(parse_log(saves[-1][0].replace("\ndeal\n", "\n"), "s.log"),
                               SeededDice(seed))
    bots: dict[str, Bot] = {"P1": GreedyBot(1), "P2": RandomBot(2), "GM": GreedyBot(4)}
    play(fresh, lambda s: bots.get(s, RandomBot(3)))  # type: ignore[arg-type]
    assert fresh.outcome() is not None  # type: ignore[attr-defined]
    assert fresh.rebuilt_state() == fresh.state  # type: ignore[attr-defined]


def test_a_position_is_written_only_at_the_start_of_a_turn() -> None:
    """Mid-turn (after a move) the position is refused, saying why; so is a mission's turn
    whose preferred-attack card the dealt deck has already turned (SA-M39)."""
    mission = SkyAceGame.mission(SeededDice(2))
    while mission.state.phase != "maneuver":
        mission.apply(mission.legal_actions()[0])
    with pytest.raises(ValueError, match="SA-M39"):
        position_of(mission)
    g = SkyAceGame.duel(SeededDice(7))
    while g.to_move() == "table":
        g.apply("deal")
    if g.state.phase == "layout":
        g.apply(g.legal_actions()[0])
    while g.state.pending:
        g.apply("deal")
    assert position_of(g).turn == g.state.active().id  # type: ignore[union-attr]
    g.apply(g.legal_actions()[0])
    with pytest.raises(ValueError, match="start of a pawn's turn"):
        position_of(g)
