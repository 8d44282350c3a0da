"""Squares of the Aces map and the distances between them.

A square is named like a chess square: a column letter (``a`` is the left-most column) and a
1-based row number (row 1 is the top row of the map file), e.g. ``c5``. Maps are at most 26
columns wide, so one letter always suffices.

AC-M20 "Adjacent Squares": the 8 squares touching a square (fewer at the edge); whether two
adjacent squares are separated by blocking terrain is the map's business (``maps``).
AC-A06 (decided in docs/rules-decisions.md): a diagonal step costs 1, so both movement and range
use the Chebyshev distance.
"""

from __future__ import annotations

from typing import NamedTuple

MAX_COLUMNS = 26


class Square(NamedTuple):
    """A square by column ``x`` (0 = column ``a``) and row ``y`` (0 = row 1)."""

    x: int
    y: int

    def name(self) -> str:
        """The square's name.

        >>> Square(2, 4).name()
        'c5'
        """
        return f"{chr(ord('a') + self.x)}{self.y + 1}"

    def __repr__(self) -> str:
        return f"Square({self.name()})"

    @classmethod
    def parse(cls, text: str) -> Square:
        """``Square.parse("c5") == Square(2, 4)``; ValueError on anything else."""
        t = text.strip().lower()
        if len(t) < 2 or not ("a" <= t[0] <= "z") or not (t[1:].isascii() and t[1:].isdigit()):
            raise ValueError(
                f"not a square name: {text!r} (expected a column letter and a row, e.g. c5)"
            )
        row = int(t[1:])
        if row < 1:
            raise ValueError(f"not a square name: {text!r} (rows start at 1)")
        return cls(ord(t[0]) - ord("a"), row - 1)


def chebyshev(a: Square, b: Square) -> int:
    """Squares between ``a`` and ``b`` not counting ``a`` (AC-M32, AC-A06)."""
    return max(abs(a.x - b.x), abs(a.y - b.y))


def touching(a: Square, b: Square) -> bool:
    """True if ``b`` is one of the 8 squares around ``a`` (terrain not considered; AC-M20)."""
    return a != b and abs(a.x - b.x) <= 1 and abs(a.y - b.y) <= 1
