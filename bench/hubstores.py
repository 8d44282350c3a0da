"""A table's store for the hub benches: one game of ``records`` records, every one waiting in the
hub's outbox, committed ``every`` records at a time (as a table at play would have left it)."""

from __future__ import annotations

from pathlib import Path

from dialtray.hub.table import Outbox
from dialtray.store.db import GameStore


def one_store(path: Path, records: int, every: int = 5000) -> None:
    """Write the store at ``path``: a game header and ``records - 1`` device records."""
    with GameStore.open(path) as store:
        Outbox.install(store)
        gid = store.new_game("airaction", seats=[("A", "x"), ("B", "y")], origin="bench")
        for k in range(records - 1):
            store.append(gid, "device", {"i": k, "click": k % 12, "dock": k % 8})
            if k % every == every - 1:
                store.commit()
        store.commit()
