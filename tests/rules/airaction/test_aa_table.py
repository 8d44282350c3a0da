"""The approximate digital table (seed 002 "Hit the Skies!", "Combat", "Obstacles",
"Crimson Skies Etiquette"; AA-M11, AA-M37, AA-M39, AA-M43, AA-M51, AA-M82, AA-M83)."""

from __future__ import annotations

import random

import pytest
from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction.bots import STANDARD_SQUADRONS, Bot, play_game
from dialtray.rules.airaction.game import AirActionGame, SquadronPlane
from dialtray.rules.airaction.table import PLAY_AREA, Obstacle, Pose, Table, apply_table_step
from dialtray.rules.core.dice import SeededDice


def two_planes(a: Pose, b: Pose) -> tuple[AirActionGame, Table]:
    g = AirActionGame.new(
        {
            "P1": [SquadronPlane("A1", "sample-militia-fighter")],
            "P2": [SquadronPlane("B1", "sample-pirate-fighter")],
        },
        dice=SeededDice(1),
    )
    t = Table()
    t.poses = {"A1": a, "B1": b}
    return g, t


def test_aa_m11_play_area_three_feet_square_overhang_leaves() -> None:
    """AA-M11: a 3' x 3' area; AA-M31 a marker overhanging the edge has left."""
    assert PLAY_AREA == 36.0
    t = Table()
    assert not t.overhangs(Pose(18, 18, 0)) and not t.overhangs(Pose(0.75, 35.25, 0))
    assert t.overhangs(Pose(0.5, 18, 0)) and t.overhangs(Pose(18, 35.5, 0))


def test_aa_m30_plane_proceeds_to_its_speed_or_the_highest_number() -> None:
    """AA-M30: the plane proceeds to the point equal to its speed; faster than the path's
    highest number, it ends on the highest number."""
    t = Table()
    g, _ = two_planes(Pose(18, 2, 0), Pose(30, 30, 0))
    cruise = g.cat.cards["Cruise"]
    top = cruise.highest("straight")
    assert len(t.path(Pose(18, 2, 0), cruise, "straight", 3)) == 3
    end = t.path(Pose(18, 2, 0), cruise, "straight", top + 2)
    assert len(end) == top and end[-1] == Pose(18, 2, 0).offset(*cruise.paths["straight"][-1])


def test_aa_m37_range_in_markers_within_the_arc() -> None:
    """AA-M37: range R = R markers laid in the arc must reach the target's marker."""
    g, t = two_planes(Pose(18, 10, 0), Pose(18, 15, 180))  # 5" ahead: range 3 -> (3+1)*1.5 = 6
    assert t.shot_facts(g, "A1", "front", "B1")[0]
    t.poses["B1"] = Pose(18, 17, 180)  # 7": out of range
    assert not t.shot_facts(g, "A1", "front", "B1")[0]
    t.poses["B1"] = Pose(18, 5, 180)  # behind A1: not in the front arc
    assert not t.shot_facts(g, "A1", "front", "B1")[0]


def test_aa_m39_rear_arc_bonus_whole_marker_behind_target() -> None:
    """AA-M39: the entire firing marker inside the target's rear arc pattern."""
    g, t = two_planes(Pose(18, 10, 0), Pose(18, 14, 0))  # A1 right behind B1, same heading
    assert t.shot_facts(g, "A1", "front", "B1")[1]
    t.poses["B1"] = Pose(18, 14, 90)  # B1 turned: A1 now off its tail
    assert not t.shot_facts(g, "A1", "front", "B1")[1]


def test_aa_m43_point_blank_within_one_marker() -> None:
    g, t = two_planes(Pose(18, 10, 0), Pose(18, 12.5, 0))
    assert t.shot_facts(g, "A1", "front", "B1")[2]
    t.poses["B1"] = Pose(18, 14, 0)
    assert not t.shot_facts(g, "A1", "front", "B1")[2]


def test_aa_m51_obstacle_blocks_shot() -> None:
    """AA-M51: a range marker overlapping an obstacle blocks the shot."""
    g, t = two_planes(Pose(18, 10, 0), Pose(18, 15, 180))
    g2 = AirActionGame.new(
        {
            "P1": [SquadronPlane("A1", "sample-militia-fighter")],
            "P2": [SquadronPlane("B1", "sample-pirate-fighter")],
        },
        obstacles=True,
        dice=SeededDice(1),
    )
    t.obstacles.append(Obstacle(18, 12.5, 0.5))
    assert t.shot_facts(g, "A1", "front", "B1")[0]  # obstacles not agreed: ignored
    assert not t.shot_facts(g2, "A1", "front", "B1")[0]


