"""`dialtray demo`: a whole game on the virtual tray, bots in every seat, no hardware needed.

The bots play Crimson Skies: Air Action (or Aces, ``--game aces``) through the same virtual dials
a person would turn: every click travels through the real firmware under MicroPython, the USB
link and the click tracker, which confirms it against the rules. On purpose, the bots make the
mistakes people make — one click short, one too many, the wrong way, the wrong dock, a peek, a
knocked dial, a throttle past the red line — and the tracker catches each and says how to put it
right; the bots then do. Dice are the tray's LED dice, committed to at the start and checked at
the end (verifiably fair). It ends with the victory table and a log `dialtray replay` re-runs.
"""

from __future__ import annotations

import argparse

from dialrig import config

from dialtray.commands import _camera_demo
from dialtray.commands._args import add_game_arguments, int_range
from dialtray.commands._common import (
    MAX_DOCKS,
    add_quadrature_flag,
    add_rp2040_flag,
    quadrature_needs_sim,
)
from dialtray.commands._store import add_db
from dialtray.table.games import GAMES
from dialtray.table.start import check_before_start

MIN_DOCKS = 2


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "demo", help="a whole bot game on the virtual tray (no hardware needed)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  dialtray demo\n  dialtray demo --game aces --fast\n"
               "  dialtray demo --log game.log && dialtray replay game.log")
    p.add_argument("--game", choices=GAMES, default="airaction",
                   help="which rules (default %(default)s)")
    p.add_argument("--fast", action="store_true", help="no pauses for reading")
    p.add_argument("--docks", type=int_range(MIN_DOCKS, MAX_DOCKS), default=config.DEFAULT_DOCKS,
                   help=f"docks on the tray, {MIN_DOCKS}..{MAX_DOCKS} (Air Action's squadrons "
                        "need 8; default %(default)s)")
    p.add_argument("--clicks", action="store_true", help="print every sensed click too")
    add_game_arguments(p, turns_default=6)  # long enough for every mistake to come up
    add_db(p)  # the game is stored (issue 12)
    add_rp2040_flag(p)
    add_quadrature_flag(p, f"a virtual tray built with incremental encoders on its first "
                           f"{config.MAX_QUADRATURE_DIALS} dials and AS5600s on the rest: "
                           "every encoder loses track at boot, the bots confirm theirs by eye")
    _camera_demo.add_arguments(p)  # --camera virtual, --no-encoders (issue 33)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dialtray.virtual.factory import require_sim  # not at start-up (POSIX-only)

    _camera_demo.check(args)  # (the arguments first: a wrong one is said wherever it runs)
    quadrature_needs_sim(args)
    require_sim(args.rp2040)
    check_before_start(args.game, args.docks)
    if args.camera is not None:
        from dialtray.ui.terminal.camera_demo import run as camera_demo

        return camera_demo(args)
    from dialtray.ui.terminal.demo import run as demo

    return demo(args)
