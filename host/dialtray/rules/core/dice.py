"""Where every die roll comes from: an injectable source of dice (d6 unless told otherwise).

The clix games roll plain d6s; the FASA board game (``rules.fasa``) rolls one d10 per check.
``DiceSource.roll(count, purpose)`` is the d6 protocol every engine uses; every source here also
takes ``sides=`` (``SidedDiceSource``), d6 staying the default, so one source serves all games:

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

import inspect
import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, runtime_checkable

from dialtray.rules.core.errors import DiceError

FACES = 6
MAX_SIDES = 100  # a bound that refuses typos, not a rule (the tray rolls d2..d15)


@runtime_checkable
class DiceSource(Protocol):
    """Rolls ``count`` six-sided dice for ``purpose`` (a short text shown to players)."""

    def roll(self, count: int, purpose: str) -> tuple[int, ...]: ...


@runtime_checkable
class SidedDiceSource(Protocol):
    """A source that also rolls dice of ``sides`` sides (d10 for FASA); ``sides=6`` is the d6
    ``DiceSource`` roll. Every source in this module, and the tray's ``FairDice``, is one."""

    def roll(self, count: int, purpose: str, sides: int = FACES) -> tuple[int, ...]: ...


def check_sides(sides: int) -> int:
    """``sides`` if it names a real die (2..100), else a ``DiceError``."""
    if not isinstance(sides, int) or isinstance(sides, bool) or not 2 <= sides <= MAX_SIDES:
        raise DiceError(f"{sides!r} is not a number of die sides (2..{MAX_SIDES})")
    return sides


def _check_faces(faces: Iterable[int], source: str, sides: int = FACES) -> tuple[int, ...]:
    out = tuple(faces)
    for f in out:
        if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= sides:
            what = "six-sided die" if sides == FACES else f"d{sides}"
            raise DiceError(f"{source}: {f!r} is not a face of a {what}")
    return out


