"""Launched weapons, counters, bombs and zeppelins (FS-M103..FS-M123) in play."""

from __future__ import annotations

import pytest
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Bomb, Launch, Pass, Plot, Rocket
from dialtray.rules.fasa.hexmap import from_offset, load_map, step
from dialtray.rules.fasa.tn import lift_tn, nacelle_tn, succeeds
from dialtray.rules.fasa.zeppelin import (
    Zeppelin,
    main_gun_burst,
    stray_shot_continues,
    turret_covers,
    zep_damage,
)
from fasahelp import d10, done, game, placed


def test_fs_m105_flak_explodes_after_the_next_movement_phase() -> None:
    """FS-M105: a flak rocket auto-hits its hex; at the end of the next Movement Phase it does
    2 hits to a plane in the hex (Nose table) and 1 to the mega-hex; FS-M06 step 2."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
              placed("B1", "P2", "sample-gunship", 10, 5, "D", 2)], combat=["A1", "B1"],
             dice=d10(*[5] * 40))
    target = from_offset(10, 5)
    g.apply(Launch("A1", "rockets_s1", "FK", target))
    assert g.state.counters == [("FK", target, "A1", 1, False)]
    done(g, "A1")  # FS-M68: it may launch more this round; it passes
    g.apply(Pass("B1"))
    g.apply(Plot("A1", "1SA"))
    g.apply(Plot("B1", "A"))  # stalls in the target hex
    flak = [e for e in g.history[-1].events if isinstance(e, ev.Marked) and e.rule == "FS-M105"]
    assert len(flak) == 2 and all(b[0] == "nose" for e in flak for b in e.boxes)
    assert g.state.counters == []


def test_fs_m106_flare_blinds_pilots_facing_the_hex_not_the_launcher() -> None:
    """FS-M106: at step 7 every pilot facing the flare's hex in a straight line (or in it)
    rolls Constitution; a failure is shock; the launcher is immune."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
              placed("B1", "P2", "sample-gunship", 10, 3, "D", 2)], combat=["A1", "B1"],
             dice=d10(1))
    g.apply(Launch("A1", "rockets_s1", "FL", from_offset(10, 5)))
    done(g, "A1")
    events = g.apply(Pass("B1"))
    rolls = [e for e in events if isinstance(e, ev.Rolled) and e.rule == "FS-M106"]
    assert [r.plane for r in rolls] == ["B1"] and g.state.planes["B1"].shocked(2)


def test_fs_m107_sonic_stuns_the_mega_hex() -> None:
    """FS-M107: pilots in the mega-hex roll Constitution at step 7; the launcher is immune."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 6, "A", 2),
              placed("B1", "P2", "sample-brute", 10, 3, "D", 2)], combat=["B1", "A1"],
             dice=d10(9))
    g.apply(Launch("B1", "rockets_s1", "SS", from_offset(10, 5)))
    done(g, "B1")
    events = g.apply(Pass("A1"))
    rolls = [e for e in events if isinstance(e, ev.Rolled) and e.rule == "FS-M107"]
    assert [(r.plane, r.success) for r in rolls] == [("A1", True)]


def test_fs_m104_m111_m112_beeper_tags_and_the_seeker_widens() -> None:
    """FS-M104 rockets +1 to hit; FS-M111 a beeper hit tags the target this turn and 4 more;
    FS-M112 against a tagged target a seeker reaches the V of hexes ahead."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 6, "A", 2),
              placed("B1", "P2", "sample-brute", 10, 3, "D", 2)], combat=["B1", "A1"],
             dice=d10(10))
    events = g.apply(Rocket("B1", "rockets_s1", "BP", "A1"))
    hit = next(e for e in events if isinstance(e, ev.Rolled))
    assert hit.tn == 7 + 2 + 3 - 5 + 1  # base 7, nose to nose, range 3, Dead Eye 5, rocket +1
    assert g.state.planes["A1"].tagged_until == 5
    off = placed("A1", "P1", "sample-hawk", 11, 5, "A", 2)  # ahead of B1, not straight ahead
    b1 = placed("B1", "P2", "sample-brute", 10, 3, "D", 2)
    tagged = game([off, b1], [ev.Tagged("A1", 5)], combat=["B1", "A1"])
    plain = game([off, b1], combat=["B1", "A1"])
    sk = Rocket("B1", "rockets_p2", "SK", "A1")
    assert sk in tagged.legal_actions() and sk not in plain.legal_actions()


