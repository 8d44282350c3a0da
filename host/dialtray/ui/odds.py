"""Exact odds before a shot: the engine's own numbers for each shot the rules allow now.

Air Action's shots (``rules.airaction.odds``, the same code ``dialtray odds`` prints), Aces'
one-target attacks (``rules.aces.odds`` on the engine's own dice and defense, AC-M36/M39/M60)
and Sky Ace's attacks (the LIFE the target loses, over the hands its player may hold: the
engine's own success and damage functions, SA-M23..SA-M29) and FASA's shots (the number of
hits over the to-hit rolls the engine makes, each at its target number, FS-M01/M02/M73).
Nothing here decides a rule: dice and target numbers come from the engine.
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


MODELS = ("airaction", "aces", "skyace", "fasa")
FASA_SHOTS = ("fire", "attack", "gun", "bomb")  # a shot rolled now (rockets roll in flight)


def shots(game: Any, legal: list[str], dice: Any = None) -> list[Odds]:
    """Odds of each legal attack decision, in the order the rules list them (``dice``: the
    table's dice, whose ``trial`` lets FASA's shots be tried and taken back)."""
    if getattr(game, "kind", "") == "fasa":
        return fasa_shots(game, legal, dice) if dice is not None else []
    if getattr(game, "kind", "") == "aces":
        return aces_attacks(game, legal)
    if getattr(game, "kind", "") == "skyace":
        return skyace_attacks(game, legal)
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


def skyace_attacks(game: Any, legal: list[str]) -> list[Odds]:
    """Odds of each legal Sky Ace attack as its attacker sees it: the cards played and the cards
    on the mat are known, the defender's hand is any hand of its size from the cards of its
    deck not seen (not on the mat, not discarded); the defender plays every card of the
    frequency (SA-M26), successes and LIFE lost as the engine counts them (``do_attack``).
    ``clicks`` here is LIFE lost; "shot down" is a knock-out."""
    from math import comb

    from dialtray.rules.skyace.actions import Attack
    from dialtray.rules.skyace.cards import matches
    from dialtray.rules.skyace.combat import attack_successes, damage, defence_successes
    from dialtray.rules.skyace.odds import unseen
    from dialtray.rules.skyace.turn import check_attack

    st = game.state
    p = st.active()
    out: list[Odds] = []
    if p is None:
        return out
    for text in legal:
        if not text.startswith("attack "):
            continue
        a = game.parse_action(text)
        if not isinstance(a, Attack) or a.target == st.hostage:
            continue
        typ = check_attack(st, p, a)
        t = st.pawns[a.target]
        # the game's own heroes first (the owner's, issue 34), then the shipped ones
        ha, hd, adv = st.hero(p.hero), st.hero(t.hero), st.advanced
        preferred = adv and st.preferred is not None and st.preferred in ("*", typ)
        own, other = st.top(p.cell), st.top(t.cell)
        succ = attack_successes(a.cards, ha.frequency(typ), own, other,
                                ha.attribute(typ) if adv else 0, adv and ha.has("powerful"))
        freq = hd.frequency(typ)
        seen = [c for cards in st.mat.values() for (deck, c, _colour) in cards if deck == t.deck]
        seen += st.piles[t.deck].discard
        try:
            pool = unseen(seen)
        except ValueError:
            continue
        h, n = len(st.hands[t.deck]), len(pool)
        match = [c for c in pool if matches(c, freq)]
        lost: dict[int, Fraction] = {}
        for i in range(min(len(match), h) + 1):
            ways = comb(len(match), i) * comb(n - len(match), h - i)
            if not ways:
                continue
            d = defence_successes(match[:i], freq, other, own,
                                  hd.attribute(typ) if adv else 0, adv and hd.has("unbreakable"))
            k = min(t.life, damage(succ, d, adv, preferred))
            lost[k] = lost.get(k, Fraction(0)) + Fraction(ways, comb(n, h))
        clicks = tuple(lost.get(k, Fraction(0)) for k in range(max(lost) + 1))
        down = lost.get(t.life, Fraction(0))
        out.append(Odds(f"{text} ({typ} attack, {succ} successes)", len(a.cards), succ, False,
                        t.life, clicks, clicks, down,
                        sum((k * q for k, q in lost.items()), Fraction(0))))
        if len(out) >= MAX_SHOTS:
            break
    return out


def fasa_shots(game: Any, legal: list[str], dice: Any) -> list[Odds]:
    """Odds of each legal FASA shot: the shot is tried on the table's trial dice and taken
    back, and every to-hit roll it made is read with its target number (the engine's own
    FS-M73 arithmetic); a roll succeeds at TN or more, a 10 always, a 1 never (FS-M01/M02);
    ``clicks`` is the number of hits (where they land is rolled after: not modelled)."""
    from dialtray.rules.core.odds import tn_success

    out: list[Odds] = []
    for text in legal:
        if text.split()[0] not in FASA_SHOTS:
            continue
        with dice.trial():
            events = game.apply(game.parse_action(text))
            game.undo()
        tns = [e.tn for e in events if type(e).__name__ == "Rolled" and "to-hit" in e.purpose]
        if not tns:
            continue
        hits = [Fraction(1)]
        for tn in tns:  # independent rolls: the distribution of the number of hits
            p = tn_success(tn)
            hits = [(hits[k] if k < len(hits) else 0) * (1 - p)
                    + (hits[k - 1] * p if k > 0 else 0) for k in range(len(hits) + 1)]
        numbers = " ".join(f"{min(10, max(2, tn))}+" for tn in tns)
        out.append(Odds(f"{text} (to-hit {numbers} on a d10)", len(tns), max(tns), False,
                        None, tuple(hits), tuple(hits), Fraction(0),
                        sum((k * q for k, q in enumerate(hits)), Fraction(0))))
        if len(out) >= MAX_SHOTS:
            break
    return out
