"""`dialtray import LOG`: store a logged game (the subcommand is ``import``; this module is not
called ``import``, a Python keyword)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dialtray.commands._common import CommandError
from dialtray.commands._store import add_db, opened
from dialtray.rules.core.errors import NotationError
from dialtray.rules.core.notation import decode_log, parse_log
from dialtray.store.logs import import_log


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "import", help="store a game from a notation log",
        description="Replays a notation log (docs/notation.md) through its rules engine and, "
                    "if every line replays, stores it as a game (listed by `dialtray games`, "
                    "checked by `dialtray verify`). A bad line is named as FILE:LINE and nothing "
                    "is stored. Exit status: 0 stored, 2 bad log, unreadable file or database.",
        epilog="examples:\n  dialtray import game.log\n"
               "  dialtray import --db tournament.sqlite3 table4.log",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("log", type=Path, metavar="LOG", help="the game log to store")
    add_db(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        text = decode_log(args.log.read_bytes(), str(args.log))
        log = parse_log(text, str(args.log))
    except NotationError as e:
        raise CommandError(str(e), 2) from e
    except OSError as e:
        raise CommandError(f"{args.log}: {e.strerror or e}", 2) from e
    with opened(args, readonly=False) as store:
        try:
            gid, warnings = import_log(store, log, text)
        except NotationError as e:
            raise CommandError(str(e), 2) from e
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    print(f"{args.log}: stored as game {gid} ({len(log.body)} actions)")
    return 0
