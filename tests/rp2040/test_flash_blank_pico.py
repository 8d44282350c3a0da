"""`dialtray flash` onto a blank emulated Pico (only MicroPython v1.28.0 on it, as from
micropython.org) through the real mpremote, then a calibration that survives a reset and a
power cycle; and the PIO program layout checked against the port itself on that chip.

The slowest test here: mpremote copies ~35 KB of .mpy over the emulated USB CDC through the
raw REPL, which the emulated chip serves at a fraction of real time.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from dialrig import config
from dialrig import pio_programs as pp
from dialtray.link.calinfo import calibration_info
from dialtray.link.session import TraySession
from dialtray.virtual.rp2040.tray import Rp2040Tray
from picohelp import SYNC_S, wait_until

pytestmark = pytest.mark.slow(cost=30)  # the longest test of the suite: it starts first

FLASH_TIMEOUT_S = 1500.0

# The port's own assembler builds the WS2812 driver from its pioasm text (dialrig.pio_programs
# WS2812); the firmware's hand-built program object must be the same list, field for field:
# same length (the running MicroPython's layout), same words, same EXECCTRL/SHIFTCTRL/pins.
LAYOUT_CHECK = """
import rp2
from dialrig import pio_programs as pp
@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
             pull_thresh=8, fifo_join=rp2.PIO.JOIN_TX)
def ws2812():
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[3]
    jmp(not_x, "do_zero").side(1)[2]
    jmp("bitloop").side(1)[2]
    label("do_zero")
    nop().side(0)[2]
    wrap()
mine = pp.ws2812_program()
print("PORT", len(ws2812), list(ws2812[0]), ws2812[1:])
print("MINE", len(mine), list(mine[0]), mine[1:])
print("SAME", list(ws2812[0]) == list(mine[0]) and ws2812[1:] == mine[1:])
sm = rp2.StateMachine(3, mine, freq=pp.WS2812_SM_HZ, sideset_base=__import__("machine").Pin(22))
print("LOADED", mine[pp.PROG_OFFSET_PIO0] >= 0)
sm.active(0)
rp2.PIO(0).remove_program(mine)
"""


@pytest.fixture
def blank(tmp_path: Path) -> Iterator[Rp2040Tray]:
    with Rp2040Tray(config.default_config(), workdir=tmp_path, blank=True) as t:
        yield t


def mpremote(port: str, *args: str, timeout: float = 600.0) -> str:
    r = subprocess.run([str(Path(sys.executable).parent / "mpremote"), "connect", port, *args],
                       capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_flash_a_blank_pico_then_calibrate(blank: Rp2040Tray) -> None:
    dialtray = str(Path(sys.executable).parent / "dialtray")
    r = subprocess.run([dialtray, "flash", blank.port], capture_output=True, text=True,
                       timeout=FLASH_TIMEOUT_S)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "verified" in r.stdout.lower() or "ok" in r.stdout.lower(), r.stdout
    # `mpremote reset` at the end of the flash: machine.reset(), WATCHDOG.REASON.FORCE.
    wait_until(lambda: len(blank.pico.events.boots) >= 2, SYNC_S, "the reset after the flash")

    # The PIO program layout, as the port running on this chip builds it.
    out = mpremote(blank.port, "exec", LAYOUT_CHECK)
    assert "SAME True" in out and "LOADED True" in out, out
    port_len = int(out.split("PORT ", 1)[1].split()[0])
    assert port_len == pp.PROG_FIELDS == 9, out

    blank.reboot()  # power cycle: the firmware starts again from main.py
    with TraySession(blank.port) as session:
        session.wait_synced(SYNC_S)
        before = calibration_info(session, timeout=60)
        assert not before.stored
        settings = dict(config.default_dial(0, 0), zero=1234)
        session.set_dial(0, 0, settings)  # type: ignore[arg-type]
        wait_until(lambda: calibration_info(session, timeout=60).stored, SYNC_S,
                   "the calibration on the board's flash")
        saved = calibration_info(session, timeout=60)
        uid = saved.uid
        boot = session.boot_id
        session.reboot()  # a reset (machine.reset)
        wait_until(lambda: session.boot_id not in (None, boot) and session.synced.is_set(),
                   SYNC_S, "the board back after the reset")
        assert calibration_info(session, timeout=60) == saved
    blank.reboot()  # a power cycle: a new chip on the same flash file
    with TraySession(blank.port) as session:
        session.wait_synced(SYNC_S)
        after = calibration_info(session, timeout=60)
        assert after == saved and after.uid == uid and not after.damaged