class SeededDice:
    """Pseudo-random dice from a seed: the same seed gives the same game.

    >>> SeededDice(7).roll(3, "test") == SeededDice(7).roll(3, "test")
    True
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, count: int, purpose: str, sides: int = FACES) -> tuple[int, ...]:
        if count < 0:
            raise DiceError(f"cannot roll {count} dice")
        check_sides(sides)
        r = self._rng.randint
        return tuple(r(1, sides) for _ in range(count))

    def __repr__(self) -> str:
        return f"SeededDice({self.seed!r})"


class ManualDice:
    """Faces typed in by players (or read from a log), handed out in order.

    >>> d = ManualDice([4, 4, 5, 6])
    >>> d.roll(2, "shot"), d.remaining
    ((4, 4), 2)

    Each face remembers the die it was rolled on (``sides``, d6 by default): a d10 face typed
    for a d6 roll (or a log's d6 face fed to a d10 check) is a ``DiceError``, not a quiet misread.

    >>> ManualDice([9, 10], sides=10).roll(2, "to-hit", sides=10)
    (9, 10)
    """

    def __init__(self, faces: Iterable[int] = (), sides: int | Sequence[int] = FACES) -> None:
        self._queue: deque[int] = deque()
        self._sides: deque[int] = deque()
        self.feed(faces, sides)

    def feed(self, faces: Iterable[int], sides: int | Sequence[int] | None = FACES) -> None:
        """Queue more faces (e.g. what the players just rolled), all of one die (``sides``) or
        one number of sides per face."""
        got = tuple(faces)
        per = _per_face_sides(sides, len(got))
        for f, n in zip(got, per, strict=True):
            _check_faces((f,), "ManualDice", check_sides(n))
        self._queue.extend(got)
        self._sides.extend(per)

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def pending(self) -> tuple[int, ...]:
        return tuple(self._queue)

    def pending_sides(self) -> tuple[int, ...]:
        """The die of each pending face (6 for a d6)."""
        return tuple(self._sides)

    def clear(self) -> None:
        self._queue.clear()
        self._sides.clear()

    def roll(self, count: int, purpose: str, sides: int = FACES) -> tuple[int, ...]:
        if count < 0:
            raise DiceError(f"cannot roll {count} dice")
        if count > len(self._queue):
            raise DiceError(f"{purpose}: needs {count} dice, only {len(self._queue)} typed in")
        wrong = [n for n in list(self._sides)[:count] if n != sides]
        if wrong:
            raise DiceError(f"{purpose}: needs d{sides} faces, the next face was rolled on a "
                            f"d{wrong[0]}")
        for _ in range(count):
            self._sides.popleft()
        return tuple(self._queue.popleft() for _ in range(count))

    def __repr__(self) -> str:
        return f"ManualDice({list(self._queue)!r})"


def _per_face_sides(sides: int | Sequence[int] | None, count: int) -> tuple[int, ...]:
    if sides is None:
        return (FACES,) * count
    if isinstance(sides, int):
        return (sides,) * count
    per = tuple(sides)
    if len(per) != count:
        raise DiceError(f"{count} faces but {len(per)} die sizes")
    return per


class PromptDice:
    """Physical dice rolled when the engine asks: ``ask(count, purpose)`` shows the request to
    the players and returns the faces they typed (e.g. a console or app prompt). Bad input is
    asked for again, up to ``attempts`` times, then a ``DiceError``. A roll of other dice than
    d6 says so in the purpose shown (``"to-hit (d10)"``) and checks the faces against them."""

    def __init__(self, ask: Callable[[int, str], Sequence[int]], attempts: int = 3) -> None:
        self.ask = ask
        self.attempts = attempts

    def roll(self, count: int, purpose: str, sides: int = FACES) -> tuple[int, ...]:
        check_sides(sides)
        shown = purpose if sides == FACES else f"{purpose} (d{sides})"
        last = ""
        for _ in range(self.attempts):
            try:
                faces = _check_faces(self.ask(count, shown), "typed dice", sides)
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


@runtime_checkable
class SidedTrayDiceLink(Protocol):
    """A tray link that rolls dice of other sizes too (the fair-dice firmware rolls d2..d15):
    ``roll_led_dice_sided(count, purpose, sides)``, same contract as ``roll_led_dice``."""

    def roll_led_dice_sided(self, count: int, purpose: str, sides: int) -> Sequence[int]: ...


class TrayDice:
    """Dice rolled on the tray's LEDs. Faces are validated: a bad reply is a ``DiceError``.
    Other dice than d6 need a link that is a ``SidedTrayDiceLink``; with any other link such a
    roll is a ``DiceError`` saying so (never a d6 passed off as a d10)."""

    def __init__(self, link: TrayDiceLink) -> None:
        self.link = link

    def roll(self, count: int, purpose: str, sides: int = FACES) -> tuple[int, ...]:
        check_sides(sides)
        if sides == FACES:
            got = self.link.roll_led_dice(count, purpose)
        elif isinstance(self.link, SidedTrayDiceLink):
            got = self.link.roll_led_dice_sided(count, purpose, sides)
        else:
            raise DiceError(f"{purpose}: this tray link rolls only d6, a d{sides} was asked for")
        faces = _check_faces(got, "tray dice", sides)
        if len(faces) != count:
            raise DiceError(f"{purpose}: tray rolled {len(faces)} dice, {count} asked for")
        return faces


class RecordingDice:
    """Wraps a source and records every face it gives out (for the game log)."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.record: list[tuple[str, tuple[int, ...]]] = []
        self.sides: list[int] = []  # the die of each entry of ``record`` (6: d6)

    def roll(self, count: int, purpose: str, sides: int = FACES) -> tuple[int, ...]:
        if sides == FACES:
            faces = self.inner.roll(count, purpose)
        else:
            faces = roll_sided(self.inner, count, purpose, sides)
        self.record.append((purpose, faces))
        self.sides.append(sides)
        return faces

    def take(self) -> list[tuple[str, tuple[int, ...]]]:
        """The rolls since the last ``take`` (and forget them)."""
        out, self.record, self.sides = self.record, [], []
        return out

    def take_sided(self) -> list[tuple[str, tuple[int, ...], int]]:
        """Like ``take``, with each roll's number of sides (for logs of other dice than d6)."""
        out = [(p, f, n) for (p, f), n in zip(self.record, self.sides, strict=True)]
        self.record, self.sides = [], []
        return out


def roll_sided(dice: DiceSource, count: int, purpose: str, sides: int) -> tuple[int, ...]:
    """``count`` dice of ``sides`` sides from ``dice``: a ``DiceError`` if the source rolls only
    d6 and another die is asked for."""
    if sides == FACES:
        return dice.roll(count, purpose)
    if not takes_sides(dice):
        raise DiceError(f"{purpose}: {dice!r} rolls only d6, a d{sides} was asked for")
    faces = dice.roll(count, purpose, sides=sides)  # type: ignore[call-arg]
    return _check_faces(faces, purpose, sides)


def takes_sides(dice: DiceSource) -> bool:
    """Whether ``dice.roll`` accepts ``sides=`` (a ``SidedDiceSource``; the runtime protocol
    check sees only the method's name, so the signature is read)."""
    kind = type(dice)
    known = _TAKES_SIDES.get(kind)
    if known is None:
        try:
            known = "sides" in inspect.signature(dice.roll).parameters
        except (TypeError, ValueError):
            known = False
        _TAKES_SIDES[kind] = known
    return known


_TAKES_SIDES: dict[type, bool] = {}


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
