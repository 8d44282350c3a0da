"""FS-T01..FS-T39: the worked examples of the FASA rules (rules-inventory.md §5.4), each with the
numbers of the text. Where the seed lacks the data (template, diagrams), the example runs on
the documented SAMPLE data and checks what the text fixes."""

from __future__ import annotations

import pytest
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Fire, Place, Plot
from dialtray.rules.fasa.apply import Damage
from dialtray.rules.fasa.combat import combat_order, deflection, side_of
from dialtray.rules.fasa.damage import (
    cut_in_half,
    first_open_row,
    gun_shape,
    hit_table,
    shape,
    shift_allowed,
    widowed,
)
from dialtray.rules.fasa.game import tails
from dialtray.rules.fasa.hexmap import from_offset, step
from dialtray.rules.fasa.layouts import layout
from dialtray.rules.fasa.movement import Caps, g_rating, pushes, refusal
from dialtray.rules.fasa.sheets import Gun
from dialtray.rules.fasa.skills import (
    MissionRecord,
    QuickDraw,
    allocate_quick_draw,
    improve_cost,
    mission_xp,
    spend,
)
from dialtray.rules.fasa.state import fold_event
from dialtray.rules.fasa.template import parse_plot, template
from dialtray.rules.fasa.tn import (
    avoid_object_tn,
    bailout_tn,
    collision_hits,
    gas_cell_tn,
    projectile_hits,
    projectile_tn,
    succeeds,
    tailing_number,
    tailing_reveal,
    to_hit_tn,
    torpedo_tn,
)
from dialtray.rules.fasa.zeppelin import Zeppelin, gunner_shock_tn, turret_range
from fasahelp import d10, feed, game, placed


def caps(**kw: object) -> Caps:
    base: dict[str, object] = dict(speed=3, max_speed=5, acceleration=2, deceleration=2,
                                   g_port=3, g_starboard=2, last_gs=0, natural_touch=5,
                                   shocked=False, engine_out=False, stalled=False,
                                   rudders=frozenset())
    base.update(kw)
    return Caps(**base)  # type: ignore[arg-type]


def test_fs_t01_fractional_quick_draw_joe_condor() -> None:
    """FS-T01 (FS-M19, FS-M26): 25 XP into Quick Draw 4 (40 to the next level) is 4/25, which
    fires before 4 and before any smaller fraction."""
    assert improve_cost(4) == 40
    qd = allocate_quick_draw(QuickDraw(4), 25)
    assert qd == QuickDraw(4, 25) and qd.text() == "4/25"
    assert qd > QuickDraw(4) and qd > QuickDraw(4, 24) and qd < QuickDraw(5)


def test_fs_t02_dead_eye_3_to_4_costs_30() -> None:
    """FS-T02 (FS-M26, FS table 5)."""
    assert improve_cost(3) == 30


def test_fs_t03_ivy_iverian_mission_xp_and_spending() -> None:
    """FS-T03 (FS-M25, FS-M26): 20 + 20 + 40 + 10 = 90; Steady Hand 5->6 costs 50, Sixth Sense
    4->5 costs 40, nothing left."""
    xp = mission_xp(MissionRecord(inflicted_damage=True, kills=2, landed=True))
    assert xp == 90
    levels, left = spend({"steady_hand": 5, "sixth_sense": 4}, ["steady_hand", "sixth_sense"], xp)
    assert levels == {"steady_hand": 6, "sixth_sense": 5} and left == 0


def test_fs_t04_plot_notation_condor_3l2f() -> None:
    """FS-T04 (FS-M34): 3L2F is speed 3, left, hexrow 2, facing F: forward 1 hex, turn left,
    2 hexes straight; the (sample) template rates it 1 G."""
    m = parse_plot("3L2F")
    assert (m.speed, m.direction, m.hexrow, m.facing, m.gs) == (3, "L", 2, 5, 1)
    start = from_offset(10, 10)
    assert m.path(start, 0) == [step(start, 0), step(step(start, 0), 5),
                                step(step(step(start, 0), 5), 5)]


def test_fs_t05_g_bars() -> None:
    """FS-T05 (FS-M34): an arrow's Gs are its bars, 0 to 6."""
    gs = {m.gs for m in template().values()}
    assert min(gs) == 0 and max(gs) == 6 and parse_plot("3SA").gs == 0


