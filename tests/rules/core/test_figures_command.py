"""`dialtray figures [--game G] [--catalogue DIR]` (issue 10): what a log can use, each item
marked sample or captured, with where it comes from; bad catalogues give one line and exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.rules.aces.catalogue import builtin as aces_builtin
from dialtray.rules.aces.figures import FIGURES_DIR
from dialtray.rules.airaction.catalogue import DATA_DIR
from dialtray.rules.airaction.catalogue import builtin as aa_builtin


def rows(out: str) -> dict[str, list[str]]:
    """First word of each indented listing row -> its words."""
    found: dict[str, list[str]] = {}
    for line in out.splitlines():
        if line.startswith("    "):
            words = line.split()
            found[words[0]] = words
    return found


def test_lists_every_builtin_item_of_both_games_marked_sample(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["figures"]) == 0
    out = capsys.readouterr().out
    listed = rows(out)
    expected = set(aa_builtin().figures) | set(aa_builtin().aces)
    expected |= set(aces_builtin().figures) | set(aces_builtin().maps)
    expected |= set(aces_builtin().scenarios)
    assert expected == set(listed)
    assert all(words[1:3] == ["sample", "built-in"] for words in listed.values())
    assert "Crimson Skies: Air Action" in out and "Crimson Skies: Aces" in out


def test_game_filter_and_custom_catalogue_marks_captured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads((FIGURES_DIR / "ruffian.json").read_text())
    doc.update(id="my-thug", name="My thug", sample=False)
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "my-thug.json").write_text(json.dumps(doc))
    assert main(["figures", "--game", "aces", "--catalogue", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Air Action" not in out
    listed = rows(out)
    assert listed["my-thug"][1:3] == ["captured", str(tmp_path)]
    assert listed["sample-ruffian"][1:3] == ["sample", "built-in"]
    plane = json.loads((DATA_DIR / "figures" / "sample-pirate-fighter.json").read_text())
    plane.update(id="my-pirate", sample=False)
    (tmp_path / "figures").rename(tmp_path / "aces-figures")
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "p.json").write_text(json.dumps(plane))
    assert main(["figures", "--game", "airaction", "--catalogue", str(tmp_path)]) == 0
    listed = rows(capsys.readouterr().out)
    assert listed["my-pirate"][1:3] == ["captured", str(tmp_path)]
    assert listed["sample-pirate-fighter"][1:3] == ["sample", "built-in"]


@pytest.mark.parametrize(
    "args,needle",
    [
        (["figures", "--catalogue", "x"], "--catalogue needs --game"),
        (["figures", "--game", "aces", "--catalogue", "/nonexistent"], "no such directory"),
        (["figures", "--game", "chess"], "invalid choice"),
    ],
)
def test_bad_arguments_one_line_exit_2(args: list[str], needle: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dialtray.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and needle in proc.stderr and "Traceback" not in proc.stderr
