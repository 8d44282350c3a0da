"""Dials as input: where the rules let a player decide by turning a dial (Air Action's Set
Throttle step, the first-turn speed), the sensed clicks *are* the decision.

Engine-independent: the legal actions are tried one by one (``TableDice.trial``: no real die is
rolled, every die shows 6) and undone at once; an action whose only dial changes are on the
turned dial is the one that puts it where the player put it. When no legal action does, the
legal ones' notation is extended along the dial (``throttle B1 +1``, ``+2`` → ``+3``) and that
action is asked of the engine, so the refusal quotes the rule that forbids it (AA-M21 red line).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dialtray.rules.core.dials import SET, Dial
from dialtray.rules.core.errors import IllegalActionError, InvalidActionError
from dialtray.rules.core.game import Game
from dialtray.tracker.dice import TableDice

_INT = re.compile(r"^[+-]?\d+$")


@dataclass(frozen=True)
class DialOption:
    """A legal action that turns one dial: to click ``to_click`` (``delta`` from where it is,
    None for a free setting)."""

    action: Any
    text: str
    dial: Dial
    to_click: int
    delta: int | None


def dial_options(game: Game, dice: TableDice, kinds: Sequence[str]) -> list[DialOption]:
    """Every legal action whose whole dial effect is one dial of a kind in ``kinds``."""
    out: list[DialOption] = []
    for action in game.legal_actions():
        o = dial_option(game, dice, kinds, action)
        if o is not None:
            out.append(o)
    return out


def dial_option(game: Game, dice: TableDice, kinds: Sequence[str], action: Any
                ) -> DialOption | None:
    """``action`` as a dial decision, if its whole dial effect is one dial of ``kinds``."""
    if not kinds:  # no input dial (a game with no dial on the docks): nothing to try
        return None
    with dice.trial():
        try:
            game.apply(action)
        except IllegalActionError:
            return None
        try:
            changes = game.dial_changes()
        finally:
            game.undo()
    if not changes or any(c.key != changes[0].key for c in changes):
        return None
    first, last = changes[0], changes[-1]
    if first.dial not in kinds:
        return None
    delta = None if first.direction == SET else last.to_click - (first.from_click or 0)
    return DialOption(action, action.text(), first.key, last.to_click, delta)


def extend_notation(options: Sequence[DialOption], delta: int) -> str | None:
    """The notation of the action that would move the dial by ``delta`` clicks, when the legal
    options' texts differ only in one number that follows the click change linearly."""
    pts = [(o.delta, o.text.split()) for o in options if o.delta is not None]
    if len(pts) < 2 or len({len(t) for _, t in pts}) != 1:
        return None
    n = len(pts[0][1])
    varying = [i for i in range(n) if len({t[i] for _, t in pts}) > 1]
    if len(varying) != 1 or not all(_INT.match(t[varying[0]]) for _, t in pts):
        return None
    i = varying[0]
    (d0, t0), (d1, t1) = pts[0], pts[1]
    if d0 == d1:
        return None
    assert d0 is not None and d1 is not None
    a = (int(t1[i]) - int(t0[i])) / (d1 - d0)
    b = int(t0[i]) - a * d0
    if any(int(t[i]) != a * d + b for d, t in pts if d is not None):
        return None
    value = round(a * delta + b)
    signed = any(t[i].startswith("+") for _, t in pts)
    words = list(t0)
    words[i] = f"{value:+d}" if signed else str(value)
    return " ".join(words)


def refusal(game: Game, dice: TableDice, text: str) -> str | None:
    """Ask the engine about ``text`` without keeping it: the refusal with its rule id, or None
    (it does not parse, or it is allowed after all)."""
    try:
        action = game.parse_action(text)
    except InvalidActionError:
        return None
    with dice.trial():
        try:
            game.apply(action)
        except IllegalActionError as e:
            return str(e)
        game.undo()
    return None
