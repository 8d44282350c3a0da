"""`dialtray coverage` reads its rules inventory from the package, not from outside the repo.

Issue 9: the ids and titles ship as package data (host/dialtray/data/rules_inventory.json),
built from rules-inventory.md by scripts/build_inventory.py with coverage's own parser.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from dialtray import cli
from dialtray.commands import coverage
from dialtray.rules import inventory

ROOT = Path(__file__).resolve().parent.parent
SHARED_INVENTORY = Path(os.environ.get("DIALTRAY_RULES_INVENTORY",
                                       ROOT.parent / "shared" / "rules-inventory.md"))

SAMPLE = """
- AA-M39 **Rear-arc bonus**: "If a plane is attacking ..."
- AA-M60 The Ace figure stays off the play area. "only the attack value ..."
- **AA-T06: "Near-perfect shot" caption**
- **AA-A01: Loyle's example says "His attack value is 3".** *Recommend*: gunnery.
| AA-M05 | a table row | more |
- AA-M39 **Listed twice** only counts once
"""


def test_titles_are_the_headings() -> None:
    assert [(e.id, e.title) for e in inventory.parse_inventory(SAMPLE)] == [
        ("AA-M39", "Rear-arc bonus"),
        ("AA-M60", "The Ace figure stays off the play area"),
        ("AA-T06", '"Near-perfect shot" caption'),
        ("AA-A01", 'Loyle\'s example says "His attack value is 3"'),
        ("AA-M05", "a table row"),
    ]


def test_the_inventory_ships_inside_the_package() -> None:
    path = inventory.PACKAGED_INVENTORY
    assert path.is_relative_to(ROOT / "host" / "dialtray" / "data"), path
    ids = [e["id"] for e in json.loads(path.read_text(encoding="utf-8"))["ids"]]
    assert len(ids) == len(set(ids))
    assert sum(i.startswith("AA-M") for i in ids) == 85  # Air Action: AA-M01..AA-M85
    assert sum(i.startswith("AC-M") for i in ids) == 74  # Aces: AC-M01..AC-M74
    assert "shared" not in inventory.DEFAULT_INVENTORY.parts


@pytest.mark.skipif(not SHARED_INVENTORY.is_file(),
                    reason=f"the source rules-inventory.md is not at {SHARED_INVENTORY} (set "
                           "DIALTRAY_RULES_INVENTORY): only the committed JSON is checked")
def test_the_packaged_inventory_is_up_to_date_with_its_source() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_inventory.py"),
                        str(SHARED_INVENTORY), "--check"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr


def test_list_needs_nothing_but_the_package(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["coverage", "--list", "--prefix", "AC"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "AC-M01  Build total" in out and "AC-T06  LOF diagram (caption)" in out
    assert all(line.startswith("AC-") for line in out)


def test_outside_a_clone_it_asks_for_the_tests(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(coverage, "REPO", tmp_path)  # as if installed in site-packages
    assert cli.main(["coverage", "--prefix", "AA"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not run from a clone" in err and "--tests DIR" in err


def test_an_unknown_game_names_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["coverage", "--prefix", "XX"]) == 2
    assert "no XX ids in rules_inventory.json (it has AA, AC" in capsys.readouterr().err


def test_in_the_clone_titles_name_what_is_missing(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "test_one.py").write_text('def test_x():\n    """AC-M01 only."""\n')
    assert cli.main(["coverage", "--prefix", "AC", "--tests", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "1 of 81 AC ids have a test" in out and "no test: AC-M02  Point values" in out
