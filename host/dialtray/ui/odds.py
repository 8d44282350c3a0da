"""Exact odds before a shot: the engine's own numbers for each shot the rules allow now.

Only Air Action has an odds model (``rules.airaction.odds``, the same code ``dialtray odds``
prints); for other rule sets the page says there is none. Nothing here decides a rule: dice and
target number come from the engine (``odds_of`` → ``game.shot_numbers``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

MAX_SHOTS = 12  # charts offered per position (the first legal shots)


@dataclass(frozen=True)
class Odds:
    """One shot's distribution, as the page and the bench read it."""

    label: str
    dice: int
    target: int
    defensive_fate: bool
    clicks_left: int | None
    hits: tuple[Fraction, ...]
    clicks: tuple[Fraction, ...]
    shot_down: Fraction
    expected_clicks: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "dice": self.dice, "target": self.target,
                "defensive_fate": self.defensive_fate, "clicks_left": self.clicks_left,
                "hits": [float(p) for p in self.hits],
                "clicks": [float(p) for p in self.clicks],
                "clicks_exact": [str(p) for p in self.clicks],
                "shot_down": float(self.shot_down), "shot_down_exact": str(self.shot_down),
                "expected_clicks": float(self.expected_clicks)}


def _wrap(label: str, o: Any) -> Odds:
    return Odds(label, o.dice, o.target_number, o.defensive_fate, o.clicks_to_shot_down,
                tuple(o.hits), tuple(o.clicks), o.shot_down, o.expected_clicks)


def calculator(dice: int, target: int, defensive_fate: bool = False,
               clicks_left: int | None = None) -> Odds:
    """The same computation as ``dialtray odds --dice D --target T [--clicks-left C]``."""
    from dialtray.rules.airaction.odds import shot_odds

    o = shot_odds(dice, target, defensive_fate=defensive_fate, clicks_to_shot_down=clicks_left)
    fate = ", defensive fate" if defensive_fate else ""
    return _wrap(f"{dice} dice, hit on {max(1, target)}+{fate}", o)


def shots(game: Any, legal: list[str]) -> list[Odds]:
    """Odds of each legal ``shoot`` decision (Air Action), in the order the rules list them."""
    if getattr(game, "kind", "") != "airaction":
        return []
    from dialtray.rules.airaction import actions as ac
    from dialtray.rules.airaction.odds import odds_of

    out: list[Odds] = []
    for text in legal:
        if not text.startswith("shoot "):
            continue
        action = game.parse_action(text)
        if not isinstance(action, ac.Shoot):
            continue
        out.append(_wrap(text, odds_of(game, action)))
        if len(out) >= MAX_SHOTS:
            break
    return out
