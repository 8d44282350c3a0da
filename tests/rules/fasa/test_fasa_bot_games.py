"""1 000 bot games with different seeds (issue 15 acceptance): every one finishes with no
exception and replays byte for byte from its log (actions, events, final state, report).

Split into chunks so pytest-xdist spreads them over the cores; games are 6 turns; one game in
five plots secretly (seal/reveal), one in three uses fractional Quick Draw, one in four the
optional collision damage (``bots.bot_game``)."""

from __future__ import annotations

import pytest
from dialtray.rules.core.game import state_json
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.fasa.bots import bot_game

GAMES, CHUNKS = 1000, 20


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_bot_games_finish_and_replay_byte_for_byte(chunk: int) -> None:
    per = GAMES // CHUNKS
    ended = 0
    for seed in range(chunk * per, (chunk + 1) * per):
        g, log = bot_game(seed, sealed=seed % 5 == 0, turn_limit=6)
        assert g.outcome() is not None and g.to_move() is None
        ended += 1
        again = replay_log(parse_log(log, f"fasa-{seed}.log")).game
        assert [e.text() for x in again.history for e in x.events] == [  # type: ignore[attr-defined]
            e.text() for x in g.history for e in x.events]
        assert state_json(again) == state_json(g) and again.report() == g.report()
    assert ended == per
