"""dialrig.hw_rp2 in the MicroPython unix port against fake `machine`/`rp2` modules.

The fakes stand at the true hardware boundary (registers, PIO state machines, DMA), just deep
enough for hw_rp2: its hot paths allocate nothing under micropython.heap_lock(), quad_count drains
stale FIFO words and never blocks, the quadrature programs land at address 0 under the pico-sdk's
top-down allocator, and deinit() clears the watchdog's ENABLE bit, blanks the LEDs and frees the
PIOs. The emulated RP2040 (tests/rp2040/) runs the same code on the real rp2 port; this file
is the quick check that runs first. (Split from test_firmware_static.py, section 4.)
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
MICROPYTHON = Path(sys.executable).parent / "micropython"

# ---- 4. hw_rp2 in MicroPython against fake hardware --------------------------------------------

# Fakes for the rp2 port's `machine` and `rp2`, just deep enough for dialrig.hw_rp2. PIO.add_program
# places programs like pico-sdk's pio_add_program with no origin: at the highest free address.
FAKE_HARDWARE = r"""
import sys
from array import array

WDT_CTRL = 0x40058000


class Mem32:
    def __init__(self):
        self.regs = {WDT_CTRL: 0x40000000 | 0x07000000 | 1234}  # ENABLE | PAUSE_* | TIME

    def __getitem__(self, addr):
        return self.regs.get(addr, 0)

    def __setitem__(self, addr, value):
        if addr & 0x3000 == 0x3000:  # atomic clear alias
            base = addr - 0x3000
            self.regs[base] = self.regs.get(base, 0) & ~value
        else:
            self.regs[addr] = value


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    level = {}

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        if value is not None:
            Pin.level[id] = value
        elif pull == Pin.PULL_UP and id not in Pin.level:
            Pin.level[id] = 1

    def value(self, v=None):
        if v is None:
            return Pin.level.get(self.id, 0)
        Pin.level[self.id] = v


class I2C:
    def __init__(self, id, sda=None, scl=None, freq=0, timeout=0):
        self.freq = freq


class WDT:
    def __init__(self, timeout=0):
        mem32[WDT_CTRL] = mem32[WDT_CTRL] | 0x40000000

    def feed(self):
        pass


class FakeMachine:
    Pin = Pin
    I2C = I2C
    WDT = WDT

    def unique_id(self):
        return b"\xe6\x61\x38\x52\x83\x4b\x2c\x2a"

    def reset(self):
        raise SystemExit("reset")


mem32 = Mem32()
machine = FakeMachine()
machine.mem32 = mem32


class PIO:
    used = [0, 0]

    def __init__(self, i):
        self.i = i

    def add_program(self, prog):
        n = len(prog[0])
        mask = (1 << n) - 1
        for off in range(32 - n, -1, -1):
            if not PIO.used[self.i] & (mask << off):
                PIO.used[self.i] |= mask << off
                prog[1 + self.i] = off
                return
        raise OSError(12)

    def remove_program(self, prog):
        off = prog[1 + self.i]
        PIO.used[self.i] &= ~(((1 << len(prog[0])) - 1) << off)
        prog[1 + self.i] = -1


class StateMachine:
    all = {}

    def __init__(self, id, prog, freq=-1, in_base=None, sideset_base=None):
        pio = id // 4
        if prog[1 + pio] < 0:
            PIO(pio).add_program(prog)
        self.offset = prog[1 + pio]
        self.freq = freq
        self.executed = []
        self.running = False
        self.ring = array("i", [0, 0, 0, 0])
        self.head = 0
        self.level = 0
        self.count = 0  # what the program holds in Y right now
        self.sent = b""
        StateMachine.all[id] = self

    def exec(self, op):
        self.executed.append(op)

    def active(self, v=None):
        if v is not None:
            self.running = bool(v)
        return self.running

    def push(self, value):  # push noblock: dropped when the FIFO is full
        if self.level < 4:
            self.ring[(self.head + self.level) & 3] = value
            self.level += 1

    def rx_fifo(self):
        return self.level

    def get(self, buf):
        if self.level == 0:
            raise RuntimeError("get() on an empty RX FIFO blocks forever")
        buf[0] = self.ring[self.head]
        self.head = (self.head + 1) & 3
        self.level -= 1
        if self.running:
            self.push(self.count)  # a running program refills the slot at once
        return buf

    def put(self, buf, shift=0):
        self.sent = bytes(buf)


class DMA:
    def __init__(self):
        self.sent = []

    def pack_ctrl(self, **kw):
        self.kw = kw
        return 0x1234

    def config(self, read=None, write=None, count=0, ctrl=0, trigger=False):
        self.sent.append(bytes(read[:count]))
        self.target = write

    def active(self):
        return False

    def close(self):
        self.closed = True


class FakeRp2:
    PIO = PIO
    StateMachine = StateMachine
    DMA = DMA


sys.modules["machine"] = machine
sys.modules["rp2"] = FakeRp2()
"""

SCENARIO = r"""
import gc
import json
import micropython

from dialrig import config, hw_rp2, pio_programs

out = {}
board = hw_rp2.Board(config.quadrature_config(4))  # 7 quadrature dials + LEDs
sms = StateMachine.all
out["sm_ids"] = sorted(sms)
out["quad_offsets"] = [board._quad_programs[0][1], board._quad_programs[1][2]]
out["led_offset"] = sms[3].offset
out["led_freq"] = sms[3].freq
out["preload"] = sms[0].executed
out["running"] = [sms[i].running for i in sorted(sms)]

sm = sms[hw_rp2.quad_state_machine_id(5)]
for stale in (11, 12, 13, 14):
    sm.push(stale)
