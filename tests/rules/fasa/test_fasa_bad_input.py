"""Bad input meets a clear error and leaves the state alone (issue 15 acceptance): an illegal
plot, a plot off the template, a shot out of arc, a malformed record sheet or mapsheet, a log
line that does not parse, a bad header."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dialtray.rules.core.errors import (
    CatalogueError,
    IllegalActionError,
    InvalidActionError,
    NotationError,
)
from dialtray.rules.core.game import state_json
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Fire, Plot, parse_action
from dialtray.rules.fasa.hexmap import DATA, load_map
from dialtray.rules.fasa.sheets import load_sheet
from fasahelp import game, placed


def _two(**kw: object):  # type: ignore[no-untyped-def]
    return game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
                 placed("B1", "P2", "sample-gunship", 12, 3, "D", 2)], **kw)


@pytest.mark.parametrize(("plot", "rule"), [("3L9F", "FS-M35"), ("7SA", "FS-M35"),
                                            ("3Q2F", "FS-M35"), ("3R0A", "FS-M35")])
def test_plot_not_on_the_template_is_refused_fs_m35(plot: str, rule: str) -> None:
    """FS-M34/FS-M35: no arrowhead for that hex and facing (or not a plot at all)."""
    g = _two()
    before = state_json(g)
    with pytest.raises(IllegalActionError) as info:
        g.apply(Plot("A1", plot))
    assert info.value.mechanic == rule and state_json(g) == before and g.history == ()


def test_plot_the_damage_forbids_is_refused_naming_the_rule() -> None:
    """FS-M97 a locked rudder, FS-M17 a shocked pilot's turn, FS-M88 a glide, FS-M72 the
    wrong plane's turn; the state is unchanged each time."""
    g = _two(extra=[ev.LocationLost("A1", "rudder_right", "FS-M97"),
                    ev.Shocked("B1", "pilot", 1)])
    for action, rule in ((Plot("A1", "3L2F"), "FS-M97"), (Plot("B1", "2SA"), "FS-M61")):
        before = state_json(g)
        with pytest.raises(IllegalActionError) as info:
            g.apply(action)
        assert info.value.mechanic == rule and state_json(g) == before
    g.apply(Plot("A1", "3R2B"))
    with pytest.raises(IllegalActionError) as info:
        g.apply(Plot("B1", "2L1F"))
    assert info.value.mechanic == "FS-M17"


def test_shot_out_of_arc_or_by_the_wrong_plane_is_refused() -> None:
    """FS-M69 a target off to the side; FS-M72 not this plane's turn to fire."""
    g = _two(combat=["A1", "B1"])
    before = state_json(g)
    with pytest.raises(IllegalActionError) as info:
        g.apply(Fire("A1", "B1"))
    assert info.value.mechanic == "FS-M69" and state_json(g) == before
    with pytest.raises(IllegalActionError) as info:
        g.apply(Fire("B1", "A1"))
    assert info.value.mechanic == "FS-M72" and state_json(g) == before


def _bad_sheet(tmp_path: Path, change: dict[str, object], name: str = "bad") -> Path:
    doc = json.loads((DATA / "sheets" / "sample-hawk.json").read_text())
    doc.update(change)
    p = tmp_path / f"{name}.json"
    p.write_text(json.dumps(doc))
    return p


@pytest.mark.parametrize(("change", "field"), [
    ({"max_speed": 6}, "max_speed"),
    ({"g_port": -1}, "g_port"),
    ({"deceleration": 3}, "deceleration"),
    ({"acceleration": 3, "max_speed": 2}, "acceleration"),
    ({"layout": "biplane"}, "layout"),
    ({"guns": [{"id": "gun1", "caliber": 45, "ammo": "AP", "bursts": 3}]}, "guns[0].caliber"),
    ({"hardpoints": [{"id": "rockets_p1", "load": ["AP", "HE"]}]}, "hardpoints[0].load"),
    ({"guns": [{"id": "gun9", "caliber": 30, "ammo": "AP", "bursts": 3}]}, "guns[0].id"),
])
def test_malformed_record_sheet_names_file_and_field(tmp_path: Path, change: dict[str, object],
                                                     field: str) -> None:
    """FS-M05 sheets are schema-checked: the error names the file and the field (FS-M27..
    FS-M32, FS-M103)."""
    path = _bad_sheet(tmp_path, change)
    with pytest.raises(CatalogueError) as info:
        load_sheet(path)
    assert info.value.field == field and info.value.file == str(path)


def test_malformed_json_and_mapsheet(tmp_path: Path) -> None:
    p = tmp_path / "broken.json"
    p.write_text("{not json")
    with pytest.raises(CatalogueError, match="not valid JSON"):
        load_sheet(p)
    m = tmp_path / "m.json"
    m.write_text(json.dumps({"id": "m", "title": "t", "sample": True, "cols": 5, "rows": 5,
                             "objects": [{"id": "x", "hex": [9, 1], "kind": "building",
                                          "base_tn": 1}]}))
    with pytest.raises(CatalogueError) as info:
        load_map("m", tmp_path)
    assert info.value.field == "objects[0].hex"


def _log(body: str, header: str = "") -> str:
    return "Game: fasa\n" + header + "---\n" + body


@pytest.mark.parametrize(("text", "line", "message"), [
    (_log("plot A1 3SA\nfly A1 north\n"), 4, "not a FASA action"),
    (_log("plot A1 3SA\nplot A2 3SA\nplot B1 3SA\nplot B2 6SA | 3\n"), 6, "needs d10 faces"),
    (_log("plot A1 3SA\nplot B1 3SA | d10: 11\n"), 4, "not a die face"),
    (_log("plot A1 3L9F\n"), 3, "FS-M35"),
    (_log("plot A1 3SA\n", "Map: nowhere\n"), 2, "no mapsheet"),
    (_log("plot A1 3SA\n", "Side: P1 A1=sample-zzz\n"), 2, "no record sheet"),
    (_log("plot A1 3SA\n", "Plots: hidden\n"), 2, "Plots"),
    (_log("plot A1 3SA\n", "Turn-limt: 3\n"), 2, "unknown header key"),
])
def test_log_errors_name_the_line(text: str, line: int, message: str) -> None:
    """A FASA log that cannot be replayed: ``FILE:LINE: reason``."""
    with pytest.raises(NotationError) as info:
        replay_log(parse_log(text, "bad.log"))
    assert info.value.line == line and message in str(info.value)


def test_action_text_that_does_not_parse() -> None:
    for text in ("", "plot", "fire A1", "seal P1 xyz", "place A1 x", "launch A1 hp FK 5"):
        with pytest.raises(InvalidActionError):
            parse_action(text)
