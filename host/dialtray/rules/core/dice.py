"""Where every die roll comes from: an injectable source of six-sided dice.

All three games of the clix line roll plain d6s, so one protocol serves them all:

- ``SeededDice(seed)``    a reproducible generator (tests, bots, simulations);
- ``ManualDice(faces)``   faces a person typed in after rolling real dice, consumed in order
                          (also what ``dialtray replay`` feeds from a game log);
- ``PromptDice(ask)``     real dice rolled on demand: the engine's request is shown and the
                          typed faces are checked;
- ``TrayDice(link)``      the tray's LED dice, behind the small ``TrayDiceLink`` protocol that the
                          tray link (host/dialtray/link) implements;
- ``RecordingDice(inner)`` wraps any source and remembers the faces it handed out, so the
                          notation writer can put every roll into the log.

Engines never import ``random``: a random choice (e.g. AA-M69 "chosen at random") is made with
``choose_uniform`` from d6 rolls, so a typed-in or replayed game reproduces it exactly.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, runtime_checkable

from dialtray.rules.core.errors import DiceError

FACES = 6


@runtime_checkable
class DiceSource(Protocol):
    """Rolls ``count`` six-sided dice for ``purpose`` (a short text shown to players)."""

    def roll(self, count: int, purpose: str) -> tuple[int, ...]: ...


def _check_faces(faces: Iterable[int], source: str) -> tuple[int, ...]:
    out = tuple(faces)
    for f in out:
        if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= FACES:
            raise DiceError(f"{source}: {f!r} is not a face of a six-sided die")
    return out


class SeededDice:
    """Pseudo-random dice from a seed: the same seed gives the same game.

    >>> SeededDice(7).roll(3, "test") == SeededDice(7).roll(3, "test")
    True
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, count: int, purpose: str) -> tuple[int, ...]:
        if count < 0:
            raise DiceError(f"cannot roll {count} dice")
        r = self._rng.randint
        return tuple(r(1, FACES) for _ in range(count))

    def __repr__(self) -> str:
        return f"SeededDice({self.seed!r})"


class ManualDice:
    """Faces typed in by players (or read from a log), handed out in order.

    >>> d = ManualDice([4, 4, 5, 6])
    >>> d.roll(2, "shot"), d.remaining
    ((4, 4), 2)
    """

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self._queue: deque[int] = deque(_check_faces(faces, "ManualDice"))

    def feed(self, faces: Iterable[int]) -> None:
        """Queue more faces (e.g. what the players just rolled)."""
        self._queue.extend(_check_faces(faces, "ManualDice"))

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def pending(self) -> tuple[int, ...]:
        return tuple(self._queue)

    def clear(self) -> None:
        self._queue.clear()

    def roll(self, count: int, purpose: str) -> tuple[int, ...]:
        if count < 0:
            raise DiceError(f"cannot roll {count} dice")
        if count > len(self._queue):
            raise DiceError(f"{purpose}: needs {count} dice, only {len(self._queue)} typed in")
        return tuple(self._queue.popleft() for _ in range(count))

    def __repr__(self) -> str:
        return f"ManualDice({list(self._queue)!r})"


class PromptDice:
    """Physical dice rolled when the engine asks: ``ask(count, purpose)`` shows the request to
    the players and returns the faces they typed (e.g. a console or app prompt). Bad input is
    asked for again, up to ``attempts`` times, then a ``DiceError``."""

    def __init__(self, ask: Callable[[int, str], Sequence[int]], attempts: int = 3) -> None:
        self.ask = ask
        self.attempts = attempts

    def roll(self, count: int, purpose: str) -> tuple[int, ...]:
        last = ""
        for _ in range(self.attempts):
            try:
                faces = _check_faces(self.ask(count, purpose), "typed dice")
            except DiceError as exc:
                last = str(exc)
                continue
            if len(faces) == count:
                return faces
            last = f"{purpose}: {len(faces)} faces typed, {count} needed"
        raise DiceError(last)


class TrayDiceLink(Protocol):
    """What the tray link must offer for its LED dice (implemented in host/dialtray/link).

    ``roll_led_dice`` asks the tray to roll ``count`` dice, shows ``purpose`` to the players, and
    returns the faces the LEDs showed, in order. It may block until the players pressed the roll
    button. It raises ``DiceError`` (or any ``OSError``) if the tray cannot roll.
    """

    def roll_led_dice(self, count: int, purpose: str) -> Sequence[int]: ...


class TrayDice:
    """Dice rolled on the tray's LEDs. Faces are validated: a bad reply is a ``DiceError``."""

    def __init__(self, link: TrayDiceLink) -> None:
        self.link = link

    def roll(self, count: int, purpose: str) -> tuple[int, ...]:
        faces = _check_faces(self.link.roll_led_dice(count, purpose), "tray dice")
        if len(faces) != count:
            raise DiceError(f"{purpose}: tray rolled {len(faces)} dice, {count} asked for")
        return faces


class RecordingDice:
    """Wraps a source and records every face it gives out (for the game log)."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.record: list[tuple[str, tuple[int, ...]]] = []

    def roll(self, count: int, purpose: str) -> tuple[int, ...]:
        faces = self.inner.roll(count, purpose)
        self.record.append((purpose, faces))
        return faces

    def take(self) -> list[tuple[str, tuple[int, ...]]]:
        """The rolls since the last ``take`` (and forget them)."""
        out, self.record = self.record, []
        return out


def roll_sum(dice: DiceSource, count: int, purpose: str) -> tuple[int, tuple[int, ...]]:
    """Roll ``count`` dice and return (total, faces)."""
    faces = dice.roll(count, purpose)
    return sum(faces), faces


def choose_uniform(dice: DiceSource, k: int, purpose: str) -> tuple[int, tuple[int, ...]]:
    """Pick an index in ``range(k)`` uniformly using only d6 rolls (rejection sampling).

    Rolls the fewest d6 whose combinations cover ``k`` and rerolls the whole group when the
    number falls in the uneven remainder. Returns (index, every face rolled).

    >>> choose_uniform(ManualDice([3]), 3, "card")
    (2, (3,))
    """
    if k <= 0:
        raise DiceError(f"{purpose}: nothing to choose from")
    if k == 1:
        return 0, ()
    n = 1
    while FACES**n < k:
        n += 1
    space = FACES**n
    limit = space - space % k
    used: list[int] = []
    while True:
        faces = dice.roll(n, purpose)
        used.extend(faces)
        value = 0
        for f in faces:
            value = value * FACES + (f - 1)
        if value < limit:
            return value % k, tuple(used)
