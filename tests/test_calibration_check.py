"""Issue 9, "The board keeps what it learned": the host compares the tray's calibration (HELLO
flags + CAL_INFO checksum) with its own copy and says when they differ.

On the virtual tray (real firmware under MicroPython, its own flash folder): a calibration sent
as `calibrate --apply` sends it, kept across a power cycle, agrees with the host's copy; a
changed copy, a tray without calibration and a tray whose file is damaged each give a warning
naming what each side has; `dialtray monitor` prints it on connect.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from dialrig import calstore, config
from dialtray.builder.calibration import (
    CALIBRATED_KEYS,
    CalibrationFile,
    DialCalibration,
    apply_calibration,
    save_calibration,
)
from dialtray.builder.calibration_check import check_on_connect, host_crc
from dialtray.builder.calibration_view import host_copy
from dialtray.link.calinfo import calibration_info
from dialtray.link.session import TraySession
from dialtray.virtual.tray import VirtualTray

BIN = Path(sys.executable).parent
UID = "5349cd7472617930"  # the virtual tray's board id
WAIT_S = 60.0


def host_file(data: Path, zero: int) -> Path:
    """The host's copy: dock 0 combat reversed, its zero at ``zero``."""
    cal = CalibrationFile(board_uid=UID, date="2026-11-25", firmware="0.1.0")
    cal.docks[0] = {"combat": DialCalibration("as5600", 12, -1, zero)}
    path = host_copy(data, UID)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_calibration(path, cal)
    return path


def board_docks(zero: int) -> list[list[dict[str, Any]]]:
    """What the tray holds once that dial was sent (default wiring, as `calibrate --apply`)."""
    cal = CalibrationFile(board_uid=UID, date="")
    cal.docks[0] = {"combat": DialCalibration("as5600", 12, -1, zero)}
    docks: list[list[dict[str, Any]]] = apply_calibration(config.default_config(2), cal)["docks"]
    return docks


def wait_for(cond: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def test_sent_calibration_survives_a_power_cycle_and_agrees_then_a_changed_copy_warns(
        tmp_path: Path) -> None:
    path = host_file(tmp_path / "data", zero=300)
    with VirtualTray(config.default_config(2), seed=3, workdir=tmp_path / "tray",
                     report=lambda note: None) as tray, TraySession(tray.port) as session:
        session.wait_synced(WAIT_S)
        assert session.hello is not None and not session.hello.cal_stored
        # What `calibrate --apply` sends for that dial (commands.calibrate.send).
        settings: dict[str, Any] = config.default_dial(0, 0)
        settings.update({k: board_docks(300)[0][0][k] for k in CALIBRATED_KEYS})
        session.set_dial(0, 0, settings)
        wait_for(lambda: calibration_info(session).stored, "the tray to save it")
        before = session.boot_id
        tray.reboot()
        wait_for(lambda: session.boot_id not in (None, before) and session.synced.is_set(),
                 "the new boot")
        assert session.hello.cal_stored and not session.hello.cal_damaged
        board = calibration_info(session)
        assert board.crc == calstore.checksum(board_docks(300))

        same = check_on_connect(session, path)
        assert same.agree, same.text
        assert f"crc {board.crc:08x}" in same.text

        changed = host_file(tmp_path / "data", zero=301)  # the host measured again, not sent
        mine = calstore.checksum(board_docks(301))
        differs = check_on_connect(session, changed)
        assert not differs.agree
        line = differs.line()
        assert line.startswith(f"warning: tray {UID}: the tray's calibration (crc {board.crc:08x})"
                               f" differs from this computer's copy (crc {mine:08x}")
        assert "dialtray calibrate --dock N --apply" in line
        assert "\n" not in line


def test_a_tray_without_calibration_warns_with_or_without_a_host_copy(tmp_path: Path) -> None:
    with VirtualTray(config.default_config(2), seed=4, workdir=tmp_path / "tray",
                     report=lambda note: None) as tray, TraySession(tray.port) as session:
        session.wait_synced(WAIT_S)
        assert session.hello is not None
        assert not session.hello.cal_stored and not session.hello.cal_damaged
        assert calibration_info(session).crc == 0
        path = host_file(tmp_path / "data", zero=300)
        check = check_on_connect(session, path)
        assert not check.agree
        mine = calstore.checksum(board_docks(300))
        assert check.text.startswith(f"tray {UID} has no calibration on its flash")
        assert f"crc {mine:08x}" in check.text

        neither = check_on_connect(session, tmp_path / "nowhere" / "tray.json")
        assert not neither.agree
        assert "no calibration, neither on its flash nor on this computer" in neither.text


def test_a_damaged_file_on_the_flash_is_reported_as_such(tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    flash.mkdir()
    calstore.save(board_docks(300), str(flash))
    text = (flash / calstore.FILE).read_text()
    assert " 300\n" in text
    (flash / calstore.FILE).write_text(text.replace(" 300\n", " 301\n"))  # fails its checksum
    path = host_file(tmp_path / "data", zero=300)
    with VirtualTray(config.default_config(2), seed=5, workdir=tmp_path / "tray", flash_dir=flash,
                     report=lambda note: None) as tray, TraySession(tray.port) as session:
        session.wait_synced(WAIT_S)
        assert session.hello is not None and session.hello.cal_damaged
        board = calibration_info(session)
        assert board.damaged and board.crc == 0
        check = check_on_connect(session, path)
        assert not check.agree
        assert "failed its checksum and is ignored" in check.text
        assert f"crc {calstore.checksum(board_docks(300)):08x}" in check.text


def test_host_crc_is_the_firmware_checksum_of_the_copy_sent_with_the_default_wiring() -> None:
    cal = CalibrationFile(board_uid=UID, date="")
    cal.docks[1] = {"speed": DialCalibration("as5600", 10, 1, 2000)}
    docks = config.default_config(3)["docks"]
    docks[1][1].update(detents=10, zero=2000)
    assert host_crc(cal, 3) == calstore.checksum(docks)
    assert host_crc(cal, 2) != host_crc(cal, 3)  # a tray with other docks is another file


def read_lines(proc: subprocess.Popen[str], stream: IO[str] | None = None) -> queue.Queue[str]:
    """The lines of the process's stdout (or ``stream``), as they come."""
    lines: queue.Queue[str] = queue.Queue()
    source = stream or proc.stdout

    def pump() -> None:
        assert source is not None
        for line in source:
            lines.put(line.rstrip("\n"))

    threading.Thread(target=pump, daemon=True).start()
    return lines


def monitor_says(data: Path, port: str, text: str) -> list[str]:
    """Run `dialtray monitor` until it prints a line containing ``text``; every line seen."""
    proc = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(data), "monitor", port],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: list[str] = []
    try:
        lines = read_lines(proc)
        while not any(text in s for s in seen):
            seen.append(lines.get(timeout=WAIT_S))
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=WAIT_S)
    assert "Traceback" not in err
    return seen