def test_fs_t06_no_jinking_round_a_building() -> None:
    """FS-T06 (FS-M38, FS-M37): with a building straight ahead, 3SA goes through it (a
    collision check); no left plot reaches 3SA's hex this turn; 2L2A then 2R2A goes round."""
    start = from_offset(10, 10)
    building = step(start, 0)
    assert building in parse_plot("3SA").path(start, 0)
    target = parse_plot("3SA").path(start, 0)[-1]
    for m in template().values():
        if m.direction in ("L", "R") and m.hexrow:  # hexrow 0 flies the straight row itself
            assert m.path(start, 0)[-1] != target
            assert building not in m.path(start, 0) or m.path(start, 0)[0] == building
    first = parse_plot("2L2A")
    mid = first.path(start, 0)
    second = parse_plot("2R2A").path(mid[-1], first.facing)
    assert building not in mid + second and second[-1] == step(start, 0, 2)


def test_fs_t07_forced_path_through_3l2() -> None:
    """FS-T07 (FS-M35, FS-M37): the path of 4L2 passes through hex 3L2."""
    start = from_offset(10, 10)
    assert parse_plot("3L2F").path(start, 0)[-1] in parse_plot("4L2F").path(start, 0)


def test_fs_t08_immelmann_uses_the_weaker_wing() -> None:
    """FS-T08 (FS-M47): port 3, starboard 2 -> the 1SD is rated against 2 G."""
    assert g_rating(caps(g_port=3, g_starboard=2), parse_plot("1SD")) == 2


def test_fs_t09_pushing_the_gs_target_numbers() -> None:
    """FS-T09 (FS-M46, FS-M45, FS-A01): port 3, starboard 2, Natural Touch 5: 3L3B (4 G) TN
    8 + 1 - 5 = 4; 3R3F (4 G) TN 8 + 2 - 5 = 5."""
    c = caps(g_port=3, g_starboard=2, natural_touch=5, speed=3)
    assert parse_plot("3L3B").gs == 4 and parse_plot("3R3F").gs == 4
    assert [(p.kind, p.tn) for p in pushes(c, parse_plot("3L3B"))] == [("gs", 4)]
    assert [(p.kind, p.tn) for p in pushes(c, parse_plot("3R3F"))] == [("gs", 5)]


def test_fs_t10_random_movement_condor_3r0d() -> None:
    """FS-T10 (FS-M52, FS-M46, FS-A11, FS-A21): a failed 3R0D pushing the Gs by 2; rolls 10,
    9, 8 each turn him 2 hexsides right after each hex: back in his starting hex and facing,
    and 6 fracture hits on the port wing's leading edge."""
    a = placed("A2", "P1", "sample-pusher", 10, 7, "A", 3)
    b = placed("B1", "P2", "sample-gunship", 3, 2, "D", 2)
    # starboard G 2 - 2 (elevator, aileron) = 0, so the 2 G 3R0D pushes by 2
    damaged = [ev.LocationLost("A2", "elevator_starboard", "FS-M96"),
               ev.LocationLost("A2", "aileron_starboard", "FS-M100")]
    g = game([a, b], damaged)
    assert g.state.planes["A2"].g_rating("starboard") == 0
    g.apply(Plot("A2", "3R0D"))
    feed(g, 2, 10, 9, 8, 1, 2, 3, 4, 5, 6)  # push fails (TN 8+2-4 = 6), facings, columns
    events = g.apply(Plot("B1", "2SA"))
    p = g.state.planes["A2"]
    assert (p.hex, p.facing) == (a.hex, 0)
    fractures = [e for e in events if isinstance(e, ev.Marked) and e.rule == "FS-M52"]
    assert sum(len(e.boxes) for e in fractures) == 6
    assert all(b[0] == "port_leading" for e in fractures for b in e.boxes)


def test_fs_t11_avoiding_objects() -> None:
    """FS-T11 (FS-M56, FS-M53): nacelle (base 7) TN 3; building (base 1) TN 9."""
    assert avoid_object_tn(7) == 3 and avoid_object_tn(1) == 9


def test_fs_t12_optional_collision_damage() -> None:
    """FS-T12 (FS-M58): Iverian (base 7) takes 14 - 4 = 10 flak hits on the Nose table, Dukes
    (base 4) 14 - 7 = 7 on his port front (Port Wing Leading, FS-A08)."""
    assert collision_hits(4) == 10 and collision_hits(7) == 7
    assert hit_table(None, 5) == "nose"
    assert {hit_table(5, r) for r in range(1, 7)} == {"port_leading"}


