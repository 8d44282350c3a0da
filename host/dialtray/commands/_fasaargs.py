"""The arguments of `dialtray play fasa` (the FASA 1998 flow at one terminal, issue 15): its
options and examples, and every refusal before a tray starts. The game itself is played by
``dialtray.ui.terminal.fasa_play``; its examples (``--help``, and ``help`` at the prompt) are
``dialtray.ui.terminal.fasa_examples``'s."""

from __future__ import annotations

import argparse
from pathlib import Path

from dialtray.commands._common import CommandError
from dialtray.rules.core.errors import CatalogueError
from dialtray.ui.terminal.fasa_examples import EXAMPLES


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The FASA options of `play` (and its examples at the end of ``--help``)."""
    p.epilog = (p.epilog or "") + EXAMPLES
    g = p.add_argument_group("FASA 1998 (play fasa)")
    g.add_argument("--map", default="sample-town", metavar="NAME",
                   help="the mapsheet (SAMPLE sheets: sample-town, sample-zeppelin, "
                        "sample-warship, sample-blank; default %(default)s)")
    g.add_argument("--plots", choices=("sealed", "open"), default="sealed",
                   help="sealed: each seat types its plots hidden, sealed and revealed "
                        "together (FS-M33, default); open: plotted in turn, on screen")
    g.add_argument("--sheets", type=Path, metavar="DIR",
                   help="write each plane's live record sheet to DIR/<plane>.svg after "
                        "every turn (open it in a browser beside the map, or print it)")


def check_arguments(args: argparse.Namespace) -> None:
    """Every refusal before a tray starts or a file is written: one line, exit 2."""
    def bad(arg: str, why: str) -> CommandError:
        return CommandError(f"argument {arg}: {why}", 2)

    if args.resume is not None:
        raise bad("--resume", "not built for FASA games (the log is the record: "
                  "`dialtray replay LOG`, `dialtray sheet LOG --plane A1`)")
    for name, given in (("--figures", args.figures), ("--docks-file", args.docks_file)):
        if given:
            raise bad(name, "not for fasa (no dials: the record sheets stand in)")
    if args.event is not None:
        raise bad("--event", "not built for FASA games")
    if args.sim and args.port:
        raise bad("--port", "not with --sim (the virtual tray has its own)")
    if args.dice in ("seeded", "typed") and (args.sim or args.port):
        raise bad("--dice", f"{args.dice} dice need no tray: drop --sim/--port, or roll "
                  "on the tray with --dice fair or tray")
    if len(args.seats) != 2:
        raise bad("--seats", f"this game has 2 seats (P1, P2), {len(args.seats)} given")
    if getattr(args, "own", None) is not None:
        return  # the owner's map, tables and sheets: checked whole already (table.ownfiles)
    from dialtray.rules.fasa.game import start_events  # (here: every FASA rule loads with it,
    from dialtray.rules.fasa.notation import DEFAULT_SIDES  # which other games' `play` skip)

    try:
        start_events(args.map, DEFAULT_SIDES, args.turns)
    except CatalogueError as exc:
        raise bad("--map", exc.message) from None
