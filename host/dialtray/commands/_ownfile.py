"""Writing a player's own new data file (a FASA record sheet, a Sky Ace hero): shared by
`dialtray fasa sheet new` and `dialtray skyace hero new`, so both refuse to overwrite and say a
write failure the same way."""

from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path
from typing import Any

from dialtray.commands._common import CommandError


def ident_of(path: Path) -> str:
    """The id a new file gets from its name: ``My_Hero.json`` -> ``my-hero``."""
    return path.stem.lower().replace("_", "-")


def readable(path: Path) -> None:
    """A file to check that is not there (or a directory) is a usage error, exit status 2 —
    not a rule the file breaks (exit status 1: the file is there and breaks a rule)."""
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        raise CommandError(f"{path}: cannot read it: {exc.strerror or exc}", 2) from None


def write_new(path: Path, doc: dict[str, Any]) -> None:
    """Write ``doc`` as indented JSON to a file that must not exist yet (never overwritten);
    a problem is a ``CommandError`` (exit status 2) naming the file."""
    if path.exists():
        raise CommandError(f"{path} exists: not overwritten (choose another file)", 2)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}", 2) from None


def new_or_check(what: Any, noun: str, kind: str, name_help: str) -> argparse.ArgumentParser:
    """The ``NOUN new|check FILE [--name NAME]`` sub-command both games share; returns it for
    the game's own options."""
    p: argparse.ArgumentParser = what.add_parser(noun, help=f"{kind}: new or check")
    p.add_argument("action", choices=("new", "check"),
                   help=f"write a new {noun}, or check one")
    p.add_argument("file", type=Path, metavar="FILE", help=f"the {noun}'s JSON file")
    p.add_argument("--name", help=f"new: {name_help} (default: the file's)")
    return p


def files_command(sub: Any, game: str, summary: str, description: str,
                  examples: list[str]) -> Any:
    """The ``dialtray GAME ...`` command for a game's own files (``fasa``, ``skyace``): its
    help and examples in one shape; returns the sub-commands to add (``sheet``, ``hero``)."""
    p = sub.add_parser(
        game, help=summary, description=textwrap.fill(description, width=78),
        epilog="examples:\n" + "".join(f"  {e}\n" for e in examples)
               + "exit status: 0 good, 1 a rule broken, 2 a usage error",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return p.add_subparsers(dest=f"{game}_what", metavar="WHAT", required=True)
