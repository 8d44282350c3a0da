"""Custom Aces catalogues (issue 10): a directory of figures/maps/scenarios/talents that adds to
or overrides the shipped data, selected by a log's ``Catalogue:`` line; every bad figure, map or
talents file is an error naming the file and the field (or line and column); AC-M08 starting
position read from the figure file; AC-M13 unknown colours are errors at load time."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from dialtray.cli import main
from dialtray.rules.aces.catalogue import builtin, catalogue_for
from dialtray.rules.aces.figures import FIGURES_DIR, load_catalogue
from dialtray.rules.aces.maps import MAPS_DIR, MapError
from dialtray.rules.aces.scenarios import TeamSpec, load_scenario, new_game, start_scenario
from dialtray.rules.core.dice import ManualDice
from dialtray.rules.core.errors import CatalogueError, NotationError
from dialtray.rules.core.notation import parse_log, read_log
from dialtray.rules.core.replay import replay_log


def figure(name: str = "genghis") -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((FIGURES_DIR / f"{name}.json").read_text())
    return doc


def write(path: Path, doc: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


ACE = {
    "id": "my-ace",
    "name": "My Ace",
    "kind": "ace",
    "sample": False,
    "points": 30,
    "range": 4,
    "pistols": 1,
    "starting_click": 2,
    "dial": [
        {"speed": 9, "attack": 9, "defense": 9, "fate": 3},
        {"speed": 8, "attack": 8, "defense": 8, "fate": 3},
        {"speed": 5, "attack": 4, "defense": 5, "fate": 2, "colours": {"attack": "red"}},
        {"speed": 4, "attack": 3, "defense": 4, "fate": 1},
    ],
}

SCENARIO = {
    "id": "my-duel",
    "name": "My duel",
    "sample": False,
    "map": "my-room",
    "first_player": 1,
    "players": [
        {"name": "Mine", "figures": ["my-ace", "sample-ruffian"], "area": 1},
        {"name": "Theirs", "figures": ["sample-genghis"], "area": 2},
    ],
}

ROOM = """name: My room
sample: false
size: 6x6
start: 1 a1 f1
start: 2 a6 f6
grid:
. . . . . .

. . . . . .

. . # # . .

. . ~ ~ . .

. . . . . .

. . . . . .
"""


@pytest.fixture
def custom(tmp_path: Path) -> Path:
    d = tmp_path / "my-data"
    write(d / "figures" / "my-ace.json", ACE)
    strong = figure("genghis")
    strong["points"] = 29  # overrides the shipped Genghis (28)
    write(d / "figures" / "genghis.json", strong)
    write(d / "maps" / "my-room.map", ROOM)
    write(d / "scenarios" / "my-duel.json", SCENARIO)
    return d


def test_custom_catalogue_adds_to_and_overrides_the_builtin(custom: Path) -> None:
    base = builtin()
    data = catalogue_for(custom)
    assert set(data.figures) == set(base.figures) | {"my-ace"}  # nothing lost
    assert (
        data.figures["sample-genghis"].points == 29 and base.figures["sample-genghis"].points == 28
    )
    assert data.figures["sample-ruffian"] is base.figures["sample-ruffian"]
    assert data.origin["my-ace"] == str(custom) and data.origin["sample-ruffian"] == "built-in"
    assert set(data.maps) == set(base.maps) | {"my-room"}
    assert set(data.scenarios) == set(base.scenarios) | {"my-duel"}
    assert load_scenario("my-duel", data).map == "my-room"
    with pytest.raises(OSError):
        load_scenario("my-duel")  # only in the custom catalogue


def test_ac_m08_ace_starts_on_the_green_triangle_of_its_file(custom: Path) -> None:
    """AC-M08: "turn each Ace's dial until the green triangle shows": my-ace's triangle is at
    click 2 (not 0), so it starts there with click 2's values; the token at its only click."""
    data = catalogue_for(custom)
    g = start_scenario(load_scenario("my-duel", data), ManualDice(), data=data)
    ace = g.state.chars["my-ace"]
    assert ace.click == 2 and ace.figure.starting_click == 2
    v = ace.figure.click(ace.click)
    assert (v.speed, v.attack, v.defense, v.fate) == (5, 4, 5, 2)
    assert g.state.chars["ruffian"].click == 0
    # the same Ace with its triangle moved to click 0 starts at 0: the click comes from the file
    moved = copy.deepcopy(ACE)
    moved["starting_click"] = 0
    write(custom / "figures" / "my-ace.json", moved)
    data0 = catalogue_for(custom)
    g0 = start_scenario(load_scenario("my-duel", data0), ManualDice(), data=data0)
    assert g0.state.chars["my-ace"].click == 0


