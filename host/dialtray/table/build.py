"""Building a table: the game, its binding to the tray's docks, the tracker and the link.

``on_paper`` is the whole table without a tray (tests, the monkey, bench): the same engine,
tracker, bots and narration, with the dials turned in memory. ``tracker_for`` is the tracker of
a game at a tray with ``docks`` docks; a front end wraps it in a ``StoredTable`` (the store and
the live tray) and hands that to ``Table``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from dialtray.rules.core.dials import Dial, DialChange, DialSetting
from dialtray.rules.core.dice import DiceSource, SeededDice
from dialtray.table.games import DIALLED, Setup, new_game
from dialtray.table.ownfiles import OwnFiles
from dialtray.table.paper import PaperLink
from dialtray.table.table import Table
from dialtray.tracker import TableDice, Timing, Tracker, auto_bind
from dialtray.tracker.binding import Binding, read_binding
from dialtray.tracker.hands import Mistakes

QUICK = Timing(judge_s=0.25, grace_s=0.5)  # bots' quick hands (and the paper tray's clock)


class Untracked:
    """A game with no dial on the tray's docks (FASA's paper record sheets; Sky Ace, whose LIFE
    counters are the tray's LED dice): the tracker sees no dial, everything else is the game."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def dials(self) -> dict[Dial, DialSetting]:
        return {}

    def dial_changes(self, index: int = -1) -> tuple[DialChange, ...]:
        return ()

    def engine_changes(self, index: int = -1) -> tuple[DialChange, ...]:
        """The engine's own dial changes (Sky Ace's LIFE counters): no click on the tray is
        due for them, but the store records them, since ``dialtray verify`` replays the
        engine and expects each (``store.recorder.stored_changes``)."""
        return tuple(self._game.dial_changes(index))

    def life(self) -> dict[Dial, DialSetting]:
        """What the engine's own dials show (Sky Ace's LIFE counters for the LED dice)."""
        return dict(self._game.dials())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def binding_for(setup: Setup, docks: int, binding_file: Path | None = None,
                figures: Sequence[str] | None = None) -> Binding:
    """The docks of a dialled game (``BindingError`` naming what does not fit); empty for an
    untracked one."""
    if setup.game.kind not in DIALLED:
        return Binding({})
    dials = setup.game.dials()
    if binding_file is not None:
        return read_binding(binding_file, docks, dials)
    return auto_bind(dials, docks, list(figures or setup.order))


def tracker_for(setup: Setup, binding: Binding, dice: TableDice,
                timing: Timing | None = None) -> Tracker:
    return game_tracker(setup.game, binding, dice, setup.header, timing)


def game_tracker(game: Any, binding: Binding, dice: TableDice,
                 header: Sequence[tuple[str, str]], timing: Timing | None = None) -> Tracker:
    """The tracker of ``game``, new or rebuilt from the store (``play --resume``): a game with
    no dial on the docks is seen through ``Untracked``, so no dock is asked for its dials."""
    dialled = game.kind in DIALLED
    return Tracker(game if dialled else Untracked(game), binding, dice, header=list(header),
                   timing=timing, input_kinds=("speed",) if dialled else ())


def on_paper(kind: str, roles: Sequence[str], *, seed: int = 2026, turns: int = 3,
             dice: DiceSource | None = None, docks: int = 16, pace: float = 0.0,
             mistakes: Iterable[str] = (), own: OwnFiles | None = None) -> Table:
    """A whole table without a tray: every dial turned in memory, on a virtual clock;
    ``own``: the owner's files (``table.ownfiles``)."""
    tdice = TableDice(dice if dice is not None else SeededDice(seed))
    setup = new_game(kind, tdice, seed, turns, own)
    tracker = tracker_for(setup, binding_for(setup, docks), tdice, QUICK)
    link = PaperLink(tracker)
    kinds = list(mistakes)
    table = Table(setup, roles, link, hand=link.turn, pace=pace,
                  mistakes=Mistakes(kinds=kinds) if kinds else None)
    table.start()
    return table