def test_fs_m113_drill_keeps_drilling_until_it_fails() -> None:
    """FS-M113: template damage, then at each Combat Phase's end a roll >= 10 - range drills 4
    more boxes; a failure stops it for good."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 6, "A", 2),
              placed("B1", "P2", "sample-brute", 10, 3, "D", 2)], combat=["B1", "A1"],
             dice=d10(10, 3, 2, 9, 9, 9, 9))
    g.apply(Rocket("B1", "rockets_s2", "DR", "A1"))
    done(g, "B1")
    assert g.state.planes["A1"].burning
    before = len(g.state.planes["A1"].marked)
    events = g.apply(Pass("A1"))
    drill = [e for e in events if isinstance(e, ev.Rolled) and e.rule == "FS-M113"]
    assert drill and drill[0].tn == 10 - 3 and drill[0].success
    assert len(g.state.planes["A1"].marked) > before


def test_fs_m114_bomb_hits_a_ground_target_or_scatters() -> None:
    """FS-M114: TN base + 5 (100 lb) + 5 if adjacent - Dead Eye; a hit damages the ground
    object; a miss scatters (SAMPLE diagram, D-FS-08) and still damages what it lands on."""
    town = load_map("sample-town")
    depot = next(o for o in town.objects if o.id == "depot")
    plane = placed("A2", "P1", "sample-pusher", 6, 3, "A", 2)
    b1 = placed("B1", "P2", "sample-gunship", 15, 10, "D", 2)
    g = game([plane, b1], map_name="sample-town", combat=["A2", "B1"], dice=d10(10))
    assert plane.hex == depot.hex
    events = g.apply(Bomb("A2", "rockets_p1", depot.hex))
    roll = next(e for e in events if isinstance(e, ev.Rolled))
    assert roll.tn == 1 + 5 - 4 and g.state.ground["depot"] == 12 - 3
    south = step(depot.hex, 3)
    miss = game([placed("A2", "P1", "sample-pusher", 6, 4, "A", 2), b1],
                map_name="sample-town", combat=["A2", "B1"], dice=d10(1, 1))
    miss.apply(Bomb("A2", "rockets_p1", from_offset(6, 4)))
    assert from_offset(6, 4) == south and miss.state.ground["depot"] == 9  # scattered onto A


def test_fs_m108_m109_m110_harpoon_lift_and_tow_numbers() -> None:
    """FS-M108 the harpoon is never fired at aircraft (not offered); FS-M109 lift TN base + 2 x
    speed - Natural Touch (+2 shocked); FS-M110 towing in play: test_fasa_tow_torpedo.py."""
    assert lift_tn(3, 2, 5) == 2 and lift_tn(3, 2, 5, shocked=True) == 4


def test_fs_m116_to_m123_zeppelin_arithmetic() -> None:
    """FS-M116 zeppelins do not move (no plot); FS-M117 helium ignores magnesium, hydrogen
    burns; "Zep. Dmg." first/second number; FS-M118 nacelle TN 7 without deflection; FS-M119
    stray shots carry on down the hexrow; FS-M120 turret rows; FS-M121 main gun bursts;
    FS-M122 gunners; FS-M123 no altitude anywhere in the plot notation."""
    helium, hydrogen = Zeppelin("helium"), Zeppelin("h", hydrogen=True)
    assert helium.magnesium() == "no burn" and helium.total == 300
    assert hydrogen.magnesium() == "destroyed" and hydrogen.falling
    assert zep_damage(6, 3, is_military=True) == 3 and zep_damage(6, 3, False) == 6
    assert nacelle_tn(2, 6) == 3 and succeeds(3, nacelle_tn(2, 6))
    a = from_offset(10, 10)
    assert stray_shot_continues(a, 0, step(a, 0, 2), step(a, 0, 5))
    assert not stray_shot_continues(a, 0, step(a, 0, 5), step(a, 0, 2))
    assert turret_covers(a, 0, "nacelle", step(step(a, 0, 2), 1), 5)
    assert not turret_covers(a, 0, "nacelle", step(a, 2, 2), 5)
    assert turret_covers(a, 0, "bow", step(step(a, 0, 1), 1, 2), 5)
    burst = main_gun_burst(a)
    assert burst[a] == 2 and len(burst) == 7 and sum(burst.values()) == 8
    from dialtray.rules.fasa.template import PLOT

    assert PLOT.match("3L2F") and not PLOT.match("3L2F5")  # no altitude in a plot


def test_fs_m62_m63_m64_abandoned_plane_as_a_projectile() -> None:
    """FS-M62 the pilot bails out and the empty plane flies straight on; FS-M63 ending in an
    enemy's hex it hits on target base + own base - hexes straight (5 + 7 - 2 = 10); FS-M64
    14 - 7 = 7 flak hits, head-on on the Nose table."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
              placed("B1", "P2", "sample-gunship", 10, 5, "D", 2)],
             dice=d10(10, *[f for col in (1, 4, 7, 10, 1, 4, 7) for f in (5, col)], *[5] * 30))
    g.apply(Plot("A1", "2SA", bail=True))
    events = g.apply(Plot("B1", "1SA"))
    roll = next(e for e in events if isinstance(e, ev.Rolled) and e.rule == "FS-M63")
    assert roll.tn == 10 and roll.success
    hits = [e for e in events if isinstance(e, ev.Marked) and e.rule == "FS-M64"]
    assert len(hits) == 7 and {b[0] for e in hits for b in e.boxes} == {"nose"}
    assert g.state.planes["A1"].status == "bailed" and "bailout-planned" in g.state.planes[
        "A1"].credits


