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
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from dialtray.rules.aces.maps import AcesMap, Terrain


@dataclass(frozen=True)
class Reach:
    """Every square a move can end on, with its step count and one shortest legal path."""

    start: int
    steps: dict[int, int]  # destination square index -> squares moved
    parent: dict[int, int]  # square index -> previous square on the path

    @property
    def destinations(self) -> frozenset[int]:
        return frozenset(self.steps)

    def path(self, dest: int) -> list[int]:
        """Squares from the start (excluded) to ``dest`` (included)."""
        if dest not in self.parent and dest != self.start:
            raise KeyError(dest)
        out: list[int] = []
        cur = dest
        while cur != self.start:
            out.append(cur)
            cur = self.parent[cur]
        out.reverse()
        return out


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
    neighbours = m.neighbours
    terrain = m.terrain
    feature = m.feature
    start_feature = feature[start]
    exempt = set(broken_away_from)
    zone: set[int] = set()
    for e in controlling_enemies:
        if e not in exempt:
            zone.update(neighbours[e])
    enemy_set = set(enemies)
    friend_set = set(friends)

    def stops(j: int) -> bool:
        return j in zone or (terrain[j] is Terrain.HINDERING and feature[j] != start_feature)

    dist: dict[int, int] = {start: 0}
    parent: dict[int, int] = {}
    frontier = [start]
    d = 0
    while frontier and d < speed:
        d += 1
        nxt: list[int] = []
        for s in frontier:
            if s != start and stops(s):
                continue
            for n in neighbours[s]:
                if n in dist or n in enemy_set:
                    continue
                if n in friend_set and stops(n):
                    continue  # it would have to end its move on a friend (AC-M24)
                dist[n] = d
                parent[n] = s
                nxt.append(n)
        frontier = nxt
    steps = {sq: k for sq, k in dist.items() if sq not in friend_set}
    return Reach(start, steps, parent)
