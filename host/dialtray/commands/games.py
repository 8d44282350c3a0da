"""`dialtray games`: the stored games — number, date, game kind, seats, result, status."""

from __future__ import annotations

import argparse

from dialtray.commands._store import add_db, opened


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "games", help="list the stored games",
        description="Lists every game in the game database: its number (what export, verify, "
                    "report and judge take), when it started, the game kind, the seats, the "
                    "result and the status (running, over, ended by the judge, imported).",
        epilog="examples:\n  dialtray games\n  dialtray games --db tournament.sqlite3",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_db(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with opened(args, readonly=True) as store:
        games = store.games()
        if not games:
            print(f"{store.path}: no stored games yet (dialtray play, demo or import store "
                  "them)")
            return 0
        rows = [("GAME", "DATE", "KIND", "SEATS", "STATUS", "RESULT")]
        for g in games:
            seats = " ".join(s for s, _ in store.seats(g.id)) or "-"
            rows.append((str(g.id), g.created.replace("T", " ").rstrip("Z"), g.kind, seats,
                         g.status, g.result or "-"))
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r[:5], widths, strict=True)) + "  "
                  + r[5])
    return 0
