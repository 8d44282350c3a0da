"""Flak and bombs at a towed object (issue 34; FS-M110 "Towing", FS-M105 "Flak rocket (FK)",
FS-M121 "Main guns", FS-M114 "Bombs"; D-FS-48).

FS-M110: "any attacker that successfully hits the towing plane can designate either the plane
or the towed object as the target ... a hit location roll of 1 to 6 hits the object and 7 to 10
hits the cable". A flak burst auto-hits every plane in its mega-hex, so its launcher designates
when it launches (``launch ... FK HEX tow``, ``barrage POST HEX tow``); a bomb falls on the
ground (FS-M114: "If a ground object occupies the hex the bomb lands in") and so reaches a
towed object only once it has been dropped and lies there.
"""

from __future__ import annotations

from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Barrage, Bomb, Launch, Pass, Plot, parse_action
from dialtray.rules.fasa.damage import shape
from dialtray.rules.fasa.hexmap import from_offset
from fasahelp import d10, done, game, placed, refused

TOWED = ev.Tow("B1", "crate", "grabbed", None, "FS-M109")  # sample-town's crate, 8 points
BURST = from_offset(10, 5)


def _flak_at_tow(*faces: int, tow: bool = True) -> tuple[object, tuple[ev.Event, ...]]:
    """A1 launches flak at the hex B1 (towing the crate) flies into next turn."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
              placed("B1", "P2", "sample-gunship", 10, 4, "D", 1)], extra=[TOWED],
             map_name="sample-town", combat=["A1", "B1"], dice=d10(*faces))
    g.apply(Launch("A1", "rockets_s1", "FK", BURST, tow))
    assert g.state.counters == [("FK", BURST, "A1", 1, tow)]
    done(g, "A1")
    g.apply(Pass("B1"))
    g.apply(Plot("A1", "1SA"))
    return g, g.apply(Plot("B1", "1SA"))  # B1 ends in the burst's hex: 2 hits


def test_fs_m110_m105_a_flak_burst_aimed_at_the_towed_object_hits_it_not_the_plane() -> None:
    """FS-M110 Towing / FS-M105 Flak rocket: each of the burst's 2 hits on B1 rolls the tow
    location; 1-6 the crate takes the flak template's boxes (3) in points; B1 is not marked."""
    g, events = _flak_at_tow(*[5] * 40)
    rolls = [e for e in events if isinstance(e, ev.Rolled) and e.rule == "FS-M110"]
    assert [r.roll for r in rolls] == [5, 5]
    assert g.state.ground["crate"] == 8 - 2 * len(shape("flak"))  # type: ignore[attr-defined]
    assert g.state.planes["B1"].towing == "crate"  # type: ignore[attr-defined]
    assert not [e for e in events if isinstance(e, ev.Marked) and e.plane == "B1"]


def test_fs_m110_m105_flak_at_the_cable_drops_the_object_and_the_rest_strike_the_plane() -> None:
    """FS-M110: a 7-10 hits the cable: the crate falls in the hex behind B1 (10,4); the
    burst's second hit then strikes the plane as flak does (D-FS-48)."""
    g, events = _flak_at_tow(8, *[5] * 40)
    assert ev.Tow("B1", "crate", "dropped", from_offset(10, 4), "FS-M110") in events
    assert g.state.ground["crate"] == 8  # type: ignore[attr-defined]
    flak = [e for e in events if isinstance(e, ev.Marked) and e.rule == "FS-M105"]
    assert [e.plane for e in flak] == ["B1"]


def test_fs_m105_flak_not_aimed_at_the_tow_strikes_the_towing_plane() -> None:
    """FS-M110 "If the attacker chose to target the plane, apply damage as normal": both of
    the burst's hits are marked on B1 and the crate is untouched."""
    g, events = _flak_at_tow(*[5] * 40, tow=False)
    flak = [e for e in events if isinstance(e, ev.Marked) and e.rule == "FS-M105"]
    assert [e.plane for e in flak] == ["B1", "B1"]
    assert g.state.ground["crate"] == 8 and g.state.planes["B1"].towing == "crate"  # type: ignore


