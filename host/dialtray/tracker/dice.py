"""The dice the tracked game rolls with: any core ``DiceSource``, recorded for the log and view.

The game is built with a :class:`TableDice` around the players' choice of source — the tray's
LED dice (``TrayDice`` over ``TraySession.roll_led_dice``; a d10, as FASA rolls, over
``roll_led_dice_sided``: rolled by the firmware and shown on the tray's d10 ring, and passed
through here with its ``sides``), dice typed in (``ManualDice``,
``PromptDice``) or ``SeededDice`` — so the tracker can write every face into the log and show the
last roll. ``trial()`` lets the tracker ask the engine "what would this action do to the dials"
without rolling a real die: inside it, nothing is recorded (the trial is undone at once; only its
dial changes are read) and every die shows 6 — except that a purpose rolled again within one trial
shows 1s: rejection sampling (``core.dice.choose_uniform``, "a random card") rerolls a group of
sixes whenever the choice does not divide 6**n, and would otherwise reroll for ever.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from dialtray.rules.core.dice import FACES, DiceSource, roll_sided

TRIAL_FACE = 6
TRIAL_REROLL_FACE = 1


@dataclass(frozen=True)
class Roll:
    purpose: str
    faces: tuple[int, ...]
    sides: int = FACES  # the die: 6, or 10 for a FASA check


class TableDice:
    """A ``DiceSource`` wrapper: records rolls, can run trials, tells a listener."""

    def __init__(self, inner: DiceSource, on_roll: Callable[[Roll], None] | None = None) -> None:
        self.inner = inner
        self.on_roll = on_roll
        self.rolls: list[Roll] = []  # since the last take()
        self.last: Roll | None = None
        self._trial = 0
        self._trial_purposes: set[str] = set()

    def roll(self, count: int, purpose: str, sides: int = FACES) -> tuple[int, ...]:
        """``count`` dice of ``sides`` sides (a ``SidedDiceSource``): a d10 is asked of the
        inner source as a d10 (``roll_sided``: a d6-only source refuses it, never fakes it)."""
        if self._trial:
            if purpose in self._trial_purposes:
                return (TRIAL_REROLL_FACE,) * count
            self._trial_purposes.add(purpose)
            return (min(TRIAL_FACE, sides),) * count
        faces = tuple(roll_sided(self.inner, count, purpose, sides))
        r = Roll(purpose, faces, sides)
        self.rolls.append(r)
        self.last = r
        if self.on_roll is not None:
            self.on_roll(r)
        return faces

    def take(self) -> list[Roll]:
        """The rolls since the last take (and forget them)."""
        out, self.rolls = self.rolls, []
        return out

    @contextlib.contextmanager
    def trial(self) -> Iterator[None]:
        self._trial += 1
        try:
            yield
        finally:
            self._trial -= 1
            if not self._trial:
                self._trial_purposes.clear()
