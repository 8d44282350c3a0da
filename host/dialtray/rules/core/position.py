"""The ``Position:`` header lines shared by every game kind (docs/notation.md, "Position header").

A log may start from a mid-game position so that a judge can set up a disputed situation and
play it out. Each ``Position:`` line is a *subject* word, usually an id, then ``key value`` pairs
and bare flags, e.g. ``Position: plane A1 combat 2 speed 5 ace 1``. A key listed as a *tail* key
takes the rest of the line (``removed shot down``). The rule set says which subjects and keys
exist and turns them into a position event that its fold applies after the setup
(``EventSourcedGame.add_setup``).

>>> read_fields("combat 2 random-card removed shot down".split(), {"combat"}, {"random-card"},
...             {"removed"})
{'combat': '2', 'random-card': '', 'removed': 'shot down'}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Set
from typing import Any, Protocol

from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.events import Event, EventSourcedGame
from dialtray.rules.core.notation import GameLog
from dialtray.rules.core.registry import ReplayableGame


def read_fields(
    tokens: list[str], valued: Set[str], flags: Set[str] = frozenset(), tail: Set[str] = frozenset()
) -> dict[str, str]:
    """``key value`` pairs, flags (value ``""``) and one tail key; ``ValueError`` says what is
    wrong (an unknown or repeated key, a key without its value)."""
    out: dict[str, str] = {}
    i = 0
    while i < len(tokens):
        key = tokens[i].lower()
        if key in out:
            raise ValueError(f"{key!r} given twice")
        if key in tail:
            rest = " ".join(tokens[i + 1 :])
            if not rest:
                raise ValueError(f"{key!r} needs a value")
            out[key] = rest
            break
        if key in flags:
            out[key] = ""
            i += 1
            continue
        if key not in valued:
            known = ", ".join(sorted({*valued, *flags, *tail}))
            raise ValueError(f"unknown key {tokens[i]!r} (known: {known})")
        if i + 1 >= len(tokens):
            raise ValueError(f"{key!r} needs a value")
        out[key] = tokens[i + 1]
        i += 2
    return out


def number(fields: dict[str, str], key: str, default: int, low: int = 0, high: int = 10**6) -> int:
    """The integer value of ``key`` (``default`` if absent), within ``low..high``."""
    text = fields.get(key)
    if text is None:
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise ValueError(f"{key} {text!r}: a whole number from {low} to {high}")
    return int(text)


def format_fields(subject: Iterable[str], pairs: Iterable[tuple[str, object]]) -> str:
    """``subject... key value ...``; a value ``True`` writes a flag, ``None``/``False`` nothing."""
    parts = list(subject)
    for key, value in pairs:
        if value is None or value is False:
            continue
        parts.append(key if value is True else f"{key} {value}")
    return " ".join(parts)


class _Kind(Protocol):
    name: str
    title: str

    def new_game(self, log: GameLog, dice: DiceSource) -> Any: ...


class PositionedKind:
    """A game kind whose logs may carry ``Position:`` lines: the inner kind builds the game from
    the other header lines, then ``read(log, game)`` turns the position lines into a setup event
    (``EventSourcedGame.add_setup``). ``dialtray replay`` finds it as the package's
    ``GAME_KIND``."""

    def __init__(
        self, inner: _Kind, read: Callable[[GameLog, Any], Event | None], key: str = "Position"
    ) -> None:
        self.inner = inner
        self.read = read
        self.key = key
        self.name = inner.name
        self.title = inner.title

    def new_game(self, log: GameLog, dice: DiceSource) -> ReplayableGame:
        rest = [h for h in log.header if h.key.lower() != self.key.lower()]
        game: ReplayableGame = self.inner.new_game(dataclasses.replace(log, header=rest), dice)
        event = self.read(log, game)
        if event is not None:
            if not isinstance(game, EventSourcedGame):
                raise log.error(log.line_of(self.key), f"{self.key}: not supported by {self.name}")
            game.add_setup(event)
        return game


def insert_header(log_text: str, lines: Iterable[tuple[str, str]]) -> str:
    """``log_text`` with ``Key: value`` ``lines`` added at the end of its header."""
    head, sep, body = log_text.partition("\n---\n")
    extra = "".join(f"\n{k}: {v}" for k, v in lines)
    return head + extra + sep + body
