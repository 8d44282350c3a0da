"""Recruitment and "Hit the Deck!": AC-M01..M10 and worked example AC-T01; figure data files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dialtray.rules.aces.figures import default_catalogue, load_catalogue
from dialtray.rules.aces.maps import load_map
from dialtray.rules.aces.scenarios import (
    TeamSpec,
    assign_areas,
    load_scenario,
    new_game,
    placement_order,
    roll_first_player,
    shipped_scenarios,
    start_scenario,
    validate_team,
)
from dialtray.rules.aces.talents import load_talents, parse_talents
from dialtray.rules.core.dice import ManualDice, SeededDice
from dialtray.rules.core.errors import CatalogueError, IllegalActionError

CAT = default_catalogue()
KIM = [
    "sample-charlie-steele",
    "sample-vigilante",
    "sample-sergeant",
    "sample-tail-gunner",
    "sample-soldier",
    "sample-trusty-sidekick",
    "sample-ruffian",
]


def test_T01_kims_team_is_exactly_100_and_charlie_is_49() -> None:
    """AC-T01: Charlie + Vigilante 11 + Sergeant 10 + Tail Gunner 9 + Soldier 8 + Trusty
    Sidekick 7 + Ruffian 6 = exactly 100, so Charlie is 49 [derived]."""
    tokens = [CAT[f] for f in KIM[1:]]
    assert [t.points for t in tokens] == [11, 10, 9, 8, 7, 6]
    assert sum(t.points for t in tokens) == 51
    assert CAT["sample-charlie-steele"].points == 49
    assert validate_team([CAT[f] for f in KIM], 100) == 100


def test_M01_build_total_may_be_equalled_not_exceeded() -> None:
    """AC-M01 (Recruitment: build total): a team's points may equal the build total but never
    exceed it."""
    team = [CAT[f] for f in KIM] + [CAT["sample-ruffian"]]  # 106
    with pytest.raises(IllegalActionError) as info:
        validate_team(team, 100)
    assert info.value.mechanic == "AC-M01" and info.value.heading == "Recruitment"
    assert validate_team(team, 106) == 106


def test_M03_one_of_each_ace_per_team_tokens_may_repeat() -> None:
    """AC-M03 (Recruitment: uniqueness): only one of any particular Ace on a team; the same Ace
    may be on two teams in one game; tokens may repeat."""
    with pytest.raises(IllegalActionError) as info:
        validate_team([CAT["sample-genghis"], CAT["sample-genghis"]], 100)
    assert info.value.mechanic == "AC-M03"
    validate_team([CAT["sample-ruffian"]] * 3, 100)
    # the same Ace on two different teams is fine
    m = load_map("airfield_bar")
    new_game(
        m,
        [TeamSpec("A", ["sample-genghis"]), TeamSpec("B", ["sample-genghis"])],
        ManualDice(),
        first_player=0,
    )


def test_M02_M08_figures_have_points_and_start_on_the_green_triangle() -> None:
    """AC-M02 points from data; AC-M08 each Ace starts at its starting click; tokens at 0."""
    for f in CAT.values():
        assert f.sample is True and f.points > 0
    g = start_scenario(load_scenario("kim-vs-tim"), SeededDice(3))
    for c in g.state.chars.values():
        assert c.click == c.figure.starting_click


def test_figure_file_errors_name_file_figure_and_field(tmp_path: Path) -> None:
    doc = json.loads((Path(CAT["sample-genghis"].source)).read_text())
    doc["dial"][2]["defense"] = "x"
    (tmp_path / "genghis.json").write_text(json.dumps(doc))
    with pytest.raises(CatalogueError) as info:
        load_catalogue(tmp_path)
    e = info.value
    assert (Path(e.file).name, e.figure, e.field) == (
        "genghis.json",
        "sample-genghis",
        "dial[2].defense",
    )
    doc["dial"][2]["defense"] = 4
    doc["kind"] = "token"
    (tmp_path / "genghis.json").write_text(json.dumps(doc))
    with pytest.raises(CatalogueError, match="field dial: a character token has exactly one"):
        load_catalogue(tmp_path)


def test_M13_unknown_colours_are_reported_never_guessed() -> None:
    talents = load_talents()
    assert talents.unknown(CAT.values()) == []
    from dataclasses import replace

    from dialtray.rules.aces.figures import Click

    odd = replace(CAT["sample-genghis"], dial=(Click(5, 3, 3, 0, {"defense": "purple"}),))
    assert talents.unknown([odd]) == [
        "sample-genghis click 0: purple defense is not on the talents map"
    ]
    with pytest.raises(ValueError, match="no ability"):
        parse_talents({"colours": {"speed": {"blue": "flight"}}, "abilities": {}})
    t2 = parse_talents(
        {
            "colours": {"speed": {"blue": "flight"}},
            "abilities": {"flight": {"name": "Flight", "kind": "flying"}},
        }
    )
    assert (
        "has no rule hook"
        in t2.unknown([replace(odd, dial=(Click(5, 3, 3, 0, {"speed": "blue"}),))])[0]
    )


def test_M04_first_player_highest_2d6_ties_reroll() -> None:
    dice = ManualDice([3, 4, 5, 2, 1, 1, 6, 6, 2, 2])  # P1 7, P2 7, P3 2 -> P1/P2 reroll
    first, rounds = roll_first_player(dice, 3)
    assert rounds == ((7, 7, 2), (12, 4, 0)) and first == 0


def test_M06_M09_A14_areas_and_placement_order() -> None:
    """AC-M06 the next player to the left chooses the area; AC-A14 the first takes the other;
    AC-M09 the first player places first, then to the left."""
    assert assign_areas(1, 2, {0: 1}, [1, 2]) == {0: 1, 1: 2}
    assert assign_areas(0, 2, {1: 1}, [1, 2]) == {1: 1, 0: 2}
    with pytest.raises(IllegalActionError):
        assign_areas(0, 2, {1: 1, 0: 1}, [1, 2])
    assert placement_order(2, 3) == [2, 0, 1]


def test_M09_placement_only_in_own_starting_area() -> None:
    m = load_map("airfield_bar")
    with pytest.raises(IllegalActionError) as info:
        new_game(
            m,
            [
                TeamSpec("A", ["genghis=sample-genghis"], 1, {"genghis": "h10"}),
                TeamSpec("B", ["sample-ruffian"]),
            ],
            ManualDice(),
            first_player=0,
        )
    assert info.value.mechanic == "AC-M09"


def test_M05_M10_scenarios_as_data() -> None:
    """AC-M05 a map per game, AC-M10 scenarios fix characters, map, placement and victory."""
    assert {"kim-vs-tim", "zeppelin-raid", "hangar-brawl"} <= set(shipped_scenarios())
    for sid in shipped_scenarios():
        sc = load_scenario(sid)
        g = start_scenario(sc, SeededDice(1))
        assert g.state.map_name == load_map(sc.map).name
        assert g.state.turn_limit == sc.turn_limit
        for p, team in enumerate(sc.teams):
            area = {a.number: a for a in g.map.starting_areas}[g.state.areas[p]]
            for c in g.state.team(p):
                assert g.map.square(c.square) in area  # type: ignore[arg-type]
            validate_team([c.figure for c in g.state.team(p)], sc.build_total, team.name)


def test_scenario_schema_errors_name_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "id": "bad",
                "name": "x",
                "sample": True,
                "map": "airfield_bar",
                "players": [
                    {"name": "A", "figures": ["Not An Id"]},
                    {"name": "B", "figures": ["sample-ruffian"]},
                ],
            }
        )
    )
    with pytest.raises(CatalogueError) as info:
        load_scenario(bad)
    assert info.value.field == "players[0].figures[0]"


def test_M04_M05_M06_M08_M09_step_by_step_hit_the_deck() -> None:
    """The whole "Hit the Deck!" order: first player rolls (AC-M04), chooses the map (AC-M05);
    the next player chooses a starting area (AC-M06) and the first takes the other (AC-A14);
    the first player places the whole team, then the next (AC-M09); Aces start on the green
    triangle (AC-M08)."""
    from dialtray.rules.aces.grid import Square
    from dialtray.rules.aces.setup import SetupSession

    s = SetupSession(
        [TeamSpec("Kim", KIM), TeamSpec("Tim", ["sample-louis-thibodeaux", "sample-genghis"])],
        ManualDice([1, 2, 6, 6]),
    )
    m = load_map("airfield_bar")
    with pytest.raises(IllegalActionError):
        s.choose_map(0, m)  # nobody has rolled yet
    assert s.roll_first_player() == 1  # Tim 12 beats Kim 3
    with pytest.raises(IllegalActionError) as info:
        s.choose_map(0, m)
    assert info.value.mechanic == "AC-M05"
    s.choose_map(1, m)
    with pytest.raises(IllegalActionError) as info:
        s.choose_area(1, 1)  # the player to the left of the first chooses
    assert info.value.mechanic == "AC-M06"
    s.choose_area(0, 2)
    assert s.areas == {0: 2, 1: 1}
    assert s.next_to_place() == (1, "louis-thibodeaux")
    with pytest.raises(IllegalActionError) as info:
        s.place("charlie-steele", Square.parse("h19"))  # Kim places after Tim
    assert info.value.mechanic == "AC-M09"
    with pytest.raises(IllegalActionError):
        s.place("louis-thibodeaux", Square.parse("h19"))  # Tim's area is 1 (top)
    s.place("louis-thibodeaux", Square.parse("h2"))
    s.place("genghis", Square.parse("i2"))
    for k, (label, _) in enumerate(s.labels[0]):
        s.place(label, Square(3 + k, 18))
    g = s.start()
    assert g.turn.player == 1 and g.state.areas == {0: 2, 1: 1}
    assert all(c.click == c.figure.starting_click for c in g.state.chars.values())


def test_talents_file_is_schema_checked(tmp_path: Path) -> None:
    bad = tmp_path / "talents.json"
    bad.write_text(
        json.dumps({"sample": True, "colours": {"speed": {"green": 3}}, "abilities": {}})
    )
    with pytest.raises(CatalogueError) as info:
        load_talents(bad)
    assert info.value.field == "colours.speed.green"