sm.count = -123456
Pin.level[config.PINS["roll_button"]] = 0


def hot(board, got):
    # locals only: a new module global would allocate a dict slot
    gc.collect()
    micropython.heap_lock()
    try:
        got[0] = board.quad_count(5)
        got[1] = board.button()
        got[2] = board.quad_count(5)
    finally:
        micropython.heap_unlock()


got = [None, None, None]
hot(board, got)
out["count"], out["pressed"], out["again"] = got

sm.active(0)
while sm.rx_fifo():
    sm.get(array("i", [0]))
out["stopped_count"] = board.quad_count(5)  # empty FIFO, stopped: must not block

frame = bytearray(b"\x10\x20\x30\x01\x02\x03")
board.show_leds(frame)
out["led_frame"] = list(board._dma.sent[-1])
out["led_target_is_sm"] = board._dma.target is sms[3]
out["dreq"] = board._dma.kw["treq_sel"]

buf = bytearray(16)
board.entropy_into(buf)
out["entropy_nonzero"] = any(buf)

board.watchdog_start(4000)
dma = board._dma
board.deinit()
out["wdt_ctrl"] = mem32[WDT_CTRL]
out["after_running"] = [sms[i].running for i in sorted(sms)]
out["pio_used"] = list(PIO.used)
out["blank_frame"] = len(dma.sent[-1]), max(dma.sent[-1])
out["dma_closed"] = getattr(dma, "closed", False)

# A foreign program at the top of PIO1 leaves no room for the quadrature program at address 0.
PIO.used = [0, 1 << 31]
try:
    hw_rp2.Board(config.quadrature_config(4))
    out["foreign"] = "constructed"
except OSError:
    out["foreign"] = "OSError"
out["foreign_used"] = list(PIO.used)
out["foreign_running"] = [sm.running for sm in StateMachine.all.values()]

# With no quadrature dial only the LED program is loaded, at the top of PIO0.
PIO.used = [0, 0]
StateMachine.all = {}
hw_rp2.Board(config.default_config())
out["as5600_sms"] = sorted(StateMachine.all)
out["as5600_used"] = list(PIO.used)
print("RESULT " + json.dumps(out))
"""


@pytest.fixture(scope="module")
def rp2_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    if not MICROPYTHON.exists():
        pytest.fail(f"no MicroPython unix port at {MICROPYTHON}")
    script = tmp_path_factory.mktemp("hw_rp2") / "scenario.py"
    script.write_text("from array import array\n" + FAKE_HARDWARE + SCENARIO)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(FIRMWARE), ".frozen"]))
    result = subprocess.run(
        [str(MICROPYTHON), str(script)], capture_output=True, text=True, env=env, timeout=60,
        check=False,
    )
    lines = [ln for ln in result.stdout.splitlines() if ln.startswith("RESULT ")]
    assert result.returncode == 0 and lines, result.stdout + result.stderr
    return json.loads(lines[-1][len("RESULT "):])


def test_rp2_quadrature_programs_at_origin_zero(rp2_run: dict) -> None:
    assert rp2_run["sm_ids"] == [0, 1, 2, 3, 4, 5, 6, 7]
    assert rp2_run["quad_offsets"] == [0, 0]
    assert rp2_run["led_offset"] == 28  # WS2812 on top of PIO0
    assert rp2_run["led_freq"] == 8_000_000
    assert rp2_run["running"] == [True] * 8


def test_rp2_quadrature_preload(rp2_run: dict) -> None:
    assert rp2_run["preload"] == [0xE040, 0xA0C3, 0x4002, 0xA0E6]


def test_rp2_hot_paths_do_not_allocate_and_read_fresh_counts(rp2_run: dict) -> None:
    # ran under heap_lock: an allocation would have raised MemoryError
    assert rp2_run["count"] == -123456  # not one of the stale 11..14
    assert rp2_run["again"] == -123456
    assert rp2_run["pressed"] is True


def test_rp2_stopped_state_machine_does_not_block(rp2_run: dict) -> None:
    assert rp2_run["stopped_count"] == -123456


def test_rp2_leds_by_dma(rp2_run: dict) -> None:
    assert rp2_run["led_frame"] == [0x10, 0x20, 0x30, 1, 2, 3]
    assert rp2_run["led_target_is_sm"] is True
    assert rp2_run["dreq"] == 3  # DREQ_PIO0_TX3


def test_rp2_entropy(rp2_run: dict) -> None:
    assert rp2_run["entropy_nonzero"] is True


def test_rp2_deinit_leaves_the_board_safe(rp2_run: dict) -> None:
    ctrl = rp2_run["wdt_ctrl"]
    assert not ctrl & (1 << 30)  # watchdog ENABLE cleared
    assert ctrl == 0x07000000 | 1234  # and nothing else touched
    assert rp2_run["after_running"] == [False] * 8
    assert rp2_run["pio_used"] == [0, 0]
    assert rp2_run["blank_frame"] == [3 * (12 * 7 + 10), 0]  # the dice and the d10 ring
    assert rp2_run["dma_closed"] is True


def test_rp2_pio_taken_by_a_foreign_program(rp2_run: dict) -> None:
    assert rp2_run["foreign"] == "OSError"
    assert rp2_run["foreign_used"] == [0, 1 << 31]  # everything we loaded was removed again
    assert not any(rp2_run["foreign_running"])


def test_rp2_without_quadrature_dials(rp2_run: dict) -> None:
    assert rp2_run["as5600_sms"] == [3]  # the LED state machine only
    assert rp2_run["as5600_used"] == [0xF0000000, 0]  # WS2812 in PIO0 words 28..31