def test_fs_m110_flak_tow_is_offered_only_at_a_towing_foe_and_only_for_flak() -> None:
    """The ``tow`` launch is listed while an enemy tows; a flare does no damage (refused
    naming FS-M110), nor is ``tow`` taken when nobody tows; the text round-trips."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
              placed("B1", "P2", "sample-gunship", 10, 4, "D", 1)], extra=[TOWED],
             map_name="sample-town", combat=["A1", "B1"])
    assert Launch("A1", "rockets_s1", "FK", BURST, True) in g.legal_actions()
    refused(g, Launch("A1", "rockets_s1", "FL", BURST, True), "FS-M110")
    text = "launch A1 rockets_s1 FK 10,5 tow"
    assert parse_action(text).text() == text
    free = game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
                 placed("B1", "P2", "sample-gunship", 10, 4, "D", 1)],
                map_name="sample-town", combat=["A1", "B1"])
    assert Launch("A1", "rockets_s1", "FK", BURST, True) not in free.legal_actions()
    refused(free, Launch("A1", "rockets_s1", "FK", BURST, True), "FS-M110")


def test_fs_m121_a_main_gun_barrage_aimed_at_the_tow_hits_the_object() -> None:
    """FS-M121 Main guns work "just like fighter-based flak rockets": a barrage with ``tow``
    sends its hits on a P1 plane towing the cargo pod at the pod (the post fights for P2):
    a 2 takes 3 points off the pod, a 9 then breaks the cable and the pod falls behind A1."""
    target = from_offset(5, 4)  # down main-port-1's row F (SAMPLE warship)
    pod = ev.Tow("A1", "cargo-pod", "grabbed", None, "FS-M109")
    planes = [placed("A1", "P1", "sample-hawk", 5, 6, "A", 2),
              placed("B1", "P2", "sample-brute", 2, 1, "D", 2)]
    g = game(planes, extra=[pod], map_name="sample-warship",
             combat=["A1", "B1", "main-port-1"], dice=d10(2, 9, *range(1, 11)))
    g.apply(Pass("A1"))
    g.apply(Pass("B1"))
    assert Barrage("main-port-1", target, True) in g.legal_actions()
    assert parse_action("barrage main-port-1 5,4 tow") == Barrage("main-port-1", target, True)
    points = g.state.ground["cargo-pod"]
    g.apply(Barrage("main-port-1", target, True))
    g.apply(Plot("A1", "2SA"))  # into the target hex
    events = g.apply(Plot("B1", "2SA"))
    at_tow = [e.roll for e in events if isinstance(e, ev.Rolled) and e.rule == "FS-M110"]
    assert at_tow == [2, 9]
    assert g.state.ground["cargo-pod"] == points - len(shape("flak"))
    assert ev.Tow("A1", "cargo-pod", "dropped", from_offset(5, 5), "FS-M110") in events
    assert not [e for e in events if isinstance(e, ev.Marked) and e.plane == "A1"]
    free = game(planes, map_name="sample-warship", combat=["main-port-1"])
    refused(free, Barrage("main-port-1", target, True), "FS-M110")


def test_fs_m114_a_bomb_reaches_dropped_cargo_where_it_lies_never_a_towed_one() -> None:
    """FS-M114 Bombs: "If a ground object occupies the hex ... apply damage": cargo on the
    ground is such an object (TN 7 + 5 (100 lb) - Dead Eye 4 = 8; a 10 hits: 1 hit of 3
    points). The same bomb in the hex of a plane towing the crate touches neither."""
    crate = from_offset(8, 9)
    g = game([placed("A2", "P1", "sample-pusher", 8, 9, "A", 2),
              placed("B1", "P2", "sample-gunship", 15, 10, "D", 2)],
             map_name="sample-town", combat=["A2", "B1"], dice=d10(10))
    events = g.apply(Bomb("A2", "rockets_p1", crate))
    assert next(e for e in events if isinstance(e, ev.Rolled)).tn == 8
    assert g.state.ground["crate"] == 8 - 3
    towed = game([placed("A2", "P1", "sample-pusher", 12, 6, "A", 2),
                  placed("B1", "P2", "sample-gunship", 12, 6, "D", 2)], extra=[TOWED],
                 map_name="sample-town", combat=["A2", "B1"], dice=d10(10))
    events = towed.apply(Bomb("A2", "rockets_p1", from_offset(12, 6)))
    assert not [e for e in events if isinstance(e, ev.GroundHit | ev.Marked)]
    assert towed.state.ground["crate"] == 8 and towed.state.planes["B1"].towing == "crate"


def test_fs_m114_a_bomb_on_an_adjacent_gas_cell_and_a_scatter_that_misses_the_sky() -> None:
    """FS-M114 at a map object (issue 34 "rockets and bombs at map objects", D-FS-50): the
    pusher next to cell-3 aims its 100 lb bomb at it: TN 1 (the cell's base) + 5 (100 lb) + 5
    (adjacent) - Dead Eye 4 = 7; a 10 hits: 1 hit of the flak template's 3 points. A 1 misses
    and scatters (a scatter 10: 0 hexes, SAMPLE diagram) back into the cell's hex; a scattered
    bomb harms only a ground object ("If a ground object occupies the hex the bomb lands in"),
    so the cell is untouched."""
    cell = from_offset(9, 6)
    b1 = placed("B1", "P2", "sample-gunship", 17, 2, "D", 2)
    g = game([placed("A2", "P1", "sample-pusher", 10, 7, "A", 2), b1],
             map_name="sample-zeppelin", combat=["A2", "B1"], dice=d10(10))
    assert Bomb("A2", "rockets_p1", cell) in g.legal_actions()
    events = g.apply(Bomb("A2", "rockets_p1", cell))
    assert next(e for e in events if isinstance(e, ev.Rolled)).tn == 1 + 5 + 5 - 4
    assert ev.GroundHit("cell-3", 3, "FS-M114") in events
    miss = game([placed("A2", "P1", "sample-pusher", 10, 7, "A", 2), b1],
                map_name="sample-zeppelin", combat=["A2", "B1"], dice=d10(1, 10))
    events = miss.apply(Bomb("A2", "rockets_p1", cell))
    assert not [e for e in events if isinstance(e, ev.GroundHit)]
    assert all(miss.state.ground[c] == 60 for c in ("cell-2", "cell-3", "cell-4"))


def test_fs_m114_a_bomb_on_a_ground_turret_damages_it() -> None:
    """FS-M114 / FS-M06 step 3: a ground turret (sample-town's flak nest, base TN 7, 8 points)
    is a ground object: the pusher over it drops its 100 lb bomb, TN 7 + 5 - Dead Eye 4 = 8;
    a 10 hits: 3 points off the nest."""
    nest = from_offset(13, 7)
    g = game([placed("A2", "P1", "sample-pusher", 13, 7, "A", 2),
              placed("B1", "P2", "sample-gunship", 2, 1, "D", 2)],
             map_name="sample-town", combat=["A2", "B1"], dice=d10(10))
    events = g.apply(Bomb("A2", "rockets_p1", nest))
    assert next(e for e in events if isinstance(e, ev.Rolled)).tn == 7 + 5 - 4
    assert g.state.ground["flak-nest"] == 8 - 3


def test_fs_m105_m118_a_flak_burst_shreds_gas_cells_but_not_an_engine_nacelle() -> None:
    """FS-M105 "inflicting damage to everything in the surrounding mega-hex and double damage
    (two hits) to anything in the target hex" (D-FS-52) and FS-M118 "engine nacelles cannot be
    damaged by flak rocket attacks or flak barrages": A1's flak at 11,7 explodes after the
    next Movement Phase; cell-5 (in the mega-hex) takes 1 hit of the flak template's 3 points,
    the starboard nacelle beside it nothing."""
    burst = from_offset(11, 7)
    g = game([placed("A1", "P1", "sample-hawk", 11, 12, "A", 1),
              placed("B1", "P2", "sample-gunship", 17, 2, "D", 1)],
             map_name="sample-zeppelin", combat=["A1", "B1"], dice=d10(*[5, 3, 7, 2] * 10))
    g.apply(Launch("A1", "rockets_s1", "FK", burst))
    done(g, "A1")
    g.apply(Pass("B1"))
    g.apply(Plot("A1", "1SA"))
    events = g.apply(Plot("B1", "1SA"))
    hits = [e for e in events if isinstance(e, ev.GroundHit)]
    assert hits == [ev.GroundHit("cell-5", len(shape("flak")), "FS-M105")]
    assert g.state.ground["nacelle-starboard"] == 12 and g.state.ground["cell-5"] == 57