def test_fs_t13_no_tailing_then_tailing() -> None:
    """FS-T13 (FS-M59): in Dukes' rear arc within 3 hexes but not facing his way: no tailing
    (Diagram B); same facing, each in the other's arc, within 3: tailing (Diagram C)."""
    g = game([placed("B1", "P2", "sample-brute", 10, 5, "A", 4),
              placed("A1", "P1", "sample-hawk", 10, 7, "B", 4)])
    ivy, dukes = g.state.planes["A1"], g.state.planes["B1"]
    assert not tails(ivy, dukes, 1)
    ivy.facing = 0
    assert tails(ivy, dukes, 1)
    ivy.hex = step(dukes.hex, 3, 4)
    assert not tails(ivy, dukes, 1)  # 4 hexes: too far


def test_fs_t14_tailing_number_minus_one() -> None:
    """FS-T14 (FS-M60, FS-M61): 5 - 6 = -1: Dukes tells only "left" of his 4L3C."""
    n = tailing_number(5, 6, False, False)
    assert n == -1 and tailing_reveal(n, "4L3C", "L", 4) == "L"


def test_fs_t15_tailing_number_with_smoke() -> None:
    """FS-T15 (FS-M60, FS-M61): smoking: 5 - 6 + 2 = 1: left and speed 4."""
    n = tailing_number(5, 6, True, False)
    assert n == 1 and tailing_reveal(n, "4L3C", "L", 4) == "L speed 4"


def test_fs_t16_tailing_number_with_smoke_and_shock() -> None:
    """FS-T16 (FS-M60, FS-M61): 5 - 6 + 2 + 2 = 3: the destination 4L3, not facing C."""
    n = tailing_number(5, 6, True, True)
    assert n == 3 and tailing_reveal(n, "4L3C", "L", 4) == "4L3"


def test_fs_t17_plane_as_projectile_tn() -> None:
    """FS-T17 (FS-M63): 6 + 7 - 6 (3 turns at 2 hexes straight at the nacelle) = 7."""
    assert projectile_tn(7, 6, 3 * 2) == 7


def test_fs_t18_plane_as_projectile_damage() -> None:
    """FS-T18 (FS-M64): base 6 -> 14 - 6 = 8 hits."""
    assert projectile_hits(6) == 8


def test_fs_t19_combat_bailout_nathan_lucas() -> None:
    """FS-T19 (FS-M65, FS-A22): 14 + 2 + 1 - 5 - 6 = 6; the memento is worth 5 XP."""
    assert bailout_tn("wing", 5, 6, shocked=True, memento=True) == 6
    base = MissionRecord(survived=True)
    assert mission_xp(MissionRecord(survived=True, memento=True)) - mission_xp(base) == 5


def test_fs_t20_quick_draw_tie_rolled() -> None:
    """FS-T20 (FS-M72, FS-M18): both Quick Draw 4; Ivy rolls 7, Badboy 2: Ivy shoots first."""
    g = game([placed("A1", "P1", "sample-hawk", 5, 5, "A", 2),
              placed("B1", "P2", "sample-brute", 9, 9, "A", 2)])
    seen: list[ev.Event] = []
    order = combat_order(g.state, d10(7, 2), seen.append)
    assert order == ("A1", "B1") and len(seen) == 2


def test_fs_t21_fractional_quick_draw_order() -> None:
    """FS-T21 (FS-M19, FS-M72): Ivy 4/25, Dukes 4/30: Dukes first, no roll."""
    g = game([placed("A1", "P1", "sample-hawk", 5, 5, "A", 2),
              placed("B1", "P2", "sample-brute", 9, 9, "A", 2)], fractional=True)
    seen: list[ev.Event] = []
    assert combat_order(g.state, d10(), seen.append) == ("B1", "A1") and not seen


def test_fs_t22_to_hit_tn() -> None:
    """FS-T22 (FS-M73, FS-M74, FS-M75, FS-M02): 4 + 2 (nose to nose) + 2 (range) - 6 = 2; a
    1 always misses."""
    assert deflection(0, 3) == 2
    tn = to_hit_tn(4, deflection(0, 3), 2, 6)
    assert tn == 2 and succeeds(2, tn) and not succeeds(1, tn)


