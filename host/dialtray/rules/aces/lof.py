"""Line of fire and range: "Ranged Combat" and "Terrain" of the Aces rules.

AC-M31 "Ranged Combat": draw a line from the centre of the attacker's square to the centre of the
target's square; it is blocked if it passes through a square holding a character other than the
attacker or the target, or if it crosses blocking terrain.
AC-M32: range counts the squares to the target, not the attacker's own square (Chebyshev, AC-A06).
AC-M60 / AC-M61 "Hindering Terrain": +1 to the target's defense once if the line passes through
any hindering square *including the target's*; the attacker's own square never gives it.
AC-M63 / AC-M64 "Blocking Terrain" and AC-A05: a line that only passes through a corner does not
enter the squares meeting there (a straight diagonal slips past them); at such a corner it is
blocked only if walls cut both ways round the corner (``AcesMap.diagonal_separated``).

Geometry is exact: centres sit at odd coordinates of a doubled grid, so every comparison is on
integers.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from dialtray.rules.aces.grid import Square, chebyshev
from dialtray.rules.aces.maps import AcesMap, Terrain

CACHE_LIMIT = 100_000


@dataclass(frozen=True)
class Trace:
    """The squares whose interior a centre-to-centre line enters (the target's last), and whether
    it crosses a wall."""

    squares: tuple[int, ...]
    crosses_wall: bool


def trace(m: AcesMap, a: int, b: int) -> Trace:
    """Walk the line from the centre of square ``a`` to the centre of square ``b``."""
    cache: dict[int, Trace] = m.__dict__.setdefault("_lof_cache", {})
    key = a * m.size + b
    hit = cache.get(key)
    if hit is not None:
        return hit
    w = m.width
    ax, ay, bx, by = a % w, a // w, b % w, b // w
    adx, ady = abs(bx - ax), abs(by - ay)
    sx = 1 if bx > ax else -1
    sy = 1 if by > ay else -1
    # In doubled coordinates the i-th vertical grid line is crossed at t = (2i-1)/(2*adx) and the
    # j-th horizontal one at t = (2j-1)/(2*ady); compare (2i-1)*ady with (2j-1)*adx.
    i = j = 1
    cx, cy = ax, ay
    squares: list[int] = []
    crosses_wall = False
    walls = m.walls
    while i <= adx or j <= ady:
        cur = cy * w + cx
        if j > ady or (i <= adx and (2 * i - 1) * ady < (2 * j - 1) * adx):
            nxt = cur + sx
            if (min(cur, nxt), max(cur, nxt)) in walls:
                crosses_wall = True
            cx += sx
            i += 1
        elif i > adx or (2 * i - 1) * ady > (2 * j - 1) * adx:
            nxt = cur + sy * w
            if (min(cur, nxt), max(cur, nxt)) in walls:
                crosses_wall = True
            cy += sy
            j += 1
        else:  # exactly through a corner: the two side squares are only touched
            nxt = cur + sx + sy * w
            if walls and m.diagonal_separated(cur, nxt):
                crosses_wall = True
            cx += sx
            cy += sy
            i += 1
            j += 1
        squares.append(cy * w + cx)
    result = Trace(tuple(squares), crosses_wall)
    if len(cache) >= CACHE_LIMIT:
        cache.clear()  # bounded memory on big maps shared by many games
    cache[key] = result
    return result


@dataclass(frozen=True)
class LineOfFire:
    clear: bool
    reason: str  # why not clear, "" if clear
    hindering: int  # the +1 hindering terrain modifier (0 or 1); meaningful when clear
    distance: int  # squares to the target, the attacker's own not counted (AC-M32)


def line_of_fire(
    m: AcesMap, attacker: Square, target: Square, occupied: Container[int]
) -> LineOfFire:
    """AC-M31 line of fire from ``attacker`` to ``target``; ``occupied`` holds the square indexes of
    every character on the map (the attacker's and target's are ignored)."""
    a, b = m.index(attacker), m.index(target)
    dist = chebyshev(attacker, target)
    if a == b:
        return LineOfFire(False, "a character may not target itself (AC-M29)", 0, 0)
    t = trace(m, a, b)
    if t.crosses_wall:
        return LineOfFire(
            False, "the line of fire crosses a wall (AC-M63 Blocking Terrain)", 0, dist
        )
    terrain = m.terrain
    hindering = 0
    last = len(t.squares) - 1
    for k, sq in enumerate(t.squares):
        ter = terrain[sq]
        if ter is Terrain.BLOCKING:
            return LineOfFire(
                False,
                f"blocking terrain at {m.square(sq).name()} (AC-M63 Blocking Terrain)",
                0,
                dist,
            )
        if k != last and sq in occupied:
            return LineOfFire(
                False,
                f"a character at {m.square(sq).name()} is in the way (AC-M31 Ranged Combat)",
                0,
                dist,
            )
        if ter is Terrain.HINDERING:
            hindering = 1  # AC-M60: once, however many squares; the target's square counts
    return LineOfFire(True, "", hindering, dist)
