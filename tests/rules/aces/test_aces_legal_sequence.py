"""``legal_actions()`` is a lazy sequence (``rules/aces/legal.py``) that must read exactly as the
list it stands for: AC-M21 "Movement" lists one move per destination, made only when looked at.
"""

from __future__ import annotations

from aces_helpers import make_game
from dialtray.rules.aces.actions import Move
from dialtray.rules.aces.bots import Bot, GreedyBot, RandomBot
from dialtray.rules.aces.legal import LegalActions
from dialtray.rules.aces.scenarios import load_scenario, start_scenario
from dialtray.rules.core.dice import SeededDice


def test_M21_lazy_moves_read_as_the_full_list_at_every_position() -> None:
    g = start_scenario(load_scenario("hangar-brawl"), SeededDice(4), turn_limit=40)
    bots: list[Bot] = [RandomBot(1), GreedyBot(2)]
    checked = 0
    while g.outcome() is None and checked < 120:
        acts = g.legal_actions()
        assert isinstance(acts, LegalActions)
        eager = list(acts)
        assert len(acts) == len(eager) and acts == eager and eager == list(acts)
        assert [acts[i] for i in range(len(acts))] == eager
        assert acts[-1] == eager[-1] and acts[1:4] == eager[1:4]
        assert all(a in acts for a in eager[:: max(1, len(eager) // 20)])
        assert len({a.text() for a in eager}) == len(eager)  # no action listed twice
        g.apply(bots[g.player_to_move()].choose(g))
        checked += 1
    assert checked > 50


def test_M21_every_destination_but_the_start_is_one_move_in_square_order() -> None:
    g = make_game({"charlie": "e5"}, {"genghis": "j10"}, first=0)
    c = g.char("charlie")
    moves = [a for a in g.legal_actions() if isinstance(a, Move) and a.label == "charlie"]
    dests = [g.map.index(m.to) for m in moves]
    want = sorted(d for d in g.reach_of(c).destinations if d != c.square)
    assert dests == want and len(moves) > 20
    assert Move("charlie", g.map.square(c.square or 0)) not in g.legal_actions()
