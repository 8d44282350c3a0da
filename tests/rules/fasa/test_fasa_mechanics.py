"""FASA mechanics (rules-inventory.md §5.2) as a player meets them: each test names its ids."""

from __future__ import annotations

import pytest
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Fire, Pick, Place, Plot, Reveal, Seal, seal_digest
from dialtray.rules.fasa.apply import Damage
from dialtray.rules.fasa.combat import same_hex_fire, target_range
from dialtray.rules.fasa.game import start_events
from dialtray.rules.fasa.hexmap import from_offset, load_map, mega_hex, step
from dialtray.rules.fasa.layouts import COLS, LAYOUTS, ROWS, TABLES, layout
from dialtray.rules.fasa.movement import pushes
from dialtray.rules.fasa.skills import (
    HERO_XP,
    WINGMAN_XP,
    MissionRecord,
    creation_cost,
    gunner_skill,
    improve_cost,
    mission_xp,
)
from dialtray.rules.fasa.state import fold_event
from dialtray.rules.fasa.template import parse_plot, template
from dialtray.rules.fasa.tn import (
    bailout_tn,
    landing_mishap,
    landing_needs_roll,
    landing_tn,
    push_tn,
    restricted_tn,
    tailing_number,
    to_hit_tn,
)
from fasahelp import d10, feed, game, placed

HAWK = "sample-hawk"


def two(a_col: int = 10, a_row: int = 8, a_face: str = "A", b_col: int = 10, b_row: int = 3,
        b_face: str = "D", speed: int = 2, **kw: object) -> object:
    return game([placed("A1", "P1", HAWK, a_col, a_row, a_face, speed),
                 placed("B1", "P2", "sample-gunship", b_col, b_row, b_face, speed)], **kw)


def test_fs_m03_m04_m71_mapsheet_mega_hex_and_line_of_sight() -> None:
    """FS-M03 mega-hex = 7 hexes, sample sheets marked; FS-M04 a dotted hex blocks sight and
    fire; FS-M71 a line along its hexside does not."""
    town = load_map("sample-town")
    assert town.sample and len(set(mega_hex((3, 3)))) == 7
    tower = next(o for o in town.objects if o.id == "tower").hex
    assert not town.line_of_sight(step(tower, 0), step(tower, 3))
    assert town.line_of_sight(step(tower, 0, 2), step(tower, 0, 4))
    # a straightedge between two hexes flanking the tower runs along its hexsides
    assert town.line_of_sight(step(tower, 1), step(tower, 5))


def test_fs_m05_m83_record_sheet_layouts() -> None:
    """FS-M05 four damage-diagram layouts; FS-M83 6 tables x 10 columns with locations."""
    assert len(LAYOUTS) == 4 and len(TABLES) == 6 and COLS == 10 and ROWS == 6
    for name in LAYOUTS:
        locs = {loc for t in layout(name).values() for loc in t}
        assert {"engine", "pilot", "canopy", "radio"} <= locs
        assert ("gunner" in locs) == name.endswith("turret")


def test_fs_m06_m07_a_turn_runs_its_steps_and_setup_faces_the_sides() -> None:
    """FS-M07 P1 on the south edge facing A, P2 on the north facing D, home sides behind;
    FS-M06 plot -> movement -> combat (Quick Draw order) -> next turn's plot."""
    setup = start_events("sample-blank", [("P1", "A1", HAWK), ("P2", "B1", "sample-brute")], 5)
    planes = [e for e in setup if isinstance(e, ev.PlanePlaced)]
    assert [(p.facing, p.home) for p in planes] == [(0, "south"), (3, "north")]
    g = game(planes, dice=d10())
    g.apply(Plot("A1", "1SA"))
    feed(g, 3, 8)  # Quick Draw tie (4 v 4): A1 rolls 3, B1 8
    events = g.apply(Plot("B1", "1SA"))
    phases = [e for e in events if isinstance(e, ev.Phase)]
    assert phases[0].phase == "combat" and phases[0].order == ("B1", "A1")
    g.apply(g.legal_actions()[0])
    events = g.apply(g.legal_actions()[0])
    assert any(isinstance(e, ev.Phase) and e.phase == "plot" and e.turn == 2 for e in events)


