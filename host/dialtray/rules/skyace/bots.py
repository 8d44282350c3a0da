"""Bots for Sky Ace heroes and the GM. Cards come from the game's dice source; bots have their own
seeded ``random.Random`` for choices, so a seeded game is reproducible and its log replays.

- ``RandomBot``  any legal action.
- ``GreedyBot``  plays every matching card when attacking, never wastes the others, and
  maneuvers to the cell that gives the most expected successes (the frequency of the attack type
  the cell gives, the cards under both pawns); the GM uses it for every villain.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from dialtray.rules.core.dice import DiceSource, SeededDice
from dialtray.rules.core.game import TABLE
from dialtray.rules.skyace.actions import Attack, Hold, Knock, Move, SkyAceAction
from dialtray.rules.skyace.cards import matches
from dialtray.rules.skyace.game import SkyAceGame
from dialtray.rules.skyace.heroes import hero
from dialtray.rules.skyace.mat import relation
from dialtray.rules.skyace.notation import LogWriter


class Bot(Protocol):
    def choose(self, g: SkyAceGame) -> SkyAceAction: ...


class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, g: SkyAceGame) -> SkyAceAction:
        legal = g.legal_actions()
        return legal[self.rng.randrange(len(legal))]


class GreedyBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, g: SkyAceGame) -> SkyAceAction:
        legal = g.legal_actions()
        st = g.state
        p = st.active()
        if p is None or st.phase not in ("maneuver", "maneuver2", "attack"):
            return legal[self.rng.randrange(len(legal))]
        attacks = [a for a in legal if isinstance(a, Attack)]
        if attacks:
            return self._best_attack(g, attacks)
        moves = [a for a in legal if isinstance(a, Move | Knock)]
        if not moves:
            return legal[self.rng.randrange(len(legal))]
        return max(moves, key=lambda a: (self._score(g, a), -moves.index(a)))

    def _best_attack(self, g: SkyAceGame, attacks: Sequence[Attack]) -> Attack:
        p = g.state.active()
        assert p is not None
        from dialtray.rules.skyace.turn import targets

        ts = targets(g.state, p)
        h = hero(p.hero)

        def gain(a: Attack) -> tuple[int, int]:
            freq = h.frequency(ts[a.target])
            good = sum(1 for c in a.cards if matches(c, freq))
            return good, -(len(a.cards) - good)  # every match, no waste

        best = max(gain(a) for a in attacks)
        return next(a for a in attacks if gain(a) == best)

    def _score(self, g: SkyAceGame, a: Move | Knock) -> float:
        st = g.state
        p = st.active()
        assert p is not None
        h = hero(p.hero)
        hand = list(st.hands[p.deck])
        hand.remove(a.card)
        best = -1.0
        own = a.card if isinstance(a, Move) else st.top(p.cell)
        me = a.cell if isinstance(a, Move) else p.cell
        for q in st.enemies(p):
            if me is None or q.cell is None:
                continue
            qcell = a.cell if isinstance(a, Knock) and relation(me, a.cell) is None else q.cell
            typ = relation(me, qcell)
            if typ is None:
                d = abs(me[0] - q.cell[0]) + abs(me[1] - q.cell[1])
                best = max(best, -d / 10)
                continue
            freq = h.frequency(typ)
            s = sum(1 for c in hand if matches(c, freq))
            s += sum(1 for c in (own, st.top(qcell)) if c is not None and matches(c, freq))
            best = max(best, s + (1 if isinstance(a, Knock) else 0))
        return best


def play(g: SkyAceGame, bots: Callable[[str], Bot], max_actions: int = 5000,
         observe: Callable[[SkyAceGame], None] | None = None) -> LogWriter:
    """Play ``g`` to its end with ``bots(seat)`` choosing (``TABLE`` steps too); the log."""
    w = LogWriter(g)
    for _ in range(max_actions):
        if g.outcome() is not None:
            return w
        if observe is not None:
            observe(g)
        seat = g.to_move()
        assert seat is not None
        w.apply(bots(seat).choose(g))
    raise RuntimeError(f"no end after {max_actions} actions: {g!r}")


def bot_game(seed: int, mission: bool = False, physical: bool = False,
             dice: DiceSource | None = None, turn_limit: int = 40,
             observe: Callable[[SkyAceGame], None] | None = None) -> tuple[SkyAceGame, str]:
    """A seeded bot game (a duel, or The Mugging): greedy and random players, a greedy GM."""
    d = dice if dice is not None else SeededDice(seed)
    g = (SkyAceGame.mission(d, physical=physical, turn_limit=turn_limit) if mission
         else SkyAceGame.duel(d, physical=physical, turn_limit=turn_limit))
    greedy, rnd = GreedyBot(seed), RandomBot(seed + 1)
    by_seat: dict[str, Bot] = {"P1": greedy, "P2": rnd, "GM": greedy, TABLE: rnd}
    w = play(g, lambda s: by_seat.get(s, greedy), observe=observe)
    _ = Hold  # the GM holds only when the greedy choice says so
    return g, w.text()