def test_monitor_warns_on_connect_when_the_copies_differ_and_says_when_they_agree(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    flash = tmp_path / "flash"
    flash.mkdir()
    board = calstore.save(board_docks(300), str(flash))  # the tray was calibrated elsewhere
    host_file(data, zero=900)
    mine = calstore.checksum(board_docks(900))
    with VirtualTray(config.default_config(2), seed=6, workdir=tmp_path / "tray", flash_dir=flash,
                     report=lambda note: None) as tray:
        seen = monitor_says(data, tray.port, "warning:")
        warning = next(s for s in seen if "warning:" in s)
        assert (f"warning: tray {UID}: the tray's calibration (crc {board:08x}) differs from this "
                f"computer's copy (crc {mine:08x}") in warning
        assert "run `dialtray calibrate --dock N --apply`" in warning

        host_file(data, zero=300)  # now the host's copy is the tray's
        seen = monitor_says(data, tray.port, "its calibration matches")
        assert not any("warning:" in s for s in seen), seen
        assert f"tray {UID}: its calibration matches this computer's copy (crc {board:08x}" \
            in seen[-1]


def test_play_on_a_tray_warns_on_connect_when_it_keeps_no_calibration(tmp_path: Path) -> None:
    data = tmp_path / "data"
    host_file(data, zero=300)
    mine = calstore.checksum(board_docks(300))
    with VirtualTray(config.default_config(2), seed=8, workdir=tmp_path / "tray",
                     report=lambda note: None) as tray:
        proc = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(data), "play",
                                 "airaction", "--port", tray.port, "--seats", "human,human",
                                 "--dice", "seeded", "--plain"],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        try:
            lines = read_lines(proc, proc.stderr)
            line = ""
            while "warning:" not in line:  # queue.Empty after WAIT_S if play never says it
                line = lines.get(timeout=WAIT_S)
        finally:
            proc.terminate()
            proc.communicate(timeout=WAIT_S)
        assert line.startswith(f"warning: tray {UID} has no calibration on its flash"), line
        assert f"crc {mine:08x}" in line
