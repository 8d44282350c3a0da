"""`dialtray camera render` as its user meets it: a photograph the reader reads back (truth
printed as JSON), and each bad argument refused in one line naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dialtray.cli import main


def test_a_rendered_tray_reads_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tray.png"
    assert main(["--data-dir", str(tmp_path), "camera", "render", "--profile", "clean",
                 "--figure", "2=sample-genghis", "--set", "2.combat=3", "--out", str(out)]) == 0
    truth = json.loads(capsys.readouterr().out)
    assert truth["docks"] == [{"dock": 2, "figure": "sample-genghis", "clicks": {"combat": 3.0}}]
    assert main(["--data-dir", str(tmp_path), "read", str(out), "--figure",
                 "2=sample-genghis"]) == 0
    read = json.loads(capsys.readouterr().out)["docks"][0]["dials"]["combat"]
    assert read["status"] == "click" and 3 in read["clicks"], read


def test_an_ace_card_and_a_holder_render_and_read_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An Ace card on dock 1 and a second Aces figure in dock 2's holder (place 102)."""
    out = tmp_path / "tray.png"
    pieces = ["--figure", "1=sample-ace-loyle-crawford", "--figure", "2=sample-genghis",
              "--figure", "102=sample-louis-thibodeaux"]
    assert main(["--data-dir", str(tmp_path), "camera", "render", "--profile", "train",
                 *pieces, "--set", "1.ace=5", "--set", "102.combat=3", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["--data-dir", str(tmp_path), "read", str(out), *pieces]) == 0
    docks = {d["dock"]: d["dials"] for d in json.loads(capsys.readouterr().out)["docks"]}
    assert docks[1]["ace"]["clicks"] == [5] and docks[1]["ace"]["values"] == \
        {"attack": 0, "fate": 0}, docks[1]
    assert docks[102]["combat"]["clicks"] == [3], docks[102]


@pytest.mark.parametrize(("argv", "says"), [
    (["--set", "0.wing=3"], "dock 0 has dials combat, speed"),
    (["--set", "0.combat=99"], "that dial has clicks 0-7"),
    (["--set", "nonsense"], "expected DOCK.DIAL=CLICK"),
    (["--figure", "0=nobody"], "no figure 'nobody'"),
    (["--figure", "42=sample-genghis"],
     "the tray has docks 0-7, holders 100-107 (100 + the dock), not 42"),
    (["--size", "10x10"], "argument --size"),
    (["--each-click", "--figure", "0=sample-genghis", "--figure", "1=sample-soldier"],
     "give one --figure"),
])
def test_bad_arguments_are_refused_naming_them(tmp_path: Path, argv: list[str], says: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(tmp_path), "camera", "render", "--out",
                 str(tmp_path / "x.png"), *argv]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err, err
    assert not (tmp_path / "x.png").exists()
