"""Damaged controls in play (issue 34: the engine's plots and pushes, not only the sheet's
numbers): FS-M95 "Tail controls", FS-M96 "Elevators", FS-M97 "Rudder", FS-M98 "Wing controls",
FS-M99 "Flaps", FS-M100 "Ailerons", FS-M101 "Wing spar". A destroyed location is given as the
game's own ``LocationLost`` event; the plots offered and refused, and the pushes a plot costs,
are the engine's."""

from __future__ import annotations

from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Plot
from dialtray.rules.fasa.movement import caps, pushes
from dialtray.rules.fasa.template import parse_plot
from fasahelp import game, placed, refused


def _hawk(*lost: str, speed: int = 3) -> object:
    """A1 (sample-hawk: G 3 each wing, deceleration 2) with ``lost`` locations destroyed."""
    return game([placed("A1", "P1", "sample-hawk", 10, 8, "A", speed),
                 placed("B1", "P2", "sample-gunship", 10, 3, "D", 2)],
                extra=[ev.LocationLost("A1", loc, "FS-M88") for loc in lost])


def _directions(g: object) -> set[str]:
    return {parse_plot(a.maneuver).direction for a in g.legal_actions()  # type: ignore
            if isinstance(a, Plot) and a.plane == "A1" and not a.bail}


def _push_kinds(g: object, plot: str) -> dict[str, int]:
    p = g.state.planes["A1"]  # type: ignore[attr-defined]
    return {x.kind: x.over for x in pushes(caps(p, 1), parse_plot(plot))}


def test_fs_m97_one_rudder_locks_the_turns_to_its_side() -> None:
    """FS-M97 Rudder: "with one side damaged the rudder is locked that way, so only turns that
    way (right rudder -> only R)": no L plot is offered and one is refused naming FS-M97;
    straight plots stay."""
    g = _hawk("rudder_right")
    assert _directions(g) >= {"R", "S"} and "L" not in _directions(g)
    refused(g, Plot("A1", "1L1A"), "FS-M97")
    assert "L" in _directions(_hawk())


def test_fs_m95_tail_controls_after_one_rudder_apply_the_other_rudder_and_both_elevators() -> None:
    """FS-M95 Tail controls: "If only one is damaged, apply the other's penalty": the left
    rudder already gone, a tail-controls hit leaves only S plots (FS-M97 both sides) and
    takes 1 G off each wing (FS-M96 both elevators): 3 -> 2 on each side."""
    g = _hawk("rudder_left", "tail_controls")
    assert _directions(g) <= {"S", ""}
    refused(g, Plot("A1", "1R1A"), "FS-M97")
    p = g.state.planes["A1"]  # type: ignore[attr-defined]
    assert (p.g_rating("port"), p.g_rating("starboard")) == (2, 2)


def test_fs_m96_m100_m101_each_loss_on_a_wing_takes_one_g_from_that_side_only() -> None:
    """FS-M96 a port elevator, FS-M100 the port aileron (through FS-M98 wing controls) and
    FS-M101 a port spar: -1 G each on the port side: 3 - 3 = 0, so a 1 G left plot pushes
    the Gs by 1 (FS-M46) while the same turn right does not (at speed 1: no slowing down)."""
    g = _hawk("elevator_port", "wing_controls_port", "spar_port_1", speed=1)
    assert _push_kinds(g, "1L1A") == {"gs": 1}
    assert _push_kinds(g, "1R1A") == {}
    assert _push_kinds(_hawk(speed=1), "1L1A") == {}


def test_fs_m98_m99_a_flap_lets_the_plane_slow_by_one_without_pushing() -> None:
    """FS-M99 Flaps: "with either flap damaged, the plane may reduce speed by only 1 per
    Movement Phase without pushing deceleration" (FS-M98: wing controls hit the flap too):
    from speed 3, a 1 hex plot is a deceleration push of 1 (it was free at deceleration 2)."""
    assert _push_kinds(_hawk(), "1SA") == {}
    for lost in ("flap_starboard", "wing_controls_port"):
        assert _push_kinds(_hawk(lost), "1SA") == {"decel": 1}
        assert _push_kinds(_hawk(lost), "2SA") == {}
