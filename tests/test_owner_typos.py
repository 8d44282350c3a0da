"""An owner's file with a slip of the keyboard: `dialtray fasa sheet check` and `skyace hero
check` (the real program) name the misspelt field and what it is likely a slip for, and list
allowed values as words (jsonschema's messages named only the required field the slip left
missing, and the allowed values as a Python list)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def dialtray(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "dialtray"), *argv], capture_output=True, text=True,
                          timeout=60, cwd=cwd)


def test_a_misspelt_sheet_field_is_named_with_the_field_it_means(tmp_path: Path) -> None:
    assert dialtray("fasa", "sheet", "new", "condor.json", cwd=tmp_path).returncode == 0
    doc = json.loads((tmp_path / "condor.json").read_text())
    doc["max_sped"] = doc.pop("max_speed")  # the owner's typo
    doc["guns"][0]["calibre"] = doc["guns"][0].pop("caliber")
    (tmp_path / "condor.json").write_text(json.dumps(doc, indent=1))
    r = dialtray("fasa", "sheet", "check", "condor.json", cwd=tmp_path)
    assert r.returncode == 1, r
    assert ("condor.json: field (whole document): unknown field 'max_sped': did you mean "
            "'max_speed'? (a required field)") in r.stdout + r.stderr, r
    doc["max_speed"] = doc.pop("max_sped")  # put right; the next slip is named
    (tmp_path / "condor.json").write_text(json.dumps(doc, indent=1))
    r = dialtray("fasa", "sheet", "check", "condor.json", cwd=tmp_path)
    assert ("condor.json: field guns[0]: unknown field 'calibre': did you mean "
            "'caliber'? (a required field)") in r.stdout + r.stderr, r


def test_a_misspelt_hero_ability_lists_the_abilities_as_words(tmp_path: Path) -> None:
    assert dialtray("skyace", "hero", "new", "zach.json", cwd=tmp_path).returncode == 0
    doc = json.loads((tmp_path / "zach.json").read_text())
    doc["abilities"] = ["unbreakabel"]
    (tmp_path / "zach.json").write_text(json.dumps(doc))
    r = dialtray("skyace", "hero", "check", "zach.json", cwd=tmp_path)
    out = r.stdout + r.stderr
    assert r.returncode == 1, r
    assert ("field abilities[0]: 'unbreakabel' is not one of: lucky, powerful, quick, "
            "regenerative, unbreakable (did you mean 'unbreakable'?)") in out, out
    assert "[" not in out.split("field abilities[0]")[1], out  # no Python list


def test_a_file_that_is_not_there_is_a_usage_error_not_a_broken_rule(tmp_path: Path) -> None:
    for argv in (["fasa", "sheet", "check", "condor.json"],
                 ["skyace", "hero", "check", "condor.json"]):
        r = dialtray(*argv, cwd=tmp_path)
        assert r.returncode == 2, r  # 1 is "a rule broken", 2 "a usage error" (their --help)
        assert r.stderr.strip() == f"dialtray {argv[0]}: condor.json: cannot read it: No such " \
                                   "file or directory", r.stderr


def test_a_table_file_that_is_not_json_is_named_as_a_file(tmp_path: Path) -> None:
    (tmp_path / "weapons.json").write_text('{"id": "weapons",\n "rows": [1, 2,]}\n')
    r = dialtray("fasa", "tables", "check", ".", cwd=tmp_path)
    assert r.returncode == 1, r
    assert "weapons.json: field (whole document): not valid JSON: " in r.stdout, r.stdout
    assert "figure weapons" not in r.stdout, r.stdout  # a table is not a figure
