"""`dialtray report GAME`: the end-of-game report, as text and (--html) one HTML page."""

from __future__ import annotations

import argparse
from pathlib import Path

from dialtray.commands._common import CommandError
from dialtray.commands._store import GAME_HELP, add_db, game_number, opened
from dialtray.store import html_report, report


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "report", help="the end-of-game report (text, or a self-contained HTML page)",
        description="The report of a stored game: the VP table and how each point was scored, "
                    "every figure's dial history (what the rules asked for, with cause and rule "
                    "id, and what the tray sensed), every flag and how it was put right, every "
                    "ruling, and the fairness check of the tray's dice. --html also writes one "
                    "self-contained page with a dial-history chart per figure.",
        epilog="examples:\n  dialtray report 3\n  dialtray report 3 --html game3.html",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", type=game_number, help=GAME_HELP)
    p.add_argument("--html", type=Path, metavar="FILE", help="also write the HTML page to FILE")
    add_db(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with opened(args, readonly=True) as store:
        rep = report.build(store, args.game)
    print(report.text(rep), end="")
    if args.html is not None:
        try:
            args.html.write_text(html_report.page(rep), encoding="utf-8")
        except OSError as e:
            raise CommandError(f"argument --html: {args.html}: {e.strerror or e}", 2) from e
        print(f"HTML report written to {args.html}")
    return 0
