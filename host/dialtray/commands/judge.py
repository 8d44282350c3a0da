"""`dialtray judge …`: the tournament judge's tools on stored games (issue 12).

token — make a judge token for an event (printed once; only its hash is stored).
set-dial / undo / vp / dispute / end — rulings, stored as events of the game; refused (and the
attempt recorded) without a valid token.
verify — read the tray's dials now and compare them with the store, with every dial's history
(``store.dialread`` compares; an encoder dial only as confirmed by eye in the tray's boot).
"""

from __future__ import annotations

import argparse
import os

from dialtray.commands._args import int_range
from dialtray.commands._common import CommandError
from dialtray.commands._store import GAME_HELP, add_db, game_number, opened
from dialtray.link.port import resolve_port
from dialtray.store.db import GameStore
from dialtray.store.dialread import read_dials, summary
from dialtray.store.judge import (
    RulingRefused,
    dial_histories,
    history_lines,
    new_token,
    rule,
)

TOKEN_ENV = "DIALTRAY_JUDGE_TOKEN"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "judge", help="the judge's tools: tokens, rulings, dials checked against the store",
        description="A judge's rulings are events of the stored game, never silent, and need "
                    f"the judge's token (--token, or ${TOKEN_ENV}); without it the ruling is "
                    "refused and the attempt recorded. `judge verify` reads the tray's dials "
                    "and says, per dial, what happened to it and what to put right.",
        epilog="examples:\n  dialtray judge token --event 'Spring Open'\n"
               "  dialtray judge vp 3 P2 -5 --why 'late' --token TOKEN\n"
               "  dialtray judge undo 3 --token TOKEN\n"
               "  dialtray judge set-dial 3 B1 combat 4 --token TOKEN\n"
               "  dialtray judge dispute 3 'line of fire to B2' allowed --token TOKEN\n"
               "  dialtray judge end 3 'time called' --token TOKEN\n"
               "  dialtray judge verify 3 --dock 2",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    js = p.add_subparsers(dest="judge_command", metavar="ACTION", required=True)

    t = js.add_parser("token", help="make a judge token for an event (shown once)")
    t.add_argument("--event", default="dialtray", help="what the token is for (a tournament)")
    add_db(t)
    t.set_defaults(func=run_token)

    def ruling(name: str, help_text: str) -> argparse.ArgumentParser:
        r = js.add_parser(name, help=help_text)
        r.add_argument("game", type=game_number, help=GAME_HELP)
        return r

    def common(r: argparse.ArgumentParser, name: str) -> None:
        r.add_argument("--token", help=f"the judge's token (default: ${TOKEN_ENV})")
        r.add_argument("--why", default="", help="the reason, for the record")
        add_db(r)
        r.set_defaults(func=run_ruling, ruling=name)

    r = ruling("set-dial", "rule what a dial must show from now on")
    r.add_argument("figure", help="the figure (as in `dialtray judge verify`)")
    r.add_argument("dial", help="the dial kind: combat, speed or ace")
    r.add_argument("click", type=int_range(0, 99), help="the click index it must show")
    common(r, "set-dial")
    common(ruling("undo", "take back the game's last action"), "undo")
    r = ruling("vp", "award (+N) or remove (-N) victory points")
    r.add_argument("seat", help="the seat (P1, P2, ...)")
    r.add_argument("points", type=int_range(-999, 999), help="VP to add (negative: remove)")
    common(r, "vp")
    r = ruling("dispute", "decide a dispute")
    r.add_argument("about", help="what the dispute is about")
    r.add_argument("decision", choices=("allowed", "refused"))
    common(r, "dispute")
    r = ruling("end", "end the game")
    r.add_argument("reason", help="why the game ends (time called, a concession, ...)")
    common(r, "end")

    v = js.add_parser("verify", help="read the tray's dials and compare them with the store")
    v.add_argument("game", nargs="?", type=game_number,
                   help=GAME_HELP + "; default: the latest running game")
    which = v.add_mutually_exclusive_group()
    which.add_argument("--dock", type=int_range(0, 15), help="only this dock")
    which.add_argument("--all", action="store_true", help="every dock (the default)")
    v.add_argument("--port", help="the tray's serial port (default: the one tray on USB)")
    add_db(v)
    v.set_defaults(func=run_verify)


def run_token(args: argparse.Namespace) -> int:
    with opened(args, readonly=False) as store:
        token = new_token(store, args.event)
    print(f"judge token for {args.event!r} (shown once; only its hash is stored):\n{token}")
    return 0


def run_ruling(args: argparse.Namespace) -> int:
    token = args.token or os.environ.get(TOKEN_ENV)
    with opened(args, readonly=False) as store:
        store.game(args.game)
        params = _params(store, args)
        try:
            done = rule(store, args.game, token, args.ruling, params, args.why)
        except RulingRefused as e:
            raise CommandError(str(e), 2) from e
    print(f"game {args.game}: ruling recorded: {done}")
    return 0


def _params(store: GameStore, args: argparse.Namespace) -> dict[str, object]:
    name = args.ruling
    if name == "set-dial":
        dials = {(f, k) for f, k, _, _ in store.figures(args.game)}
        if (args.figure, args.dial) not in dials:
            known = ", ".join(f"{f} {k}" for f, k in sorted(dials)) or "none bound"
            raise CommandError(f"argument figure/dial: game {args.game} has no {args.figure} "
                               f"{args.dial} dial (its dials: {known})", 2)
        return {"figure": args.figure, "dial": args.dial, "click": args.click}
    if name == "vp":
        seats = [s for s, _ in store.seats(args.game)]
        if args.seat not in seats:
            raise CommandError(f"argument seat: game {args.game} has no seat {args.seat!r} "
                               f"(seats: {' '.join(seats)})", 2)
        return {"seat": args.seat, "points": args.points}
    if name == "dispute":
        return {"about": args.about, "decision": args.decision}
    if name == "end":
        return {"reason": args.reason}
    return {}


def run_verify(args: argparse.Namespace) -> int:
    from dialtray.link.session import TraySession

    with opened(args, readonly=True) as store:
        gid = args.game
        if gid is None:
            g = store.latest("running") or store.latest()
            if g is None:
                raise CommandError(f"{store.path}: no stored games", 2)
            gid = g.id
        hists, game = dial_histories(store, gid)
        kind = store.game(gid).kind
    if args.dock is not None:
        hists = [h for h in hists if h.dock == args.dock]
        if not hists:
            raise CommandError(f"argument --dock: game {gid} has no dial on dock {args.dock}", 2)
    port = resolve_port(args.port)
    with TraySession(port, name="judge") as session:
        try:
            session.wait_synced(15)
            snap = session.snapshot(5)
        except TimeoutError as e:
            raise CommandError(f"the tray on {port} did not answer: {e}") from e
    print(f"game {gid} ({kind}): the dials on {port} against the store"
          + ("" if game is not None else " (the game does not verify: rules positions unknown; "
             "run `dialtray verify`)"))
    reads = read_dials(hists, snap)
    for r in reads:
        print(r.line())
        for line in history_lines(r.history):
            print(line)
    print(summary(reads))
    return 0 if all(r.ok for r in reads) else 1
