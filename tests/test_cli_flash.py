"""`dialtray flash`: only what the board needs, compiled for armv6m with source names kept,
verified by hash afterwards, the board's calibration kept (issue 9, "Flashing").

The copy itself needs a Pico; everything before and after it runs here against the real tools:
mpy-cross, and the MicroPython unix port executing the very script that verifies the board.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from dialtray import cli
from dialtray.builder import deploy

BIN = Path(sys.executable).parent
FIRMWARE = Path(deploy.firmware_dir())
ALL_MODULES = sorted(p.stem for p in (FIRMWARE / "dialrig").glob("*.py"))


def test_dry_run_lists_exactly_what_the_board_needs(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["flash", "--dry-run"]) == 0
    out = capsys.readouterr().out
    listed = sorted(line.split()[0] for line in out.splitlines()
                    if line.startswith("  /"))
    device = [m for m in ALL_MODULES if m not in ("hw_sim", "sim_i2c")]
    assert listed == sorted(["/main.py", *(f"/lib/dialrig/{m}.mpy" for m in device)]), out
    assert "not copied: hw_sim.py (simulator only)" in out
    assert "not copied: sim_i2c.py (simulator only)" in out
    assert "kept on the board: /calibration.json" in out
    for must in ("hw_rp2", "app", "dials", "link", "proto", "config", "__init__"):
        assert f"/lib/dialrig/{must}.mpy" in listed


def test_the_plan_follows_imports_from_main(tmp_path: Path) -> None:
    files, left_out = deploy.plan(tmp_path)
    names = {f.source.stem for f in files}
    assert "hw_rp2" in names  # imported inside hw.open_board, on the device branch
    assert {"hw_sim", "sim_i2c"}.isdisjoint(names)
    assert {p.stem for p, _ in left_out} >= {"hw_sim", "sim_i2c"}
    for f in files:
        if f.dest.endswith(".mpy"):
            assert f.built.read_bytes()[:1] == b"M"  # a .mpy header


def test_compiled_modules_keep_their_source_names_in_tracebacks(tmp_path: Path) -> None:
    pkg = tmp_path / "dialrig"
    pkg.mkdir()
    src = tmp_path / "boomer.py"
    src.write_text("def f():\n    x = 1\n    raise ValueError('boom %d' % x)\n")
    built = deploy.compile_module(src, pkg)
    (pkg / "__init__.py").write_text("")
    assert built.name == "boomer.mpy"
    r = subprocess.run([str(BIN / "micropython"), "-c",
                        "import sys\nsys.path.insert(0, '.')\nfrom dialrig import boomer\n"
                        "boomer.f()\n"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert 'File "dialrig/boomer.py", line 3, in f' in r.stdout + r.stderr, r


def test_verification_on_micropython_finds_a_damaged_file_and_removes_stale_ones(
        tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    files, _ = deploy.plan(tmp_path / "build")
    board = tmp_path / "board"
    (board / "lib" / "dialrig").mkdir(parents=True)
    moved = []
    for f in files:
        dest = board / f.dest.lstrip("/")
        shutil.copyfile(f.built, dest)
        moved.append(deploy.Planned(f.source, f.built, str(dest)))
    (board / "calibration.json").write_text('{"kept": true}')
    (board / "lib" / "dialrig" / "dials.py").write_text("# a stale source shadowing dials.mpy")
    device_dir = str(board / "lib" / "dialrig")
    script = deploy.verify_script(moved, device_dir)

    def verify() -> list[str]:
        r = subprocess.run([str(BIN / "micropython"), "-c", script], capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        return deploy.check_hashes(moved, r.stdout)

    assert verify() == []
    assert not (board / "lib" / "dialrig" / "dials.py").exists(), "stale file left"
    assert (board / "calibration.json").read_text() == '{"kept": true}'
    damaged = next(f for f in moved if f.dest.endswith("dials.mpy"))
    Path(damaged.dest).write_bytes(b"M\x06" + b"\x00" * 10)
    Path(next(f for f in moved if f.dest.endswith("link.mpy")).dest).unlink()
    problems = verify()
    assert len(problems) == 2
    assert any("dials.mpy: differs" in p for p in problems)
    assert any("link.mpy: not on the board" in p for p in problems)


def test_flash_without_a_tray_says_so_after_the_plan(tmp_path: Path) -> None:
    r = subprocess.run([str(BIN / "dialtray"), "flash"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1
    assert "no tray found on USB" in r.stderr and "Traceback" not in r.stderr


def test_flash_in_a_clone_whose_pin_map_differs_from_the_installed_one_refuses(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A builder edits firmware/dialrig/config.py in a clone installed as a copy (README's Try
    it: pip install '.[sim]') and runs `dialtray flash` there: flash copies the installed
    firmware, so it refuses, naming the file and what to do (before: it flashed the old pin
    map without a word)."""
    shutil.copytree(deploy.firmware_dir(), tmp_path / "firmware",
                    ignore=shutil.ignore_patterns("__pycache__"))
    config = tmp_path / "firmware" / "dialrig" / "config.py"
    config.write_text(config.read_text() + "\n# a builder's edit\n")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["--data-dir", str(tmp_path / "data"), "flash", "--dry-run"]) == 2
    out, err = capsys.readouterr()
    assert err.strip() == (
        "dialtray flash: this clone's firmware/dialrig/config.py differs from the firmware "
        "installed with dialtray, which is what flash copies: install this clone (pip install "
        "-e .) to flash its firmware, or run flash outside the clone to flash the installed "
        "one"), err
    assert out == ""
