"""`dialtray sim`: the virtual tray, for people and scripts without hardware."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from dialrig import config

from dialtray.commands._args import int_range, probability
from dialtray.commands._common import (
    MAX_DOCKS,
    CommandError,
    add_quadrature_flag,
    add_rp2040_flag,
    sim_missing,
)
from dialtray.link.faults import FaultInjector

if TYPE_CHECKING:  # the virtual tray needs POSIX and the sim extra: imported when run
    pass

COMMANDS_MARKER = "\x00sim-commands\x00"

EPILOG = """\
The firmware runs unchanged under the MicroPython unix port; only the hardware below it
(dials, PIO counters, I2C sensors, LEDs, watchdog) is simulated. Open the printed port in
another terminal with `dialtray monitor PORT` (or mpremote: `mpremote connect PORT repl`).

examples:
  dialtray sim                          interactive: type `help` at the sim> prompt
  dialtray sim --script turns.txt       run a file of commands, then keep the tray up
  dialtray sim --quadrature             encoders on the first 7 dials, AS5600s on the rest
  dialtray sim --corrupt 0.01 --drop 0.005   a bad cable
  echo "turn 0 combat 2" | dialtray sim --exit   run commands from a pipe, then stop
  dialtray sim --rp2040 --docks 2       the same firmware on an emulated Pico (official
                                        MicroPython, real RP2040 backend; slower)
"""


class _SimHelp(argparse.RawDescriptionHelpFormatter):
    """Lists the console's commands only when --help is asked for: that needs the sim extra."""

    def _format_text(self, text: str) -> str:
        if COMMANDS_MARKER in text:
            text = text.replace(COMMANDS_MARKER, console_help())
        return super()._format_text(text)


def console_help() -> str:
    why = sim_missing()
    if why is not None:
        return f"(the console's commands are listed once the virtual tray can run: {why})\n"
    from dialtray.virtual.script import COMMANDS, HELP
    return ("commands (at the sim> prompt, in a script, or piped):\n"
            + "\n".join(f"  {c.usage}" for c in COMMANDS.values()) + "\n" + HELP)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("sim", help="run the virtual tray (real firmware, simulated hardware)",
                       description="Start the virtual tray and print its serial port.",
                       epilog=EPILOG + "\n" + COMMANDS_MARKER, formatter_class=_SimHelp)
    p.add_argument("--docks", type=int_range(1, MAX_DOCKS), default=config.DEFAULT_DOCKS,
                   help=f"docks on the tray, 1..{MAX_DOCKS} (default %(default)s)")
    add_quadrature_flag(p, f"build the tray with incremental encoders on its first "
                           f"{config.MAX_QUADRATURE_DIALS} dials (the PIO budget: one state "
                           "machine each) and AS5600 absolute sensors on the rest")
    p.add_argument("--seed", type=int, help="make the tray's dice reproducible")
    p.add_argument("--bounce", action="store_true", help="quadrature contact bounce")
    p.add_argument("--corrupt", type=probability, default=0.0, metavar="P",
                   help="probability each byte on the cable is damaged (both ways)")
    p.add_argument("--drop", type=probability, default=0.0, metavar="P",
                   help="probability each byte on the cable is lost (both ways)")
    p.add_argument("--script", type=Path, help="a file of commands to run first")
    p.add_argument("--workdir", type=Path, help="where the port symlink and FIFOs live "
                                                "(default: a new temporary folder)")
    p.add_argument("--exit", action="store_true",
                   help="stop after the script / piped commands instead of staying up")
    add_rp2040_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.script is not None and not args.script.is_file():
        raise CommandError(f"argument --script: no such file: {args.script}", 2)
    from dialtray.virtual.factory import encoders_text, require_sim, tray_config, virtual_tray

    require_sim(args.rp2040)  # (the virtual tray is imported only now: not at start-up)
    from dialtray.virtual.console import run_file, run_stream

    cfg = tray_config(args.docks, args.quadrature)
    damage = {"corrupt": args.corrupt, "drop": args.drop}
    where = ("on an emulated Raspberry Pi Pico (official MicroPython v1.28.0)" if args.rp2040
             else "under MicroPython")
    print(f"starting the virtual tray (the firmware {where}) …", flush=True)
    with virtual_tray(cfg, rp2040=args.rp2040, workdir=args.workdir, seed=args.seed,
                      bounce=args.bounce, to_host=FaultInjector(**damage, seed=1),
                      to_device=FaultInjector(**damage, seed=2)) as tray:
        n = len(cfg["docks"])
        sensors = encoders_text(cfg)
        print(f"virtual tray running: {n} dock{'s' if n != 1 else ''}, port {tray.port}"
              + (f"; {sensors}" if sensors else ""), flush=True)
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
