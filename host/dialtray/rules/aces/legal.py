"""The list of legal actions, built lazily where it is long (AC-M21 moves).

A character with speed 6 on an open map has a hundred destinations, and at the start of a turn
every eligible character's are legal: a few hundred ``move`` actions, of which a player (or a
bot) takes one. ``LegalActions`` is a read-only sequence that keeps each character's moves as a
``MoveSegment`` — the destination bit mask from the search (``movement.Reach``) — and makes the
``Move`` values only when they are looked at. Length, indexing, slicing, iteration, ``in`` and
equality with a list behave as for the list it stands for, in the same order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from operator import itemgetter
from typing import Any, overload

from dialtray.rules.aces.actions import AcesAction, Move
from dialtray.rules.aces.movement import Reach, kth_bit


class MoveSegment(Sequence[AcesAction]):
    """One character's moves (without a captive): one ``Move`` per destination but its own
    square, in square order. ``table`` makes (and keeps) ``Move`` values by square index."""

    def __init__(self, label: str, reach: Reach, here: int, table: Any) -> None:
        self.label = label
        self.reach = reach
        self.here = here
        self.table = table
        self.mask = reach.mask & ~(1 << here)
        self._len = self.mask.bit_count()
        self._list: list[AcesAction] | None = None

    def squares(self) -> list[int]:
        return [d for d in self.reach.sorted_destinations if d != self.here]

    def materialise(self) -> list[AcesAction]:
        if self._list is None:
            dests = self.squares()
            if len(dests) == 1:
                self._list = [self.table[dests[0]]]
            else:
                self._list = list(itemgetter(*dests)(self.table)) if dests else []
        return self._list

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> AcesAction: ...

    @overload
    def __getitem__(self, i: slice) -> list[AcesAction]: ...

    def __getitem__(self, i: int | slice) -> AcesAction | list[AcesAction]:
        if isinstance(i, slice) or self._list is not None:
            return self.materialise()[i]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("move index out of range")
        move: AcesAction = self.table[kth_bit(self.mask, i)]  # one move, the others not made
        return move

    def __iter__(self) -> Iterator[AcesAction]:
        return iter(self.materialise())

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Move) or action.label != self.label:
            return False
        return action in self.materialise()


class LegalActions(Sequence[AcesAction]):
    """A sequence of plain lists and ``MoveSegment``s, read as one list."""

    def __init__(self, parts: Iterable[Sequence[AcesAction]]) -> None:
        self.parts = [p for p in parts if len(p)]
        self._len = sum(len(p) for p in self.parts)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> AcesAction: ...

    @overload
    def __getitem__(self, i: slice) -> list[AcesAction]: ...

    def __getitem__(self, i: int | slice) -> AcesAction | list[AcesAction]:
        if isinstance(i, slice):
            return list(self)[i]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("legal action index out of range")
        for part in self.parts:
            if i < len(part):
                return part[i]
            i -= len(part)
        raise IndexError("legal action index out of range")  # pragma: no cover

    def __iter__(self) -> Iterator[AcesAction]:
        return chain.from_iterable(self.parts)

    def __contains__(self, action: object) -> bool:
        return any(action in part for part in self.parts)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == self._len and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def without(self, *kinds: type) -> LegalActions:
        """The same actions minus those of the given types (moves are kept as they are)."""
        return LegalActions(
            p
            if isinstance(p, MoveSegment) and Move not in kinds
            else [a for a in p if not isinstance(a, kinds)]
            for p in self.parts
        )

    def move_segments(self) -> list[MoveSegment]:
        return [p for p in self.parts if isinstance(p, MoveSegment)]

    def __repr__(self) -> str:
        return f"LegalActions({list(self)!r})"