def test_fs_m08_pilot_and_wingman_never_collide() -> None:
    """FS-M08 a pair ending in one hex: no collision check; FS-M54/FS-M55 enemies in one hex
    each pick 1..10 (secretly when plots are sealed) and equal picks collide (FS-M57:
    destroyed, a bailout at base 18)."""
    g = game([placed("A1", "P1", HAWK, 10, 8, "A", 1), placed("A2", "P1", HAWK, 10, 7, "A", 1),
              placed("B1", "P2", "sample-gunship", 3, 3, "D", 1)])
    g.apply(Plot("A1", "1SA"))
    g.apply(Plot("A2", "A"))
    feed(g, 4, 3)  # Quick Draw 4 v 4 tie for A1/A2 (gunship QD 6 first)
    g.apply(Plot("B1", "1SA"))
    assert g.state.phase == "combat"  # no pick phase for a pair
    g2 = two(a_row=6, b_row=4, speed=1)
    g2.apply(Plot("A1", "1SA"))
    g2.apply(Plot("B1", "1SA"))
    assert g2.state.phase == "pick" and g2.legal_actions() == tuple(
        Pick("A1", n) for n in range(1, 11))
    with pytest.raises(IllegalActionError) as info:
        g2.apply(Pick("B1", 5))  # A1 picks first
    assert info.value.mechanic == "FS-M55"
    g2.apply(Pick("A1", 5))
    feed(g2, 1, 1)  # both bailouts fail (natural 1)
    events = g2.apply(Pick("B1", 5))
    outs = [e for e in events if isinstance(e, ev.PlaneOut)]
    assert {e.plane for e in outs} == {"A1", "B1"} and all(e.rule == "FS-M57" for e in outs)
    assert bailout_tn("collision", 0, 0) == 18
    assert g2.outcome() is not None and g2.outcome().winner is None  # FS-M13: a draw
    g3 = two(a_row=6, b_row=4, speed=1, sealed=True)  # picks sealed and revealed together
    for seat, plane in (("P1", "A1"), ("P2", "B1")):
        g3.apply(Seal(seat, seal_digest(seat, 1, ((plane, "1SA", False),), "s")))
    for seat, plane in (("P1", "A1"), ("P2", "B1")):
        g3.apply(Reveal(seat, ((plane, "1SA", False),), "s"))
    assert g3.state.phase == "pick" and g3.to_move() == "P1" and g3.legal_actions() == ()
    for seat, plane, n in (("P1", "A1", "3"), ("P2", "B1", "7")):
        g3.apply(Seal(seat, seal_digest(seat, 1, ((plane, n, False),), "t")))
    g3.apply(Reveal("P1", (("A1", "3", False),), "t"))
    g3.apply(Reveal("P2", (("B1", "7", False),), "t"))
    assert g3.state.phase == "combat" and g3.state.picks == {"A1": 3, "B1": 7}


def test_fs_m09_m12_leaving_the_map() -> None:
    """FS-M12 leaving by the home side withdraws with no penalty; FS-M09 any other side is
    fleeing, -20 XP."""
    g = two(a_row=12, a_face="D", speed=2)
    g.apply(Plot("A1", "2SA"))
    g.apply(Plot("B1", "1SA"))
    home = g.state.planes["A1"]
    assert home.status == "withdrawn" and "fled" not in home.credits
    assert "landed" in home.credits  # FS-M66: TN 4 - 5 <= 0, undamaged: lands with no roll
    g = two(a_col=1, a_face="E", speed=2)
    g.apply(Plot("A1", "2SA"))
    g.apply(Plot("B1", "1SA"))
    a = g.state.planes["A1"]
    assert a.status == "fled" and "fled" in a.credits
    assert g.outcome() is not None and g.outcome().vp["P1"] == -20 and g.outcome().winner == "P2"


