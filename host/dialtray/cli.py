"""The `dialtray` command line: discovers one module per subcommand in dialtray.commands."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from dialtray import __version__, commands


def build_parser() -> argparse.ArgumentParser:
    """Every subcommand registers itself; the order of --help is alphabetical."""
    parser = argparse.ArgumentParser(
        prog="dialtray",
        description=(
            "dialtray: a smart tray for Crimson Skies clix games. A Raspberry Pi Pico reads every "
            "dial click; this program runs the rules, tracks every click and tells players what "
            "to turn. No hardware? `dialtray demo` plays a full game on the virtual tray."
        ),
        epilog="Run `dialtray COMMAND --help` for each command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"dialtray {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
