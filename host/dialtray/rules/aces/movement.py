"""Legal destinations and paths: "Movement", "Breaking Away" and "Terrain" of the Aces rules.

- AC-M21 move up to the speed value, in any direction; moving 0 squares is legal.
- AC-M22 through squares of friendly characters, never through enemy-occupied squares.
- AC-M23 entering a square adjacent to an opposing character ends the move.
- AC-M24 never end in an occupied square (so an occupied square where the move would have to end
  cannot be entered at all).
- AC-M26 after a successful break away, squares adjacent to the enemies broken away from do not
  stop the move; squares adjacent to any other enemy do.
- AC-M27 / AC-M65 adjacency never reaches across blocking terrain (``AcesMap.neighbours``).
- AC-M58 / AC-A04 entering a hindering *feature* the character did not start in ends the move.
- AC-M63 / AC-M64 blocking squares and walls cannot be entered or crossed, except that a straight
  diagonal step past a corner is allowed (``AcesMap.diagonal_separated``).

Speed (halving in hindering terrain, AC-M59; the captor's lower speed, AC-M43) and the break away
roll (AC-M25) are the engine's; this module gets the speed to use and the enemies broken away from.

The search works on bit masks of square indexes (one Python int per layer of distance), because
the engine asks for every eligible character's destinations at every decision; the paths are
worked out only when a move is actually made (``Reach.path``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from dialtray.rules.aces.maps import AcesMap, Terrain


@dataclass(frozen=True)
class Reach:
    """Every square a move can end on, with its step count and one shortest legal path.

    ``layers[d]`` is the bit mask of the squares first reached after ``d`` squares moved
    (``layers[0]`` is the start); ``passed``: squares a move may cross but not end on (friends);
    ``stop``: squares where a move must end (it goes no further from them).
    """

    start: int
    layers: tuple[int, ...]
    passed: int
    stop: int = field(repr=False)
    masks: tuple[int, ...] = field(repr=False, compare=False, default=())  # neighbours per square
    mask: int = 0  # the destinations as one bit mask
    _memo: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def reaches(self, square: int) -> bool:
        return bool(self.mask >> square & 1)

    @property
    def steps(self) -> dict[int, int]:
        """Destination square index -> squares moved."""
        out: dict[int, int] | None = self._memo.get("steps")
        if out is None:
            out = self._memo["steps"] = {
                sq: d for d, layer in enumerate(self.layers) for sq in _bits(layer & ~self.passed)
            }
        return out

    @property
    def destinations(self) -> frozenset[int]:
        return frozenset(self.steps)

    @property
    def sorted_destinations(self) -> list[int]:
        """The destinations in square order (computed once)."""
        out: list[int] | None = self._memo.get("sorted")
        if out is None:
            out = self._memo["sorted"] = list(_bits(self.mask))
        return out

    @property
    def count(self) -> int:
        """How many destinations (the start included)."""
        return self.mask.bit_count()

    def path(self, dest: int) -> list[int]:
        """Squares from the start (excluded) to ``dest`` (included): a shortest legal path,
        walked back from ``dest`` through the lowest-numbered square of each nearer layer that
        the move may continue from."""
        if dest != self.start and not (self.mask >> dest & 1):
            raise KeyError(dest)
        d = next(k for k, layer in enumerate(self.layers) if layer >> dest & 1)
        expand = ~self.stop | 1 << self.start  # squares a move may continue from
        out: list[int] = []
        cur = dest
        while d > 0:
            out.append(cur)
            d -= 1
            layer = self.layers[d]
            # the lowest square of the nearer layer the move may continue from that steps onto
            # ``cur``: looked for among ``cur``'s own neighbours first (adjacency is symmetric
            # on every map, AC-M20), then in the whole layer
            cand = self.masks[cur] & layer & expand
            while cand:
                low = cand & -cand
                sq = low.bit_length() - 1
                if self.masks[sq] >> cur & 1:
                    break
                cand ^= low
            else:
                sq = next(sq for sq in _bits(layer & expand) if self.masks[sq] >> cur & 1)
            cur = sq
        out.reverse()
        return out


def kth_bit(mask: int, k: int) -> int:
    """The index of the ``k``-th (from 0) lowest set bit of ``mask``; ``IndexError`` if none."""
    base = 0
    while mask:
        chunk = mask & 0xFFFFFFFFFFFFFFFF
        n = chunk.bit_count()
        if k < n:
            while k:
                chunk &= chunk - 1
                k -= 1
            return base + (chunk & -chunk).bit_length() - 1
        k -= n
        mask >>= 64
        base += 64
    raise IndexError("bit index out of range")


def _bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def reach(
    m: AcesMap,
    start: int,
    speed: int,
    friends: Collection[int],
    enemies: Collection[int],
    controlling_enemies: Collection[int],
    broken_away_from: Collection[int] = (),
) -> Reach:
    """Breadth-first search of the squares a character at ``start`` may move to.

    ``friends`` / ``enemies``: squares of other characters (the mover's own captive, which moves
    with it, belongs in neither). ``controlling_enemies``: the enemies whose adjacency stops a
    move (AC-M23; decided in AC-A09's note: captives do not). ``broken_away_from``: squares of
    the enemies the mover broke away from this action (AC-M26).
    """
    masks = _map_masks(m).neighbours
    exempt = set(broken_away_from)
    zone = 0  # squares next to a controlling enemy: a move ends there (AC-M23)
    for e in controlling_enemies:
        if e not in exempt:
            zone |= masks[e]
    friend_mask = 0
    for f in friends:
        friend_mask |= 1 << f
    enemy_mask = 0
    for e in enemies:
        enemy_mask |= 1 << e
    return reach_masks(m, start, speed, friend_mask, enemy_mask, zone)


def reach_masks(
    m: AcesMap, start: int, speed: int, friend_mask: int, enemy_mask: int, zone: int
) -> Reach:
    """``reach`` on bit masks of square indexes: friends' and enemies' squares, and ``zone``,
    the squares next to the enemies whose adjacency ends a move (AC-M23, AC-M26 applied)."""
    mm = _map_masks(m)
    # squares where a move must end: the zone, or a hindering feature other than the one the
    # move starts in (AC-M58)
    stop = zone | (mm.hindering & ~mm.by_feature.get(m.feature[start], 0))
    start_bit = 1 << start
    # never entered: enemies' squares and friends' squares where the move would have to end on
    # the friend (AC-M24); squares met once are not met again
    blocked = start_bit | (friend_mask & stop) | enemy_mask
    layers = [start_bit]
    frontier = start_bit
    ups, downs = mm.ups, mm.downs
    for _ in range(speed):
        # one step in each of the 8 directions, for every frontier square at once
        new = 0
        for ok, shift in ups:
            new |= (frontier & ok) << shift
        for ok, shift in downs:
            new |= (frontier & ok) >> shift
        new &= ~blocked
        if not new:
            break
        blocked |= new
        layers.append(new)
        frontier = new & ~stop
    reached = 0
    for layer in layers:
        reached |= layer
    return Reach(start, tuple(layers), friend_mask, stop, mm.neighbours, reached & ~friend_mask)


def neighbour_masks(m: AcesMap) -> tuple[int, ...]:
    """Each square's neighbours (``AcesMap.neighbours``) as a bit mask of square indexes."""
    return _map_masks(m).neighbours


@dataclass(frozen=True)
class _MapMasks:
    neighbours: tuple[int, ...]  # per square, its neighbours as a bit mask
    hindering: int
    by_feature: dict[int, int]  # hindering feature id -> its squares
    # (squares that may step in a direction, index shift of that step), 8 king-move directions:
    # to higher square indexes, and (shift negated) to lower ones
    ups: tuple[tuple[int, int], ...]
    downs: tuple[tuple[int, int], ...]


_MASKS: dict[int, tuple[AcesMap, _MapMasks]] = {}


def _map_masks(m: AcesMap) -> _MapMasks:
    """Per map, computed once (maps are not changed after parsing)."""
    hit = _MASKS.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    masks = tuple(sum(1 << n for n in nbrs) for nbrs in m.neighbours)
    hindering = 0
    by_feature: dict[int, int] = {}
    for i, t in enumerate(m.terrain):
        if t is Terrain.HINDERING:
            hindering |= 1 << i
            by_feature[m.feature[i]] = by_feature.get(m.feature[i], 0) | 1 << i
    w = m.width
    ok: dict[tuple[int, int], int] = {}
    for i, nbrs in enumerate(m.neighbours):
        for n in nbrs:
            dx, dy = n % w - i % w, n // w - i // w
            if max(abs(dx), abs(dy)) != 1:  # neighbours are king moves on the grid (AC-M20)
                raise ValueError(f"{m.name}: square {i} has a neighbour {n} that is not adjacent")
            ok[dx, dy] = ok.get((dx, dy), 0) | 1 << i
    steps = [(mask, dy * w + dx) for (dx, dy), mask in ok.items()]
    ups = tuple((mask, s) for mask, s in steps if s > 0)
    downs = tuple((mask, -s) for mask, s in steps if s < 0)
    mm = _MapMasks(masks, hindering, by_feature, ups, downs)
    _MASKS[id(m)] = (m, mm)
    return mm


_EDGES: dict[tuple[int, int], tuple[int, int, int]] = {}


def dilate(m: AcesMap, mask: int) -> int:
    """``mask`` grown by one square in all 8 directions, walls and terrain ignored: the squares
    within Chebyshev distance 1 of it (AC-A06), as the crow flies."""
    key = (m.width, m.height)
    edges = _EDGES.get(key)
    if edges is None:
        w, h = key
        everything = (1 << (w * h)) - 1
        first_column = sum(1 << (y * w) for y in range(h))
        edges = _EDGES[key] = (everything, first_column, first_column << (w - 1))
    everything, first, last = edges
    w = m.width
    wide = mask | (mask & ~last) << 1 | (mask & ~first) >> 1
    return (wide | wide << w | wide >> w) & everything
