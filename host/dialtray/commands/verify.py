"""`dialtray verify [GAME]`: check stored games — the hash chain, then a replay through the rules
engine to the recorded state — naming the first record that does not fit."""

from __future__ import annotations

import argparse

from dialtray.commands._store import GAME_HELP, add_db, game_number, opened
from dialtray.store.verify import verify_game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify", help="check stored games are exactly what was played (tamper evidence)",
        description=(
            "Checks every record of a stored game: the SHA-256 chain (each record hashes its "
            "content and the record before it, so a changed byte, a missing, moved or reordered "
            "record is found), then replays the game through its rules engine and checks each "
            "action, its dice, its events and dial changes, and the final state. Names the "
            "first record that does not fit. Exit status: 0 all verified, 1 a game failed, "
            "2 no such database or game."),
        epilog="examples:\n  dialtray verify          # every stored game\n"
               "  dialtray verify 3\n  dialtray verify --db tournament.sqlite3 12",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", type=game_number, help=GAME_HELP + "; default: every game")
    add_db(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    failed = 0
    with opened(args, readonly=True) as store:
        ids = [args.game] if args.game else [g.id for g in store.games()]
        if not ids:
            print(f"{store.path}: no stored games")
        for gid in ids:
            v = verify_game(store, gid)
            print(v.text(), flush=True)
            failed += not v.ok
    if len(ids) > 1:
        print(f"{len(ids) - failed} of {len(ids)} games verified")
    return 1 if failed else 0
