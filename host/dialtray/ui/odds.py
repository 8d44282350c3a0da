"""Exact odds before a shot: the engine's own numbers for each shot the rules allow now.

Air Action's shots (``rules.airaction.odds``, the same code ``dialtray odds`` prints) and Aces'
one-target attacks (``rules.aces.odds`` on the engine's own dice and defense, AC-M36/M39/M60);
for other rule sets the page says there is none. Nothing here decides a rule: dice and
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


MODELS = ("airaction", "aces")


def shots(game: Any, legal: list[str]) -> list[Odds]:
    """Odds of each legal attack decision, in the order the rules list them."""
    if getattr(game, "kind", "") == "aces":
        return aces_attacks(game, legal)
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


def aces_attacks(game: Any, legal: list[str]) -> list[Odds]:
    """Odds of each legal one-target Aces attack: dice and the capped defense as the engine
    computes them (hindering from its own line-of-fire check), damage clicks per AC-M36; a
    capture's chance is that of at least one hit (AC-M39). ``clicks_left`` is the clicks to the
    target's last click (past it, knocked out)."""
    from dialtray.rules.aces import combat
    from dialtray.rules.aces.actions import Attack
    from dialtray.rules.aces.odds import attack_distribution
    from dialtray.rules.core.odds import expectation, hit_distribution

    out: list[Odds] = []
    for text in legal:
        if text.split()[0] not in ("shoot", "close", "capture"):
            continue
        a = game.parse_action(text)
        if not isinstance(a, Attack) or len(a.targets) != 1:
            continue
        c, e = game.state.chars[a.label], game.state.chars[a.targets[0]]
        check = game._check_ranged if a.kind == "ranged" else game._check_close
        hindering = check(a, c, [e])[0]
        v = c.values
        n = combat.attack_dice(v.attack, a.kind, a.fate, v.fate)
        d = combat.target_defense(e.values.defense, hindering, a.kind)
        clicks = tuple(attack_distribution(n, d)) if n else (Fraction(1),)
        hits = tuple(hit_distribution(n, d)) if n else (Fraction(1),)
        left = max(1, len(e.figure.dial) - 1 - e.click)
        if a.kind == "capture":
            left = 1  # AC-M39: one hit captures
        down = sum(clicks[left:], Fraction(0))
        out.append(Odds(text, n, d, False, left, hits, clicks, down, expectation(list(clicks))))
        if len(out) >= MAX_SHOTS:
            break
    return out
