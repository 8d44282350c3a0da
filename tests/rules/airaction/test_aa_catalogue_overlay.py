"""Custom Air Action catalogues (issue 10): a log's ``Catalogue: DIR`` adds to or overrides the
shipped data instead of replacing it; every bad figure, Ace or colour file is an error naming
the file and the field (``FILE: figure ID: field F: what is wrong``)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from dialtray.cli import main
from dialtray.rules.airaction.catalogue import DATA_DIR, builtin
from dialtray.rules.core.errors import CatalogueError, NotationError
from dialtray.rules.core.notation import read_log
from dialtray.rules.core.replay import replay_log


def militia() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(
        (DATA_DIR / "figures" / "sample-militia-fighter.json").read_text()
    )
    return doc


def my_plane() -> dict[str, Any]:
    doc = militia()
    doc.update(
        id="my-fighter",
        sample=False,
        pilot="My Pilot",
        plane="My fighter",
        collector_number="001",
        squadron_symbol="mine",
    )
    return doc


def write(path: Path, doc: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


@pytest.fixture
def custom(tmp_path: Path) -> Path:
    d = tmp_path / "planes"
    write(d / "figures" / "my-fighter.json", my_plane())
    tougher = militia()
    tougher["silhouette"] = 4  # overrides the shipped militia fighter (5)
    write(d / "figures" / "sample-militia-fighter.json", tougher)
    return d


def test_custom_catalogue_adds_to_and_overrides_the_builtin(custom: Path) -> None:
    base = builtin()
    cat = base.overlay(custom)
    assert set(cat.figures) == set(base.figures) | {"my-fighter"}
    assert cat.figures["sample-militia-fighter"].silhouette == 4
    assert base.figures["sample-militia-fighter"].silhouette == 5  # the built-in is untouched
    assert cat.aces == base.aces and cat.cards == base.cards and cat.colours == base.colours


LOG = """Game: airaction
Catalogue: planes
Player: P1
Player: P2
Plane: P1 A1 my-fighter
Plane: P2 B1 sample-loyle-crawford rookie sample-ace-loyle-crawford
BuildTotal: 300
---
first-player | 6 6 1 1
"""


def test_log_with_partial_catalogue_uses_builtin_for_the_rest(
    custom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only figures/ in the directory: the Ace, cards and colours still come from the shipped
    data (before issue 10 the log's directory replaced it and this log failed)."""
    log = write(custom.parent / "game.log", LOG)
    assert main(["replay", str(log)]) == 0
    assert "A1" in capsys.readouterr().out


def test_custom_colours_and_aces_merge(custom: Path) -> None:
    write(
        custom / "skills_equipment.json",
        {"sample": False, "colours": {"my-ace-gunner": {"hook": "gunnery_modifier", "amount": 1}}},
    )
    ace = json.loads((DATA_DIR / "aces" / "sample-ace-loyle-crawford.json").read_text())
    ace.update(id="my-ace", name="My Ace", sample=False, points=30)
    write(custom / "aces" / "my-ace.json", ace)
    cat = builtin().overlay(custom)
    assert "my-ace-gunner" in cat.colours and "sample-shaken" in cat.colours
    assert {"my-ace", "sample-ace-loyle-crawford"} <= set(cat.aces)


def broken(change: str) -> tuple[object, str]:
    """A plane file broken one way, and the field the error must name."""
    doc = my_plane()
    if change == "not JSON":
        return "{", "(whole document)"
    if change == "missing silhouette":
        del doc["silhouette"]
        return doc, "(whole document)"
    if change == "piloting not a number":
        doc["combat_dial"][3]["piloting"] = "x"
        return doc, "combat_dial[3].piloting"
    if change == "speed out of range":
        doc["speed_dial"][0]["speed"] = 11
        return doc, "speed_dial[0].speed"
    if change == "start click past the dial":
        doc["levels"]["rookie"]["start_click"] = 99
        return doc, "levels.rookie.start_click"
    if change == "no bail-out value":
        last = len(doc["combat_dial"]) - 1
        doc["combat_dial"][last]["bail_out"] = None
        return doc, f"combat_dial[{last}].bail_out"
    if change == "two red lines":
        doc["speed_dial"][0]["red_line"] = True
        return doc, "speed_dial"
    if change == "one Ace card":
        doc["ace_navigation_cards"] = ["Cruise"]
        return doc, "ace_navigation_cards"
    if change == "unknown Ace":
        doc["ace"] = "nobody"
        return doc, "ace"
    if change == "unknown Ace card":
        doc["ace"] = "sample-ace-loyle-crawford"
        doc["ace_navigation_cards"] = ["Cruise", "Barrel Roll"]
        return doc, "ace_navigation_cards[1]"
    raise AssertionError(change)


