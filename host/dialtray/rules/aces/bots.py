"""Bot players for solo play and for the bot-vs-bot soak test.

A bot only *chooses* among ``game.legal_actions()``; every die is still rolled by the game's dice
source. Bots have their own seeded ``random.Random`` for choices, so a game with a seeded dice
source and seeded bots is reproducible.

- ``RandomBot``  any legal action (never withdraws or ends the game by agreement).
- ``GreedyBot``  attacks with the best expected damage (exact odds), uses defensive fate when it
  prevents a hit, assigns dice to hit the most targets, otherwise closes in on the nearest enemy.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Protocol

from dialtray.rules.aces.actions import (
    AcesAction,
    Assign,
    Attack,
    DefensiveFate,
    EndAction,
    EndGame,
    Escape,
    Move,
    Pass,
    Withdraw,
)
from dialtray.rules.aces.combat import attack_dice, count_hits, target_defense
from dialtray.rules.aces.game import AcesGame
from dialtray.rules.aces.grid import Square, chebyshev
from dialtray.rules.aces.odds import capture_chance, expected_hits, multi_target_distribution
from dialtray.rules.core.odds import expectation


class Bot(Protocol):
    def choose(self, game: AcesGame) -> AcesAction: ...


def _playable(game: AcesGame) -> list[AcesAction]:
    """Legal actions a bot considers: not withdrawing or ending, and not a defensive fate that
    would prevent nothing (legal but pointless, D-AC-05: bots decline it)."""
    return [
        a
        for a in game.legal_actions()
        if not isinstance(a, Withdraw | EndGame)
        and not (isinstance(a, DefensiveFate) and a.use and game.fate_would_prevent(a.label) == 0)
    ]


class RandomBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: AcesGame) -> AcesAction:
        acts = _playable(game)
        return self.rng.choice(acts)


class GreedyBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: AcesGame) -> AcesAction:
        acts = _playable(game)
        t = game.turn
        if t.phase == "defend":  # use fate when it prevents a hit, else decline (D-AC-05)
            return next(a for a in acts if isinstance(a, DefensiveFate))
        if t.phase == "assign":
            return self._best_assignment(game, acts)
        attacks = [a for a in acts if isinstance(a, Attack)]
        if attacks:
            return max(attacks, key=lambda a: (self._value(game, a), self.rng.random()))
        escapes = [a for a in acts if isinstance(a, Escape)]
        if escapes:
            return escapes[-1]
        moves = [a for a in acts if isinstance(a, Move)]
        if moves and self.rng.random() < 0.9:
            # every move here is of the same player's characters: one enemy list serves all
            targets = self._enemy_squares(game, moves[0].label)
            return min(
                moves,
                key=lambda a: (
                    min((chebyshev(a.to, e) for e in targets), default=0),
                    self.rng.random(),
                ),
            )
        others = [a for a in acts if not isinstance(a, EndAction | Pass)]
        if others and self.rng.random() < 0.5:
            return self.rng.choice(others)
        return self.rng.choice(acts)

    def _value(self, game: AcesGame, a: Attack) -> Fraction:
        c = game.char(a.label)
        v = c.values
        n = attack_dice(v.attack, a.kind, a.fate, v.fate)
        defs = []
        for tg in a.targets:
            e = game.char(tg)
            h = game.line_of_fire(a.label, tg).hindering if a.kind == "ranged" else 0
            defs.append(target_defense(e.values.defense, h, a.kind))
        if a.kind == "capture":
            e = game.char(a.targets[0])
            return 2 * capture_chance(v.attack, defs[0], a.fate, v.fate) * e.figure.points / 10
        if len(a.targets) > 1:
            value = expectation(multi_target_distribution(n, defs))
        else:
            value = expected_hits(n, defs[0])
        return value - (Fraction(1, 2) if a.fate else 0)

    def _enemy_squares(self, game: AcesGame, label: str) -> list[Square]:
        me = game.char(label)
        return [
            game.map.square(e.square)
            for e in game.controlling_enemies(me)
            if e.square is not None
        ]

    def _best_assignment(self, game: AcesGame, acts: list[AcesAction]) -> AcesAction:
        p = game.turn.pending
        assert p is not None

        def hits(a: AcesAction) -> int:
            assert isinstance(a, Assign)
            return sum(
                count_hits((p.faces[d - 1],), p.defenses[p.targets.index(tg)]) for tg, d in a.pairs
            )

        return max(acts, key=hits)


def play(game: AcesGame, bots: list[Bot], max_steps: int = 20_000) -> AcesGame:
    """Let the bots play until the game ends (or ``max_steps`` actions: then RuntimeError)."""
    for _ in range(max_steps):
        if game.state.over:
            return game
        game.apply(bots[game.player_to_move()].choose(game))
    raise RuntimeError(f"game did not end within {max_steps} actions: {game!r}")
