"""`dialtray fasa sheet new|check` and `fasa tables check` (issue 34): a record sheet checked
against the rules for making one, each broken rule named: FS-M24 "Creation" (450 XP hero, 350
wingman, FS table 4; FS-M25 XP earned since), FS-M15 "Constitution", FS-M19 fractional Quick
Draw, FS-M27..FS-M31 the plane's statistics, FS-M32 calibers, FS-M103 hardpoints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.rules.fasa.creation import check_sheet, xp_spent
from dialtray.rules.fasa.tables import SHIPPED

SHEETS = SHIPPED.parent / "sheets"


def _sheet(tmp_path: Path, **changes: object) -> Path:
    doc = json.loads((SHEETS / "sample-gunship.json").read_text())
    pilot = changes.pop("pilot", None)
    doc.update(changes)
    if isinstance(pilot, dict):
        doc["pilot"].update(pilot)
    f = tmp_path / f"s{len(list(tmp_path.iterdir()))}.json"
    f.write_text(json.dumps(doc))
    return f


def test_fs_m24_creation_xp_by_the_skill_cost_table(tmp_path: Path) -> None:
    """FS-M24 / FS table 4: skills 4 4 4 4 4 cost 5 x 70 = 350: a wingman's whole 350; one
    more level is over (FS-A13: Constitution 3 -> 4 costs 30 too); a hero has 450."""
    p = {"quick_draw": 4, "dead_eye": 4, "steady_hand": 4, "natural_touch": 4,
         "sixth_sense": 4, "constitution": 3, "quick_draw_points": 0, "experience": 0}
    assert xp_spent(p) == 350
    assert check_sheet(_sheet(tmp_path, pilot=dict(p, role="wingman"))) == []
    (f,) = check_sheet(_sheet(tmp_path, pilot=dict(p, role="wingman", constitution=4)))
    assert f.rule == "FS-M24" and "380" in f.message and "350" in f.message
    assert check_sheet(_sheet(tmp_path, pilot=dict(p, role="hero", constitution=4))) == []
    assert check_sheet(_sheet(tmp_path, pilot=dict(p, role="wingman", constitution=4,
                                                   experience=30))) == []


def test_the_planes_statistics_name_their_rules(tmp_path: Path) -> None:
    """FS-M27 max speed 1..5, FS-M29 acceleration not above max speed, FS-M30 deceleration 2,
    FS-M32 30-70 cal, FS-M15 Constitution from 3, FS-M19 points short of the next level."""
    cases = [({"max_speed": 6}, "FS-M27"), ({"max_speed": 1, "acceleration": 2}, "FS-M29"),
             ({"deceleration": 3}, "FS-M30"), ({"base_to_hit": 0}, "FS-M31"),
             ({"pilot": {"constitution": 2}}, "FS-M15"),
             ({"pilot": {"quick_draw": 4, "quick_draw_points": 40}}, "FS-M19"),
             ({"guns": [{"id": "gun1", "caliber": 80, "ammo": "AP", "bursts": 9}]}, "FS-M32"),
             ({"layout": "flying-wing"}, "FS-M05")]
    for change, rule in cases:
        found = check_sheet(_sheet(tmp_path, **change))
        assert rule in {f.rule for f in found}, (change, [f.text() for f in found])


def test_sheet_new_then_check_through_the_command_line(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    f = tmp_path / "box" / "sheets" / "condor.json"
    assert main(["fasa", "sheet", "new", str(f), "--name", "Joe Condor"]) == 0
    assert main(["fasa", "sheet", "check", str(f)]) == 0
    doc = json.loads(f.read_text())
    doc["pilot"]["dead_eye"] = 10
    f.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["fasa", "sheet", "check", str(f)]) == 1
    assert 'breaks FS-M24 "Creation"' in capsys.readouterr().out
    assert main(["fasa", "tables", "check", str(tmp_path / "box")]) == 1
    assert main(["fasa", "sheet", "new", str(f)]) == 2  # never overwrites
    for sheet in SHEETS.glob("*.json"):
        assert main(["fasa", "sheet", "check", str(sheet)]) == 0, sheet
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    capsys.readouterr()
    assert main(["fasa", "sheet", "check", str(bad)]) == 1
    assert "not valid JSON" in capsys.readouterr().out


def test_an_owners_box_is_checked_whole_then_played_from_its_directory(tmp_path: Path) -> None:
    """What a front end calls before `play fasa --tables DIR` (``ownbox``): every problem of
    the box, each naming its file (a sheet breaking FS-M24 "Creation", a malformed map); one
    ``CatalogueError`` from ``load_box``; a good box is what ``start_events`` takes, and the
    game plays the owner's sheet from it."""
    from dialtray.rules.core.dice import SeededDice
    from dialtray.rules.core.errors import CatalogueError
    from dialtray.rules.fasa.game import FasaGame, start_events
    from dialtray.rules.fasa.ownbox import check_box, load_box

    box = tmp_path / "box"
    (box / "sheets").mkdir(parents=True)
    (box / "maps").mkdir()
    doc = json.loads((SHEETS / "sample-gunship.json").read_text())
    doc.update(id="condor", sample=False)
    (box / "sheets" / "condor.json").write_text(json.dumps(doc))
    assert check_box(box) == []
    sides = [("P1", "A1", "condor"), ("P2", "B1", "sample-brute")]
    g = FasaGame(SeededDice(2), start_events("sample-blank", sides, 3, tables=load_box(box)))
    assert g.state.planes["A1"].sheet_data.id == "condor"
    doc["pilot"]["dead_eye"] = 10
    (box / "sheets" / "condor.json").write_text(json.dumps(doc))
    (box / "maps" / "sky.json").write_text('{"id": "sky"}')
    problems = check_box(box)
    assert len(problems) == 2
    assert problems[0].startswith(f"{box / 'sheets' / 'condor.json'}: field ")
    assert 'breaks FS-M24 "Creation"' in problems[0] and "sky.json" in problems[1]
    with pytest.raises(CatalogueError) as caught:
        load_box(box)
    assert str(caught.value) == problems[0]
    assert check_box(tmp_path / "nowhere") == [f"{tmp_path / 'nowhere'}: field (directory): "
                                               "no such directory"]
