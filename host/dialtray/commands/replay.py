"""`dialtray replay FILE`: re-run a game log, print the final dials and VP, or fail loudly."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from dialtray.rules.core import registry
from dialtray.rules.core.errors import NotationError
from dialtray.rules.core.events import Event
from dialtray.rules.core.notation import BodyLine, read_log
from dialtray.rules.core.replay import replay_log


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="re-run a game log (any game kind) and print the final dials and VP",
        description=(
            "Re-runs a dialtray game log (docs/notation.md) through its rules engine, chosen by "
            "the log's 'Game:' line, and prints the final dials and victory points. Stops at "
            "the first line that is illegal or does not parse, naming FILE:LINE. Exit status: "
            "0 replayed, 2 bad log or unreadable file."
        ),
        epilog="example: dialtray replay game.log   (format: docs/notation.md)",
    )
    p.add_argument("file", help="the game log")
    p.add_argument(
        "-v", "--verbose", action="store_true", help="print every action with its events"
    )
    p.set_defaults(func=run)


def _print_line(line: BodyLine, events: Sequence[Event]) -> None:
    print(f"{line.line:>5}  {line.text}")
    for e in events:
        print(f"         {e.text()}")


def run(args: argparse.Namespace) -> int:
    """Exit 0 when the log replays, 2 for a bad log (``FILE:LINE: reason``) or an unreadable
    file, 3 if the engine itself failed (a bug: said plainly, never a traceback)."""
    try:
        log = read_log(args.file)
        result = replay_log(log, _print_line if args.verbose else None)
        for w in result.warnings:
            print(f"warning: {w}", file=sys.stderr)
    except NotationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # an engine bug must still not show a traceback to a player
        print(
            f"error: {args.file}: internal error in the rules engine ({type(exc).__name__}: "
            f"{exc}); please report it with this log",
            file=sys.stderr,
        )
        return 3
    print(f"{args.file}: {result.kind.title}, {result.actions} actions, {result.events} events")
    print(result.game.report())
    for mod, err in registry.discovery_errors().items():
        print(f"note: rule set {mod} failed to load: {err}", file=sys.stderr)
    return 0
