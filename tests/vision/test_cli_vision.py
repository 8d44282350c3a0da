"""`dialtray capture --from-photos` and `dialtray read`, as a user meets them: rendered photos on
disk, answers typed on stdin, JSON out; bad input is one line, exit 2, nothing written."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from dialtray import cli
from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.faces import BASE_TYPE, dial_faces, game_of
from dialtray.vision.layout import Layout
from dialtray.vision.render import DockSpec, render_tray


def _photos(tmp: Path, layout: Layout, doc: dict[str, Any], dock: int) -> Path:
    shots = tmp / "shots"
    faces = dial_faces(doc)
    for i, shot in testset.capture_photos(layout, doc["id"], faces, BASE_TYPE[game_of(doc)],
                                          dock, seed=21):
        for d, fs in faces.items():
            if i < len(fs):
                (shots / d).mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(shots / d / f"click{i:02d}.png"), shot.image)
    return shots


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch, stdin: str = ""
         ) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stderr", err)
    code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("fid", ["sample-militia-fighter", "sample-genghis"])
def test_capture_round_trip_then_read(tmp_path: Path, layout: Layout, figures: dict,
                                      monkeypatch: pytest.MonkeyPatch, fid: str) -> None:
    """Capture from rendered photos: the catalogue file loads in the rules engine and equals
    the figure; a new photo of the figure then reads back click, values and colours."""
    doc = figures[fid]
    shots = _photos(tmp_path, layout, doc, dock=1)
    out = tmp_path / "out" / f"{fid}.json"
    base = tmp_path / "base.json"
    base.write_text(json.dumps(doc), encoding="utf-8")
    clicks = sum(len(v) for v in dial_faces(doc).values())
    code, stdout, err = _run(["--data-dir", str(tmp_path / "data"), "capture", "--dock", "1",
                              "--from-photos", str(shots), "--base", str(base), "--out",
                              str(out)], monkeypatch, "\n" * clicks)
    assert code == 0, err
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written == doc  # every click confirmed as suggested: the figure, exactly
    refs = tmp_path / "data" / "vision" / "refs" / f"{fid}.npz"
    assert refs.exists()
    faces = dial_faces(doc)
    pos = {d: float(len(f) - 1) for d, f in faces.items()}
    shot = render_tray(layout, {4: DockSpec(fid, BASE_TYPE[game_of(doc)], faces, pos)},
                       rp.train(np.random.default_rng(2)), 2)
    img = tmp_path / "tray.jpg"
    cv2.imwrite(str(img), shot.image)
    code, stdout, err = _run(["--data-dir", str(tmp_path / "data"), "read", str(img),
                              "--figure", f"4={fid}"], monkeypatch)
    assert code == 0, err
    dials = json.loads(stdout)["docks"][0]["dials"]
    for d, f in faces.items():
        assert dials[d]["status"] == "click"
        assert pos[d] in dials[d]["clicks"]
        assert dials[d]["values"] == dict(f[int(pos[d])].values)
        assert dials[d]["colours"] == dict(f[int(pos[d])].colours)


def test_typed_corrections_land_in_the_file(tmp_path: Path, layout: Layout, figures: dict,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    doc = figures["sample-genghis"]
    shots = _photos(tmp_path, layout, doc, dock=0)
    base = {k: v for k, v in doc.items() if k != "dial"}  # no dial: suggestions carry over
    (tmp_path / "base.json").write_text(json.dumps(base), encoding="utf-8")
    answers = "\n".join(" ".join(f"{k}={v}" for k, v in c.items() if k != "colours")
                        + "".join(f" colour.{k}={v}" for k, v in c.get("colours", {}).items())
                        for c in doc["dial"]) + "\n"
    answers = "speed=x\n" + answers  # a typo is asked again
    out = tmp_path / "g.json"
    code, stdout, err = _run(["--data-dir", str(tmp_path / "d"), "capture", "--dock", "0",
                              "--from-photos", str(shots), "--base",
                              str(tmp_path / "base.json"), "--out", str(out)],
                             monkeypatch, answers)
    assert code == 0, err
    assert "speed is a whole number; try again" in stdout
    assert json.loads(out.read_text(encoding="utf-8"))["dial"] == doc["dial"]


def test_bad_input_is_one_line_and_writes_nothing(tmp_path: Path, layout: Layout,
                                                   figures: dict,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    doc = figures["sample-genghis"]
    shots = _photos(tmp_path, layout, doc, dock=0)
    base = tmp_path / "base.json"
    base.write_text(json.dumps(doc), encoding="utf-8")
    data = tmp_path / "data"
    out = tmp_path / "out.json"
    cap = ["--data-dir", str(data), "capture", "--dock", "0", "--from-photos", str(shots),
           "--base", str(base), "--out", str(out)]
    # a corrupt photo
    photo = sorted((shots / "combat").iterdir())[1]
    good = photo.read_bytes()
    photo.write_bytes(good[:200])
    code, _, err = _run(cap, monkeypatch, "\n" * 9)
    assert code == 2 and "not an image OpenCV can decode" in err and str(photo) in err
    # no markers
    cv2.imwrite(str(photo), np.full((720, 1280, 3), 128, np.uint8))
    code, _, err = _run(cap, monkeypatch, "\n" * 9)
    assert code == 2 and "tray markers not found" in err
    # wrong image size
    cv2.imwrite(str(photo), np.full((200, 300, 3), 128, np.uint8))
    code, _, err = _run(cap, monkeypatch, "\n" * 9)
    assert code == 2 and "300x200; dials need at least 640x360" in err
    # input ends early: nothing written either
    photo.write_bytes(good)
    code, _, err = _run(cap, monkeypatch, "\n")
    assert code == 1 and "nothing written" in err
    assert not out.exists() and not (data / "vision").exists()
    assert err.count("\n") == 1 and "Traceback" not in err
    # read: unknown figure, corrupt image
    code, _, err = _run(["--data-dir", str(data), "read", str(photo), "--figure",
                         "0=no-such-figure"], monkeypatch)
    assert code == 2 and "unknown figure 'no-such-figure'" in err
    code, _, err = _run(["--data-dir", str(data), "read", str(tmp_path / "nope.png"),
                         "--figure", "0=x"], monkeypatch)
    assert code == 2
    code, _, err = _run(["--data-dir", str(data), "read", str(photo), "--figure", "zero=x"],
                        monkeypatch)
    assert code == 2 and "expected DOCK=FIGURE" in err


def test_capture_without_a_source_names_both(monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = _run(["capture", "--dock", "0"], monkeypatch)
    assert code == 2 and "--from-photos DIR" in err and "--camera N" in err


def test_capture_on_the_rig_bad_input(tmp_path: Path, figures: dict,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """On the rig: a dial count that cannot be known, or a camera that gives no frame, is
    one line, exit 2, nothing written (the rig itself: test_rig_capture.py)."""
    base = tmp_path / "new.json"
    base.write_text(json.dumps({"id": "new-plane", "plane": "x"}), encoding="utf-8")
    out = tmp_path / "out.json"
    rig = ["--data-dir", str(tmp_path / "d"), "capture", "--dock", "0", "--camera", "63",
           "--base", str(base), "--out", str(out)]
    code, _, err = _run(rig, monkeypatch)
    assert code == 2 and "--clicks combat=N" in err
    code, _, err = _run([*rig, "--clicks", "combat=x"], monkeypatch)
    assert code == 2 and "expected DIAL=N" in err
    code, _, err = _run([*rig, "--clicks", "combat=8", "--clicks", "speed=7"], monkeypatch)
    assert code == 2 and "camera 63 gave no frame" in err
    assert not out.exists() and not (tmp_path / "d").exists()


def test_without_opencv_the_commands_say_how_to_get_it(tmp_path: Path) -> None:
    """Start-up imports no OpenCV; a camera command without it is one line naming the extra."""
    import subprocess
    import sys

    code = ("import sys\nsys.modules['cv2'] = None\nfrom dialtray import cli\n"
            "cli.build_parser()\nassert 'numpy' not in sys.modules, 'numpy at start-up'\n"
            f"raise SystemExit(cli.main(['--data-dir', {str(tmp_path)!r}, 'read', 'x.jpg', "
            "'--figure', '0=a']))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stderr
    assert r.stderr.strip() == ("dialtray read: the camera is an optional part of dialtray "
                                "(OpenCV is not installed); install it with: pip install "
                                "'dialtray[vision]' (from a clone: pip install '.[vision]')")
