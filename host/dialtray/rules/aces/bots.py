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
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import chain
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
from dialtray.rules.aces.legal import LegalActions, MoveSegment
from dialtray.rules.aces.movement import dilate
from dialtray.rules.aces.odds import capture_chance, expected_hits, multi_target_distribution
from dialtray.rules.core.odds import expectation


class Bot(Protocol):
    def choose(self, game: AcesGame) -> AcesAction: ...


def _playable(game: AcesGame) -> Sequence[AcesAction]:
    """Legal actions a bot considers: not withdrawing or ending, and not a defensive fate that
    would prevent nothing (legal but pointless, D-AC-05: bots decline it). Long move lists stay
    lazy (``legal.LegalActions``)."""
    acts = game.legal_actions().without(Withdraw, EndGame)
    if game.turn.phase != "defend":
        return acts
    return [
        a
        for a in acts
        if not (isinstance(a, DefensiveFate) and a.use and game.fate_would_prevent(a.label) == 0)
    ]


def _not_moves(acts: Sequence[AcesAction]) -> Iterable[AcesAction]:
    """The actions that are not whole move segments (those are never attacks or escapes)."""
    if isinstance(acts, LegalActions):
        return chain.from_iterable(p for p in acts.parts if not isinstance(p, MoveSegment))
    return acts


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
            return self._best_assignment(game, list(acts))
        rest = list(_not_moves(acts))
        attacks = [a for a in rest if isinstance(a, Attack)]
        if attacks:
            return max(attacks, key=lambda a: (self._value(game, a), self.rng.random()))
        escapes = [a for a in rest if isinstance(a, Escape)]
        if escapes:
            return escapes[-1]
        segments = acts.move_segments() if isinstance(acts, LegalActions) else []
        loose = [a for a in rest if isinstance(a, Move)]  # moves with a captive
        if (segments or loose) and self.rng.random() < 0.9:
            return self.rng.choice(self._closest_moves(game, segments, loose))
        others = acts.without(EndAction, Pass) if isinstance(acts, LegalActions) else acts
        if others and self.rng.random() < 0.5:
            return self.rng.choice(others)
        return self.rng.choice(acts)

    def _closest_moves(
        self, game: AcesGame, segments: list[MoveSegment], loose: list[Move]
    ) -> list[AcesAction]:
        """The moves ending nearest (Chebyshev, as the crow flies) to an enemy: rings of
        growing distance around the enemies until one holds a destination. Every move here is
        of the same player's characters, so one enemy list serves all."""
        m = game.map
        label = segments[0].label if segments else loose[0].label
        here = 0
        for seg in segments:
            here |= seg.mask
        for mv in loose:
            here |= 1 << m.index(mv.to)
        ring = 0
        for e in game.controlling_enemies(game.char(label)):
            if e.square is not None:
                ring |= 1 << e.square
        if ring:
            while not ring & here:
                ring = dilate(m, ring)
        else:
            ring = here  # no enemy: every move is as good
        out: list[AcesAction] = []
        for seg in segments:
            out.extend(seg.table[sq] for sq in seg.squares() if ring >> sq & 1)
        out.extend(mv for mv in loose if ring >> m.index(mv.to) & 1)
        return out

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
