"""`dialtray hardware`: files for building the rig, generated from the firmware's pin map.

`docs` regenerates hardware/wiring.md and hardware/bom.csv (or, with --check, says whether the
committed copies still match dialrig.config: CI and the tests run that). `target` draws a
printable zeroing ring for calibrating a dial with any number of clicks.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from dialtray.builder import calibration, hardware_docs
from dialtray.commands._args import float_range, int_range
from dialtray.commands._common import CommandError

DOCS_EPILOG = """\
examples:
  dialtray hardware docs                 rewrite hardware/wiring.md and hardware/bom.csv
  dialtray hardware docs --check         exit 1 and show a diff if they are stale
  dialtray hardware docs --out /tmp/hw   write them somewhere else to compare
  dialtray hardware docs --docks 4 --out /tmp/hw4
                                         wiring and bill of materials of a 4-dock tray

Run from the repository root (the default --out is ./hardware). The files are generated from
firmware/dialrig/config.py: edit the pin map there, never the generated files.
"""

TARGET_EPILOG = """\
examples:
  dialtray hardware target                          12 ticks, to calibration/targets/target_12.svg
  dialtray hardware target --detents 16 --out t.svg  a 16-click dial
  dialtray hardware target --diameter 50            a smaller ring

Print at 100 % (no "fit to page"): the ring's size is in millimetres.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "hardware",
        help="generate wiring tables, bill of materials and calibration targets",
        description=(
            "Files for building the tray, generated from the firmware's pin map "
            "(firmware/dialrig/config.py) so they can never disagree with it."
        ),
        epilog=("examples:\n"
                "  dialtray hardware docs --out /tmp/hw    wiring.md and bom.csv of the pin map\n"
                "  dialtray hardware target --detents 12   a printable zeroing target (SVG)"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="hardware_command", metavar="ACTION")
    parser.set_defaults(func=lambda _args: _usage(parser))

    docs = sub.add_parser(
        "docs",
        help="write (or --check) hardware/wiring.md and hardware/bom.csv",
        description=(
            "Write the wiring tables (wiring.md: every Pico pin, the multiplexers' address\n"
            "straps and channels, the quadrature option, the LED chain, power and current\n"
            "budget) and the bill of materials (bom.csv, quantities from the config)."
        ),
        epilog=DOCS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    docs.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 with a unified diff if the files differ",
    )
    docs.add_argument(
        "--out",
        metavar="DIR",
        type=Path,
        default=None,
        help="directory of wiring.md and bom.csv (default: the clone's hardware/)",
    )
    docs.add_argument(
        "--docks",
        metavar="N",
        type=int_range(1, max_docks()),
        default=None,
        help=f"document an AS5600 tray of N docks (1..{max_docks()}) instead of "
        "the default config; needs --out",
    )
    docs.set_defaults(func=run)

    target = sub.add_parser(
        "target",
        help="draw a printable zeroing target (SVG) for calibrating a dial",
        description=(
            "A ring with one numbered tick per click, to set under a dial while calibrating:\n"
            "it shows where click 0 is and which way the numbers run."
        ),
        epilog=TARGET_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    target.add_argument(
        "--detents",
        metavar="N",
        type=int_range(calibration.MIN_DETENTS, calibration.MAX_DETENTS),
        default=calibration.DEFAULT_DETENTS,
        help="clicks per revolution (default: %(default)s)",
    )
    target.add_argument(
        "--diameter",
        metavar="MM",
        type=float_range(10.0, 500.0),
        default=calibration.TARGET_DIAMETER_MM,
        help="outer diameter of the ring in mm (default: %(default)s)",
    )
    target.add_argument(
        "--out",
        metavar="FILE",
        type=Path,
        default=None,
        help="output file (default: targets/target_N.svg in the data directory)",
    )
    target.set_defaults(func=run_target)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def clone_hardware_dir() -> Path | None:
    """hardware/ of the clone dialtray runs from; None when it is installed elsewhere."""
    repo = Path(__file__).resolve().parents[3]
    return repo / "hardware" if (repo / "pyproject.toml").is_file() else None


def max_docks() -> int:
    """Docks an AS5600 tray can have: one multiplexer channel per dial."""
    return len(hardware_docs.mux_addrs()) * 8 // len(hardware_docs.dial_names())


def run(args: argparse.Namespace) -> int:
    """`dialtray hardware docs`."""
    cfg = None
    if args.docks is not None:
        if args.out is None:
            print(
                "dialtray hardware docs: --docks needs --out: hardware/ documents the default tray",
                file=sys.stderr,
            )
            return 2
        if not 1 <= args.docks <= max_docks():
            print(f"dialtray hardware docs: --docks must be 1..{max_docks()}", file=sys.stderr)
            return 2
        cfg = hardware_docs.rig.default_config(args.docks)
    files = hardware_docs.generate(cfg)
    out_dir: Path | None = args.out or clone_hardware_dir()
    if out_dir is None:
        if (Path("firmware") / "dialrig" / "config.py").is_file() and Path("hardware").is_dir():
            # a clone with dialtray installed from it, not editable: its pin map is the copy's
            raise CommandError("this dialtray was installed from a copy of the clone (pip "
                               "install .): it documents the pin map it was installed with, "
                               "not this clone's firmware/dialrig/config.py; install it "
                               "editable (pip install -e .) to regenerate hardware/, or give "
                               "--out DIR", 2)
        raise CommandError("this dialtray is installed, not run from a clone: give --out DIR "
                           "for wiring.md and bom.csv", 2)
    if args.check:
        return check(files, out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = out_dir / name
        path.write_text(text, encoding="utf-8", newline="")
        print(f"wrote {path}")
    return 0


def check(files: dict[str, str], out_dir: Path) -> int:
    """Print a unified diff per stale file; 0 when every file matches the generator."""
    stale = 0
    for path, missing, diff in hardware_docs.compare(files, out_dir):
        if missing:
            print(f"{path}: missing", file=sys.stderr)
        if diff:
            stale += 1
            sys.stdout.writelines(diff)
    if stale:
        print(
            f"{stale} file(s) differ from the pin map: run `dialtray hardware docs` and "
            "commit the result",
            file=sys.stderr,
        )
        return 1
    print(f"{', '.join(files)} in {out_dir} match the pin map")
    return 0


def run_target(args: argparse.Namespace) -> int:
    """`dialtray hardware target`."""
    try:
        svg = calibration.render_target(args.detents, args.diameter)
    except ValueError as e:
        print(f"dialtray hardware target: {e}", file=sys.stderr)
        return 2
    out: Path = args.out or args.data_dir / "targets" / f"target_{args.detents}.svg"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(svg, encoding="utf-8", newline="")
    print(f"wrote {out}")
    return 0
