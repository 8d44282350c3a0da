"""A small storing host for the kill test: rebuilds its game from the store (``store.resume``:
the replayed rules state, the binding, the dials as last stored), tracks it with the click
tracker, stores every tray event and what the tracker makes of it, and acknowledges after each
commit; started again after a kill -9 it resumes from the stored (boot id, last seq).
Usage: python storing_consumer.py DB GAME PORT"""

from __future__ import annotations

import sys
import time

from dialtray.link.session import TraySession
from dialtray.rules.core.dice import SeededDice
from dialtray.store import GameStore
from dialtray.store.consumer import StoringConsumer
from dialtray.store.resume import attach, resume
from dialtray.tracker import TableDice, Tracker


def main() -> None:
    db, gid, port = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    store = GameStore.open(db)
    dice = TableDice(SeededDice(1))
    r = resume(store, gid, dice)
    tracker = Tracker(r.game, r.binding, dice, header=r.header)
    if r.snapshot is not None:  # where the dials were when the last host died
        tracker.feed(r.snapshot, time.monotonic())
    rec = attach(store, gid, tracker)
    session = TraySession(port, name="consumer", ack_policy="manual", **r.session_args)
    consumer = StoringConsumer(store, gid, session, recorder=rec)
    with session:
        print("started", flush=True)
        while True:
            consumer.pump(0.05)


if __name__ == "__main__":
    main()