def test_fs_m117_m118_guns_at_a_zeppelin_on_the_sample_map() -> None:
    """FS-M117 a gas cell is hit on anything but a 1 and loses the template's box count;
    FS-M118 a nacelle is TN 7 + range - Dead Eye with no deflection; FS-M116 zeppelin hexes
    block movement until a cell is shredded; FS-M69 only straight ahead, in range."""
    from dialtray.rules.core.errors import IllegalActionError
    from dialtray.rules.fasa.actions import Attack

    cells = [placed("A1", "P1", "sample-hawk", 7, 8, "A", 2),
             placed("B1", "P2", "sample-gunship", 15, 2, "D", 2)]
    g = game(cells, map_name="sample-zeppelin", combat=["A1", "B1"], dice=d10(2, 1))
    assert Attack("A1", "cell-1") in g.legal_actions()
    assert Attack("A1", "cell-2") not in g.legal_actions()
    events = g.apply(Attack("A1", "cell-1"))
    rolls = [e for e in events if isinstance(e, ev.Rolled)]
    assert [(r.tn, r.success) for r in rolls] == [(1, True), (1, False)]  # the 1 misses
    assert g.state.ground["cell-1"] == 60 - 3  # a 50 cal AP template: 3 boxes
    nac = game([placed("A1", "P1", "sample-hawk", 10, 10, "A", 2), cells[1]],
               map_name="sample-zeppelin", combat=["A1", "B1"], dice=d10(3, 2))
    with pytest.raises(IllegalActionError) as info:
        nac.apply(Attack("A1", "nacelle-port"))  # not straight ahead
    assert info.value.mechanic == "FS-M69"
    events = nac.apply(Attack("A1", "nacelle-starboard"))
    assert [r.tn for r in events if isinstance(r, ev.Rolled)] == [7 + 2 - 6] * 2
    sky = load_map("sample-zeppelin")
    assert not sky.line_of_sight(from_offset(7, 8), from_offset(7, 4))  # the gasbag blocks