def test_aces_log_with_custom_catalogue_replays(
    custom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = custom.parent / "duel.log"
    log.write_text("Game: aces\nCatalogue: my-data\nScenario: my-duel\n---\n")
    assert main(["replay", str(log)]) == 0
    assert "my-ace" in capsys.readouterr().out
    result = replay_log(read_log(log))
    assert result.game.map.name == "My room"  # type: ignore[attr-defined]
    # the same scenario by file name, relative to the log
    log.write_text(
        "Game: aces\nCatalogue: my-data\nScenario: my-data/scenarios/my-duel.json\n---\n"
    )
    assert replay_log(read_log(log)).game.map.name == "My room"  # type: ignore[attr-defined]


def test_unknown_colour_is_an_error_not_ignored(
    custom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """AC-M13: a colour the talents map does not know is a catalogue error naming the file,
    the figure and ``dial[k].colours.STAT`` — in the loader, in a log, in `dialtray figures`."""
    bad = copy.deepcopy(ACE)
    bad["dial"][1]["colours"] = {"defense": "purple"}
    path = write(custom / "figures" / "my-ace.json", bad)
    with pytest.raises(CatalogueError) as info:
        catalogue_for(custom)
    e = info.value
    assert (e.file, e.figure, e.field) == (str(path), "my-ace", "dial[1].colours.defense")
    assert "purple" in e.message
    with pytest.raises(CatalogueError, match=r"dial\[1\]\.colours\.defense"):
        load_catalogue(custom / "figures")
    log = custom.parent / "duel.log"
    log.write_text("Game: aces\nCatalogue: my-data\nScenario: my-duel\n---\n")
    with pytest.raises(NotationError) as ninfo:
        replay_log(read_log(log))
    assert ninfo.value.line == 2 and "dial[1].colours.defense" in ninfo.value.message
    assert main(["figures", "--game", "aces", "--catalogue", str(custom)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: figure my-ace: field dial[1].colours.defense:")
    # a custom talents.json that knows the colour makes the same figure valid
    write(
        custom / "talents.json",
        {
            "sample": False,
            "colours": {"defense": {"purple": "tough"}},
            "abilities": {"tough": {"name": "Tough", "kind": "defense_bonus"}},
        },
    )
    data = catalogue_for(custom)
    assert data.talents.ability_for("defense", "purple") is not None
    assert data.talents.ability_for("attack", "red") is not None  # the shipped map stays


def broken(change: str) -> tuple[dict[str, Any] | str | bytes, str]:
    """A figure file broken one way, and the field the error must name."""
    doc = copy.deepcopy(ACE)
    if change == "not JSON":
        return '{"id": "my-ace",', "(whole document)"
    if change == "not UTF-8":
        return b'{"id": "my-ace\xff"}', "(whole document)"
    if change == "missing points":
        del doc["points"]
        return doc, "(whole document)"
    if change == "attack not a number":
        doc["dial"][3]["attack"] = "x"
        return doc, "dial[3].attack"
    if change == "fate out of range":
        doc["dial"][0]["fate"] = 7
        return doc, "dial[0].fate"
    if change == "unknown field":
        doc["dial"][0]["luck"] = 1
        return doc, "dial[0]"
    if change == "bad id":
        doc["id"] = "My Ace"
        return doc, "id"
    if change == "bad kind":
        doc["kind"] = "hero"
        return doc, "kind"
    if change == "starting click past the dial":
        doc["starting_click"] = 4
        return doc, "starting_click"
    if change == "token with two clicks":
        doc["kind"] = "token"
        doc["starting_click"] = 0
        return doc, "dial"
    if change == "colour on an unknown stat":
        doc["dial"][0]["colours"] = {"luck": "red"}
        return doc, "dial[0].colours"
    if change == "unknown colour":
        doc["dial"][3]["colours"] = {"speed": "blue"}
        return doc, "dial[3].colours.speed"
    raise AssertionError(change)


CHANGES = [
    "not JSON",
    "not UTF-8",
    "missing points",
    "attack not a number",
    "fate out of range",
    "unknown field",
    "bad id",
    "bad kind",
    "starting click past the dial",
    "token with two clicks",
    "colour on an unknown stat",
    "unknown colour",
]


@pytest.mark.parametrize("change", CHANGES)
def test_every_bad_figure_file_names_file_and_field(
    change: str, custom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content, field = broken(change)
    path = custom / "figures" / "my-ace.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        write(path, content)
    with pytest.raises(CatalogueError) as info:
        catalogue_for(custom)
    assert info.value.file == str(path) and info.value.field == field, str(info.value)
    assert main(["figures", "--game", "aces", "--catalogue", str(custom)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: ") and f"field {field}: " in err
    assert "Traceback" not in err


def test_duplicate_figure_id_in_a_custom_directory(custom: Path) -> None:
    write(custom / "figures" / "again.json", ACE)
    with pytest.raises(CatalogueError) as info:
        catalogue_for(custom)
    assert info.value.field == "id" and "duplicate" in info.value.message


MAP_FAULTS = {
    # what is wrong -> (text, line, column, words of the message)
    "no name": (ROOM.replace("name: My room\n", ""), 1, 1, "missing 'name:'"),
    "sample not a boolean": (ROOM.replace("sample: false", "sample: maybe"), 2, 9, "sample"),
    "bad size": (ROOM.replace("size: 6x6", "size: six"), 3, 7, "size"),
    "unknown key": (ROOM.replace("size: 6x6", "size: 6x6\ncolour: red"), 4, 1, "unknown key"),
    "bad square symbol": (ROOM.replace(". . # # . .", ". . # @ . ."), 11, 7, "found '@'"),
    "bad wall symbol": (ROOM.replace(". . # # . .", ". . #/# . ."), 11, 6, "'|' or space"),
    "grid too short": (ROOM.rsplit(". . . . . .", 1)[0], 16, 1, "grid has"),
    "start off the map": (ROOM.replace("start: 2 a6 f6", "start: 2 a6 g9"), 5, 1, "off the"),
    "start twice": (ROOM.replace("start: 2 a6 f6", "start: 1 a6 f6"), 5, 1, "defined twice"),
}


@pytest.mark.parametrize("fault", sorted(MAP_FAULTS))
def test_every_bad_map_file_names_file_line_and_column(
    fault: str, custom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, line, column, words = MAP_FAULTS[fault]
    path = write(custom / "maps" / "my-room.map", text)
    with pytest.raises(MapError) as info:
        catalogue_for(custom)
    e = info.value
    assert (e.file, e.line, e.column) == (str(path), line, column), str(e)
    assert words in e.message
    assert main(["figures", "--game", "aces", "--catalogue", str(custom)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {path}:{line}:{column}: ")


def test_map_not_utf8_and_scenario_with_unknown_map(custom: Path) -> None:
    (custom / "maps" / "my-room.map").write_bytes(b"name: caf\xe9\n")
    with pytest.raises(MapError, match="not UTF-8") as info:
        catalogue_for(custom)
    assert info.value.line == 1
    (custom / "maps" / "my-room.map").unlink()
    log = custom.parent / "duel.log"
    log.write_text("Game: aces\nCatalogue: my-data\nScenario: my-duel\n---\n")
    with pytest.raises(NotationError) as ninfo:
        replay_log(read_log(log))
    assert ninfo.value.line == 3 and "my-room" in ninfo.value.message


@pytest.mark.parametrize(
    "talents,field",
    [
        ({"colours": {"speed": {"blue": 3}}, "abilities": {}}, "colours.speed.blue"),
        ({"colours": {"luck": {"blue": "x"}}, "abilities": {}}, "colours"),
        ({"colours": {"speed": {"blue": "flight"}}, "abilities": {}}, "colours.speed.blue"),
        ({"colours": {}, "abilities": {"x": {"name": "X"}}}, "abilities.x"),
        ({"colours": {}}, "(whole document)"),
    ],
)
def test_bad_custom_talents_file_names_field(
    talents: dict[str, Any], field: str, custom: Path
) -> None:
    path = write(custom / "talents.json", {"sample": True, **talents})
    with pytest.raises(CatalogueError) as info:
        catalogue_for(custom)
    assert (info.value.file, info.value.field) == (str(path), field), str(info.value)


def test_empty_or_missing_custom_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="no such directory"):
        catalogue_for(tmp_path / "nowhere")
    with pytest.raises(CatalogueError, match="holds none of"):
        catalogue_for(tmp_path)
    text = "Game: aces\nCatalogue: nowhere\nScenario: zeppelin-raid\n---\n"
    with pytest.raises(NotationError) as info:
        replay_log(parse_log(text, str(tmp_path / "x.log")))
    assert info.value.line == 2


def test_shipped_maps_dir_is_the_builtin_maps() -> None:
    assert {p.parent for p in builtin().maps.values()} == {MAPS_DIR}


def test_new_game_with_custom_figures_mapping(custom: Path) -> None:
    """The engine API takes the merged figures too (not only logs)."""
    data = catalogue_for(custom)
    g = new_game(
        data.load_map("my-room"),
        [TeamSpec("A", ["my-ace"]), TeamSpec("B", ["sample-genghis"])],
        ManualDice(),
        data.figures,
        data.talents,
        first_player=0,
    )
    assert g.state.chars["my-ace"].click == 2


def test_log_writer_names_the_catalogue_and_replays(custom: Path) -> None:
    """A bot game on the custom scenario, written with ``catalogue=``, replays identically."""
    from dialtray.rules.aces.bots import GreedyBot
    from dialtray.rules.aces.notation import LogWriter
    from dialtray.rules.core.dice import SeededDice

    data = catalogue_for(custom)
    g = start_scenario(load_scenario("my-duel", data), SeededDice(5), data=data)
    w = LogWriter(g, "my-duel", catalogue="my-data")
    bot = GreedyBot(2)
    for _ in range(20):
        if g.state.over:
            break
        w.apply(bot.choose(g))
    log = custom.parent / "bots.log"
    log.write_text(w.text())
    assert replay_log(read_log(log)).game.report() == g.report()
