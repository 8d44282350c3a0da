"""Re-run a game log through its rule set, failing loudly at the first bad line (file:line)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dialtray.rules.core import registry
from dialtray.rules.core.dice import ManualDice
from dialtray.rules.core.errors import (
    CatalogueError,
    DiceError,
    IllegalActionError,
    InvalidActionError,
    NotationError,
)
from dialtray.rules.core.events import Event
from dialtray.rules.core.notation import BodyLine, GameLog, NotationWarning
from dialtray.rules.core.registry import GameKind, ReplayableGame


@dataclass
class ReplayResult:
    kind: GameKind
    game: ReplayableGame
    actions: int
    events: int
    warnings: list[NotationWarning] = field(default_factory=list)


def replay_log(
    log: GameLog, on_line: Callable[[BodyLine, Sequence[Event]], None] | None = None
) -> ReplayResult:
    """Apply every line of ``log``; ``NotationError`` names the first line that fails.
    ``on_line(line, events)`` is called after each applied line (e.g. to print a report)."""
    try:
        kind = registry.get(log.kind)
    except KeyError as exc:
        raise NotationError(log.name, log.kind_line, str(exc.args[0])) from None
    dice = ManualDice()
    try:
        game = kind.new_game(log, dice)
    except (IllegalActionError, InvalidActionError, DiceError, CatalogueError) as exc:
        raise NotationError(log.name, log.kind_line, str(exc)) from exc
    events = 0
    for bl in log.body:
        dice.clear()
        if bl.faces:
            dice.feed(bl.faces, bl.sides)
        try:
            action = game.parse_action(bl.text)
            applied = game.apply(action)
            events += len(applied)
        except (IllegalActionError, InvalidActionError, DiceError) as exc:
            raise NotationError(log.name, bl.line, str(exc)) from exc
        if dice.remaining:
            raise NotationError(
                log.name,
                bl.line,
                f"{bl.text}: {dice.remaining} die face(s) not used: {list(dice.pending())}",
            )
        if on_line is not None:
            on_line(bl, applied)
    return ReplayResult(kind, game, len(log.body), events, list(log.warnings))
