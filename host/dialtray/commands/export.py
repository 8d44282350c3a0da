"""`dialtray export GAME`: a stored game as a notation log (``dialtray replay`` re-runs it)."""

from __future__ import annotations

import argparse
import errno
import os
from collections.abc import Callable
from pathlib import Path

from dialtray.commands._common import CommandError
from dialtray.commands._store import GAME_HELP, add_db, game_number, opened
from dialtray.store.logs import export_log


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "export", help="write a stored game as a notation log",
        description="Writes a stored game as a notation log (docs/notation.md): every action "
                    "with its dice and events, flags, notes and rulings as comments. The game's "
                    "hash chain is checked first; a game that fails it is not exported.",
        epilog="examples:\n  dialtray export 3 > game3.log\n  dialtray export 3 -o game3.log\n"
               "  dialtray replay game3.log",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", type=game_number, help=GAME_HELP)
    p.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="write the log to FILE (default: standard output)")
    add_db(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with opened(args, readonly=True) as store:
        text = export_log(store, args.game)
    if args.output is None:
        print(text, end="")
        return 0
    try:
        write_atomic(args.output, text)
    except OSError as e:
        full = e.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
        raise CommandError(f"argument --output: {args.output}: " + (
            "the disk is full (nothing was written)" if full else str(e.strerror or e)),
            2) from e
    print(f"game {args.game} written to {args.output}")
    return 0


STEP_HOOK: Callable[[str], None] | None = None  # the fault tests: a crash at each step


def write_atomic(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all: a temporary file beside it, flushed to disk, then
    renamed over it — an export killed or out of disk space half-way leaves no half log."""
    def step(what: str) -> None:
        if STEP_HOOK is not None:
            STEP_HOOK(what)

    for stale in path.parent.glob(f".{path.name}.*.part"):  # a killed export's leftover
        stale.unlink(missing_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        step("open")
        with open(tmp, "w", encoding="utf-8") as f:
            step("write")
            f.write(text)
            step("flush")
            f.flush()
            os.fsync(f.fileno())
        step("rename")
        os.replace(tmp, path)
        step("done")
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
