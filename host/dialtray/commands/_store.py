"""What the commands that read or write stored games share: ``--db PATH`` (default: the game
database in the data directory), a GAME argument, and one-line errors for store failures."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from dialtray.commands._args import int_range
from dialtray.commands._common import CommandError
from dialtray.store.db import DB_NAME, GameStore, StoreError, default_db
from dialtray.store.recorder import GameRecorder
from dialtray.store.table import StoredTable

if TYPE_CHECKING:
    from dialtray.link.session import TraySession
    from dialtray.tracker import Tracker

GAME_HELP = "the game's number (see `dialtray games`)"


def add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", type=Path, metavar="PATH",
                   help=f"the game database (default: {DB_NAME} in the data directory, see "
                        "`dialtray --data-dir`)")


def game_number(text: str) -> int:
    return int_range(1)(text)


def db_path(args: argparse.Namespace) -> Path:
    db: Path | None = getattr(args, "db", None)
    if db is not None:
        return db.expanduser()
    return default_db(Path(args.data_dir))


@contextlib.contextmanager
def opened(args: argparse.Namespace, *, readonly: bool) -> Iterator[GameStore]:
    """The store named by ``--db``; every StoreError becomes one line, exit status 2."""
    try:
        store = GameStore.open(db_path(args), readonly=readonly)
    except StoreError as e:
        raise CommandError(str(e), 2) from e
    try:
        yield store
    except StoreError as e:
        raise CommandError(str(e), 2) from e
    finally:
        store.close()


class CommandTable(StoredTable):
    """For ``play`` and ``demo``: their game stored as it is played (a ``StoredTable``: every
    pump stores, then acknowledges), a store failure turned into the command's one-line error
    (exit 2) naming the database — the events it could not store stay unacknowledged on the
    tray. The session must run with ``ack_policy="manual"``."""

    @classmethod
    def open(cls, args: argparse.Namespace, tracker: Tracker, session: TraySession,
             origin: str, on_ruling: Callable[[str], None] | None = None) -> CommandTable:
        try:
            store = GameStore.open(db_path(args))
            rec = GameRecorder.start(store, tracker, origin=origin)
        except StoreError as e:
            raise CommandError(str(e), 2) from e
        return cls(rec, session, on_ruling=on_ruling)

    def pump(self, timeout: float = 0.0) -> int:
        try:
            return super().pump(timeout)
        except StoreError as e:
            raise CommandError(str(e), 2) from e

    def sync(self, timeout: float = 5.0) -> None:
        try:
            super().sync(timeout)
        except StoreError as e:
            raise CommandError(str(e), 2) from e

    def close(self) -> None:
        try:
            super().close()
        except StoreError as e:
            raise CommandError(str(e), 2) from e

    def stored_as(self) -> str:
        rec = self.recording.recorder
        return (f"stored as game {rec.gid} in {rec.store.path} (dialtray report {rec.gid}, "
                f"dialtray verify {rec.gid})")
