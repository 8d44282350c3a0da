"""`dialtray games`: the stored games — number, date, game kind, seats, result, status."""

from __future__ import annotations

import argparse

from dialtray.commands._common import CommandError
from dialtray.commands._store import add_db, game_number, opened
from dialtray.store import claim


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "games", help="list the stored games",
        description="Lists every game in the game database: its number (what export, verify, "
                    "report and judge take), when it started, the game kind, the seats, the "
                    "result and the status (running, over, ended by the judge, imported).",
        epilog="examples:\n  dialtray games\n  dialtray games --db tournament.sqlite3\n"
               "  dialtray games --close 12 --reason 'the laptop died; replayed from paper'",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--close", type=game_number, metavar="GAME",
                   help="close a running game that will not be carried on (a crash, an "
                        "abandoned table); needs --reason")
    p.add_argument("--reason", help="with --close: why, kept as the game's result")
    add_db(p)
    p.set_defaults(func=run)


def close(args: argparse.Namespace) -> int:
    """``--close GAME --reason TEXT``: a running game marked closed, its records untouched (it
    still verifies, reports and exports)."""
    if not (args.reason or "").strip():
        raise CommandError("argument --reason: say why the game is closed, e.g. --reason "
                           "'the table was abandoned'", 2)
    with opened(args, readonly=False) as store:
        g = store.game(args.close)
        if g.status != "running":
            raise CommandError(f"argument --close: game {g.id} is {g.status}, not running", 2)
        if claim.in_use(store.path, g.id):  # a table is playing it: it is not abandoned
            raise CommandError(f"argument --close: {claim.busy(store.path, g.id)}", 2)
        store.update_game(g.id, status="closed", result=f"closed: {args.reason.strip()}")
        store.commit()
        print(f"game {g.id} ({g.kind}) closed: {args.reason.strip()}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.close is not None:
        return close(args)
    if args.reason is not None:
        raise CommandError("argument --reason: only with --close GAME", 2)
    with opened(args, readonly=True) as store:
        games = store.games()
        if not games:
            print(f"{store.path}: no stored games yet (dialtray play, demo or import store "
                  "them)")
            return 0
        rows = [("GAME", "DATE", "KIND", "SEATS", "STATUS", "RESULT")]
        for g in games:
            seats = " ".join(f"{s} {name}".strip() for s, name in store.seats(g.id)) or "-"
            rows.append((str(g.id), g.created.replace("T", " ").rstrip("Z"), g.kind, seats,
                         g.status, g.result or "-"))
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r[:5], widths, strict=True)) + "  "
                  + r[5])
    return 0
