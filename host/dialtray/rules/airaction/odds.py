"""Exact odds of an Air Action shot (AA-M42..M46, AA-M62, AA-M63).

Dice = gunnery (+ speed-effect modifier) + 1 rear-arc die + offensive fate; each die >= the
modified silhouette (point-blank -1, capped at 6) hits. Defensive fate leaves only natural sixes.
Clicks are hits capped at the clicks left before three bullet holes (non-campaign, AA-M46).
Everything is an exact ``Fraction`` computed by counting (rules/core/odds.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction.catalogue import SHOT_DOWN_HOLES
from dialtray.rules.airaction.game import AirActionGame
from dialtray.rules.core import odds as core_odds


@dataclass(frozen=True)
class ShotOdds:
    dice: int
    target_number: int
    defensive_fate: bool
    clicks_to_shot_down: int | None
    hits: tuple[Fraction, ...]  # P(exactly k hits land), after defensive fate
    clicks: tuple[Fraction, ...]  # P(exactly k damage clicks)

    @property
    def expected_hits(self) -> Fraction:
        return core_odds.expectation(list(self.hits))

    @property
    def expected_clicks(self) -> Fraction:
        return core_odds.expectation(list(self.clicks))

    @property
    def shot_down(self) -> Fraction:
        """P(the target is shot down by this shot)."""
        if self.clicks_to_shot_down is None:
            return Fraction(0)
        return sum(self.clicks[self.clicks_to_shot_down :], Fraction(0))

    def at_least(self, k: int) -> Fraction:
        return sum(self.hits[k:], Fraction(0))


def shot_modifiers(
    gunnery: int,
    silhouette: int,
    *,
    rear_arc: bool = False,
    point_blank: bool = False,
    fate: int = 0,
    gunnery_mod: int = 0,
    silhouette_mod: int = 0,
) -> tuple[int, int]:
    """(dice, target number) exactly as the engine computes them (AA-A13 order)."""
    dice = max(0, gunnery + gunnery_mod) + (1 if rear_arc else 0) + fate
    tn = silhouette + silhouette_mod - (1 if point_blank else 0)
    return dice, min(6, tn)


def shot_odds(
    dice: int,
    target_number: int,
    *,
    defensive_fate: bool = False,
    clicks_to_shot_down: int | None = None,
) -> ShotOdds:
    total = 6**dice
    counts = [0] * (dice + 1)
    for (sixes, other), n in core_odds.joint_counts(dice, target_number).items():
        landed = sixes if defensive_fate else sixes + other
        counts[landed] += n
    hits = tuple(Fraction(c, total) for c in counts)
    if clicks_to_shot_down is None:
        clicks = hits
    else:
        cap = clicks_to_shot_down
        cl = [Fraction(0)] * (min(cap, dice) + 1)
        for k, p in enumerate(hits):
            cl[min(k, cap)] += p
        clicks = tuple(cl)
    return ShotOdds(dice, target_number, defensive_fate, clicks_to_shot_down, hits, clicks)


def clicks_to_shot_down(game: AirActionGame, pid: str) -> int | None:
    """Clicks until three bullet holes show on ``pid``'s dial (None in a campaign game)."""
    if game.state.campaign:
        return None
    ps = game.state.planes[pid]
    dial = game.cat.figures[ps.figure].combat_dial
    for i in range(ps.combat_click, len(dial)):
        if dial[i].bullet_holes >= SHOT_DOWN_HOLES:
            return i - ps.combat_click
    return len(dial) - 1 - ps.combat_click


def odds_of(game: AirActionGame, shot: ac.Shoot, defensive_fate: bool = False) -> ShotOdds:
    """The odds of a ``shoot`` action in the game's current position."""
    dice, tn = game.shot_numbers(shot)
    return shot_odds(
        dice,
        tn,
        defensive_fate=defensive_fate,
        clicks_to_shot_down=clicks_to_shot_down(game, shot.target),
    )
