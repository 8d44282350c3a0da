"""Harpoons, towing and aerial torpedoes through the Game API (issue 15): offered when legal,
refused with the rule id and the state unchanged, dice from the injected d10 source.

FS-M108 "Harpoon (HP)", FS-M109 "Lifting an object", FS-M110 "Towing", FS-M115 "Aerial
torpedo" (FS-T36's arithmetic), FS-M94 "Rockets location" for a torpedo's joined hardpoints.
"""

from __future__ import annotations

import pytest
from dialtray.rules.core.errors import InvalidActionError
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Cut, Fire, Harpoon, Pass, Plot, Torpedo, parse_action
from dialtray.rules.fasa.hexmap import from_offset
from fasahelp import d10, game, placed, refused

CRATE = from_offset(8, 9)  # sample-town's crate (SAMPLE), base TN 7, 8 points


def _raider(col: int, row: int, facing: str = "A", speed: int = 2) -> ev.PlanePlaced:
    return placed("A1", "P1", "sample-raider", col, row, facing, speed)


def test_fs_m108_m109_harpoon_hits_and_lifts_cargo_straight_ahead() -> None:
    """FS-M108 Harpoon (HP): rocket rules at +2 (TN 7 + range 1 - Dead Eye 5 + 2 = 5); a hit
    grabs, then FS-M109 Lifting an object: 7 + 2 x speed 2 - Natural Touch 6 = 5; FS-M110
    Towing: top speed 5 - 2 = 3."""
    g = game([_raider(8, 10), placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
             map_name="sample-town", combat=["A1", "B1"], dice=d10(5, 5))
    legal = g.legal_actions()
    assert Harpoon("A1", "rockets_p1", "crate") in legal
    events = g.apply(Harpoon("A1", "rockets_p1", "crate"))
    rolls = [(e.rule, e.tn, e.roll, e.success) for e in events if isinstance(e, ev.Rolled)]
    assert rolls == [("FS-M108", 5, 5, True), ("FS-M109", 5, 5, True)]
    a1 = g.state.planes["A1"]
    assert a1.towing == "crate" and g.state.cargo["crate"] is None
    assert a1.max_speed() == 3 and a1.rockets["rockets_p1"] == ["HP"]
    assert "towed by A1" in g.report()


def test_fs_m108_miss_loses_the_harpoon_and_fs_m109_failed_lift_drops_it() -> None:
    """FS-M108: a miss loses harpoon and cable; FS-M109: a failed lift drops the object where
    it was and loses the harpoon."""
    g = game([_raider(8, 10), placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
             map_name="sample-town", combat=["A1", "B1"], dice=d10(4))
    g.apply(Harpoon("A1", "rockets_p1", "crate"))
    assert g.state.planes["A1"].towing == "" and g.state.planes["A1"].rockets["rockets_p1"] == [
        "HP"]
    g2 = game([_raider(8, 10), placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
              map_name="sample-town", combat=["A1", "B1"], dice=d10(9, 4))
    events = g2.apply(Harpoon("A1", "rockets_p1", "crate"))
    assert [e for e in events if isinstance(e, ev.Tow)] == [
        ev.Tow("A1", "crate", "dropped", CRATE, "FS-M109")]
    assert g2.state.planes["A1"].towing == "" and g2.state.cargo["crate"] == CRATE


def test_fs_m108_harpoon_refusals_name_the_rule_and_change_nothing() -> None:
    """FS-M108: only cargo (never aircraft, not a building); FS-M104 range 1 straight ahead;
    FS-M103 only a loaded harpoon; FS-M110 a plane that cannot make speed 3 cannot tow."""
    g = game([_raider(8, 11), placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
             map_name="sample-town", combat=["A1", "B1"])
    assert not any(isinstance(a, Harpoon) for a in g.legal_actions())
    refused(g, Harpoon("A1", "rockets_p1", "crate"), "FS-M104")  # 2 hexes away
    refused(g, Harpoon("A1", "rockets_p1", "tower"), "FS-M108")
    refused(g, Harpoon("A1", "rockets_s1", "crate"), "FS-M103")
    with pytest.raises(InvalidActionError):
        parse_action("harpoon A1 rockets_p1 B1")  # an aircraft is not an object id
    slow = game([_raider(8, 10), placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
                extra=[ev.LocationLost("A1", "engine_ms2", "FS-M88")],
                map_name="sample-town", combat=["A1", "B1"])
    assert not any(isinstance(a, Harpoon) for a in slow.legal_actions())
    refused(slow, Harpoon("A1", "rockets_p1", "crate"), "FS-M110")


def _towing(dice: tuple[int, ...] = (), speed: int = 2, facing: str = "A") -> object:
    return game([_raider(8, 10, facing, speed), placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
                extra=[ev.Tow("A1", "crate", "grabbed", None, "FS-M109")],
                map_name="sample-town", dice=d10(*dice))


def test_fs_m110_a_two_g_maneuver_breaks_the_cable_with_stress_damage() -> None:
    """FS-M110 Towing: a 2 G plot is still offered (never removed) but flying it breaks the
    cable, drops the object behind the plane and does Gs - 1 stress hits to each forward wing
    table."""
    g = _towing(dice=(5,) * 10)
    plots = {a.maneuver for a in g.legal_actions() if isinstance(a, Plot)}  # type: ignore
    assert "2SB" in plots  # vSB is 2 G (D-FS-01)
    g.apply(Plot("A1", "2SB"))  # type: ignore[attr-defined]
    events = g.apply(Plot("B1", "2SA"))  # type: ignore[attr-defined]
    tow = [e for e in events if isinstance(e, ev.Tow)]
    assert tow == [ev.Tow("A1", "crate", "dropped", from_offset(8, 11), "FS-M110")]
    stress = [e for e in events if isinstance(e, ev.Marked) and e.rule == "FS-M110"]
    assert sorted(b[0] for e in stress for b in e.boxes) == ["port_leading", "starboard_leading"]
    assert g.state.planes["A1"].towing == ""  # type: ignore[attr-defined]


def test_fs_m110_below_speed_one_the_cable_is_cut() -> None:
    """FS-M110: below speed 1 the pilot must cut the cable or crash; the engine cuts it
    (D-FS-16) and the object lands in the hex behind."""
    g = _towing(speed=1)
    g.apply(Plot("A1", "A"))  # type: ignore[attr-defined]
    events = g.apply(Plot("B1", "2SA"))  # type: ignore[attr-defined]
    assert [e for e in events if isinstance(e, ev.Tow)] == [
        ev.Tow("A1", "crate", "dropped", from_offset(8, 11), "FS-M110")]


def test_fs_m110_shots_at_the_towed_object_and_the_cut() -> None:
    """FS-M110: an attacker may aim at the towed object: location 1-6 the object takes the
    template's boxes in points, 7-10 the cable breaks. ``cut`` drops it behind the plane;
    both refused (FS-M110) when nothing is towed."""
    def at(loc: int) -> object:
        g = game([_raider(8, 5, "D", 2), placed("B1", "P2", "sample-brute", 8, 3, "D", 2)],
                 extra=[ev.Tow("A1", "crate", "grabbed", None, "FS-M109")],
                 map_name="sample-town", combat=["B1", "A1"], dice=d10(10, 1, loc))
        assert Fire("B1", "A1", False, True) in g.legal_actions()
        g.apply(Fire("B1", "A1", False, True))
        return g

    g = at(3)  # one 70 cal AP hit (TN: a 10 hits, a 1 misses): 4 boxes, 4 points of 8
    assert g.state.ground["crate"] == 4 and g.state.planes["A1"].towing == "crate"  # type: ignore
    g = at(8)
    assert g.state.planes["A1"].towing == "" and g.state.cargo["crate"] == from_offset(  # type: ignore
        8, 4)
    free = game([_raider(8, 5, "D", 2), placed("B1", "P2", "sample-brute", 8, 3, "D", 2)],
                map_name="sample-town", combat=["B1", "A1"])
    refused(free, Fire("B1", "A1", False, True), "FS-M110")
    free.apply(Pass("B1"))
    refused(free, Cut("A1"), "FS-M110")


def test_fs_m110_cut_in_the_combat_phase() -> None:
    g = game([_raider(8, 5, "A", 2), placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
             extra=[ev.Tow("A1", "crate", "grabbed", None, "FS-M109")],
             map_name="sample-town", combat=["A1", "B1"])
    assert Cut("A1") in g.legal_actions()
    events = g.apply(Cut("A1"))
    assert ev.Tow("A1", "crate", "dropped", from_offset(8, 6), "FS-M110") in events


def _torpedo_run(dice: tuple[int, ...]) -> object:
    """Three 3SA maneuvers in a row (a straight run of 9 hexes, FS-A15) ending 2 hexes short
    of sample-zeppelin's starboard nacelle (SAMPLE map), like FS-T36."""
    start = placed("A1", "P1", "sample-raider", 10, 19, "A", 3)
    moves = [ev.Moved("A1", "3SA", from_offset(10, r), 0, 3, 0, False, "plotted", "FS-M33")
             for r in (16, 13, 10)]
    return game([start, placed("B1", "P2", "sample-brute", 2, 1, "D", 2)], extra=moves,
                map_name="sample-zeppelin", combat=["A1", "B1"], dice=d10(*dice))


def test_fs_m115_fs_t36_torpedo_to_hit_and_four_ap_rocket_hits() -> None:
    """FS-M115 Aerial torpedo / FS-T36: nacelle 7 + (5 + 3 x 2 hexes) - 9 hexes straight -
    Dead Eye (this SAMPLE pilot's 5; FS-T36's Ivy has 6 and gets 3) = 4; a hit is four AP
    rocket templates (6 boxes each: 24 points, D-FS-13), the nacelle's 12 points gone."""
    g = _torpedo_run((4,))
    assert g.state.planes["A1"].straight_run == 9  # type: ignore[attr-defined]
    assert Torpedo("A1", "rockets_s1", "nacelle-starboard") in g.legal_actions()  # type: ignore
    events = g.apply(Torpedo("A1", "rockets_s1", "nacelle-starboard"))  # type: ignore
    (roll,) = [e for e in events if isinstance(e, ev.Rolled)]
    assert (roll.tn, roll.success, roll.rule) == (4, True, "FS-M115")
    assert ev.GroundHit("nacelle-starboard", 12, "FS-M115") in events
    assert g.state.planes["A1"].rockets["rockets_s1"] == []  # type: ignore[attr-defined]
    miss = _torpedo_run((3,))
    miss.apply(Torpedo("A1", "rockets_s1", "nacelle-starboard"))  # type: ignore[attr-defined]
    assert miss.state.ground["nacelle-starboard"] == 12  # type: ignore[attr-defined]


def test_fs_m115_torpedo_refusals() -> None:
    """FS-M115: stationary objects only, straight ahead; FS-M103 a loaded torpedo; FS-M94 a
    destroyed hardpoint of the two it spans loses it."""
    g = _torpedo_run(())
    refused(g, Torpedo("A1", "rockets_s1", "nacelle-port"), "FS-M115")  # not straight ahead
    refused(g, Torpedo("A1", "rockets_p1", "nacelle-starboard"), "FS-M103")
    with pytest.raises(InvalidActionError):
        parse_action("torpedo A1 rockets_s1 B1")
    hurt = game([placed("A1", "P1", "sample-raider", 10, 10, "A", 3),
                 placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
                extra=[ev.LocationLost("A1", "rockets_s2", "FS-M94")],
                map_name="sample-zeppelin", combat=["A1", "B1"])
    assert not any(isinstance(a, Torpedo) for a in hurt.legal_actions())
    refused(hurt, Torpedo("A1", "rockets_s1", "nacelle-starboard"), "FS-M94")


def test_fs_m115_a_turn_off_the_line_resets_the_straight_run() -> None:
    """FS-M115: "1 per hex the plane traveled in a continuous straight path"."""
    start = placed("A1", "P1", "sample-raider", 10, 13, "A", 3)
    moves = [ev.Moved("A1", "3SA", from_offset(10, 10), 0, 3, 0, False, "plotted", "FS-M33"),
             ev.Moved("A1", "2R1B", from_offset(11, 8), 1, 2, 1, False, "plotted", "FS-M33")]
    g = game([start, placed("B1", "P2", "sample-brute", 2, 1, "D", 2)], extra=moves)
    assert g.state.planes["A1"].straight_run == 0


@pytest.mark.parametrize(("hardpoints", "field", "words"), [
    ([{"id": "rockets_s1", "load": ["TP"]}], "hardpoints[0].load", "needs 2 hardpoints, has 1"),
    ([{"id": "rockets_s1", "load": ["TP"], "joined": ["rockets_s1"]}], "hardpoints[0].joined",
     "not a free hardpoint"),
    ([{"id": "rockets_s1", "load": ["TP"], "joined": ["rockets_s2"]},
      {"id": "rockets_s2", "load": ["AP"]}], "hardpoints[0].joined", "not a free hardpoint"),
])
def test_fs_m115_a_torpedo_needs_two_hardpoints_on_the_sheet(
        tmp_path, hardpoints: list[object], field: str, words: str) -> None:  # type: ignore
    """FS-M115 / FS table 16: an aerial torpedo takes 2 hardpoints (``joined``); a sheet that
    does not give them is refused naming the file and the field (FS-M103)."""
    import json

    from dialtray.rules.core.errors import CatalogueError
    from dialtray.rules.fasa.hexmap import DATA
    from dialtray.rules.fasa.sheets import load_sheet

    doc = json.loads((DATA / "sheets" / "sample-raider.json").read_text())
    doc["hardpoints"] = hardpoints
    path = tmp_path / "bad-raider.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(CatalogueError) as caught:
        load_sheet(path)
    assert "bad-raider.json" in str(caught.value) and field in str(caught.value)
    assert words in str(caught.value)


def test_fs_m110_a_rocket_or_a_gun_post_may_aim_at_the_towed_object() -> None:
    """FS-M110 Towing: "any attacker that successfully hits the towing plane can designate
    ... the towed object": a rocket (AP: its 6-box template in points, D-FS-13) and a ground
    turret's guns; a beeper does no damage to an object and is refused (FS-M110)."""
    from dialtray.rules.fasa.actions import Gun, Rocket

    tow = ev.Tow("A1", "crate", "grabbed", None, "FS-M109")
    g = game([_raider(8, 5, "D", 2), placed("B1", "P2", "sample-brute", 8, 3, "D", 2)],
             extra=[tow], map_name="sample-town", combat=["B1", "A1"], dice=d10(10, 2))
    assert Rocket("B1", "rockets_p1", "HE", "A1", True) in g.legal_actions()
    refused(g, Rocket("B1", "rockets_s1", "BP", "A1", True), "FS-M110")
    g.apply(Rocket("B1", "rockets_p1", "HE", "A1", True))
    assert g.state.ground["crate"] == 2 and g.state.planes["A1"].towing == "crate"
    nest = game([_raider(13, 5, "D", 2), placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
                extra=[tow], map_name="sample-town", combat=["A1", "flak-nest"],
                dice=d10(10, 1, 9))
    nest.apply(Pass("A1"))
    assert Gun("flak-nest", "A1", True) in nest.legal_actions()
    events = nest.apply(Gun("flak-nest", "A1", True))
    assert ev.Tow("A1", "crate", "dropped", from_offset(13, 4), "FS-M110") in events
    free = game([_raider(13, 5, "D", 2), placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
                map_name="sample-town", combat=["flak-nest"])
    refused(free, Gun("flak-nest", "A1", True), "FS-M110")
