"""Figures, squadrons and setup (seed 002 "Pilot and Plane", "Pilot Checks", "Create a
Squadron", "Hit the Skies!"; AA-M01..M05, AA-M08, AA-M09, AA-M11, AA-M12)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aa_helpers import fig_doc, new_game, run, start
from dialtray.rules.airaction.catalogue import DATA_DIR, Catalogue, builtin
from dialtray.rules.airaction.game import SquadronPlane
from dialtray.rules.core.errors import CatalogueError, IllegalActionError


def test_builtin_catalogue_loads_and_every_figure_is_marked_sample() -> None:
    cat = builtin()
    assert {"sample-loyle-crawford", "sample-charlie-steele"} <= set(cat.figures)
    assert all(f.sample for f in cat.figures.values()) and all(a.sample for a in cat.aces.values())
    assert cat.cards_approximate and cat.colours_sample


def test_samples_carry_the_values_the_rules_give() -> None:
    """AA-T01/T02/T04 values: Loyle gunnery 3 (AA-A01), attack 3 fate 3; Charlie silhouette 4,
    fate 2; both bring two Ace navigation cards."""
    cat = builtin()
    loyle, charlie = cat.figures["sample-loyle-crawford"], cat.figures["sample-charlie-steele"]
    start = loyle.levels["rookie"].start_click
    assert loyle.combat_dial[start].front_gunnery == 3
    ace = cat.aces["sample-ace-loyle-crawford"]
    assert (ace.dial[ace.start_click].attack, ace.dial[ace.start_click].fate) == (3, 3)
    assert charlie.silhouette == 4
    cace = cat.aces["sample-ace-charlie-steele"]
    assert cace.dial[cace.start_click].fate == 2 and cace.points == 49
    assert len(loyle.ace_navigation_cards) == len(charlie.ace_navigation_cards) == 2


def test_aa_m01_combat_values_change_with_clicks_fixed_values_do_not() -> None:
    """AA-M01: max speed, gunnery and piloting per click; silhouette and ranges fixed."""
    fig = builtin().figures["sample-loyle-crawford"]
    assert len({(c.front_gunnery, c.piloting) for c in fig.combat_dial}) > 1
    assert (fig.silhouette, fig.front_range, fig.rear_range) == (5, 3, 0)


def test_aa_m02_speed_dial_rotated_so_red_line_follows_last(tmp_path: Path) -> None:
    """AA-M02: the speed dial is stored in throttle-up order with the red line after the last
    position, wherever the file starts."""
    doc = fig_doc("rot")
    doc["speed_dial"] = [{"speed": 6}, {"speed": 7, "red_line": True}, {"speed": 1}, {"speed": 2}]
    data = copy_data(tmp_path)
    (data / "figures" / "rot.json").write_text(json.dumps(doc))
    cat = Catalogue.load(data)
    assert [p.speed for p in cat.figures["rot"].speed_dial] == [1, 2, 6, 7]


def copy_data(tmp_path: Path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(DATA_DIR, dst)
    return dst


@pytest.mark.parametrize(
    "mutate,field",
    [
        (lambda d: d["combat_dial"][3].__setitem__("piloting", "x"), "combat_dial[3].piloting"),
        (lambda d: d.pop("silhouette"), "(whole document)"),
        (lambda d: d["combat_dial"][5].pop("bail_out"), "combat_dial[5].bail_out"),
        (
            lambda d: d["levels"]["rookie"].__setitem__("start_click", 99),
            "levels.rookie.start_click",
        ),
        (lambda d: d["speed_dial"][0].__setitem__("red_line", True), "speed_dial"),
        (lambda d: d.__setitem__("ace", "nobody"), "ace"),
        (
            lambda d: d["combat_dial"][1].__setitem__("structural_limit", True),
            "combat_dial[1].structural_limit",
        ),
    ],
)
def test_malformed_figure_file_names_file_figure_field(
    tmp_path: Path, mutate: Callable[[dict[str, Any]], object], field: str
) -> None:
    data = copy_data(tmp_path)
    doc = fig_doc("broken")
    mutate(doc)
    (data / "figures" / "broken.json").write_text(json.dumps(doc))
    with pytest.raises(CatalogueError) as info:
        Catalogue.load(data)
    e = info.value
    assert Path(e.file).name == "broken.json" and e.figure == "broken" and e.field == field


def test_aa_m03_unknown_hook_in_colour_map_is_an_error(tmp_path: Path) -> None:
    data = copy_data(tmp_path)
    m = json.loads((data / "skills_equipment.json").read_text())
    m["colours"]["sample-shaken"]["hook"] = "teleport"
    (data / "skills_equipment.json").write_text(json.dumps(m))
    with pytest.raises(CatalogueError, match="unknown hook"):
        Catalogue.load(data)


def test_aa_m03_skills_in_effect_while_showing() -> None:
    """AA-M03: a skill applies only while its colour shows in the stat slot."""
    g, d = new_game({"P1": [SquadronPlane("A1", "effects")], "P2": [SquadronPlane("B1", "alpha")]})
    assert not g.shaken("A1")
    start(g, d, {"A1": 1, "B1": 5})
    run(g, d, "plan B1 Cruise straight", "moved B1", "overlaps-done", "shoot B1 front A1 | 6 1 1")
    assert g.shaken("A1")


def test_aa_m05_m09_pilot_uniqueness_same_figure_may_oppose() -> None:
    """AA-M09: no two planes flown by the same pilot in a squadron; AA-M05 identity by pilot;
    the same figure may appear in opposing squadrons."""
    with pytest.raises(IllegalActionError, match="AA-M09"):
        new_game(
            {
                "P1": [SquadronPlane("A1", "alpha"), SquadronPlane("A2", "alpha")],
                "P2": [SquadronPlane("B1", "bravo")],
            }
        )
    new_game({"P1": [SquadronPlane("A1", "alpha")], "P2": [SquadronPlane("B1", "alpha")]})


def test_aa_m08_build_total_multiple_of_100_not_exceeded() -> None:
    """AA-M08: build totals in multiples of 100 (standard 200); squadron total <= build."""
    with pytest.raises(IllegalActionError, match="AA-M08"):
        new_game(build_total=250)
    with pytest.raises(IllegalActionError, match="AA-M08"):
        new_game(
            {
                "P1": [
                    SquadronPlane(f"A{i}", f) for i, f in enumerate(("alpha", "bravo", "charlie"))
                ],
                "P2": [SquadronPlane("B1", "alpha")],
            },
            build_total=100,
        )
    g, _ = new_game(build_total=200)
    assert g.state.build_total == 200 and g.build_points("P1") == 100


def test_aa_m12_starting_position_per_level() -> None:
    """AA-M12: each combat dial starts at its green triangle (start click per level)."""
    doc = fig_doc(
        "late",
        levels={
            "rookie": {"multiplier": 1, "points": 50, "start_click": 0},
            "veteran": {"multiplier": 4, "points": 60, "start_click": 1},
        },
    )
    from aa_helpers import make_catalogue

    cat = make_catalogue([doc])
    g, _ = new_game(
        {"P1": [SquadronPlane("A1", "late", "veteran")], "P2": [SquadronPlane("B1", "late")]},
        catalogue=cat,
    )
    assert g.plane("A1").combat_click == 1 and g.plane("B1").combat_click == 0


def test_malformed_colour_map_and_cards_name_file_and_field(tmp_path: Path) -> None:
    data = copy_data(tmp_path)
    m = json.loads((data / "skills_equipment.json").read_text())
    m["colours"]["sample-stall"]["amount"] = "lots"
    (data / "skills_equipment.json").write_text(json.dumps(m))
    with pytest.raises(CatalogueError) as info:
        Catalogue.load(data)
    assert (info.value.figure, info.value.field) == ("sample-stall", "amount")
    data2 = copy_data(tmp_path / "two")
    cards = json.loads((data2 / "navigation_cards.json").read_text())
    del cards["cards"][2]["speed_rating"]
    (data2 / "navigation_cards.json").write_text(json.dumps(cards))
    with pytest.raises(CatalogueError) as info2:
        Catalogue.load(data2)
    assert info2.value.field == "cards[2]" and info2.value.figure == "Turn"
