"""What the commands that read or write stored games share: ``--db PATH`` (default: the game
database in the data directory), a GAME argument, and one-line errors for store failures. A game
stored as it is played, and resumed, is the table's (``dialtray.table.stored``)."""

from __future__ import annotations

import argparse
import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from dialtray.commands._args import int_range
from dialtray.commands._common import CommandError
from dialtray.store.db import DB_NAME, GameStore, StoreError
from dialtray.table.stored import StorePlace

GAME_HELP = "the game's number (see `dialtray games`)"


def add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", type=Path, metavar="PATH",
                   help=f"the game database (default: {DB_NAME} in the data directory, see "
                        "`dialtray --data-dir`)")


def game_number(text: str) -> int:
    return int_range(1)(text)


def db_path(args: argparse.Namespace) -> Path:
    """The game database ``--db`` names (``table.stored.StorePlace.of``)."""
    return StorePlace.of(args).db


def store_place(args: argparse.Namespace) -> StorePlace:
    """Where ``--db`` (and ``--key-dir``, the data directory) put the table's game."""
    return StorePlace.of(args)


def key_dir(args: argparse.Namespace) -> Path | None:
    """Where the chain key and the judge tokens are kept (``table.stored.StorePlace.of``)."""
    return StorePlace.of(args).key_dir


@contextlib.contextmanager
def opened(args: argparse.Namespace, *, readonly: bool) -> Iterator[GameStore]:
    """The store named by ``--db``; every StoreError becomes one line, exit status 2."""
    try:
        store = GameStore.open(db_path(args), readonly=readonly, key_dir=key_dir(args))
    except StoreError as e:
        raise CommandError(str(e), 2) from e
    try:
        yield store
    except StoreError as e:
        raise CommandError(str(e), 2) from e
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:  # a damaged file (issue 31)
        raise CommandError(f"{store.path}: part of the game database cannot be read ({e}); "
                           "`dialtray verify` names what can be", 2) from e
    finally:
        store.close()