def test_fs_m11_m62_planned_bailout() -> None:
    """FS-M62 "Bail" with a straight plot: the pilot is out safely; FS-M11/FS-A16 0 XP and
    -20; a bail-out plot that turns is refused."""
    g = two()
    with pytest.raises(IllegalActionError) as info:
        g.apply(Plot("A1", "2L1F", bail=True))
    assert info.value.mechanic == "FS-M62"
    assert Plot("A1", "2SA", True) in g.legal_actions()
    g.apply(Plot("A1", "2SA", bail=True))
    g.apply(Plot("B1", "1SA"))
    # the pilot is out safely; B1 straight ahead: the empty plane flies on at it (FS-M63)
    assert g.state.planes["A1"].status == "projectile"
    assert "bailout-planned" in g.state.planes["A1"].credits
    assert mission_xp(MissionRecord(planned_bailout=True)) == -20


def test_fs_m13_turn_limit_is_a_draw_and_xp_is_the_score() -> None:
    """FS-M13: too shot up to go on (here: the turn limit), both withdraw: a draw; the VP
    table is each side's mission XP (FS-M25)."""
    g = game([placed("A1", "P1", HAWK, 10, 8, "A", 1),
              placed("B1", "P2", "sample-gunship", 2, 3, "D", 1)])
    g.state.turn_limit = 1
    g.apply(Plot("A1", "1SA"))
    g.apply(Plot("B1", "1SA"))
    while g.outcome() is None:
        g.apply(g.legal_actions()[0])
    out = g.outcome()
    assert out is not None and out.winner is None and "turn limit" in out.termination


def test_fs_m14_m15_m92_skills_constitution_and_wounds() -> None:
    """FS-M14 skills 0..10; FS-M15 Constitution 3, each wound -1, 0 is death; FS-M92 a Pilot
    box costs 1 and forces a roll at the reduced Constitution (FS-M17)."""
    g = two(dice=d10(9, 9, 9))
    st = g.state
    d = Damage(st, g.dice, lambda e: fold_event(st, e), "A1", "B1")
    d.wound("pilot", 1)
    assert st.planes["A1"].constitution == 2
    d.wound("pilot", 1)
    d.wound("pilot", 1)
    assert st.planes["A1"].status == "dead"
    assert "kill" in st.planes["B1"].credits


def test_fs_m16_m18_m20_m23_gunner_skills_and_skill_uses() -> None:
    """FS-M16 gunners one below (FS-A12 floor 0); FS-M18 Quick Draw and FS-M23 Sixth Sense
    lower the bailout TN; FS-M20 Dead Eye lowers the to-hit TN; FS-M22 Natural Touch the push
    TN; FS-M76 shock +2."""
    assert gunner_skill(4) == 3 and gunner_skill(0) == 0
    assert bailout_tn("engine", 3, 2) == 12 - 3 - 2
    assert to_hit_tn(5, 0, 1, 4) == 2 and to_hit_tn(5, 0, 1, 4, shocked=True) == 4
    assert push_tn(1, 5) == 4 and push_tn(1, 5, shocked=True) == 6
    assert tailing_number(6, 4, False, False) == 2


def test_fs_m24_creation_costs() -> None:
    """FS-M24 hero 450 / wingman 350 XP on FS table 4 (cumulative FS table 5)."""
    assert [creation_cost(n) for n in range(11)] == [0, 10, 20, 40, 70, 110, 160, 220, 290, 370,
                                                    460]
    assert HERO_XP == 450 and WINGMAN_XP == 350
    assert creation_cost(6) + creation_cost(6) + creation_cost(4) + creation_cost(3) <= HERO_XP
    with pytest.raises(ValueError):
        improve_cost(10)


