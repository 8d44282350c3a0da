"""`dialtray calibrate` against the virtual tray: a builder clicks one revolution.

The builder here is a thread that acts on what the command shows (each CaptureStatus): it turns
the dial once the previous click has been counted, as a person watching the progress would.
"""

from __future__ import annotations

import argparse
import io
import json
import queue
import re
import threading
from pathlib import Path

import pytest
from dialrig import config
from dialtray import cli
from dialtray.builder.calibration_capture import CaptureStatus
from dialtray.commands import calibrate
from dialtray.virtual.tray import VirtualTray
from rich.console import Console

MOUNT = 1000  # where the magnet happened to be glued: raw angle at click 0
WAIT_S = 30.0  # generous: the machine may be loaded


class Builder:
    """Turns dock 0's dial one click each time the previous one has been counted."""

    def __init__(self, tray: VirtualTray, dial: str = "combat") -> None:
        self.tray, self.dial = tray, dial
        self.seen: queue.Queue[CaptureStatus] = queue.Queue()
        self.statuses: list[CaptureStatus] = []
        self.thread = threading.Thread(target=self._work, daemon=True)

    def observe(self, st: CaptureStatus) -> None:
        self.statuses.append(st)
        self.seen.put(st)

    def _work(self) -> None:
        while True:
            st = self.seen.get(timeout=WAIT_S)
            if st.done:
                return
            if st.clicks >= 0:  # click n counted: the next one
                self.tray.turn(0, self.dial, 1)


def namespace(port: str, tmp_path: Path, **kw: object) -> argparse.Namespace:
    base: dict[str, object] = dict(port=port, dock=0, dial="combat", clicks=None,
                                   out=tmp_path / "tray.json", apply=True, timeout=WAIT_S,
                                   data_dir=tmp_path / "data", name=None, channel=None)
    return argparse.Namespace(**{**base, **kw})


def test_calibrating_a_dial_finds_its_clicks_direction_and_zero(tmp_path: Path) -> None:
    cfg = config.default_config(1)
    cfg["docks"][0][0]["zero"] = MOUNT  # the sim glues the magnet where the config says
    shown = io.StringIO()
    with VirtualTray(cfg, seed=1) as tray:
        builder = Builder(tray)
        builder.thread.start()
        display = calibrate.Display(Console(file=shown, force_terminal=False, width=80))
        assert calibrate.run(namespace(tray.port, tmp_path, name="Show-stopper"),
                             builder.observe, display) == 0
        builder.thread.join(WAIT_S)
    data = json.loads((tmp_path / "tray.json").read_text())
    combat = data["docks"][0]["combat"]
    assert combat["detents"] == 12 and combat["direction"] == 1
    assert abs(combat["zero"] - MOUNT) <= 3
    assert data["board_uid"] == "5349cd7472617930"
    assert data["docks"][0]["name"] == "Show-stopper"
    # What the builder saw, step by step: the wait, each click, the direction, what next.
    clicks = [st.clicks for st in builder.statuses]
    assert clicks == list(range(-1, 13)), clicks
    assert builder.statuses[-1].done and not any(st.done for st in builder.statuses[:-1])
    text = shown.getvalue()
    assert f"waiting for the tray on {tray.port} to answer" in text
    assert f"(firmware 0.1.0, 1 dock) on {tray.port}" in text  # (was "1 docks")
    assert "dock 0 combat: waiting for click 0 to settle: put the dial on click 0" in text
    # whole lines even on a narrow console: a pipe or a log gets one line per step
    assert re.search(r"^  dock 0 combat: click 3: raw \d+, direction reading rises clockwise "
                     r"\(\+1\); next: click once clockwise, then pause$", text, re.MULTILINE), text
    assert "click 12: raw" in text and "next: done: back on click 0" in text
    assert "dock 0 combat: sent to the tray" in text


def test_the_progress_is_live_on_a_terminal(tmp_path: Path) -> None:
    shown = io.StringIO()
    with VirtualTray(config.default_config(1), seed=2) as tray:
        builder = Builder(tray, "speed")
        builder.thread.start()
        display = calibrate.Display(Console(file=shown, force_terminal=True, width=160))
        assert display.live
        args = namespace(tray.port, tmp_path, dial="speed", apply=False)
        assert calibrate.run(args, builder.observe, display) == 0
    text = shown.getvalue()
    assert "\x1b[" in text  # drawn with terminal control sequences, not printed line by line
    assert "dock 0 speed" in text and "reading rises clockwise (+1)" in text


def test_a_dial_that_never_moves_times_out_with_a_clear_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with VirtualTray(config.default_config(1), seed=1) as tray:
        argv = ["--data-dir", str(tmp_path), "calibrate", tray.port, "--dock", "0", "--dial",
                "speed", "--timeout", "1.5"]
        assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert err.strip() == "dialtray calibrate: the dial did not move to the next click within 2 s"


def test_two_dials_on_one_sensor_are_refused_before_anything_is_measured(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 8 defect 4, host side: --channel onto the channel dock 0's speed dial reads."""
    with VirtualTray(config.default_config(2), seed=1) as tray:
        argv = ["--data-dir", str(tmp_path), "calibrate", tray.port, "--dock", "0", "--dial",
                "combat", "--channel", "1", "--apply"]
        assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("dialtray calibrate: argument --channel: 1 (mux 0x70 channel 1) is already "
                   "read by dock 0 speed: two dials on one sensor would both report its turns")
    assert "\n" not in err and not (tmp_path / "calibration").exists()


def test_channel_needs_apply_and_one_dial(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["calibrate", "/dev/null", "--dock", "0", "--channel", "3"]) == 2
    assert "argument --channel: needs --apply and one --dial" in capsys.readouterr().err


def test_the_tray_refuses_a_sensor_its_own_wiring_gives_another_dial(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tray wired otherwise than the default (dock 1 combat on channel 5): the host's check
    cannot know, the firmware refuses SET_DIAL, and calibrate says so in one line."""
    cfg = config.default_config(2)
    cfg["docks"][1][0]["channel"] = 5
    with VirtualTray(cfg, seed=3) as tray:
        builder = Builder(tray)
        builder.thread.start()
        args = namespace(tray.port, tmp_path, channel=5)
        display = calibrate.Display(Console(file=io.StringIO(), force_terminal=False))
        with pytest.raises(calibrate.CommandError) as caught:
            calibrate.run(args, builder.observe, display)
    message = str(caught.value)
    assert message.startswith("dock 0 combat: the tray refused the settings: "), message
    assert "dock 1 combat" in message and "\n" not in message, message
    assert json.loads((tmp_path / "tray.json").read_text())["docks"][0]["combat"]["detents"] == 12
