"""`dialtray sim`: the virtual tray, for people and scripts without hardware."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from dialrig import config

from dialtray.link.faults import FaultInjector
from dialtray.virtual.script import COMMANDS, HELP, ScriptError, run_line
from dialtray.virtual.tray import VirtualTray

EPILOG = """\
The firmware runs unchanged under the MicroPython unix port; only the hardware below it
(dials, PIO counters, I2C sensors, LEDs, watchdog) is simulated. Open the printed port in
another terminal with `dialtray monitor PORT` (or mpremote: `mpremote connect PORT repl`).

examples:
  dialtray sim                          interactive: type `help` at the sim> prompt
  dialtray sim --script turns.txt       run a file of commands, then keep the tray up
  dialtray sim --corrupt 0.01 --drop 0.005   a bad cable
  echo "turn 0 combat 2" | dialtray sim --exit   run commands from a pipe, then stop
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("sim", help="run the virtual tray (real firmware, simulated hardware)",
                       description="Start the virtual tray and print its serial port.",
                       epilog=EPILOG + "\ncommands (at the sim> prompt, in a script, or piped):\n"
                       + "\n".join(f"  {c.usage}" for c in COMMANDS.values()) + "\n" + HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--docks", type=int, default=config.DEFAULT_DOCKS,
                   help="docks on the tray (default %(default)s)")
    p.add_argument("--quadrature", action="store_true",
                   help="build the tray with incremental encoders (up to 7 dials) instead of "
                        "AS5600 absolute sensors")
    p.add_argument("--seed", type=int, help="make the tray's dice reproducible")
    p.add_argument("--bounce", action="store_true", help="quadrature contact bounce")
    p.add_argument("--corrupt", type=float, default=0.0, metavar="P",
                   help="probability each byte on the cable is damaged (both ways)")
    p.add_argument("--drop", type=float, default=0.0, metavar="P",
                   help="probability each byte on the cable is lost (both ways)")
    p.add_argument("--script", type=Path, help="a file of commands to run first")
    p.add_argument("--workdir", type=Path, help="where the port symlink and FIFOs live "
                                                "(default: a new temporary folder)")
    p.add_argument("--exit", action="store_true",
                   help="stop after the script / piped commands instead of staying up")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.docks <= 16:
        print("dialtray sim: --docks must be 1..16", file=sys.stderr)
        return 2
    cfg = config.quadrature_config(args.docks) if args.quadrature else \
        config.default_config(args.docks)
    damage = {"corrupt": args.corrupt, "drop": args.drop}
    with VirtualTray(cfg, workdir=args.workdir, seed=args.seed, bounce=args.bounce,
                     to_host=FaultInjector(**damage, seed=1),
                     to_device=FaultInjector(**damage, seed=2)) as tray:
        print(f"virtual tray running: {len(cfg['docks'])} docks, port {tray.port}", flush=True)
        try:
            if args.script and not run_file(tray, args.script):
                return 1
            interactive = sys.stdin.isatty()
            if interactive or not args.script:
                run_stream(tray, interactive)
            if not args.exit and not interactive:
                print("tray stays up; Ctrl-C to stop", flush=True)
                while True:
                    time.sleep(3600)
        except KeyboardInterrupt:
            print("\nstopping the virtual tray")
    return 0


def run_file(tray: VirtualTray, path: Path) -> bool:
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        print(f"dialtray sim: cannot read {path}: {e}", file=sys.stderr)
        return False
    for n, line in enumerate(lines, 1):
        try:
            out = run_line(tray, line, f"{path}:{n}")
        except ScriptError as e:
            print(f"dialtray sim: {e}", file=sys.stderr)
            return False
        if out:
            print(out, flush=True)
    return True


def run_stream(tray: VirtualTray, interactive: bool) -> None:
    n = 0
    while True:
        if interactive:
            print("sim> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        n += 1
        if line.strip() in ("quit", "exit"):
            return
        if line.strip() == "help":
            print(HELP)
            continue
        try:
            out = run_line(tray, line, "" if interactive else f"<stdin>:{n}")
        except ScriptError as e:
            print(f"error: {e}", file=sys.stderr if not interactive else sys.stdout, flush=True)
            continue
        if out:
            print(out, flush=True)