def test_fs_m27_m28_m30_m31_m32_sheet_bounds(tmp_path: object) -> None:
    """FS-M27 max speed 1..5, FS-M28 Gs 0..5 per wing, FS-M29 acceleration <= max speed,
    FS-M30 deceleration 2, FS-M31 base to-hit 1..10, FS-M32 guns 30..70 cal firing AP/DD/MG:
    sheets outside them are refused naming the field (see test_fasa_bad_input)."""
    from dialtray.rules.fasa.sheets import sheet, shipped

    for name in shipped():
        s = sheet(name)
        assert s.sample and 1 <= s.max_speed <= 5 and 0 <= s.g_port <= 5
        assert s.deceleration == 2 and 1 <= s.base_to_hit <= 10
        assert all(g.caliber in (30, 40, 50, 60, 70) and g.ammo in ("AP", "DD", "MG")
                   for g in s.guns)


def test_fs_m33_secret_plots_sealed_and_revealed_together() -> None:
    """FS-M33: each seat seals a SHA-256 of its plots; none is revealed before all sealed; a
    reveal must match its seal; FS-M44 a revealed plot the rules forbid is flown randomly."""
    g = two(sealed=True, speed=2)
    assert g.to_move() == "P1" and g.legal_actions() == ()
    p1 = (("A1", "1SA", False),)
    g.apply(Seal("P1", seal_digest("P1", 1, p1, "s1")))
    with pytest.raises(IllegalActionError) as info:
        g.apply(Reveal("P1", p1, "s1"))
    assert info.value.mechanic == "FS-M33"
    p2 = (("B1", "9SA", False),)  # not on the template: random movement (FS-M44)
    g.apply(Seal("P2", seal_digest("P2", 1, p2, "s2")))
    with pytest.raises(IllegalActionError):
        g.apply(Reveal("P1", (("A1", "2SA", False),), "s1"))  # not what was sealed
    g.apply(Reveal("P1", p1, "s1"))
    feed(g, *[1] * 9)  # B1 random movement at the recorded speed 9 (FS-M44), no rotations
    start = g.state.planes["B1"].hex
    events = g.apply(Reveal("P2", p2, "s2"))
    moved = {e.plane: e for e in events if isinstance(e, ev.Moved)}
    assert moved["A1"].how == "plotted" and moved["B1"].how == "random movement"
    assert moved["B1"].speed == 9 and moved["B1"].hex == step(start, 3, 9)


def test_fs_m36_m39_m40_m49_pushes_are_legal_with_a_roll() -> None:
    """FS-M36 speed against max speed and Gs against the turn-side wing; FS-M39 acceleration
    against the last turn's speed; FS-M40 exceeding is a push, still a legal plot; FS-M49 both
    redline rolls must succeed, FS-M50 a failed one flares out."""
    g = two(speed=3)
    p = g.state.planes["A1"]
    from dialtray.rules.fasa.movement import caps

    kinds = {x.kind: x.tn for x in pushes(caps(p, 1), parse_plot("6SA"))}
    assert kinds == {"speed": push_tn(1, 5), "accel": push_tn(1, 5)}
    assert Plot("A1", "6SA") in g.legal_actions()
    g.apply(Plot("A1", "6SA"))
    feed(g, 9, 2, 5, 6)  # speed roll ok, acceleration roll fails: flareout, 2 nose fractures
    events = g.apply(Plot("B1", "2SA"))
    a = g.state.planes["A1"]
    assert a.speed == 1 and a.smoke_until == 2  # FS-M50 flareout: speed 1, smoke
    flare = [e for e in events if isinstance(e, ev.Marked) and e.rule == "FS-M50"]
    assert sum(len(e.boxes) for e in flare) == 2 and flare[0].boxes[0][0] == "nose"


