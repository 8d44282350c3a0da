"""`dialtray sim --rp2040`: the console's commands on the emulated Pico, and a host on its port.

A script turns dock 0's combat dial two clicks and dock 1's speed dial back one, presses the
roll button and pulls the cable out and back; then a host connects to the port the sim printed
and finds the dials where the script left them (the firmware read the modelled AS5600s)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from dialtray.link.session import TraySession
from picohelp import SYNC_S, interrupt, wait_until

pytestmark = pytest.mark.slow(cost=15)

SCRIPT = """\
# the same commands as the unix-port sim
turn 0 combat 2
turn 1 speed -1
press
magnet 1 combat off
magnet 1 combat on
unplug
replug
status
"""


def test_sim_rp2040_console_and_a_host_on_its_port(tmp_path: Path) -> None:
    script = tmp_path / "turns.txt"
    script.write_text(SCRIPT)
    errors = (tmp_path / "stderr.txt").open("w")  # a file: a pipe nobody reads fills and blocks
    proc = subprocess.Popen([str(Path(sys.executable).parent / "dialtray"), "sim", "--rp2040",
                             "--docks", "2", "--script", str(script), "--workdir",
                             str(tmp_path / "tray")], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=errors, text=True)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any("stays up" in x for x in lines):
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip())
        out = "\n".join(lines)
        assert "emulated Raspberry Pi Pico" in out, out
        assert "turned dock 0 combat by 2" in out and "cable plugged in" in out, out
        assert "tray stays up" in out, out
        port = next(x for x in lines if x.startswith("virtual tray running")).rsplit(" ", 1)[1]
        with TraySession(port) as session:
            session.wait_synced(SYNC_S)
            wait_until(lambda: session.dials.get((0, 0)) is not None
                       and session.dials[(0, 0)].position == 2
                       and session.dials[(1, 1)].position == 11, SYNC_S,
                       "the dials where the script turned them")
    finally:
        err = interrupt(proc, errors)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
