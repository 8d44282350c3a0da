"""Maps as text files: AC-M05 (map choice, sample maps), AC-M07 (starting-area geometry),
AC-M20 (adjacency), AC-M57..M65 (terrain), AC-A05 (walls on edges, straight diagonals)."""

from __future__ import annotations

import pytest
from aces_helpers import grid_map, sq
from dialtray.rules.aces.grid import Square, chebyshev, touching
from dialtray.rules.aces.maps import (
    MapError,
    Terrain,
    load_map,
    parse_map,
    shipped_maps,
    standard_starting_areas,
)


def test_square_names_round_trip() -> None:
    assert Square.parse("c5") == Square(2, 4)
    assert Square(23, 29).name() == "x30"
    with pytest.raises(ValueError):
        Square.parse("5c")


def test_shipped_maps_are_samples_and_parse() -> None:
    """AC-M05 "Hit the Deck!": an airfield bar and a zeppelin deck; the real map is not in the
    rules, so every shipped map says it is a sample."""
    names = shipped_maps()
    assert {"airfield_bar", "zeppelin_deck", "hangar_24x30"} <= set(names)
    for n in names:
        m = load_map(n)
        assert m.sample is True
        assert len(m.starting_areas) >= 2
        assert parse_map(m.render(), "again").terrain == m.terrain
    hangar = load_map("hangar_24x30")
    assert (hangar.width, hangar.height) == (24, 30)


def test_standard_starting_areas_AC_M07() -> None:
    """AC-M07 "Hit the Deck!": along the narrow edges, three squares deep, two squares in from the
    side edges."""
    a, b = standard_starting_areas(16, 20)
    assert a.top_left == Square(2, 0) and a.bottom_right == Square(13, 2)
    assert b.top_left == Square(2, 17) and b.bottom_right == Square(13, 19)
    assert Square(1, 0) not in a and Square(2, 3) not in a and Square(2, 2) in a
    # a wide map: the narrow edges are the left and right columns
    c, d = standard_starting_areas(20, 16)
    assert c.top_left == Square(0, 2) and c.bottom_right == Square(2, 13)
    assert d.top_left == Square(17, 2)


def test_terrain_and_walls_parse() -> None:
    m = grid_map([". ~|#", "-", ". . ."])
    assert m.terrain_at(sq("a1")) is Terrain.CLEAR
    assert m.terrain_at(sq("b1")) is Terrain.HINDERING
    assert m.terrain_at(sq("c1")) is Terrain.BLOCKING
    assert m.wall_between(m.index(sq("b1")), m.index(sq("c1")))
    assert m.wall_between(m.index(sq("a1")), m.index(sq("a2")))
    assert not m.wall_between(m.index(sq("b1")), m.index(sq("b2")))


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ("name: x\nsample: true\nsize: 3x2\ngrid:\n. . .\n\n. ? .\n", 7, 3, "expected one of"),
        ("name: x\nsample: true\nsize: 3x2\ngrid:\n. . .\n\n. .\n", 7, 5, "end of line"),
        ("name: x\nsample: true\nsize: 3x2\ngrid:\n. . .\n x\n. . .\n", 6, 2, "edge row"),
        ("name: x\nsample: true\nsize: 3x2\ngrid:\n.*. .\n\n. . .\n", 5, 2, "between squares"),
        ("name: x\nsample: maybe\nsize: 3x2\ngrid:\n", 2, 9, "true or false"),
        ("name: x\nsample: true\nsize: 3x2\ngrid:\n. . .\n", 6, 1, "needs 3"),
        (
            "name: x\nsample: true\nsize: 3x2\nstart: 1 a1 z9\ngrid:\n. . .\n\n. . .\n",
            4,
            1,
            "off the",
        ),
        ("name: x\nsample: true\nsize: 8x8\ncolour: red\n", 4, 1, "unknown key"),
    ],
)
def test_map_errors_name_file_line_column(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(MapError) as info:
        parse_map(text, "bad.map")
    err = info.value
    assert (err.file, err.line, err.column) == ("bad.map", line, column), str(err)
    assert fragment in err.message
    assert str(err).startswith(f"bad.map:{line}:{column}: ")


def test_adjacency_AC_M20_eight_squares_fewer_at_edges() -> None:
    """AC-M20 "Adjacent Squares": 8 around a centre square, fewer on the edge of the map."""
    m = grid_map([". . .", "", ". . .", "", ". . ."])
    assert len(m.neighbours[m.index(sq("b2"))]) == 8
    assert len(m.neighbours[m.index(sq("a1"))]) == 3
    assert touching(sq("a1"), sq("b2")) and not touching(sq("a1"), sq("c3"))
    assert chebyshev(sq("a1"), sq("c2")) == 2  # AC-A06


def test_adjacency_AC_M65_not_across_blocking_terrain() -> None:
    """AC-M65 "Blocking Terrain": characters on opposite sides of blocking terrain are not
    adjacent. A wall through the corner cuts the diagonal; a wall that only ends at the corner
    does not (AC-A05, straight diagonal)."""
    m = grid_map([". .|.", "", ". .|.", "", ". . ."])
    b1, c1, b2, c2, c3, b3 = (m.index(sq(n)) for n in ("b1", "c1", "b2", "c2", "c3", "b3"))
    assert c1 not in m.neighbours[b1]  # orthogonal, across the wall
    assert c1 not in m.neighbours[b2]  # the wall b1|c1 + b2|c2 runs straight through the corner
    assert c3 in m.neighbours[b2]  # the wall ends at this corner: the diagonal only touches it
    assert b3 in m.neighbours[c2]
    crate = grid_map([". #", "", "# ."])
    a1, b2 = crate.index(sq("a1")), crate.index(sq("b2"))
    assert b2 in crate.neighbours[a1]  # AC-M64: a straight diagonal between two crates
    assert crate.neighbours[crate.index(sq("b1"))] == ()
