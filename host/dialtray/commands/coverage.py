"""`dialtray coverage`: which rules-inventory ids have no test (and no recorded decision).

An id counts as tested when a test function (``tests/**/test_*.py``) names it in its name
(``test_aa_m20_...``) or its docstring (``AA-M20``). Ranges such as ``AA-M23..M26`` do not count:
each id must be written out. Ambiguity ids (``-Ann``) count as decided when they appear in the
decisions file (docs/rules-decisions.md).
The inventory and the search are ``dialtray.rules.inventory``'s; this module parses the
arguments and prints.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from dialtray.commands._common import CommandError
from dialtray.rules.inventory import (
    PACKAGED_INVENTORY,
    REPO,
    compute,
    load_inventory,
    select,
)


def game_prefix(text: str) -> str:
    """Two letters, as the inventory's ids start (AA-M01): AA, AC."""
    if not re.fullmatch(r"[A-Za-z]{2}", text):
        raise argparse.ArgumentTypeError(f"a game prefix is two letters (AA, AC), got {text!r}")
    return text.upper()


def register(sub: Any) -> None:
    p = sub.add_parser(
        "coverage",
        help="list rules-inventory ids that no test names",
        description=(
            "Lists every mechanic (-Mnn) and worked-example (-Tnn) id of a game that no test "
            "function names, and every ambiguity (-Ann) missing from the decisions file. The ids "
            "and titles ship with dialtray (built from rules-inventory.md by "
            "scripts/build_inventory.py); the tests are a dialtray clone's. Exit status 1 when "
            "anything is missing."
        ),
        epilog="examples:\n  dialtray coverage --prefix AA        in a clone\n"
               "  dialtray coverage --list --prefix AC  every Aces id and its title, anywhere\n"
               "  dialtray coverage --tests ~/dialtray/tests --decisions "
               "~/dialtray/docs/rules-decisions.md",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("inventory", nargs="?", type=Path,
                   help="a rules-inventory.md to read instead of the shipped list")
    p.add_argument("--prefix", default="AA", type=game_prefix,
                   help="game prefix: AA (Air Action), AC (Aces)")
    p.add_argument("--tests", type=Path,
                   help="the tests folder to search (default: this clone's tests/)")
    p.add_argument("--decisions", type=Path,
                   help="the decisions file (default: this clone's docs/rules-decisions.md)")
    p.add_argument("--list", action="store_true",
                   help="list the game's ids with their titles; needs no tests")
    p.add_argument("-v", "--verbose", action="store_true", help="also list each tested id")
    p.set_defaults(func=run)


def _in_clone(relative: str) -> Path | None:
    path = REPO / relative
    return path if (REPO / "pyproject.toml").is_file() and path.exists() else None


def run(args: argparse.Namespace) -> int:
    inv: Path = args.inventory or PACKAGED_INVENTORY
    if not inv.is_file():
        raise CommandError(f"argument inventory: no such file {inv}", 2)
    try:
        entries = load_inventory(inv)
    except (OSError, UnicodeDecodeError, ValueError, KeyError) as e:
        raise CommandError(f"cannot read the inventory {inv}: {e}") from e
    prefix = args.prefix
    games = sorted({e.id[:2] for e in entries})
    if prefix not in games:
        raise CommandError(f"argument --prefix: no {prefix} ids in {inv.name} (it has "
                           f"{', '.join(games)})", 2)
    if args.list:
        for entry in select(entries, prefix, "MTA"):
            print(f"{entry.id}  {entry.title}")
        return 0
    tests = args.tests or _in_clone("tests")
    if tests is None or not tests.is_dir():
        where = f"no tests folder at {args.tests}" if args.tests else \
            "this dialtray is installed, not run from a clone: no tests to search"
        raise CommandError(f"{where}; give --tests DIR (a dialtray clone's tests/), or --list "
                           "for the ids alone", 2)
    decisions = args.decisions or _in_clone("docs/rules-decisions.md")
    cov = compute(inv, tests, prefix, "MT", decisions)
    if args.verbose:
        for i, found in cov.tested.items():
            print(f"{i}: {', '.join(found)}")
    print(f"{len(cov.ids) - len(cov.missing)} of {len(cov.ids)} {prefix} ids have a test")
    titles = {entry.id: entry.title for entry in entries}
    for i in cov.missing:
        print(f"no test: {i}  {titles.get(i, '')}")
    for i in cov.undecided:
        print(f"no decision recorded: {i}  {titles.get(i, '')}")
    if decisions is None:
        print("(no decisions file: ambiguities not checked; give --decisions)", file=sys.stderr)
    return 1 if cov.missing or cov.undecided else 0