def test_fs_t23_steady_hand_column_shift() -> None:
    """FS-T23 (FS-M21, FS-M80, FS-M82): Condor (Steady Hand 6) puts two AP hits on the Nose:
    column 3 stays 3, column 4 may move to 3; two columns is refused, state unchanged."""
    assert shift_allowed(6) == 1 and shift_allowed(5) == 0 and shift_allowed(9) == 2
    g = game([placed("A2", "P1", "sample-pusher", 10, 8, "A", 2),
              placed("B1", "P2", "sample-brute", 10, 7, "D", 2)], combat=["A2", "B1"])
    feed(g, 5, 6, 3, 3, 4)  # two hits (TN 4+2+1-4 = 3), Nose location roll, columns 3 and 4
    g.apply(Fire("A2", "B1"))
    assert [a.text() for a in g.legal_actions()] == [
        "place A2 2", "place A2 3", "place A2 4",  # the first hit, rolled 3
        "place A2 3 hit 2", "place A2 4 hit 2", "place A2 5 hit 2"]  # FS-M82: either first
    g.apply(Place("A2", 3))
    assert [a.text() for a in g.legal_actions()] == ["place A2 3", "place A2 4", "place A2 5"]
    with pytest.raises(IllegalActionError) as info:
        g.apply(Place("A2", 2))
    assert info.value.mechanic == "FS-M21"
    g.apply(Place("A2", 3))
    assert g.state.pending is None and g.state.planes["B1"].marked


def _damage(sheet: str = "sample-hawk") -> Damage:
    g = game([placed("A1", "P1", sheet, 5, 5, "A", 2),
              placed("B1", "P2", "sample-brute", 9, 9, "A", 2)], dice=d10(*[9] * 20))
    st = g.state
    return Damage(st, g.dice, lambda e: fold_event(st, e), "A1", "B1")


def test_fs_t24_fuel_tank_marked_off_at_once() -> None:
    """FS-T24 (FS-M89, FS-M81): AP hits in columns 3, 5, 10, 10 of a (sample) wing; the hit
    that damages the wing tank marks every box of it at once."""
    d = _damage()
    tank = {("port_leading", r, c) for r, c in layout("front-engine")["port_leading"]
            ["fuel_port_wing"]}
    for col, cal in ((2, 70), (9, 60), (9, 70)):
        d.hit("port_leading", col, gun_shape("AP", cal), "AP", "FS-M81")
        assert not tank & d.p.marked
    d.hit("port_leading", 4, gun_shape("AP", 60), "AP", "FS-M81")
    assert tank <= d.p.marked and "fuel_port_wing" in d.p.lost


def test_fs_t25_first_damage_box() -> None:
    """FS-T25 (FS-M81): the template's top sits on the column's first undamaged box."""
    marked = {("nose", 0, 4), ("nose", 1, 4)}
    assert first_open_row(set(), "nose", 4) == 0 and first_open_row(marked, "nose", 4) == 2


def test_fs_t26_widowing_diagonal_and_cut_in_half() -> None:
    """FS-T26 (FS-M84, FS-M85): a region walled off only at corners is not widowed; walled
    edge to edge it is; port leading joined to port trailing shears the wing off."""
    hole = ("port_leading", 2, 2)
    ring = {("port_leading", r, c) for r in (1, 2, 3) for c in (1, 2, 3)} - {hole}
    full = ring | {("port_leading", r, 0) for r in range(6)}
    assert hole in widowed(ring)
    # the ring's corner box gone: the hole's only ways out pass diagonally between two
    # marked boxes that touch at a corner, and that is a way out
    corner = ring - {("port_leading", 1, 3)} | {("port_leading", 0, 3), ("port_leading", 1, 4)}
    assert hole not in widowed(corner)
    assert cut_in_half(full) is None
    spar = {("port_leading", r, 0) for r in range(6)} | {("port_trailing", r, 0)
                                                         for r in range(6)}
    assert cut_in_half(spar) == "wing"


def test_fs_t27_internal_location_breaks_on_its_first_box() -> None:
    """FS-T27 (FS-M86, FS-M88): the 8-box engine is destroyed by one box; 7 stay armour."""
    cells = layout("front-engine")["nose"]["engine"]
    assert len(cells) == 8
    d = _damage()
    r, c = cells[0]
    d.p.marked |= {("nose", rr, c) for rr in range(r)}  # armour above it already gone
    d.hit("nose", c, shape("fracture"), "one box", "FS-M86")
    assert "engine" in d.p.lost
    assert len([x for x in cells if ("nose", *x) in d.p.marked]) == 1


def test_fs_t28_engine_location_caps_speed() -> None:
    """FS-T28 (FS-M88, FS-M29): Max Speed 1 damaged: speed 1, acceleration 1."""
    d = _damage()
    d.p.lost.add("engine_ms1")
    assert d.p.max_speed() == 1 and d.p.acceleration() == 1


