"""`dialtray flash`: compile the firmware for the RP2040 and put it on a Pico."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import dialrig

EPILOG = """\
Each firmware module is compiled with mpy-cross -march=armv6m (the RP2040's Cortex-M0+) into
.mpy bytecode, copied with mpremote into /lib/dialrig on the board, main.py is copied to the
root, and the board is reset. mpremote interrupts the running firmware with Ctrl-C first, so
a tray never needs the BOOTSEL button once MicroPython is on it.

examples:
  dialtray flash                  the Pico on USB
  dialtray flash /dev/ttyACM0
  dialtray flash --dry-run        compile only and list what would be copied
"""

MAIN_PY = "from dialrig.app import main\n\nmain()\n"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("flash", help="compile the firmware and deploy it to a Pico",
                       description="Compile the firmware with mpy-cross and deploy it with "
                                   "mpremote.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", nargs="?", help="serial port (default: mpremote's auto-detection)")
    p.add_argument("--dry-run", action="store_true", help="compile and list, copy nothing")
    p.add_argument("--source", action="store_true",
                   help="copy .py sources instead of compiled .mpy (slower boot, easier debug)")
    p.set_defaults(func=run)


def tool(name: str) -> str:
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} is not installed (pip install {name})")
    return found


def firmware_dir() -> Path:
    """Where the dialrig package lives: the checkout's firmware/ or the installed copy."""
    return Path(dialrig.__file__).resolve().parent.parent


def firmware_sources() -> tuple[Path, list[Path]]:
    root = firmware_dir()
    modules = sorted((root / "dialrig").glob("*.py"))
    if not modules:
        raise FileNotFoundError(f"no firmware sources under {root / 'dialrig'}")
    return root, modules


def compile_all(out: Path) -> list[Path]:
    """mpy-cross every module; stops at the first that does not compile, naming it."""
    _, modules = firmware_sources()
    built = []
    for src in modules:
        dst = out / (src.stem + ".mpy")
        r = subprocess.run([tool("mpy-cross"), "-march=armv6m", "-o", str(dst), str(src)],
                           capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError(f"mpy-cross failed on {src}:\n{r.stderr.strip()}")
        built.append(dst)
    return built


def run(args: argparse.Namespace) -> int:
    root, modules = firmware_sources()
    main_py = root / "main.py"
    main_text = main_py.read_text() if main_py.exists() else MAIN_PY
    with tempfile.TemporaryDirectory(prefix="dialtray-flash-") as tmp:
        out = Path(tmp)
        try:
            files = modules if args.source else compile_all(out)
        except (RuntimeError, FileNotFoundError) as e:
            print(f"dialtray flash: {e}", file=sys.stderr)
            return 1
        (out / "main.py").write_text(main_text)
        size = sum(f.stat().st_size for f in files)
        print(f"{len(files)} modules ({size} bytes) for /lib/dialrig, and main.py")
        if args.dry_run:
            for f in files:
                print(f"  {f.name:24} {f.stat().st_size:6} bytes")
            return 0
        connect = ["connect", args.port] if args.port else []
        cmd = [tool("mpremote"), *connect, "mkdir", ":/lib", "+", "mkdir", ":/lib/dialrig"]
        subprocess.run(cmd, capture_output=True)  # they may exist already: that is fine
        cmd = [tool("mpremote"), *connect, "cp", *map(str, files), ":/lib/dialrig/", "+",
               "cp", str(out / "main.py"), ":/main.py", "+", "reset"]
        print("deploying with mpremote …", flush=True)
        r = subprocess.run(cmd)
        if r.returncode:
            print("dialtray flash: mpremote failed (is the port right, and is MicroPython on "
                  "the board? A new Pico needs the MicroPython UF2 first: hold BOOTSEL, plug in, "
                  "copy the .uf2)", file=sys.stderr)
            return r.returncode
    print("done: the tray reboots into the new firmware")
    return 0
