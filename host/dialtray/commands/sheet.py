"""`dialtray sheet LOG --plane ID`: the live record sheet of a FASA plane as a printable SVG.

Replays a ``Game: fasa`` log (docs/notation.md) and draws the plane's sheet as it stands at
the end, or after line N (``--after``): marked boxes, performance boxes lost, guns, rockets,
the turn record (``dialtray.rules.fasa.svg``, issue 15).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from dialtray.commands._args import int_range
from dialtray.commands._common import CommandError
from dialtray.rules.core.errors import NotationError
from dialtray.rules.core.notation import read_log


def register(sub: Any) -> None:
    p = sub.add_parser(
        "sheet",
        help="draw a FASA plane's live record sheet (SVG) from a game log",
        description=(
            "Replays a Crimson Skies (FASA 1998) game log ('Game: fasa') and writes the record "
            "sheet of one plane as SVG: pilot skills and Constitution, the performance diagram "
            "with the boxes lost, the damage diagram with every marked box, guns, rockets and "
            "the turn record. Sample sheets are labelled SAMPLE. Exit status: 0 written, 2 bad "
            "log, unknown plane or unwritable output."
        ),
        epilog=(
            "examples:\n"
            "  dialtray sheet game.log --plane A1 -o a1.svg     the sheet at the end of the log\n"
            "  dialtray sheet game.log --plane B2 --after 40 -o b2-line40.svg\n"
            "  dialtray sheet game.log --plane A1 > a1.svg      (no -o: SVG on stdout)\n"
            "open the SVG in a browser to keep it beside the map, or print it"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("log", metavar="LOG", help="a FASA game log (docs/notation.md)")
    p.add_argument("--plane", required=True, metavar="ID",
                   help="the plane whose sheet to draw, as in the log's Side: lines (A1, B2)")
    p.add_argument("--after", type=int_range(1, None), metavar="LINE",
                   help="draw the sheet as it stood after log line LINE (default: the end)")
    p.add_argument("-o", "--output", metavar="FILE.svg",
                   help="where to write the SVG (default: standard output)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Exit 0 when the SVG is written; bad input is a CommandError with status 2."""
    svg = sheet_svg(args.log, args.plane, args.after)
    if args.output is None:
        sys.stdout.write(svg)
        return 0
    try:
        Path(args.output).write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"--output: cannot write {args.output}: {exc.strerror or exc}",
                           2) from None
    print(f"{args.output}: record sheet of {args.plane} from {args.log}")
    return 0


def sheet_svg(path: str, plane: str, after: int | None = None) -> str:
    """The SVG of ``plane``'s sheet in the FASA log at ``path`` (after line ``after``)."""
    from dialtray.rules.core.replay import replay_log
    from dialtray.rules.fasa.game import FasaGame
    from dialtray.rules.fasa.svg import render

    try:
        log = read_log(path)
    except NotationError as exc:
        raise CommandError(str(exc), 2) from None
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror or exc}", 2) from None
    if log.kind != "fasa":
        raise CommandError(f"{path}:{log.kind_line}: a record sheet is a FASA sheet, this log "
                           f"is 'Game: {log.kind}' (see docs/notation.md)", 2)
    try:
        result = replay_log(log)  # the whole log must replay, even for --after
    except NotationError as exc:
        raise CommandError(str(exc), 2) from None
    game = result.game
    assert isinstance(game, FasaGame)
    planes = sorted(game.state.planes)
    if plane not in game.state.planes:
        raise CommandError(f"--plane: no plane {plane!r} in {path} (its planes: "
                           f"{', '.join(planes)})", 2)
    if after is not None:  # replay again up to the line asked for
        game = _game_after(log, after)
    with game.bound():  # the game's own layouts (Tables: DIR)
        return render(game.state.planes[plane], game.state.turn)


def _game_after(log: Any, after: int) -> Any:
    """The game as it stood after log line ``after`` (the setup, if it comes first)."""
    from dialtray.rules.core.dice import ManualDice
    from dialtray.rules.core.registry import get

    dice = ManualDice()
    game = get(log.kind).new_game(log, dice)
    for bl in log.body:
        if bl.line > after:
            break
        dice.clear()
        if bl.faces:
            dice.feed(bl.faces, bl.sides)
        game.apply(game.parse_action(bl.text))
    return game
