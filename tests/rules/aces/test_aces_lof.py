"""Line of fire and range: AC-M30..M33, AC-M60, AC-M61, AC-M63, AC-M64, worked examples AC-T06 and
AC-T07 on the sample map ``lof_diagrams``."""

from __future__ import annotations

from aces_helpers import grid_map, open_map, sq
from dialtray.rules.aces.grid import Square
from dialtray.rules.aces.lof import line_of_fire, trace
from dialtray.rules.aces.maps import AcesMap, load_map, parse_map
from hypothesis import given, settings
from hypothesis import strategies as st

DIAGRAMS = load_map("lof_diagrams")


def lof(m: AcesMap, a: str, b: str, *others: str) -> tuple[bool, int]:
    occ = {m.index(sq(n)) for n in (a, b, *others)}
    r = line_of_fire(m, sq(a), sq(b), occ)
    return r.clear, r.hindering


def test_T06_wall_blocks_genghis_not_show_stopper() -> None:
    """AC-T06 (caption): "Charlie has a clear line of fire ... to Show-stopper. The wall blocks
    Charlie's line of fire (dashed line) to Genghis." Charlie c6, Show-stopper e3, Genghis i6."""
    occupied = {DIAGRAMS.index(sq(n)) for n in ("c6", "e3", "i6")}
    to_show = line_of_fire(DIAGRAMS, sq("c6"), sq("e3"), occupied)
    to_genghis = line_of_fire(DIAGRAMS, sq("c6"), sq("i6"), occupied)
    assert to_show.clear and to_show.distance == 3
    assert not to_genghis.clear and "wall" in to_genghis.reason


def test_T07_straight_diagonal_touches_terrain_only_at_corners() -> None:
    """AC-T07 (caption): "Charlie may draw a straight line of fire to Show-stopper on a diagonal.
    This shot does not cross hindering terrain or blocking terrain because it is a straight
    diagonal." Charlie f2, Show-stopper j6; the crate g2 and the plant i4 touch that diagonal."""
    assert DIAGRAMS.terrain_at(sq("g2")).value == "blocking"
    assert DIAGRAMS.terrain_at(sq("i4")).value == "hindering"
    assert lof(DIAGRAMS, "f2", "j6") == (True, 0)
    # lines that enter those squares instead of touching their corners
    assert lof(DIAGRAMS, "h3", "j5") == (True, 1)  # through the plant's square i4
    assert lof(DIAGRAMS, "f2", "j5")[0] is False  # one square off the diagonal: through crate g2
    assert lof(DIAGRAMS, "f1", "h3")[0] is False  # a diagonal through the crate's centre


def test_M31_characters_block_but_not_attacker_or_target() -> None:
    """AC-M31 "Ranged Combat": a character other than the attacker or the target blocks."""
    m = open_map(8, 8)
    assert lof(m, "a1", "e1") == (True, 0)
    assert lof(m, "a1", "e1", "c1")[0] is False
    assert lof(m, "a1", "e1", "c2")[0] is True
    # a straight diagonal only touches the squares beside it
    assert lof(m, "a1", "d4", "b1", "a2", "c2")[0] is True
    assert lof(m, "a1", "d4", "b2")[0] is False


def test_M60_hindering_once_including_target_square() -> None:
    """AC-M60: +1 once, however many hindering squares; the target's own square counts."""
    m = grid_map([". ~ ~ ~ . ~"])
    assert lof(m, "a1", "e1") == (True, 1)
    assert lof(m, "e1", "f1") == (True, 1)  # only the target's square is hindering


def test_M61_attackers_own_hindering_square_gives_no_bonus() -> None:
    """AC-M61: the attacker's square, when it is the only hindering one, gives no bonus."""
    m = grid_map(["~ . . ~"])
    assert lof(m, "a1", "c1") == (True, 0)
    assert lof(m, "a1", "d1") == (True, 1)


def test_M63_blocking_terrain_and_walls_block() -> None:
    m = grid_map([". . # . .", "", ". .|. . ."])
    assert lof(m, "a1", "e1")[0] is False
    assert lof(m, "a2", "e2")[0] is False
    assert lof(m, "a2", "b2")[0] is True


def test_M32_range_does_not_count_attackers_square() -> None:
    """AC-M32: count squares to the target; the attacker's square is not counted (Chebyshev)."""
    m = open_map(10, 10)
    assert line_of_fire(m, sq("a1"), sq("d3"), set()).distance == 3
    assert line_of_fire(m, sq("a1"), sq("b2"), set()).distance == 1


def _random_map(data: st.DataObject, w: int, h: int) -> AcesMap:
    cells = data.draw(st.lists(st.sampled_from(".....~#"), min_size=w * h, max_size=w * h))
    vwalls = data.draw(st.lists(st.booleans(), min_size=w * h, max_size=w * h))
    hwalls = data.draw(st.lists(st.booleans(), min_size=w * h, max_size=w * h))
    rows: list[str] = []
    for y in range(h):
        row = ""
        for x in range(w):
            row += cells[y * w + x]
            if x < w - 1:
                row += "|" if vwalls[y * w + x] and data.draw(st.booleans()) else " "
        rows.append(row)
        if y < h - 1:
            rows.append(" ".join("-" if hwalls[y * w + x] else " " for x in range(w)))
    text = f"name: r\nsample: true\nsize: {w}x{h}\ngrid:\n" + "\n".join(rows) + "\n"
    return parse_map(text, "<random>")


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_property_line_of_fire_is_symmetric(data: st.DataObject) -> None:
    """Hypothesis: LOF(a, b) == LOF(b, a) on random maps with random figures (AC-M31)."""
    w = data.draw(st.integers(2, 9))
    h = data.draw(st.integers(2, 9))
    m = _random_map(data, w, h)
    free = [i for i in range(m.size) if m.terrain[i].value != "blocking"]
    if len(free) < 2:
        return
    a = data.draw(st.sampled_from(free))
    b = data.draw(st.sampled_from([i for i in free if i != a]))
    occ = set(data.draw(st.lists(st.sampled_from(free), max_size=6))) | {a, b}
    ab = line_of_fire(m, m.square(a), m.square(b), occ)
    ba = line_of_fire(m, m.square(b), m.square(a), occ)
    assert (ab.clear, ab.distance) == (ba.clear, ba.distance)
    # the hindering modifier need not be symmetric (AC-M61 is about the attacker's square), but
    # the squares crossed are the same set
    assert set(trace(m, a, b).squares) - {b} == set(trace(m, b, a).squares) - {a}


def test_trace_visits_each_square_once_and_ends_on_target() -> None:
    m = open_map(12, 12)
    for a in range(0, m.size, 7):
        for b in range(0, m.size, 5):
            if a == b:
                continue
            t = trace(m, a, b).squares
            assert t[-1] == b and len(set(t)) == len(t)
            assert Square(0, 0) is not None
