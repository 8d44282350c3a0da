"""The four games ``serve`` offers, set up for the table's screen: Air Action and Aces as
``play`` sets them up (``commands._games``); FASA and Sky Ace, which put no dial on the tray's
docks (FASA's record sheets are paper, Sky Ace's LIFE counters are the LED dice), as games the
tracker sees no dial of (``Untracked``) with one greedy bot per seat.

Interim: the table package (issue 30, branch ``table``: ``dialtray.table.games.new_game`` and
``build.Untracked``) sets up all four the same way; once it is merged this module is replaced
by it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dialtray.commands._games import Setup, new_game
from dialtray.rules.core.dials import Dial, DialChange, DialSetting
from dialtray.rules.core.game import TABLE
from dialtray.tracker.dice import TableDice

GAMES = ("airaction", "aces", "fasa", "skyace")
FASA_MAP = "sample-town"


class Untracked:
    """A game with no dial on the tray's docks: the tracker sees none; the rest is the game."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def dials(self) -> dict[Dial, DialSetting]:
        return {}

    def dial_changes(self, index: int = -1) -> tuple[DialChange, ...]:
        return ()

    def life(self) -> dict[Dial, DialSetting]:
        """What the engine's own dials show (Sky Ace's LIFE counters, for the LED dice)."""
        return dict(self._game.dials())

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # copy / pickle protocols: not the wrapped game's
            raise AttributeError(name)
        return getattr(self._game, name)


class SeatBrains:
    """FASA and Sky Ace: one greedy bot per seat; the table's own steps (a roll, a deal) take
    the first legal action."""

    def __init__(self, kind: str, seats: Sequence[str], seed: int) -> None:
        if kind == "fasa":
            from dialtray.rules.fasa.bots import GreedyBot as FasaBot

            self.bots: dict[str, Any] = {s: FasaBot(seed + i) for i, s in enumerate(seats)}
        else:
            from dialtray.rules.skyace.bots import GreedyBot as SkyBot

            self.bots = {s: SkyBot(seed + i) for i, s in enumerate(seats)}

    def choose(self, game: Any) -> Any:
        who = game.to_move()
        bot = self.bots.get(who)
        if bot is None or who == TABLE:
            return game.legal_actions()[0]
        return bot.choose(game._game if isinstance(game, Untracked) else game)


def setup(kind: str, dice: TableDice, seed: int, turns: int) -> Setup:
    """A fresh game of ``kind`` on ``dice``; ``turns`` is the agreed time limit."""
    if kind in ("airaction", "aces"):
        return new_game(kind, dice, seed, turns)
    if kind == "fasa":
        from dialtray.rules.fasa.game import FasaGame, start_events
        from dialtray.rules.fasa.notation import DEFAULT_SIDES
        from dialtray.rules.fasa.notation import header_of as fasa_header

        gf = FasaGame(dice, start_events(FASA_MAP, DEFAULT_SIDES, turns))
        return Setup(Untracked(gf), fasa_header(gf), SeatBrains(kind, gf.seats(), seed),
                     [], lambda _d: None)
    if kind == "skyace":
        from dialtray.rules.skyace import SkyAceGame
        from dialtray.rules.skyace.notation import header_of as skyace_header

        gs = SkyAceGame.duel(dice, turn_limit=max(10, turns * 10))
        return Setup(Untracked(gs), skyace_header(gs), SeatBrains(kind, gs.seats(), seed),
                     [], lambda _d: None)
    raise ValueError(f"unknown game {kind!r}: {', '.join(GAMES)}")