CHANGES = [
    "not JSON",
    "missing silhouette",
    "piloting not a number",
    "speed out of range",
    "start click past the dial",
    "no bail-out value",
    "two red lines",
    "one Ace card",
    "unknown Ace",
    "unknown Ace card",
]


@pytest.mark.parametrize("change", CHANGES)
def test_every_bad_plane_file_names_file_and_field(
    change: str, custom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content, field = broken(change)
    path = write(custom / "figures" / "my-fighter.json", content)
    with pytest.raises(CatalogueError) as info:
        builtin().overlay(custom)
    assert (info.value.file, info.value.field) == (str(path), field), str(info.value)
    log = write(custom.parent / "game.log", LOG)
    with pytest.raises(NotationError) as ninfo:
        replay_log(read_log(log))
    assert ninfo.value.line == 2 and f"field {field}:" in ninfo.value.message
    assert main(["figures", "--game", "airaction", "--catalogue", str(custom)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: ") and f"field {field}: " in err


@pytest.mark.parametrize(
    "colours,field",
    [
        ({"c": {"hook": "teleport"}}, "hook"),
        ({"c": {"hook": "gunnery_modifier", "amount": "lots"}}, "amount"),
    ],
)
def test_bad_custom_colour_map_names_colour_and_field(
    colours: dict[str, Any], field: str, custom: Path
) -> None:
    path = write(custom / "skills_equipment.json", {"sample": True, "colours": colours})
    with pytest.raises(CatalogueError) as info:
        builtin().overlay(custom)
    assert (info.value.file, info.value.figure, info.value.field) == (str(path), "c", field)


def test_bad_ace_file_and_not_utf8(custom: Path) -> None:
    ace = json.loads((DATA_DIR / "aces" / "sample-ace-loyle-crawford.json").read_text())
    bad = copy.deepcopy(ace)
    bad["start_click"] = 99
    path = write(custom / "aces" / "a.json", bad)
    with pytest.raises(CatalogueError) as info:
        builtin().overlay(custom)
    assert (info.value.file, info.value.field) == (str(path), "start_click")
    path.write_bytes(b'{"id": "\xff"}')
    with pytest.raises(CatalogueError, match="not UTF-8") as info2:
        builtin().overlay(custom)
    assert info2.value.field == "(whole document)"


def test_missing_or_empty_catalogue_directory(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="no such directory"):
        builtin().overlay(tmp_path / "nowhere")
    with pytest.raises(CatalogueError, match="holds none of"):
        builtin().overlay(tmp_path)


def test_game_with_custom_figures_writes_a_log_that_replays(custom: Path) -> None:
    """write_log(catalogue=...) names the directory, so the log replays to the same state."""
    from dialtray.rules.airaction.game import AirActionGame, SquadronPlane
    from dialtray.rules.airaction.notation import write_log
    from dialtray.rules.core.dice import SeededDice

    cat = builtin().overlay(custom)
    g = AirActionGame.new(
        {
            "P1": [SquadronPlane("A1", "my-fighter")],
            "P2": [SquadronPlane("B1", "sample-militia-fighter")],
        },
        dice=SeededDice(4),
        catalogue=cat,
    )
    g.apply(g.parse_action("first-player"))
    log = custom.parent / "mine.log"
    log.write_text(write_log(g, catalogue="planes"))
    again = replay_log(read_log(log)).game
    assert isinstance(again, AirActionGame) and again.state == g.state
