"""`dialtray play`'s table put together at a tray: the virtual tray (``--sim``) or a real one, the
session, the dice, a new game or a stored one carried on (``--resume``), an event's pairing —
then handed to the terminal front end (``front.TerminalTable``). ``commands/play.py`` only
parses the arguments.
"""

from __future__ import annotations

import argparse
import queue
import sys
from pathlib import Path
from typing import Any

from dialrig import config

from dialtray.builder.calibration_check import warn_if_different
from dialtray.errors import UserError
from dialtray.link.port import resolve_port
from dialtray.link.session import TraySession
from dialtray.rules.core.dice import SeededDice
from dialtray.table.event import (
    open_event,
    paired_setup,
    record_extra,
    stop_event,
    wait_assignment,
)
from dialtray.table.games import GAMES, setup_of
from dialtray.table.seeds import tray_seed
from dialtray.table.start import (
    Table,
    check_before_start,
    make_dice,
    new_table,
    wait_for_tray,
)
from dialtray.table.stored import (
    Resuming,
    StorePlace,
    pick_resume,
    resumed_table,
    sim_tray_for,
)
from dialtray.tracker import TableDice, Timing
from dialtray.ui import camera
from dialtray.ui.terminal.front import TerminalTable, TypedDice, start_input
from dialtray.virtual.factory import require_sim, start_virtual, tray_config


def run(args: argparse.Namespace) -> int:
    """`dialtray play` with its parsed arguments: refusals first (one line, exit 2), then the
    tray, the table and the terminal front end until the game ends or the person quits."""
    if args.sim and args.port:
        raise UserError("argument --port: not with --sim (the virtual tray has its own)", 2)
    if args.docks_file is not None and args.figures:
        raise UserError("argument --figures: not with --docks-file", 2)
    camera.check_camera_only(args)
    res: Resuming | None = None
    if args.resume is not None:
        if args.sim:
            require_sim(args.rp2040)
        if args.docks_file is not None or args.figures:
            raise UserError("argument --resume: the stored game has its docks already (no "
                               "--figures or --docks-file)", 2)
        res = pick_resume(StorePlace.of(args), args.resume, GAMES)
        if args.game is not None and args.game != res.kind:
            raise UserError(f"argument game: game {res.gid} is {res.kind}, not "
                               f"{args.game}", 2)
        args.game = res.kind
        # at an event: the pairing and clock come again from the hub
        ev = open_event(args.event, args.creds, StorePlace.of(args).db)
        try:
            return run_resumed(args, res, ev)
        finally:
            res.store.close()
            stop_event(ev)
    if args.game is None:
        raise UserError("argument game: say which rules (airaction, aces, fasa or skyace), or "
                           "--resume a stored game", 2)
    check_before_start(args.game, args.docks, args.docks_file, args.figures, args.own,
                       args.seats)
    camera.check(args)
    if args.no_encoders:
        return run_camera_only(args)
    ev = open_event(args.event, args.creds, StorePlace.of(args).db)
    body = wait_assignment(ev, args.wait) if ev is not None else None
    vtray: Any = None
    if args.sim:
        vtray = start_virtual(tray_config(args.docks, getattr(args, "quadrature", False)),
                              args.rp2040, seed=tray_seed(args.seed))
        port = vtray.port
    else:
        port = resolve_port(args.port)
    try:
        session = TraySession(port, name="play", ack_policy="manual")  # ack when stored
        with session:
            wait_for_tray(session, port, args.rp2040)
            if not args.sim:  # the virtual tray starts with the defaults every time
                say_calibration(session, args.data_dir)
            if args.sim:
                session.set_timing(config.DEFAULT_SETTLE_MS, config.DEFAULT_SAMPLE_MS)
            inbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()
            keys = start_input(args, inbox)
            typed = TypedDice(inbox)
            source, fair = make_dice(args.dice, session, args.seed, typed)
            table = new_table(args.game, source, args.seed, args.turns, args.docks,
                              args.docks_file, args.figures, timing=Timing(), make=None if
                              body is None else lambda d: paired_setup(args.game, body, d,
                                                                       args.seed, args.turns),
                              own=getattr(args, "own", None))  # the owner's files (issue 34)
            table.fair = fair
            if ev is not None:
                table.extra = record_extra(ev, body, table.setup.game.seats())
            return TerminalTable(args, table, session, vtray, inbox, event=ev,
                                 keys=keys, typed=typed).run()
    finally:
        if vtray is not None:
            vtray.close()
        stop_event(ev)


