"""`dialtray verify [GAME]`: check stored games — the keyed hash chain, the game row's seal, then
a replay through the rules engine to the recorded state — naming the first record that does not
fit; one line per game, whatever the others' state (a damaged file is read record by record)."""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from dialtray.commands._common import CommandError
from dialtray.commands._store import GAME_HELP, add_db, game_number, opened
from dialtray.store.db import GameStore, StoreError
from dialtray.store.verify import Verdict, verify_game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify", help="check stored games are exactly what was played (tamper evidence)",
        description=(
            "Checks every record of a stored game: the SHA-256 chain (each record hashes its "
            "content and the record before it, so a changed byte, a missing, moved or reordered "
            "record is found), each record's MAC and the game row's seal made with this host's "
            "key (kept in the data directory, not in the database: someone holding the "
            "database cannot re-hash an edit), the game's status and result against its "
            "records, then replays the game through its rules engine and checks each action, "
            "its dice, its events and dial changes, and the final state. One line per game, "
            "naming the first record that does not fit. See docs/store-security.md for what "
            "each check finds and what it cannot.\n\n"
            "Exit status: 0 every game verified with its key; 1 a game failed (or cannot be "
            "read); 2 no such database or game; 3 nothing failed but a game could not be "
            "vouched for: unkeyed (an older dialtray's), keyed by another host's key, or "
            "incomplete (its creation was interrupted)."),
        epilog="examples:\n  dialtray verify          # every stored game\n"
               "  dialtray verify 3\n  dialtray verify --db tournament.sqlite3 12\n"
               "  dialtray verify --hub postgresql://judge@hub/event --table t4",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", type=game_number, help=GAME_HELP + "; default: every game")
    add_db(p)
    p.add_argument("--key-dir", type=Path, metavar="DIR",
                   help="the directory holding the key the games were keyed with (default: "
                        "keys/ in the data directory)")
    p.add_argument("--hub", metavar="DSN",
                   help="also compare each game's records with the copy the event's hub "
                        "received as they were written (PostgreSQL DSN of the hub's database)")
    p.add_argument("--table", metavar="ID",
                   help="with --hub: this table's id at the event")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.hub and not args.table:
        raise CommandError("argument --table: --hub needs the table's id at the event", 2)
    verdicts: list[Verdict | None] = []
    with opened(args, readonly=True) as store:
        ids = [args.game] if args.game else game_ids(store)
        if not ids:
            print(f"{store.path}: no stored games")
        hub = None
        if args.hub:
            from dialtray.store.hubcheck import HubCopy

            try:
                hub = HubCopy.connect(args.hub, args.table)
            except StoreError as e:
                raise CommandError(str(e), 2) from e
        for gid in ids:
            try:
                v = verify_game(store, gid)
            except StoreError as e:
                if args.game:
                    raise
                print(f"game {gid}: FAILED: {e}", flush=True)
                verdicts.append(None)
                continue
            except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
                print(f"game {gid}: FAILED: its row cannot be read from the file ({e})",
                      flush=True)
                verdicts.append(None)
                continue
            if hub is not None and v.ok:
                hub.compare(store, v)
            print(v.text(), flush=True)
            verdicts.append(v)
    failed = sum(v is None or (not v.ok and not v.incomplete) for v in verdicts)
    unvouched = sum(v is not None and (v.ok or v.incomplete) and not v.vouched
                    for v in verdicts)
    if len(ids) > 1:
        print(f"{len(ids) - failed - unvouched} of {len(ids)} games verified"
              + (f", {failed} failed" if failed else "")
              + (f", {unvouched} not vouched for (unkeyed, another host's key or incomplete)"
                 if unvouched else ""))
    return 1 if failed else 3 if unvouched else 0


def game_ids(store: GameStore) -> list[int]:
    """Every game's number, read as far as the file allows: from the games table, else (a
    damaged table) from the records."""
    for q in ("SELECT id FROM games ORDER BY id",
              "SELECT DISTINCT game_id FROM records ORDER BY game_id"):
        try:
            return [int(r[0]) for r in store.conn.execute(q) if isinstance(r[0], int)]
        except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
            print(f"{store.path}: part of the file cannot be read ({e}); reading on")
    return []
