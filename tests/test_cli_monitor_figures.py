"""`dialtray monitor --docks-file` shows, for a bound dock, the figure and its current values
(issue 11, "The commands"), not only clicks.

The installed program against the virtual tray, with the tracker's dock file; the values
expected are read from the engine's own catalogue for the figure `play` puts behind that label.
The test turns dials once monitor has said which calibration it uses, never on a clock.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dialrig import config
from dialtray.builder.calibration import CalibrationFile, DialCalibration, save_calibration
from dialtray.builder.calibration_view import host_copy
from dialtray.rules.core.dice import SeededDice
from dialtray.table.games import new_game
from dialtray.tracker.dice import TableDice
from dialtray.virtual.tray import VirtualTray
from test_cli_monitor import UID, read_lines, wait_for

BIN = Path(sys.executable).parent


def calibrate(data: Path, docks: dict[int, tuple[str, ...]]) -> None:
    cal = CalibrationFile(board_uid=UID, date="2026-11-24", firmware="0.1.0", names={})
    for dock, dials in docks.items():
        cal.docks[dock] = {d: DialCalibration("as5600", 12, 1, 0) for d in dials}
    host_copy(data, UID).parent.mkdir(parents=True)
    save_calibration(host_copy(data, UID), cal)


def next_line(seen: list[str], text: str) -> str:
    i = next(i for i, x in enumerate(seen) if text in x)
    return seen[i + 1]


def test_monitor_names_the_bound_figure_and_its_values_at_each_click(tmp_path: Path) -> None:
    data = tmp_path / "data"
    calibrate(data, {0: ("combat", "speed")})
    docks = tmp_path / "docks.txt"
    docks.write_text("# the game's figures on the tray\ndock 0: A1\ndock 1: B1\n")
    game = new_game("airaction", TableDice(SeededDice(0)), 0, 1).game
    fig = game.cat.figures[game.state.planes["A1"].figure]  # type: ignore[attr-defined]
    seen: list[str] = []
    with VirtualTray(config.default_config(2), seed=1) as tray:
        proc = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(data), "monitor",
                                 tray.port, "--docks-file", str(docks)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            lines = read_lines(proc)
            wait_for(lines, seen, f"calibration from {host_copy(data, UID)}")
            wait_for(lines, seen, "snapshot")
            tray.turn(0, "combat", 3)
            wait_for(lines, seen, "dock 0 combat: click 3 of 12")
            wait_for(lines, seen, "A1 combat")
            tray.turn(0, "speed", 2)
            wait_for(lines, seen, "dock 0 speed: click 2 of 12")
            wait_for(lines, seen, "A1 speed")
            tray.turn(1, "combat", 1)
            wait_for(lines, seen, "dock 1 combat: position 1")
            wait_for(lines, seen, "B1 combat")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    out = "\n".join(seen)
    assert f"dock 0 combat: A1 combat dial — {fig.pilot} ({fig.plane})" in out, out
    assert "dock 1 speed: B1 speed dial" in out
    c3 = fig.combat_dial[3]
    line = next_line(seen, "dock 0 combat: click 3 of 12")
    assert line.strip() == (f"A1 combat: {fig.pilot} ({fig.plane}), click 3: max speed "
                            f"{c3.max_speed}, front gunnery {c3.front_gunnery}, rear gunnery "
                            f"{c3.rear_gunnery}, piloting {c3.piloting}, bullet holes "
                            f"{c3.bullet_holes}" + (f", bail out {c3.bail_out}"
                                                    if c3.bail_out is not None else "")), line
    line = next_line(seen, "dock 0 speed: click 2 of 12")
    assert f"click 2: speed {fig.speed_dial[2].speed}" in line, line
    c0 = fig.combat_dial[0]
    line = next_line(seen, "dock 0 combat: click 0 of 12 from zero (as5600)")  # the snapshot
    assert f"click 0: max speed {c0.max_speed}, front gunnery {c0.front_gunnery}" in line, line
    line = next_line(seen, "dock 1 combat: position 1")  # bound but not calibrated
    assert "B1 combat" in line and "values unknown until the dial is calibrated" in line, line


def test_aces_figures_and_a_dock_file_that_does_not_fit_the_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    calibrate(data, {0: ("combat",)})
    game = new_game("aces", TableDice(SeededDice(0)), 0, 1).game
    chars = game.state.chars  # type: ignore[attr-defined]
    label = sorted(chars)[0]
    figure = chars[label].figure
    docks = tmp_path / "docks.txt"
    docks.write_text(f"dock 0: {label}\n")
    seen: list[str] = []
    with VirtualTray(config.default_config(1), seed=1) as tray:
        proc = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(data), "monitor",
                                 tray.port, "--docks-file", str(docks), "--game", "aces"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            lines = read_lines(proc)
            wait_for(lines, seen, "snapshot")
            tray.turn(0, "combat", 2)
            wait_for(lines, seen, "dock 0 combat: click 2 of 12")
            wait_for(lines, seen, f"{label} combat")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    v = figure.dial[2]
    line = next_line(seen, "dock 0 combat: click 2 of 12")
    assert line.strip() == (f"{label} combat: {figure.name}, click 2: speed {v.speed}, attack "
                            f"{v.attack}, defense {v.defense}, fate {v.fate}"), line
    r = subprocess.run([str(BIN / "dialtray"), "monitor", "/dev/null", "--docks-file",
                        str(docks)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r
    assert r.stderr.strip().count("\n") == 0
    assert f"{docks}:1: {label} combat dial is not in this game" in r.stderr, r.stderr
