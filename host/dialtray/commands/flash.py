"""`dialtray flash`: compile the firmware for the RP2040 and put it on a Pico, then check it.

What goes on the board is what the board runs: the modules main.py reaches by import, minus the
simulator's (hw_sim, sim_i2c), compiled with mpy-cross for the Cortex-M0+ with their source
names kept, so a traceback on the device still says ``dialrig/dials.py, line 120``. Stale files
in /lib/dialrig are removed (a leftover .py would shadow its new .mpy); the board's own files at
its root — its calibration above all — are never touched. Afterwards every copied file is read
back by hash.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import logging
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import dialrig

from dialtray.commands._common import CommandError, resolve_port

log = logging.getLogger(__name__)

EPILOG = """\
Each firmware module the Pico needs is compiled with mpy-cross -march=armv6m (the RP2040's
Cortex-M0+) into .mpy bytecode that keeps its source name for tracebacks, copied with mpremote
into /lib/dialrig on the board, main.py to the root, and the board is reset; then each file is
read back and compared by SHA-256. The simulator's modules (hw_sim, sim_i2c) stay on this
computer. The board's calibration (/calibration.json) and config (/dialrig.json) are kept.
mpremote interrupts the running firmware with Ctrl-C first, so a tray never needs the BOOTSEL
button once MicroPython is on it (a new Pico needs the MicroPython UF2 first).

examples:
  dialtray flash                  the one Pico on USB (VID:PID 2E8A:0005)
  dialtray flash /dev/ttyACM0     that port (with two Picos plugged in, name one)
  dialtray flash --dry-run        compile only and list what would be copied where
"""

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


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("flash", help="compile the firmware and deploy it to a Pico",
                       description="Compile the firmware with mpy-cross, deploy it with "
                                   "mpremote and verify it on the board.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", nargs="?", help="serial port (default: the one Pico on USB)")
    p.add_argument("--dry-run", action="store_true", help="compile and list, copy nothing")
    p.add_argument("--source", action="store_true",
                   help="copy .py sources instead of compiled .mpy (slower boot, easier debug)")
    p.set_defaults(func=run)


def tool(name: str) -> str:
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        raise CommandError(f"{name} is not installed (pip install {name})")
    return found


def firmware_dir() -> Path:
    """Where the dialrig package lives: the checkout's firmware/ or the installed copy."""
    return Path(dialrig.__file__).resolve().parent.parent


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
        raise CommandError(f"no firmware sources under {pkg}")
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
    """mpy-cross for armv6m, the source named `dialrig/x.py` in tracebacks."""
    dst = out / (src.stem + ".mpy")
    r = subprocess.run([tool("mpy-cross"), "-march=armv6m", "-s", f"{PACKAGE}/{src.name}",
                        "-o", str(dst), str(src)], capture_output=True, text=True)
    if r.returncode:
        raise CommandError(f"mpy-cross failed on {src}: {r.stderr.strip()}")
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


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="dialtray-flash-") as tmp:
        files, left_out = plan(Path(tmp), args.source)
        size = sum(f.built.stat().st_size for f in files)
        kind = ".py sources" if args.source else ".mpy for armv6m"
        print(f"{len(files)} files ({size} bytes, {kind}) for the board:")
        for f in files:
            print(f"  {f.dest:28} {f.built.stat().st_size:6} bytes  from {f.source.name}")
        for src, why in left_out:
            print(f"  not copied: {src.name} ({why})")
        print(f"  kept on the board: {', '.join(KEPT_ON_BOARD)}")
        if args.dry_run:
            return 0
        port = resolve_port(args.port)
        mpremote = [tool("mpremote"), "connect", port]
        print(f"deploying to {port} with mpremote …", flush=True)
        subprocess.run([*mpremote, "fs", "mkdir", ":/lib", "+", "fs", "mkdir", f":{DEVICE_DIR}"],
                       capture_output=True)  # they may exist already: that is fine
        cmd = list(mpremote)
        for f in files:
            cmd += ["fs", "cp", str(f.built), f":{f.dest}", "+"]
        r = subprocess.run(cmd[:-1], capture_output=True, text=True)
        if r.returncode:
            log.info("mpremote: %s", r.stderr)
            raise CommandError(f"mpremote could not copy to {port}: {_last_line(r.stderr)} (is "
                               "MicroPython on the board? A new Pico needs the MicroPython UF2 "
                               "first: hold BOOTSEL, plug in, copy the .uf2)")
        print("verifying the files on the board …", flush=True)
        r = subprocess.run([*mpremote, "exec", verify_script(files)], capture_output=True,
                           text=True)
        problems = check_hashes(files, r.stdout) if r.returncode == 0 else \
            [f"could not read the files back: {_last_line(r.stderr)}"]
        for line in r.stdout.splitlines():
            if line.startswith("@ removed "):
                print(f"  removed a stale {DEVICE_DIR}/{line.split()[2]}")
        if problems:
            raise CommandError("the board does not hold what was copied: " + "; ".join(problems)
                               + " — run `dialtray flash` again")
        print(f"  all {len(files)} files verified (SHA-256)")
        subprocess.run([*mpremote, "reset"], capture_output=True)
    print("done: the tray reboots into the new firmware")
    return 0


def _last_line(text: str) -> str:
    lines = [x for x in text.strip().splitlines() if x.strip()]
    return lines[-1] if lines else "no output"
