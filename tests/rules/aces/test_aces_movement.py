"""Movement: AC-M21..M24, AC-M26, AC-M27, AC-M58, AC-M63, AC-M64 ("Movement", "Breaking Away",
"Terrain") on the square grid, plus hypothesis properties of destination sets and paths."""

from __future__ import annotations

from aces_helpers import grid_map, open_map, sq
from dialtray.rules.aces.maps import AcesMap, Terrain
from dialtray.rules.aces.movement import reach
from hypothesis import given, settings
from hypothesis import strategies as st


def names(m: AcesMap, squares: object) -> set[str]:
    return {m.square(i).name() for i in squares}  # type: ignore[attr-defined]


def idx(m: AcesMap, *ns: str) -> list[int]:
    return [m.index(sq(n)) for n in ns]


def test_M21_up_to_speed_any_direction_zero_allowed() -> None:
    """AC-M21: move up to the speed value in any direction; moving 0 squares is legal."""
    m = open_map(9, 9)
    r = reach(m, m.index(sq("e5")), 2, (), (), ())
    assert len(r.destinations) == 25  # the 5x5 block around e5, e5 itself included
    assert m.index(sq("e5")) in r.destinations
    assert r.steps[m.index(sq("g7"))] == 2
    assert m.index(sq("h5")) not in r.destinations


def test_M22_through_friends_never_through_enemies() -> None:
    """AC-M22: through a friend's square, never through an enemy's; AC-M24 never end on one."""
    m = grid_map([". . .", "", "# . #", "", "# . #", "", ". . ."])
    start = m.index(sq("b1"))
    [b2, b3, b4] = idx(m, "b2", "b3", "b4")
    r = reach(m, start, 3, friends=[b2], enemies=(), controlling_enemies=())
    assert b3 in r.destinations and b2 not in r.destinations and b4 in r.destinations
    r = reach(m, start, 3, friends=(), enemies=[b3], controlling_enemies=())
    assert b4 not in r.destinations  # the corridor is shut by the enemy
    assert b3 not in r.destinations


def test_M23_entering_adjacency_to_an_enemy_ends_the_move() -> None:
    """AC-M23: a character must end its move when it enters a square adjacent to an enemy."""
    m = open_map(9, 3)
    [a2, d2, f2, g2] = idx(m, "a2", "d2", "f2", "g2")
    r = reach(m, a2, 8, (), [f2], [f2])
    assert r.steps.get(m.index(sq("e2"))) == 4
    assert g2 not in r.destinations  # beyond the enemy: every way round passes its zone
    assert d2 in r.destinations
    # a friend standing in the enemy's zone cannot be passed through (it would end there)
    g2b = m.index(sq("g2"))
    r2 = reach(m, a2, 8, friends=idx(m, "f1", "f2", "f3"), enemies=[g2b], controlling_enemies=[g2b])
    assert m.index(sq("e1")) in r2.destinations
    assert m.index(sq("g1")) not in r2.destinations  # only reachable through f1..f3


def test_M26_broken_away_enemies_do_not_stop_but_new_ones_do() -> None:
    """AC-M26 "Breaking Away": after a successful roll the character may move through squares
    adjacent to the enemies it broke away from, but a new enemy's zone still stops it."""
    m = open_map(9, 3)
    [b2, c2, h2] = idx(m, "b2", "c2", "h2")
    r = reach(m, b2, 5, (), [c2, h2], [c2, h2], broken_away_from=[c2])
    assert m.index(sq("d2")) in r.destinations
    assert r.steps.get(m.index(sq("g2"))) == 5  # enters h2's zone at the last step
    r0 = reach(m, b2, 5, (), [c2, h2], [c2, h2], broken_away_from=())
    assert m.index(sq("d1")) not in r0.destinations  # only from b2: zone squares stop at once


def test_M27_no_zone_across_blocking_terrain() -> None:
    """AC-M27 / AC-M65: an enemy across a wall is not adjacent: no stop, no break away."""
    m = grid_map([". .|. .", "", ". .|. .", "", ". .|. ."])
    r = reach(m, m.index(sq("a1")), 4, (), [m.index(sq("c2"))], [m.index(sq("c2"))])
    # b2 and b3 are on the other side of the wall from c2... but b1/b3 touch c2 diagonally
    # through a corner the wall runs straight through, so no square on the left is in its zone
    assert m.index(sq("b3")) in r.destinations
    assert r.steps[m.index(sq("b3"))] == 2
    assert m.index(sq("c1")) not in r.destinations  # the wall cannot be crossed at all here


