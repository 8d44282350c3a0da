"""`dialtray play airaction|aces|fasa|skyace`: a game on the tray (or the virtual tray,
``--sim``), with the click tracker confirming every dial and a live terminal view. This module
parses the arguments; the front end is ``dialtray.ui.terminal``.

People type their decisions in the notation's words (``plan A1 "Tight Turn" left``,
``shoot A1 front B2``); the view shows the legal ones. Dials are turned on the tray; where the
rules let a player decide by turning a dial (Air Action's throttle and first-turn speed), turning
it *is* the decision. Bots take the seats named ``bot`` and turn their own dials (on the virtual
tray; on a real tray the view asks a person to turn them). The game log is written at the end
(or on ``quit``), and ``dialtray replay`` re-runs it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from dialrig import config

from dialtray.commands import _camera_args as camera
from dialtray.commands import _common
from dialtray.commands import _fasaargs as fasa_args
from dialtray.commands import _ownargs as own_args
from dialtray.commands._args import (
    add_event_arguments,
    add_game_arguments,
    figures_arg,
    float_range,
    int_range,
    seats_arg,
)
from dialtray.commands._common import MAX_DOCKS, add_quadrature_flag, add_rp2040_flag
from dialtray.commands._store import add_db, game_number
from dialtray.table.games import GAMES

# dialtray.rules.fasa.notation.KIND, not imported here: that loads every FASA rule, which
# `play` of another game never uses (~0.1 s of each start; tests/test_cli_portable.py checks).
FASA = "fasa"

EXAMPLES = """examples:
  dialtray play airaction --sim                      # you (P1) against a bot, virtual tray
  dialtray play aces --sim --seats bot,bot           # watch two bots
  dialtray play skyace --sim                         # Sky Ace: cards, LIFE on the LED dice
  dialtray play fasa --sim --plots open --pace 0     # FASA through the table, bots at once
  dialtray play aces --sim --seats human,human       # hot-seat
  dialtray play airaction --port /dev/ttyACM0 --seats human,human --docks-file docks.txt
  dialtray play airaction --sim --figures B1,B2,B3,A1,A2,A3 --dice seeded
  dialtray play airaction --sim --quadrature       # a tray built with encoders: confirm
                                 # each by eye at the start (eye 0 combat, eye 0 speed 3)
  dialtray play airaction --sim --camera virtual   # the virtual camera confirms each click
  dialtray play aces --port /dev/ttyACM0 --camera 0  # a webcam over the tray confirms them
  dialtray play --resume --port /dev/ttyACM0         # the host died: carry the game on
  dialtray play --resume 12 --seats human,bot        # stored game 12 (see dialtray games)
  dialtray play --resume --sim --seats human,bot     # a --sim game cut short: a new virtual
                                 # tray powered on with the stored dials, the bot plays on
  dialtray games --close 12 --reason 'abandoned'     # a game nobody will carry on
  dialtray play airaction --event mqtt://hub.local/spring --creds t01.json --seats human,human
                                 # a table of an event: its assignment, the round's clock, the hub

at the prompt:
  deploy P1 / speed A1 5 / throttle A1 -1 / plan A1 "Tight Turn" left / shoot A1 front B2
  dispute B1 rear arc      settle an argument with one die (AA-M84: 1-3 no, 4-6 yes)
  legal / more             the decisions you may type now, a page at a time
  wait                     the table does not take the bookkeeping step it offers (moved A1)
  turn 0 speed -4          (--sim) turn dock 0's speed dial 4 clicks counter-clockwise
  eye 0 speed 3            dock 0's speed dial, whose encoder lost track, shows click 3
  press 3500               (--sim) hold the roll button 3.5 s: at an event, calls the judge
  judge NOTE               (--event) call the judge to this table, with a note
  quit                     stop; the log so far is written
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("play", help="play a game on the tray with the click tracker",
                       description=__doc__, epilog=EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", choices=GAMES,
                   help="which rules (not with --resume: the stored game says)")
    p.add_argument("--resume", nargs="?", const=0, type=game_number, metavar="GAME",
                   help="carry on a stored game after a crash or a closed laptop (default: "
                        "the latest running one): rebuilt from the store, the tray asked for "
                        "its dials, every dial moved meanwhile flagged")
    p.add_argument("--sim", action="store_true", help="on the virtual tray (no hardware)")
    add_rp2040_flag(p)  # with --sim: the firmware on an emulated Pico (issue 29)
    add_quadrature_flag(p)  # with --sim: encoders on the first 7 dials, confirmed by eye
    p.add_argument("--port", help="the tray's serial port (default: the one tray on USB)")
    p.add_argument("--seats", type=seats_arg, default=["human", "bot"],
                   help="human or bot for each seat, in seating order (default human,bot)")
    p.add_argument("--figures", type=figures_arg,
                   help="figure ids in dock order (default: seating order)")
    p.add_argument("--docks-file", type=Path, metavar="FILE",
                   help="a dock-to-figure file ('dock 0: A1' per line) instead of --figures")
    p.add_argument("--docks", type=int_range(2, MAX_DOCKS), default=config.DEFAULT_DOCKS,
                   help=f"docks on the tray, 2..{MAX_DOCKS} (default %(default)s)")
    p.add_argument("--pace", type=float_range(0.0, 30.0), metavar="S",
                   help="seconds a bot waits before each decision, so a person can follow "
                        "(0: at once; default 1 with a person at the table, 0.25 for bots "
                        "only)")
    p.add_argument("--plain", action="store_true",
                   help="print the view after each change instead of a live screen")
    add_game_arguments(p)
    add_db(p)  # the game is stored (issue 12)
    add_event_arguments(p)  # a table of a tournament (issue 17)
    fasa_args.add_arguments(p)  # `play fasa`: the FASA 1998 flow (issue 15)
    camera.add_arguments(p)  # a camera confirms every settled click (issue 33)
    own_args.add_arguments(p)  # the owner's own tables, sheets and heroes (issue 34)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dialtray.ui.terminate import sigterm_as_interrupt

    sigterm_as_interrupt()  # SIGTERM stops the game as Ctrl-C does: stored, said how
    _common.rp2040_needs_sim(args)
    _common.quadrature_needs_sim(args)
    args.own = own_args.own_files(args)  # checked before any tray starts (exit 2)
    if args.own is not None:
        print(args.own.summary(), flush=True)
    if args.game == FASA and (args.plots == "sealed" or args.resume is not None
                              or not (args.sim or args.port)):
        # plots typed hidden, sealed, revealed together (FS-M33), or no tray: its own flow;
        # open plots at a tray go through the table like every other game
        fasa_args.check_arguments(args)
        from dialtray.ui.terminal.fasa_play import run as play_fasa

        return play_fasa(args)
    from dialtray.ui.terminal.play import run as play

    return play(args)
