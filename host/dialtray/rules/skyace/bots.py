"""Bots for Sky Ace heroes and the GM. Cards come from the game's dice source; bots have their own
seeded ``random.Random`` for choices, so a seeded game is reproducible and its log replays.

- ``RandomBot``  any legal action.
- ``GreedyBot``  plays every matching card when attacking, never wastes the others, and
  maneuvers to the cell that gives the most expected successes (the frequency of the attack type
  the cell gives, the cards under both pawns); the GM uses it for every villain.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from dialtray.rules.core.dice import DiceSource, SeededDice
from dialtray.rules.core.game import TABLE
from dialtray.rules.skyace.actions import Attack, Hold, Knock, Move, SkyAceAction
from dialtray.rules.skyace.cards import matches
from dialtray.rules.skyace.game import SkyAceGame
from dialtray.rules.skyace.heroes import Hero
from dialtray.rules.skyace.mat import relation
from dialtray.rules.skyace.notation import LogWriter
from dialtray.rules.skyace.state import Pawn, SkyAceState
from dialtray.rules.skyace.turn import move_options, targets


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
        st = g.state
        p = st.active()
        if p is None or st.pending or st.phase not in ("maneuver", "maneuver2", "attack"):
            legal = g.legal_actions()
            return legal[self.rng.randrange(len(legal))]
        if st.phase in ("attack", "maneuver2"):
            best = self._best_attack(g)
            if best is not None:
                return best
        moves = move_options(st, p) if st.phase != "attack" else []
        if not moves:
            legal = g.legal_actions()
            return legal[self.rng.randrange(len(legal))]
        counts = {f: sum(1 for c in st.hands[p.deck] if matches(c, f)) for f in "EORA"}
        h = st.hero(p.hero)
        foes = [q for q in st.enemies(p) if q.cell is not None]
        top = -99.0
        pick: Move | Knock = moves[0]
        for m in moves:
            score = self._score(st, p, h, counts, foes, m)
            if score > top:
                top, pick = score, m
        return pick

    def _best_attack(self, g: SkyAceGame) -> Attack | None:
        """Every matching card on the target that gives the most of them (the hostage thug
        only with a Stealth attack, when another target is there)."""
        st = g.state
        p = st.active()
        assert p is not None
        h = st.hero(p.hero)
        options = []
        for t, typ in sorted(targets(st, p).items()):
            freq = h.frequency(typ)
            cs = tuple(c for c in st.hands[p.deck] if matches(c, freq))
            shielded = t == st.hostage and typ != "S"
            options.append((not shielded, len(cs), t, cs))
        if not options:
            return None
        _, _, t, cs = max(options)
        return Attack(t, cs)

    @staticmethod
    def _score(st: SkyAceState, p: Pawn, h: Hero, counts: dict[str, int], foes: list[Pawn],
               a: Move | Knock) -> float:
        """Expected successes of the attack this maneuver allows (cards left in hand that match,
        the cards under both pawns); when no enemy is in reach, closer is better."""
        knock = isinstance(a, Knock)
        me = p.cell if knock else a.cell
        own = st.top(p.cell) if knock else a.card
        best = -99.0
        assert me is not None
        for q in foes:
            assert q.cell is not None
            qcell = a.cell if knock and relation(me, a.cell) is None else q.cell
            typ = relation(me, qcell, st.digits)
            if typ is None:
                best = max(best, -(abs(me[0] - q.cell[0]) + abs(me[1] - q.cell[1])) / 10)
                continue
            freq = h.frequency(typ)
            n = counts[freq] - (1 if matches(a.card, freq) else 0)
            n += sum(1 for c in (own, st.top(qcell)) if c is not None and matches(c, freq))
            best = max(best, n + (1 if knock else 0))
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
