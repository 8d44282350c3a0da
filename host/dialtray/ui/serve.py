"""`dialtray serve` as a front end: the table's page served over one table (``ui.server``), tied
to an event when ``--event`` gave one (``table.event``: the assignment's game, the hub following
the records and live state, the judge's button, the round's clock), until Ctrl-C.
``commands.serve`` has parsed and checked the arguments."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dialtray.errors import UserError
from dialtray.table.event import paired_setup, record_extra, wait_assignment
from dialtray.table.stored import carry_on
from dialtray.ui.terminate import EXIT_TERM, Terminated, how

MISTAKE_KINDS = ("too-few", "too-many", "wrong-direction", "wrong-dial", "peek", "unexpected",
                 "refused")


def serve(args: argparse.Namespace, db: Path, serial: str | None, layout: Any, ev: Any, *,
          make: Callable[[str, Any, int, int], Any] | None = None,
          camera: Callable[[Any, Any, Any], Any] | None = None,
          camera_only: Callable[[Any], Any] | None = None) -> int:
    """The page served until Ctrl-C; ``ev``: the started event table (``table.event``) or None;
    ``make``: the game another way than ``new_game`` (a camera-only tray's); ``camera``:
    attaches the camera reader to the table (``--camera``); ``camera_only``: (tracker) -> the
    camera-only virtual tray (``--no-encoders``)."""
    from dialtray.table.games import new_game
    from dialtray.tracker import Timing
    from dialtray.ui.server import Options, Served

    body = wait_assignment(ev, args.wait) if ev is not None else None
    own = getattr(args, "own", None)  # the owner's FASA tables and sheets or Sky Ace heroes,
    maker = make if make is not None else (  # checked by ``commands.serve`` (issue 34)
        lambda kind, dice, seed, turns: new_game(kind, dice, seed, turns, own=own))
    opts = Options(
        make_game=lambda dice: maker(args.game, dice, args.seed, args.turns) if body is None
        else paired_setup(args.game, body, dice, args.seed, args.turns),
        db=db, layout=layout, docks=args.docks, sim=args.sim, serial_port=serial,
        rp2040=args.rp2040, quadrature=getattr(args, "quadrature", False),
        bots=args.bots, mistakes=MISTAKE_KINDS if args.mistakes else (), host=args.host,
        port=args.port, seed=args.seed,
        # bots' quick judging; not on a camera-only tray: a bot's turn in chunks must not be
        # judged between two chunks, each seen by the camera only once it is still
        timing=Timing(judge_s=0.25, grace_s=0.5) if args.bots and camera_only is None
        else None,
        players=tuple(args.seats) if args.seats else None, pace=args.pace,
        ask=args.sim and not args.bots and not args.seats and ev is None,
        camera=camera, camera_only=camera_only)
    print("dialtray serve: starting" + (" the camera-only virtual tray (no encoders)"
                                        if camera_only is not None else " the virtual tray"
                                        + (" (built with encoders: each confirmed by eye on "
                                           "the page)" if opts.quadrature else "")
                                        if args.sim else f" at {serial}") + " …", flush=True)
    try:
        served = Served(opts)
    except OSError as e:
        raise UserError(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}") from e
    except TimeoutError as e:
        raise UserError(f"the tray did not answer: {e}") from e
    except ValueError as e:  # --seats that do not fit the game
        raise UserError(f"argument --{e}", 2) from e
    code = 0
    with served:
        try:  # from here a Ctrl-C or SIGTERM (ui.terminate) is told what became of the game
            serving(served, args, opts.db, ev, body)
        except KeyboardInterrupt as e:
            print(f"\nstopping ({how(e)}) …", flush=True)
            code = EXIT_TERM if isinstance(e, Terminated) else 0
    print(unfinished(served.live.game_id, served.live.game_table, args.sim), flush=True)
    return code


def serving(served: Any, args: argparse.Namespace, db: Path, ev: Any, body: Any) -> None:
    """The game served until the page's server stops: said where it is stored and where to
    open it, followed by the hub at an event (``ev``)."""
    from dialtray.ui.server import is_local  # (the `ui` extra, imported when served)

    print(f"game {served.live.game_id} stored in {db}", flush=True)
    if ev is not None:  # the hub follows this game: records, live state, the round's clock
        ev.track(served.live.game_id)
        ev.announce(record_extra(ev, body, served.tracker.game.seats()))
        ev.watch(served.session)
        served.server.event = ev  # the page's "Call the judge" button (ui.calls)
        served.live.hold_bots = ev.holds_play  # time's up: the bots wait for the table's end

    def step() -> None:
        ev.step(served.live.game_table or served.live.recording,  # seated yet?
                lambda m: print(m, flush=True))

    if not is_local(args.host):
        print(f"listening on {args.host}: anyone on the network who has the key can open "
              f"the page. Access key: {served.key}", flush=True)
    print(f"open {served.url}  (Ctrl-C stops)", flush=True)
    while served.thread.is_alive():
        time.sleep(0.1 if ev is not None else 0.5)
        if ev is not None:  # on the table's thread, between two pumps
            served.live.call(step)


def unfinished(gid: int, table: Any, sim: bool) -> str:
    """What becomes of the served game when serve stops: over, or stored to be carried on."""
    if table is not None and table.over:
        return f"game {gid} is over (dialtray report {gid})"
    resume, close = carry_on(gid, sim)
    return (f"game {gid} is not over: it stays stored ({resume} carries it on at a terminal, "
            f"{close} closes it)")
