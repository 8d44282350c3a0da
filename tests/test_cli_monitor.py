"""`dialtray monitor` shows each dial as players read it (issue 9, "Watching the work"):
calibrated clicks from its zero, the direction, the dock's name, and UNCALIBRATED marks.

Runs the installed program against the virtual tray; the test acts on what monitor prints
(it turns the dials once monitor has said which calibration it uses), never on a clock.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

from dialrig import config
from dialtray.builder.calibration import CalibrationFile, DialCalibration, save_calibration
from dialtray.builder.calibration_view import host_copy
from dialtray.virtual.tray import VirtualTray

BIN = Path(sys.executable).parent
UID = "5349cd7472617930"  # the virtual tray's board id
WAIT_S = 60.0


def read_lines(proc: subprocess.Popen[str]) -> queue.Queue[str]:
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))

    threading.Thread(target=pump, daemon=True).start()
    return lines


def wait_for(lines: queue.Queue[str], seen: list[str], text: str) -> str:
    while True:
        line = lines.get(timeout=WAIT_S)
        seen.append(line)
        if text in line:
            return line


def test_monitor_shows_calibrated_clicks_names_and_marks_the_rest(tmp_path: Path) -> None:
    data = tmp_path / "data"
    cal = CalibrationFile(board_uid=UID, date="2026-11-24", firmware="0.1.0",
                          names={0: "Show-stopper"})
    cal.docks[0] = {"combat": DialCalibration("as5600", 12, 1, 0)}
    host_copy(data, UID).parent.mkdir(parents=True)
    save_calibration(host_copy(data, UID), cal)
    seen: list[str] = []
    with VirtualTray(config.default_config(2), seed=1) as tray:
        proc = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(data), "monitor",
                                 tray.port], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        try:
            lines = read_lines(proc)
            wait_for(lines, seen, f"calibration from {host_copy(data, UID)}")
            tray.turn(0, "combat", 2)
            tray.turn(1, "speed", -1)
            wait_for(lines, seen, "dock 0 (Show-stopper) combat: click 2")
            if not any("dock 1 speed: position 11" in x for x in seen):  # in either order
                wait_for(lines, seen, "dock 1 speed: position 11")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    named = next(x for x in seen if "dock 0 (Show-stopper) combat: click 2" in x)
    marked = next(x for x in seen if "dock 1 speed: position 11" in x)
    assert named.endswith("dock 0 (Show-stopper) combat: click 2 of 12 from zero "
                          "(+2, clockwise)"), named
    assert marked.endswith("dock 1 speed: position 11 (-1, counter-clockwise)  "
                           "[UNCALIBRATED: `dialtray calibrate --dock 1 --dial speed`]"), marked
    snapshot = "\n".join(seen)
    assert "dock 0 (Show-stopper) combat: click 0 of 12 from zero (as5600)" in snapshot, snapshot
    assert "dock 0 (Show-stopper) speed: position 0 (as5600)  [UNCALIBRATED]" in snapshot


def test_monitor_without_any_calibration_says_so_once(tmp_path: Path) -> None:
    seen: list[str] = []
    with VirtualTray(config.default_config(1), seed=1) as tray:
        proc = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(tmp_path), "monitor",
                                 tray.port], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        try:
            line = wait_for(read_lines(proc), seen, "every dial is shown UNCALIBRATED")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    assert f"no calibration for this tray at {host_copy(tmp_path, UID)}" in line
    assert "`dialtray calibrate --dock N` measures a dock" in line
