"""FS-M82 "Order of damage" for rockets (issue 34, D-FS-45): "the attacker may roll all hits
first and then apply them in any order"; widowing only after all of one attacker's hits
(FS-M84 "Widowing"); a rocket's column is its roll (FS-M21 "Steady Hand")."""

from __future__ import annotations

from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Pass, Place, Rocket
from fasahelp import d10, game, placed, refused

# to-hit, hit location, column for the HE rocket; the same for the drill rocket
FACES = (10, 2, 5, 10, 2, 5)


def _brute_launches_two() -> object:
    """The brute's HE and drill rockets both hit the hawk, on the same table and column."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 5, "A", 2),
              placed("B1", "P2", "sample-brute", 10, 3, "D", 2)], combat=["B1", "A1"],
             dice=d10(*FACES, *[5] * 30))
    g.apply(Rocket("B1", "rockets_p1", "HE", "A1"))
    g.apply(Rocket("B1", "rockets_s2", "DR", "A1"))
    return g


def _marks(events: object) -> list[str]:
    return [e.cause for e in events if isinstance(e, ev.Marked)]  # type: ignore[attr-defined]


def test_fs_m82_rocket_hits_are_rolled_then_placed_in_the_attackers_order() -> None:
    """Both rockets hit and nothing is marked yet; when the brute passes its two hits wait,
    and it places the drill's first, then the HE's, each at its rolled column."""
    g = _brute_launches_two()
    st = g.state  # type: ignore[attr-defined]
    assert not st.planes["A1"].marked and st.held is not None and len(st.held[2]) == 2
    g.apply(Pass("B1"))  # type: ignore[attr-defined]
    assert g.state.pending is not None  # type: ignore[attr-defined]
    assert list(g.legal_actions()) == [Place("B1", 5, 1), Place("B1", 5, 2)]  # type: ignore
    refused(g, Place("B1", 6, 2), "FS-M21")  # type: ignore[arg-type]
    first = g.apply(Place("B1", 5, 2))  # type: ignore[attr-defined]
    assert _marks(first)[0] == "DR rocket" and "widowed" not in _marks(first)
    assert g.state.current() == "B1"  # type: ignore[attr-defined]
    last = g.apply(Place("B1", 5, 1))  # type: ignore[attr-defined]
    assert _marks(last)[0] == "HE rocket"
    assert any(isinstance(e, ev.Acted) and e.plane == "B1" for e in last)
    assert g.rebuilt_state() == g.state  # type: ignore[attr-defined]


def test_fs_m82_the_order_chosen_changes_the_damage() -> None:
    """The same two hits in the two orders: an HE rocket first (the shallow, wide template)
    then the drill through its hole is not the drill first then the HE."""
    boxes = []
    for order in ((1, 1), (2, 1)):
        g = _brute_launches_two()
        g.apply(Pass("B1"))  # type: ignore[attr-defined]
        for hit in order:
            g.apply(Place("B1", 5, hit))  # type: ignore[attr-defined]
        boxes.append(sorted(g.state.planes["A1"].marked))  # type: ignore[attr-defined]
    assert boxes[0] != boxes[1]


def test_fs_m82_one_rocket_is_applied_when_the_launching_ends() -> None:
    """A single held hit has no order to choose: it is marked when the plane passes."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 5, "A", 2),
              placed("B1", "P2", "sample-brute", 10, 3, "D", 2)], combat=["B1", "A1"],
             dice=d10(*FACES[:3], *[5] * 30))
    g.apply(Rocket("B1", "rockets_p1", "HE", "A1"))
    refused(g, Place("B1", 5, 1), "FS-M82")
    out = g.apply(Pass("B1"))
    assert _marks(out)[0] == "HE rocket" and g.state.pending is None
    assert g.state.current() == "A1"