def run_camera_only(args: argparse.Namespace) -> int:
    """``--sim --camera virtual --no-encoders``: the table on a camera-only virtual tray (no
    electronics: no session, no LED dice; the camera's reads are the dial events)."""
    from dialtray.table.camera_only import CameraOnlyError, virtual_camera_tray

    dice = "seeded" if args.dice in ("fair", "tray") else args.dice
    inbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()
    typed = TypedDice(inbox)
    source, _ = make_dice(dice, None, args.seed, typed)
    table = new_table(args.game, source, args.seed, args.turns, args.docks, args.docks_file,
                      args.figures, timing=Timing())
    try:
        link = virtual_camera_tray(args.game, table.tracker, args.seed, args.camera_profile,
                                   camera.fps_of(args))
    except CameraOnlyError as e:
        raise UserError(f"argument --no-encoders: {e}", 2) from e
    if dice != args.dice:
        print(f"a camera-only tray has no LED dice: seeded dice (--seed {args.seed}; --dice "
              "typed to roll your own)", file=sys.stderr, flush=True)
    keys = start_input(args, inbox)
    with link:
        return TerminalTable(args, table, link, None, inbox,  # type: ignore[arg-type]
                             keys=keys, typed=typed).run()


def run_resumed(args: argparse.Namespace, res: Resuming, ev: Any = None) -> int:
    """``--resume``: the stored game rebuilt and subscribed to the tray *before* the session
    starts (resuming from the stored point: the tray replays what was never stored)."""
    vtray = sim_tray_for(res, args.docks, args.rp2040, getattr(args, "quadrature", False)) \
        if args.sim else None
    try:
        return resume_on(args, res, vtray.port if vtray is not None else
                         resolve_port(args.port), vtray, ev)
    finally:
        if vtray is not None:
            vtray.close()


def resume_on(args: argparse.Namespace, res: Resuming, port: str, vtray: Any,
              ev: Any = None) -> int:
    """The stored game carried on on the tray at ``port`` (``vtray``: the virtual one)."""
    session = TraySession(port, name="play", ack_policy="manual", **res.session_args)
    dice = TableDice(SeededDice(args.seed))  # its source is chosen once the tray answers
    tracker, tracked = resumed_table(res, dice, session)
    seats = tracker.game.seats()
    if len(args.seats) != len(seats):
        raise UserError(f"argument --seats: this game has {len(seats)} seats "
                           f"({', '.join(seats)}), {len(args.seats)} given", 2)
    turns = int(dict(tracker.header).get("Turn-limit", args.turns * 10)) // 10 \
        if res.kind == "aces" else args.turns
    table = Table(setup_of(res.kind, tracker.game, tracker.header, args.seed, turns), tracker,
                  dice)
    with session:
        wait_for_tray(session, port, args.rp2040)
        if vtray is None:
            say_calibration(session, args.data_dir)
        else:
            session.set_timing(config.DEFAULT_SETTLE_MS, config.DEFAULT_SAMPLE_MS)
        inbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        keys = start_input(args, inbox)
        typed = TypedDice(inbox)
        dice.inner, table.fair = make_dice(args.dice, session, args.seed, typed)
        return TerminalTable(args, table, session, vtray, inbox, tracked=tracked,
                             resumed=res.gid, event=ev, keys=keys, typed=typed).run()


def say_calibration(session: TraySession, data_dir: Path) -> None:
    """On connect: one line on stderr when the tray's calibration is not this computer's."""
    warning = warn_if_different(session, data_dir)
    if warning:
        print(warning, file=sys.stderr, flush=True)


