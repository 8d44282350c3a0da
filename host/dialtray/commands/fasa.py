"""`dialtray fasa sheet new|check FILE` and `dialtray fasa tables check DIR`: make and check the
owner's record sheets and tables for the FASA 1998 board game (argument parsing only; the rules
are ``dialtray.rules.fasa.creation`` and ``dialtray.rules.fasa.tables``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dialtray.commands._common import CommandError
from dialtray.commands._ownfile import (
    files_command,
    ident_of,
    new_or_check,
    readable,
    write_new,
)
from dialtray.rules.core.errors import CatalogueError


def register(sub: Any) -> None:
    what = files_command(
        sub, "fasa",
        "make and check your own Crimson Skies (FASA 1998) record sheets and tables",
        "The FASA board game's record sheets and the tables its rules refer to but do not "
        "print (maneuver template, Hit Location Table, damage templates, damage-diagram "
        "layouts, gun ranges and deployed weapons, arcs) are files you can write from your "
        "box. 'sheet new' writes a sheet that passes every check, to fill in; 'sheet check' "
        "names each rule a sheet breaks (FS-M24 creation XP, FS-M27..FS-M32 the plane's "
        "statistics ...); 'tables check' checks a tables directory. A game uses your "
        "directory with the log header 'Tables: DIR' (sheets in DIR/sheets).",
        ["dialtray fasa sheet new my-box/sheets/condor.json --name 'Joe Condor'",
         "dialtray fasa sheet check my-box/sheets/condor.json --tables my-box",
         "dialtray fasa tables check my-box"])
    sheet = new_or_check(what, "sheet", "a record sheet", "the plane's and pilot's name")
    sheet.add_argument("--wingman", action="store_true",
                       help="new: a wingman's sheet (350 XP at creation, not 450; FS-M24)")
    sheet.add_argument("--tables", type=Path, metavar="DIR",
                       help="check against your tables directory (layouts, weapons) instead "
                            "of the shipped samples")
    sheet.set_defaults(func=run_sheet)
    tables = what.add_parser("tables", help="a tables directory: check")
    tables.add_argument("action", choices=("check",))
    tables.add_argument("dir", type=Path, metavar="DIR")
    tables.set_defaults(func=run_tables)


def run_sheet(args: argparse.Namespace) -> int:
    from dialtray.rules.fasa.creation import check_sheet, new_sheet
    from dialtray.rules.fasa.tables import load_tables

    path: Path = args.file
    if args.action == "new":
        ident = ident_of(path)
        write_new(path, new_sheet(ident, args.name or ident,
                                  "wingman" if args.wingman else "hero"))
        print(f"{path}: a new sheet '{ident}'; fill in your plane's numbers, then "
              f"`dialtray fasa sheet check {path}`")
        return 0
    try:
        tables = load_tables(args.tables)
    except CatalogueError as exc:
        raise CommandError(str(exc), 2) from None
    readable(path)
    found = check_sheet(path, tables)
    for f in found:
        print(f"{path}: {f.text()}")
    if not found:
        print(f"{path}: good: it keeps every rule for making a sheet")
    return 1 if found else 0


def run_tables(args: argparse.Namespace) -> int:
    from dialtray.rules.fasa.ownbox import check_box, own_files

    problems = check_box(args.dir)
    for line in problems:
        print(line)
    if not problems:
        print(f"{args.dir}: good: {', '.join(own_files(args.dir)) or 'no table'} of yours, "
              "the rest shipped samples")
    return 1 if problems else 0