def test_M58_entering_hindering_ends_move_but_not_own_feature() -> None:
    """AC-M58 / AC-A04: entering hindering terrain the character did not start in ends its move;
    it may move within the feature it started in."""
    m = grid_map([". ~ ~ ~ . ."])
    [a1, b1, c1, d1, e1] = idx(m, "a1", "b1", "c1", "d1", "e1")
    r = reach(m, a1, 5, (), (), ())
    assert b1 in r.destinations and c1 not in r.destinations
    r2 = reach(m, b1, 5, (), (), ())
    assert {c1, d1, e1} <= r2.destinations


def test_M63_M64_blocking_and_straight_diagonal_step() -> None:
    """AC-M63: no moving into or through blocking terrain; AC-M64: a straight diagonal step past
    the corner between two crates is allowed (AC-A05)."""
    m = grid_map([". # .", "", "# . #", "", ". . ."])
    r = reach(m, m.index(sq("a1")), 3, (), (), ())
    assert m.index(sq("b1")) not in r.destinations
    assert r.steps[m.index(sq("b2"))] == 1
    assert r.steps[m.index(sq("c1"))] == 2
    walled = grid_map([". .", "-", ". ."])
    r2 = reach(walled, walled.index(sq("a1")), 3, (), (), ())
    # the wall a1|a2 ends at the corner; the way round via b1 is open, so the diagonal is legal
    assert r2.steps[walled.index(sq("b2"))] == 1


@st.composite
def scenes(draw: st.DrawFn) -> tuple[AcesMap, int, int, list[int], list[int]]:
    w, h = draw(st.integers(3, 9)), draw(st.integers(3, 9))
    cells = draw(st.lists(st.sampled_from("....~#"), min_size=w * h, max_size=w * h))
    rows: list[str] = []
    for y in range(h):
        rows.append(" ".join(cells[y * w : (y + 1) * w]))
        if y < h - 1:
            rows.append(" ".join(draw(st.sampled_from(" -    ")) for _ in range(w)))
    m = grid_map(rows)
    free = [i for i in range(m.size) if m.terrain[i] is not Terrain.BLOCKING]
    if not free:
        cells[0] = "."
        rows[0] = " ".join(cells[:w])
        m = grid_map(rows)
        free = [i for i in range(m.size) if m.terrain[i] is not Terrain.BLOCKING]
    start = draw(st.sampled_from(free))
    others = [i for i in free if i != start]
    friends = draw(st.lists(st.sampled_from(others), max_size=4, unique=True)) if others else []
    rest = [i for i in others if i not in friends]
    enemies = draw(st.lists(st.sampled_from(rest), max_size=4, unique=True)) if rest else []
    speed = draw(st.integers(0, 8))
    return m, start, speed, friends, enemies


@settings(max_examples=200, deadline=None)
@given(scenes())
def test_property_destinations_never_enemy_occupied_blocked_or_occupied(
    scene: tuple[AcesMap, int, int, list[int], list[int]],
) -> None:
    """Hypothesis: a destination set never holds an enemy-occupied, friend-occupied or blocking
    square; every path is at most speed long, goes step by step through legal squares, never
    through an enemy, and never continues past a square next to an enemy (AC-M22..M24, M63)."""
    m, start, speed, friends, enemies = scene
    r = reach(m, start, speed, friends, enemies, enemies)
    zone = {n for e in enemies for n in m.neighbours[e]}
    for d in r.destinations:
        assert d not in enemies and d not in friends
        assert m.terrain[d] is not Terrain.BLOCKING
        path = r.path(d)
        assert len(path) == r.steps[d] <= speed
        prev = start
        for k, s in enumerate(path):
            assert s in m.neighbours[prev]
            assert s not in enemies
            if k < len(path) - 1:
                assert s not in zone
                assert m.terrain[s] is not Terrain.HINDERING or m.feature[s] == m.feature[start]
            prev = s