def test_fs_m41_m42_m48_stall_and_restricted_maneuvers() -> None:
    """FS-M41 a stall records only the facing (A, B, F), 0 G, once; FS-M42 a 3 G+ maneuver
    right after another is a push, FS-M48 TN 8 + its Gs - Natural Touch."""
    stalls = [m.text() for m in template().values() if m.speed == 0]
    assert stalls == ["A", "B", "F"] and all(parse_plot(s).gs == 0 for s in stalls)
    g = two(speed=2)
    g.apply(Plot("A1", "A"))
    g.apply(Plot("B1", "2SA"))
    while g.state.phase == "combat":
        g.apply(g.legal_actions()[0])
    with pytest.raises(IllegalActionError) as info:
        g.apply(Plot("A1", "B"))
    assert info.value.mechanic == "FS-M41" and g.state.planes["A1"].plot is None
    from dialtray.rules.fasa.movement import Caps

    c = Caps(3, 5, 2, 2, 5, 5, 4, 5, False, False, False, frozenset())
    assert [(x.kind, x.tn) for x in pushes(c, parse_plot("3L3B"))] == [
        ("restricted", restricted_tn(4, 5))]


def test_fs_m43_m51_non_pushers_move_first_and_a_failed_stall_push() -> None:
    """FS-M43 planes not pushing move first; FS-M51 a failed deceleration push still ends in
    its destination, each wing's leading edge taking a fracture hit per point over."""
    g = two(speed=5)
    g.apply(Plot("A1", "1SA"))  # 5 -> 1: decelerates 4, 2 over
    feed(g, 2, 1, 2, 3, 4)  # stall push fails, 2 columns per wing
    events = g.apply(Plot("B1", "3SA"))
    moved = [e.plane for e in events if isinstance(e, ev.Moved)]
    assert moved == ["B1", "A1"]
    wings = [b[0] for e in events if isinstance(e, ev.Marked) and e.rule == "FS-M51"
             for b in e.boxes]
    assert sorted(wings) == ["port_leading"] * 2 + ["starboard_leading"] * 2
    assert g.state.planes["A1"].hex == step(from_offset(10, 8), 0)


def test_fs_m66_m67_m91_landing() -> None:
    """FS-M66 4 + modifiers - Natural Touch, no roll at <= 0 unless Natural Touch <= 3 or
    damage; FS-M91 gear damage +3; FS-M67 the mishap by TN - roll."""
    assert landing_tn(5) == -1 and not landing_needs_roll(-1, 5, False)
    assert landing_needs_roll(-1, 3, False) and landing_needs_roll(-1, 5, True)
    assert landing_tn(5, gear_damaged=True, off_runway=True) == 4
    assert landing_tn(5, rudders_damaged=2, off_runway=True, zeppelin=True) == 2
    assert landing_mishap(6, 1)[0] == 5 and "flips" in landing_mishap(6, 1)[1]
    assert landing_mishap(1, 1) == (0, "lands safely")
    assert "landing structure" in landing_mishap(4, 2, zeppelin=True)[1]
    # in play: a damaged plane home must roll; a natural 1 fails, but at TN -1 the Ground
    # Landing Table's row is max(0, -1 - 1) = 0: it lands safely (FS-A04), 10 XP (FS-M25)
    g = two(a_row=12, a_face="D", speed=2, dice=d10(1),
            extra=[ev.Marked("A1", (("tail", 0, 0),), "test", "FS-M81")])
    g.apply(Plot("A1", "2SA"))
    events = g.apply(Plot("B1", "1SA"))
    landing = next(e for e in events if isinstance(e, ev.Rolled) and e.rule == "FS-M66")
    assert (landing.tn, landing.roll, landing.success) == (-1, 1, False)
    assert "landed" in g.state.planes["A1"].credits


def test_fs_m68_m69_m70_valid_targets_and_same_hex() -> None:
    """FS-M69 only the hex column straight ahead, in range; FS-M68 guns at one target;
    FS-M70 same hex: head-on both, same way the slower, same speed the better Natural Touch."""
    g = two(a_row=8, b_row=6, b_face="D", combat=["A1", "B1"])
    assert Fire("A1", "B1") in g.legal_actions()
    side = two(a_row=8, b_col=11, b_row=6, combat=["A1", "B1"])
    with pytest.raises(IllegalActionError) as info:
        side.apply(Fire("A1", "B1"))
    assert info.value.mechanic == "FS-M69" and side.history == ()
    st = g.state
    a, b = st.planes["A1"], st.planes["B1"]
    b.hex = a.hex
    assert same_hex_fire(a, b) and same_hex_fire(b, a)  # head-on
    b.facing = a.facing
    b.speed = 3
    assert same_hex_fire(a, b) and not same_hex_fire(b, a)
    b.speed = a.speed  # same speed: Natural Touch 5 (hawk) beats 3 (gunship)
    assert same_hex_fire(a, b) and not same_hex_fire(b, a)
    b.facing = 1
    assert not same_hex_fire(a, b) and target_range(g.map, a, b, 3) is None