def test_fs_t29_engine_out_glide() -> None:
    """FS-T29 (FS-M88): engine out at speed 3: 2SA, 1SA, then 0, then the dive; only S."""
    c = caps(engine_out=True, speed=3)
    assert refusal(c, parse_plot("2SA")) is None
    assert refusal(c, parse_plot("3SA")) == refusal(c, parse_plot("2L1F"))
    assert refusal(c, parse_plot("1SD")) is not None
    assert refusal(caps(engine_out=True, speed=1), parse_plot("A")) is None
    g = game([placed("A1", "P1", "sample-hawk", 10, 7, "A", 1),
              placed("B1", "P2", "sample-gunship", 3, 2, "D", 2)],
             [ev.LocationLost("A1", "engine", "FS-M88")])
    g.apply(Plot("A1", "A"))
    g.apply(Plot("B1", "2SA"))
    while g.state.phase == "combat":
        g.apply(g.legal_actions()[0])  # pass
    g.apply(Plot("A1", "A"))
    g.apply(Plot("B1", "2SA"))
    assert g.state.planes["A1"].status == "crashed"


def test_fs_t30_elevator() -> None:
    """FS-T30 (FS-M96): a port elevator hit: left maneuvers -1 G."""
    d = _damage()
    before = d.p.g_rating("port")
    d.p.lost.add("elevator_port")
    assert d.p.g_rating("port") == before - 1 and d.p.g_rating("starboard") == 3


def test_fs_t31_rudder() -> None:
    """FS-T31 (FS-M97): right rudder damaged: only R; both: only S."""
    c = caps(rudders=frozenset({"right"}))
    assert refusal(c, parse_plot("3R2B")) is None
    assert refusal(c, parse_plot("3L2F")) == ("rudder locked: only R maneuvers", "FS-M97")
    both = caps(rudders=frozenset({"left", "right"}))
    assert refusal(both, parse_plot("3R2B")) is not None
    assert refusal(both, parse_plot("3SA")) is None


def test_fs_t32_aileron() -> None:
    """FS-T32 (FS-M100): rating 3, right aileron lost: right turns of 2 G without pushing."""
    d = _damage()
    d.p.lost.add("aileron_starboard")
    assert d.p.g_rating("starboard") == 2


def test_fs_t33_flak_orientation() -> None:
    """FS-T33 (FS-M105): a plane in the C hexside of the target hex: starboard trailing or
    tail; a plane in the target hex: the Nose table."""
    assert {hit_table(2, r) for r in range(1, 11)} == {"starboard_trailing", "tail"}
    assert hit_table(None, 10) == "nose"
    g = game([placed("A1", "P1", "sample-hawk", 10, 7, "A", 1),
              placed("B1", "P2", "sample-gunship", 3, 2, "D", 2)])
    p = g.state.planes["A1"]
    assert side_of(p, step(p.hex, 2)) == 2


def test_fs_t34_hit_location_table_choice() -> None:
    """FS-T34 (FS-M79, FS-A08): a shot at the port side's leading edge: Port Leading."""
    assert {hit_table(5, r) for r in range(1, 7)} == {"port_leading"}


def test_fs_t35_turret_range() -> None:
    """FS-T35 (FS-M120, FS-M102): a plane's 70 cal reaches 3 hexes, the turret version 5."""
    assert Gun("gun1", 70, "AP", 1).range == 3 and turret_range(3) == 5
    assert Gun("turret_gun", 70, "AP", 1).range == 5


def test_fs_t36_aerial_torpedo_tn() -> None:
    """FS-T36 (FS-M115, FS-A15): 7 + 5 + 6 - 9 - 6 = 3."""
    assert torpedo_tn(7, 2, 9, 6) == 3


def test_fs_t37_half_kill_xp() -> None:
    """FS-T37 (FS-M10, FS-M09): a first kill then a half second kill: 20 + 20; the fleeing
    pilot -20."""
    assert mission_xp(MissionRecord(kills=1, half_kill=True)) == 40
    assert mission_xp(MissionRecord(fled=True)) == -20


def test_fs_t38_gas_cells() -> None:
    """FS-T38 (FS-M117, FS-A07): 5 x 60 = 300; 121 flies, 120 falls; only a 1 misses a cell,
    a shocked pilot needs 3."""
    z = Zeppelin("test")
    assert z.total == 300 and not z.falling
    z.cells = [60, 61, 0, 0, 0]
    assert not z.falling
    z.hit_cell(1, 1)
    assert z.total == 120 and z.falling and z.shredded(2)
    assert gas_cell_tn() == 1 and gas_cell_tn(True) == 3 and not succeeds(1, gas_cell_tn())


def test_fs_t39_zeppelin_gunner_constitution() -> None:
    """FS-T39 (FS-M122, FS-M17): Constitution 2 + 3 = 5: shock TN 10 - 5 = 5."""
    assert gunner_shock_tn() == 5
