"""`dialtray odds`'s tables as text: the exact distributions the rules engines compute, one row
per count, the chance of exactly and at least that many. The engines own the numbers
(``rules.airaction.odds``, ``rules.skyace.odds``, ``rules.core.odds``); ``commands.odds`` parses
the shot and asks them; this module only lays the answer out for a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any


def shot_lines(dice: int, tn: int, odds: Any, defensive_fate: bool, clicks_left: int | None,
               ms: float) -> list[str]:
    """An Air Action shot (``rules.airaction.odds.ShotOdds``): hits (AA-M45) and damage
    clicks, P(shot down) when the clicks left are known."""
    fate = ", defensive fate (natural sixes only)" if defensive_fate else ""
    lines = [f"{dice} dice, hit on {max(1, tn)}+{fate}   (exact, {ms:.3f} ms)",
             f"{'k':>3} {'P(hits=k)':>12} {'P(hits>=k)':>12} {'P(clicks=k)':>12}"]
    for k in range(len(odds.hits)):
        pc = odds.clicks[k] if k < len(odds.clicks) else 0
        lines.append(f"{k:>3} {float(odds.hits[k]):>12.6f} {float(odds.at_least(k)):>12.6f} "
                     f"{float(pc):>12.6f}")
    eh, ec = float(odds.expected_hits), float(odds.expected_clicks)
    lines.append(f"expected hits {eh:.4f}, expected clicks {ec:.4f}")
    if clicks_left is not None:
        lines.append(f"P(shot down) = {odds.shot_down} = {float(odds.shot_down):.6f}")
    return lines


def skyace_lines(spec: Any, odds: Any, ms: float) -> list[str]:
    """A Sky Ace attack (``rules.skyace.odds.AttackSpec`` and its ``attack_odds``): LIFE lost,
    exact over every pair of hands."""
    lines = [f"Sky Ace attack {spec.attack_frequency} vs defence {spec.defence_frequency}, "
             f"hands {spec.attack_hand}/{spec.defence_hand}   (exact over {odds.hands} hand "
             f"pairs, {ms:.3f} ms)",
             f"{'LIFE lost':>9} {'P(=k)':>12} {'P(>=k)':>12}"]
    for k, pk in odds.damage.items():
        lines.append(f"{k:>9} {float(pk):>12.6f} {float(odds.at_least(k)):>12.6f}")
    lines.append(f"expected LIFE lost {float(odds.expected):.4f}")
    return lines


def tn_lines(tn: int, automatic: bool, p: Fraction, dist: Sequence[Fraction] | None) -> list[str]:
    """FASA d10 rolls against a target number (FS-M01, FS-M02): one roll, and with ``dist``
    the number of successes over several independent rolls."""
    rule = "10 always succeeds, 1 always fails" if automatic else "no automatic results"
    lines = [f"d10 against TN {tn} ({rule}): P(success) = {p} = {float(p):.4f}"]
    if dist is not None:
        lines.append(f"{'k':>3} {'P(=k)':>10} {'P(>=k)':>10}   ({len(dist) - 1} rolls)")
        for k, pk in enumerate(dist):
            lines.append(f"{k:>3} {float(pk):>10.6f} {float(sum(dist[k:])):>10.6f}")
    return lines