def test_fs_m72_m73_m75_m77_m78_doubling_down_jams_and_clearing() -> None:
    """FS-M77 two rolls per gun, a miss jams the gun from next turn, hits still count (FS-A19),
    FS-M82 the attacker applies them in any order; FS-M78
    clearing is TN 8 - Steady Hand and the only action; FS-M75 range counts the target hex."""
    g = two(a_row=8, b_row=7, b_face="A", combat=["A1", "B1"])
    # A1 guns gun1, gun2 at B1 (base 5, range 1, deflection 0, Dead Eye 6): TN 0
    feed(g, 7, 1, 6, 6, 4, 1, 5, 9)  # gun1 hit+miss, gun2 hit+hit; location, 3 columns
    g.apply(Fire("A1", "B1", double=True))
    a = g.state.planes["A1"]
    assert a.jam_next == {"gun1"} and "gun1" not in a.jammed
    pending = g.state.pending
    assert pending is not None and len(pending[2]) == 3  # FS-M82: placed in any order
    assert Place("A1", 9, 3) in g.legal_actions() and Place("A1", 8, 3) not in g.legal_actions()
    for hit in (3, 1, 1):
        g.apply(next(x for x in g.legal_actions() if isinstance(x, Place) and x.hit == hit))
    assert len(g.state.planes["B1"].marked) >= 3
    while g.state.phase == "combat":
        g.apply(g.legal_actions()[0])
    assert a.jammed == {"gun1"}


def test_fs_m87_m90_m93_m94_internal_locations() -> None:
    """FS-M87 a canopy hit forces a Constitution roll; FS-M90 a gun hit destroys it; FS-M93
    the radio; FS-M94 a rocket location loses its rocket."""
    g = two(dice=d10(*[10] * 30))
    st = g.state
    d = Damage(st, g.dice, lambda e: fold_event(st, e), "A1", "B1")
    d.hit("nose", 0, [(1, 0)], "test", "FS-M90")  # gun1 box (row 1, column 1)
    assert "gun1" in st.planes["A1"].lost and "gun1" not in st.planes["A1"].guns_working()
    d.hit("nose", 8, [(5, 0)], "test", "FS-M93")
    assert "radio" in st.planes["A1"].lost
    d.hit("port_leading", 2, [(0, 0)], "test", "FS-M94")
    assert "rockets_p1" in st.planes["A1"].lost
    before = len(g.dice.pending())
    d.hit("nose", 4, [(5, 0)], "test", "FS-M87")
    assert len(g.dice.pending()) == before - 1  # one Constitution roll for the canopy hit


def test_fs_m95_m96_m97_m98_m99_m100_m101_controls() -> None:
    """FS-M95 tail controls: both rudders (only S) and elevators (-1 G each side); FS-M98 wing
    controls: flap and aileron of that wing; FS-M99 a flap: deceleration 1; FS-M101 each spar
    -1 G."""
    g = two()
    a = g.state.planes["A1"]
    a.lost.add("tail_controls")
    assert a.rudders() == {"left", "right"} and a.g_rating("port") == 2
    a.lost = {"wing_controls_port"}
    assert a.deceleration() == 1 and a.g_rating("port") == 2 and a.g_rating("starboard") == 3
    a.lost = {"spar_starboard_1", "spar_starboard_2"}
    assert a.g_rating("starboard") == 1 and a.deceleration() == 2
