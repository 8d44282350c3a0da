"""LIFE counters on the tray's LED dice (Sky Ace SA-M01: "one 6 sided die to use as a LIFE
counter"), for any engine whose dials include ``life`` dials.

The engine says what each counter shows through the shared dial vocabulary
(``game.dials()``: ``Dial(pawn, "life")`` with ``click`` = LIFE); this adapter turns that into one
LED die per counter and pushes it with ``session.show_dice(faces, colours)`` (the link's
``TraySession``) whenever it changes, e.g. after every damage event. It imports no engine and no
link module: it takes any object with ``show_dice``.

Colours (the firmware's dice palette): heroes green, the GM's villains and mission objects gold,
a counter at 0 (knocked out) dark. A die has no 0 face, so LIFE 0 is face 1, dark.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from dialtray.rules.core.dials import Dial, DialSetting

LIFE = "life"
MAX_DICE = 12  # the LED panel's dice (firmware config.MAX_DICE)
# The firmware's SHOW_DICE colour codes (dialrig.proto COLOUR_*), named here so the tracker does
# not import the firmware package.
OFF, RED, GREEN, GOLD = 0, 1, 2, 3


class ShowDice(Protocol):
    def show_dice(self, faces: list[int], colours: list[int]) -> None: ...


def life_dice(dials: Mapping[Dial, DialSetting]) -> tuple[list[int], list[int]]:
    """(faces, colours) for every ``life`` dial in the engine's order, at most ``MAX_DICE``."""
    faces: list[int] = []
    colours: list[int] = []
    for dial, s in dials.items():
        if dial.kind != LIFE:
            continue
        life = s.click or 0
        faces.append(min(6, max(1, life)))
        hero = dial.figure.startswith("P")
        colours.append(OFF if life <= 0 or not s.in_play else GREEN if hero else GOLD)
    if len(faces) > MAX_DICE:
        raise ValueError(f"{len(faces)} LIFE counters, the tray shows {MAX_DICE} dice")
    return faces, colours


class LifeDisplay:
    """Keeps the tray's LED dice equal to the game's LIFE counters."""

    def __init__(self, session: ShowDice) -> None:
        self.session = session
        self.shown: tuple[list[int], list[int]] | None = None
        self.pushes = 0

    def update(self, dials: Mapping[Dial, DialSetting]) -> bool:
        """Push the counters if they changed since the last push; True if pushed."""
        want = life_dice(dials)
        if want == self.shown:
            return False
        self.session.show_dice(*want)
        self.shown = want
        self.pushes += 1
        return True
