"""The plane as a projectile at map objects and at a towing plane (issue 34; FS-M63 "Plane as
projectile", FS-M64 "Projectile damage", FS-T17, FS-M110 "Towing"; D-FS-49).

FS-T17 rides an empty plane into a zeppelin's engine nacelle: "(his plane's base target number
6) + (the engine nacelle's base target number 7) - (the pilot stayed on target for 3 turns,
moving 2 hexes each turn)"; FS-M64: "A non-piloted object takes points equal to the damage
template."
"""

from __future__ import annotations

from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Pass, Plot
from dialtray.rules.fasa.damage import shape
from dialtray.rules.fasa.hexmap import from_offset
from dialtray.rules.fasa.tn import projectile_hits
from fasahelp import d10, game, placed

HAWK_BASE = 7  # sample-hawk's base TN (SAMPLE sheet)


def _ride(col: int, row: int, first: int, map_name: str = "sample-zeppelin",
          extra: tuple[ev.Event, ...] = (), b1: tuple[int, int, str, int] = (17, 2, "D", 1),
          b1_plots: tuple[str, str] = ("1SA", "1SA")) -> tuple[object, list[ev.Event]]:
    """A1 bails out at speed 2 facing A (north); the empty plane flies on two turns; the
    first die left after the movement is ``first`` (the FS-M63 roll)."""
    g = game([placed("A1", "P1", "sample-hawk", col, row, "A", 2),
              placed("A2", "P1", "sample-pusher", 3, 12, "A", 1),
              placed("B1", "P2", "sample-gunship", b1[0], b1[1], b1[2], b1[3])],
             extra=extra, map_name=map_name, dice=d10(first, *[3, 7] * 30))
    events: list[ev.Event] = []
    g.apply(Plot("A1", "2SA", bail=True))
    for turn in range(2):
        g.apply(Plot("A2", "1SA"))
        events += g.apply(Plot("B1", b1_plots[turn]))
        if g.state.planes["A1"].status != "projectile":
            break
        while g.state.phase != "plot":
            g.apply(Pass((g.state.current() or "").removesuffix("-turret")))
    return g, events


def test_fs_m63_fs_t17_an_empty_plane_rides_into_a_nacelle_over_two_turns() -> None:
    """FS-M63 at a map object: the nacelle straight ahead keeps the empty plane flying on
    (status ``projectile``); it stops in the nacelle's hex (it blocks, FS-M116) after 2 + 2
    straight hexes: TN 7 + 7 - 4 = 10; a 10 hits; FS-M64 7 flak hits of 3 boxes each take
    all 12 of the nacelle's points; the empty plane is out of play."""
    g, events = _ride(10, 12, 10)
    roll = next(e for e in events if isinstance(e, ev.Rolled) and e.rule == "FS-M63")
    assert (roll.purpose, roll.tn, roll.success) == (
        "projectile at nacelle-starboard", 7 + HAWK_BASE - 4, True)
    assert ev.GroundHit("nacelle-starboard", 12, "FS-M64") in events
    assert g.state.ground["nacelle-starboard"] == 0  # type: ignore[attr-defined]
    a1 = g.state.planes["A1"]  # type: ignore[attr-defined]
    assert a1.status == "bailed" and a1.hex == from_offset(10, 8)


def test_fs_m63_a_miss_at_the_object_leaves_it_whole_and_the_plane_gone() -> None:
    """FS-M63: TN 10, a 3 misses: the nacelle keeps its 12 points; the empty plane, flown
    into it, is out of play all the same (D-FS-49)."""
    g, events = _ride(10, 12, 3)
    assert not [e for e in events if isinstance(e, ev.GroundHit)]
    assert g.state.ground["nacelle-starboard"] == 12  # type: ignore[attr-defined]
    assert g.state.planes["A1"].status == "bailed"  # type: ignore[attr-defined]


def test_fs_m64_a_gas_cell_takes_the_flak_templates_points_per_hit() -> None:
    """FS-M64 into a gas cell (base TN 1): 1 + 7 - 4 = 4; a hit is 14 - 7 = 7 flak hits, each
    the flak template's boxes (the samples carry no "Zep. Dmg." numbers, D-FS-41): 21."""
    g, events = _ride(9, 10, 10)
    roll = next(e for e in events if isinstance(e, ev.Rolled) and e.rule == "FS-M63")
    assert (roll.purpose, roll.tn) == ("projectile at cell-3", 1 + HAWK_BASE - 4)
    points = projectile_hits(HAWK_BASE) * len(shape("flak"))
    assert g.state.ground["cell-3"] == 60 - points == 39  # type: ignore[attr-defined]


def test_fs_m63_m110_an_empty_plane_strikes_the_towing_plane_not_its_object() -> None:
    """FS-M110 lets "any attacker that successfully hits the towing plane" designate the
    object; an empty plane has no pilot left to designate anything, and the object on its
    cable is in no hex for it to end in (D-FS-16): B1, towing the crate, flies head-on into
    the empty plane's hex; it strikes the towing plane (FS-M64's 7 flak hits marked on B1)
    and the crate stays whole and in tow (D-FS-49)."""
    towed = ev.Tow("B1", "crate", "grabbed", None, "FS-M109")
    g, events = _ride(10, 10, 10, map_name="sample-town", extra=(towed,),
                      b1=(10, 7, "D", 1))
    roll = next(e for e in events if isinstance(e, ev.Rolled) and e.rule == "FS-M63")
    assert roll.purpose == "projectile at B1" and roll.success
    assert [e for e in events if isinstance(e, ev.Marked) and e.rule == "FS-M64"
            and e.plane == "B1"]
    assert g.state.ground["crate"] == 8  # type: ignore[attr-defined]
    assert not [e for e in events if isinstance(e, ev.Tow)]
    assert g.state.planes["B1"].towing == "crate"  # type: ignore[attr-defined]
