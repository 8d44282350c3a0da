"""The ``Game`` protocol: what every dialtray rule set's game object answers (python-chess's
``chess.Board`` for clix games). The click tracker, the game store, replay and the UI talk to a
game only through this; the contract tests (``tests/rules/test_contract.py``) check every engine
against it.

Seats
    A player is named by a ``Seat`` (a ``str``), the same everywhere: ``to_move()``, ``seats()``,
    ``outcome().winner`` and the keys of ``outcome().vp``. Air Action seats are the log's player
    ids (``"P1"``), Aces seats are ``"P1"``, ``"P2"``... in seating order. ``TABLE`` (``"table"``)
    is no player: it marks a step the table settles (a roll, a fact of the physical table).

Example (any engine)::

    >>> from dialtray.rules.aces.scenarios import load_scenario, start_scenario
    >>> from dialtray.rules.core.dice import SeededDice
    >>> g = start_scenario(load_scenario("kim-vs-tim"), SeededDice(1))
    >>> g.to_move() in g.seats()
    True
    >>> action = g.legal_actions()[0]
    >>> events = g.apply(g.parse_action(action.text()))
    >>> entry = g.undo()
    >>> entry.action == action
    True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from dialtray.rules.core.dials import Dial, DialChange, DialSetting
from dialtray.rules.core.events import Action, Entry, Event

Seat = str
"""A player's seat id (``"P1"``); one type in every engine."""

TABLE: Seat = "table"
"""``to_move()`` when no player decides: the table rolls or reports a fact."""


@runtime_checkable
class GameOutcome(Protocol):
    """``outcome()`` once the game is over: why, who won, the VP table."""

    @property
    def termination(self) -> str: ...

    @property
    def winner(self) -> Seat | None: ...

    @property
    def vp(self) -> Mapping[Seat, int]: ...


@runtime_checkable
class Game(Protocol):
    """One game of one rule set: the position, the history and the rules that move it on."""

    kind: str  # the log's ``Game:`` value ("airaction", "aces")

    def seats(self) -> tuple[Seat, ...]:
        """Every player's seat, in seating order."""
        ...

    def to_move(self) -> Seat | None:
        """Who decides next: a seat, ``TABLE`` for rolls/facts, None once the game is over."""
        ...

    def legal_actions(self) -> Sequence[Action]:
        """Every action that settles the current decision (python-chess's ``legal_moves``)."""
        ...

    def parse_action(self, text: str) -> Action:
        """Read an action's notation (``InvalidActionError`` if it does not parse); the
        inverse of ``action.text()``."""
        ...

    def apply(self, action: Any) -> tuple[Event, ...]:
        """Apply ``action`` and return the events it caused, in order. An action the rules
        forbid raises ``IllegalActionError`` naming the rule id; the state is then unchanged."""
        ...

    def undo(self) -> Entry[Any]:
        """Take back the last action (python-chess's ``pop``); the undone entry, whose
        ``dial_changes`` say which clicks to turn back."""
        ...

    @property
    def history(self) -> Sequence[Entry[Any]]:
        """Applied actions with their events and dial changes, oldest first."""
        ...

    def outcome(self) -> GameOutcome | None:
        """None while the game runs; then why it ended, who won and the VP table."""
        ...

    def state_dict(self) -> dict[str, Any]:
        """The whole position as plain JSON-able data (str keys; lists, ints, strs, bools,
        None), in a stable order: equal states give equal ``state_json``."""
        ...

    def dials(self) -> dict[Dial, DialSetting]:
        """What every dial must show now (click index, values, colours)."""
        ...

    def dial_changes(self, index: int = -1) -> tuple[DialChange, ...]:
        """The clicks caused by history entry ``index`` (default: the last applied action)."""
        ...

    def report(self) -> str:
        """Final dials and VP table as text (what ``dialtray replay`` prints)."""
        ...


def state_json(game: Game) -> str:
    """``state_dict()`` as canonical JSON (sorted keys): compare positions byte for byte."""
    return json.dumps(game.state_dict(), sort_keys=True, separators=(",", ":"))


def plain(value: Any) -> Any:
    """Plain JSON-able data from dataclasses, mappings, sets and tuples (sets sorted, so the
    result does not depend on hash order). Used by engines' ``state_dict``."""
    import dataclasses
    import enum

    if value is None or isinstance(value, bool | int | str | float):
        return value
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return sorted((plain(v) for v in value), key=lambda x: json.dumps(x, sort_keys=True))
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    raise TypeError(f"not plain data: {type(value).__name__}")