def test_aa_m82_marker_records_location_only_moves_change_it() -> None:
    """AA-M82: a plane's marker is its location at all times: the table changes a pose only by
    laying out the plane's maneuver, ending on the final marker of the path."""
    g = AirActionGame.new(STANDARD_SQUADRONS, build_total=300, dice=SeededDice(5))
    t = Table()
    while g.state.phase != "move":
        if g.state.phase == "deploy":
            t.deploy(g, g.to_move() or "")
        g.apply(
            Bot(g.to_move() or "", random.Random(1)).choose(g, t)
            if g.to_move() in g.state.players
            else g.legal_actions()[0]
        )
    before = dict(t.poses)
    pid = g.state.active[0]
    card, path = g.state.plans[pid]
    expected = t.path(before[pid], g.cat.cards[card], path, g.speed_of(pid) or 0)[-1]
    apply_table_step(g, t)
    assert g.state.move_results[pid] == "moved" and t.poses[pid] == expected
    assert all(t.poses[q] == before[q] for q in before if q != pid)


def test_aa_m83_bots_do_not_pre_measure(monkeypatch: pytest.MonkeyPatch) -> None:
    """AA-M83 Etiquette 3: planning judges from the card diagram only; laying out markers on the
    table (Table.path / Table.move) while planning is refused."""
    g = AirActionGame.new(STANDARD_SQUADRONS, build_total=300, dice=SeededDice(2))
    t = Table()

    def forbidden(*_a: object, **_k: object) -> None:
        raise AssertionError("pre-measured a maneuver")

    planned = 0
    while planned < 6:
        s = g.state
        if s.phase == "deploy":
            t.deploy(g, g.to_move() or "")
        if apply_table_step(g, t):
            continue
        who = g.to_move()
        if s.phase == "plan" and who in s.players:
            with monkeypatch.context() as m:
                m.setattr(Table, "path", forbidden)
                m.setattr(Table, "move", forbidden)
                action = Bot(who, random.Random(0)).choose(g, t)
            assert isinstance(action, ac.Plan)
            planned += 1
            g.apply(action)
        elif who in s.players:
            g.apply(Bot(who, random.Random(0)).choose(g, t))
        else:
            g.apply(g.legal_actions()[0])


def test_digital_table_game_with_obstacles_runs_to_an_end() -> None:
    g, result = play_game(STANDARD_SQUADRONS, seed=11, obstacles=True)
    assert result.outcome.winner in g.state.players and g.rebuilt_state() == g.state


def planned_game(
    obstacles: bool, start: Pose, card: str, path: str, speed: int
) -> tuple[AirActionGame, Table]:
    g = AirActionGame.new(
        {
            "P1": [SquadronPlane("A1", "sample-militia-fighter")],
            "P2": [SquadronPlane("B1", "sample-pirate-fighter")],
        },
        obstacles=obstacles,
        dice=SeededDice(1),
    )
    g.state.plans["A1"] = (card, path)  # direct setup: only the table's judgement is tested
    ps = g.state.planes["A1"]
    ps.speed_index = g.cat.figures[ps.figure].speed_index(speed)
    t = Table()
    t.poses = {"A1": start, "B1": Pose(30, 30, 0)}
    return g, t


def test_aa_m31_any_marker_overhanging_during_the_move_leaves() -> None:
    """AA-M31: "if any part of one of your plane's movement markers overhangs the boundary"
    during the move, even if the final marker is back inside."""
    g, t = planned_game(False, Pose(1.5, 18, 0), "Tight Turn", "left", 6)
    result, _ = t.move(g, "A1")
    assert result == "left"
    g2, t2 = planned_game(False, Pose(18, 18, 0), "Tight Turn", "left", 6)
    assert t2.move(g2, "A1")[0] == "moved"


def test_aa_m52_obstacle_stops_the_maneuver_marker_turned_and_clear() -> None:
    """AA-M52: overlapping an obstacle at any time stops the maneuver; the last marker is
    turned 180 degrees and slid clear of the obstacle."""
    g, t = planned_game(True, Pose(18, 10, 0), "Cruise", "straight", 8)
    t.obstacles.append(Obstacle(18, 16, 1.0))
    result, pose = t.move(g, "A1")
    assert result == "obstacle" and pose.heading == 180.0
    assert not t.hits_obstacle(pose) and pose.y < 16
