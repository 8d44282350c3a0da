"""`dialtray serve`: the table's screen — a local web page following the live tray and game.

Its arguments and the checks before anything starts; the page served over the table is
``dialtray.ui.serve``. The web framework (the `ui` extra) and the virtual tray are imported only
when this runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import textwrap
from pathlib import Path

from dialtray.commands import _camera_args
from dialtray.commands import _ownargs as own_args
from dialtray.commands._args import add_event_arguments, float_range, int_range, seats_arg
from dialtray.commands._common import (
    MAX_DOCKS,
    CommandError,
    add_quadrature_flag,
    add_rp2040_flag,
    calibration_dir,
    quadrature_needs_sim,
    rp2040_needs_sim,
)
from dialtray.commands._store import add_db, db_path
from dialtray.link.port import resolve_port
from dialtray.table.event import open_event, stop_event
from dialtray.table.seeds import DEFAULT_SEED

UI_EXTRA = "pip install 'dialtray[ui]'"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve", help="the table's screen: a web page with the live tray, game, report, judge",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=textwrap.fill(
            "Run the tracker at the tray and show it on a web page (a laptop or tablet beside "
            "the tray): the tray with what to turn and every flag, the game with its legal "
            "decisions and the odds before a shot, the report, the judge's tools. Every change "
            "reaches the page at once. The game is stored (see `dialtray games`). Listens on "
            "localhost only unless --host says otherwise; then every page needs the access key "
            "it prints. Judge actions need a judge token (`dialtray judge token`).", 78),
        epilog="examples:\n"
               "  dialtray serve --sim --bots            watch bots play on the virtual tray\n"
               "  dialtray serve --sim --game aces       play Aces on the virtual tray (the page\n"
               "                                         asks who takes each seat)\n"
               "  dialtray serve --sim --seats human,bot --pace 1.5\n"
               "                                         you (P1) against a bot\n"
               "  dialtray serve --sim --quadrature      a tray built with encoders (each\n"
               "                                         confirmed by eye on the page)\n"
               "  dialtray serve --port 8080             the tray on USB, page on port 8080\n"
               "  dialtray serve --host 0.0.0.0          share it on the network (prints a key)\n"
               "  dialtray serve --event mqtt://hub.local/spring --creds t01.json\n"
               "                                         a table of an event (dialtray hub)")
    p.add_argument("--sim", action="store_true", help="use the virtual tray (the `sim` extra)")
    add_rp2040_flag(p)  # with --sim: the firmware on an emulated Pico (issue 29)
    add_quadrature_flag(p)  # with --sim: encoders on the first 7 dials, confirmed by eye
    p.add_argument("--bots", action="store_true",
                   help="with --sim: bots play every seat, turning the virtual dials")
    p.add_argument("--seats", type=seats_arg, metavar="WHO,WHO",
                   help="with --sim: who takes each seat in seating order, human (a person at "
                        "the page) or bot, e.g. human,bot (default: the page asks)")
    p.add_argument("--pace", type=float_range(0.0, 30.0), default=1.0,
                   help="seconds a bot waits before each of its moves, so a person can follow "
                        "(default %(default)s; 0: at once)")
    p.add_argument("--mistakes", action="store_true",
                   help="with --bots: the bots make each kind of mistake once (to see flags)")
    p.add_argument("--game", choices=("airaction", "aces", "fasa", "skyace"),
                   default="airaction", help="the rules: Air Action, Aces, the FASA board "
                   "game (the tray is its dice tower) or the Sky Ace card game (its LIFE counters "
                   "on the tray's LED dice; default %(default)s)")
    p.add_argument("--turns", type=int_range(1, 50), default=4,
                   help="the agreed time limit in turns, 1..50 (default %(default)s)")
    p.add_argument("--seed", type=int_range(0), default=DEFAULT_SEED,
                   help="the bots' seed, default %(default)s; given, it also seeds a virtual "
                   "tray's dice so a run repeats (else they are fresh)")
    p.add_argument("--docks", type=int_range(2, MAX_DOCKS), default=8,
                   help=f"docks on the tray, 2..{MAX_DOCKS} (default %(default)s)")
    p.add_argument("--serial", metavar="PORT", help="the tray's serial port (default: the one "
                   "tray on USB)")
    p.add_argument("--port", type=int_range(0, 65535), default=8765,
                   help="the web page's TCP port, 0..65535 (0: any free one; default "
                        "%(default)s)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default %(default)s: this computer only)")
    p.add_argument("--layout", type=Path, metavar="FILE",
                   help="the tray layout (default: calibration/tray_layout.json in the data "
                        "directory, else a grid)")
    add_db(p)
    add_event_arguments(p)  # a table of a tournament (issue 17)
    _camera_args.add_arguments(p)  # a camera confirms every settled click (issue 33)
    own_args.add_arguments(p, "serve")  # the owner's own tables, sheets and heroes (issue 34)
    p.set_defaults(func=run)


def ui_missing() -> str | None:
    if all(importlib.util.find_spec(m) is not None for m in ("starlette", "uvicorn",
                                                             "websockets")):
        return None
    return f"the web UI is an optional part of dialtray: {UI_EXTRA}"


def run(args: argparse.Namespace) -> int:
    from dialtray.ui.terminate import sigterm_as_interrupt

    sigterm_as_interrupt()  # SIGTERM stops serving as Ctrl-C does: stored, said how
    why = ui_missing()
    if why is not None:
        raise CommandError(why)
    if args.bots and not args.sim:
        raise CommandError("argument --bots: only with --sim (bots turn the virtual tray's "
                           "dials)", 2)
    if args.seats is not None and (args.bots or not args.sim):
        raise CommandError("argument --seats: only with --sim and without --bots (bots take "
                           "the seats named bot)", 2)
    args.own = own_args.own_files(args, "serve")  # checked before anything starts (exit 2)
    if args.seats is not None:
        seats = game_seats(args)
        if len(args.seats) != len(seats):
            raise CommandError(f"argument --seats: this game has {len(seats)} seats "
                               f"({', '.join(seats)}), {len(args.seats)} given", 2)
    if getattr(args, "event", None) and args.game in ("fasa", "skyace"):
        raise CommandError(f"argument --game: {args.game} is not played at an event yet "
                           "(the hub pairs Air Action and Aces tables)", 2)
    if args.mistakes and not args.bots:
        raise CommandError("argument --mistakes: only with --bots", 2)
    from dialtray.ui import camera

    camera.check(args)
    if args.layout is not None and not args.layout.is_file():
        raise CommandError(f"argument --layout: no such file: {args.layout}", 2)
    rp2040_needs_sim(args)
    quadrature_needs_sim(args)
    if args.sim:
        from dialtray.virtual.factory import require_sim  # not at start-up (POSIX-only)

        require_sim(args.rp2040)
        serial = None
    else:
        serial = resolve_port(args.serial, "--serial")

    from dialtray.ui import layout as lay

    try:
        layout = lay.find([args.layout] if args.layout else
                          [calibration_dir(Path(args.data_dir)) / lay.LAYOUT_FILE], args.docks)
    except lay.LayoutError as e:
        raise CommandError(str(e), 2) from e
    from dialtray.ui.serve import serve

    if args.own is not None:
        print(args.own.summary(), flush=True)
    ev = open_event(args.event, args.creds, db_path(args))
    try:
        return serve(args, db_path(args), serial, layout, ev,
                     camera=None if args.camera is None else
                     lambda tracker, session, hand: camera.attach(args, tracker, session, hand),
                     camera_only=camera.camera_only(args) if args.no_encoders else None)
    finally:
        stop_event(ev)


def game_seats(args: argparse.Namespace) -> tuple[str, ...]:
    """The seats of the game ``serve`` would start (a throwaway copy on seeded dice)."""
    from dialtray.rules.core.dice import SeededDice
    from dialtray.table.games import new_game
    from dialtray.tracker import TableDice

    return tuple(new_game(args.game, TableDice(SeededDice(0)), args.seed, args.turns,
                          own=getattr(args, "own", None)).game.seats())
