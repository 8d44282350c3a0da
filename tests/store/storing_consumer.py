"""A small storing consumer for the kill test: stores every tray event of one game and
acknowledges after each commit; started again after a kill -9, it resumes from the stored
(boot id, last seq). Usage: python storing_consumer.py DB GAME PORT"""

from __future__ import annotations

import sys

from dialtray.link.session import TraySession
from dialtray.store import GameStore
from dialtray.store.consumer import StoringConsumer, resume_args


def main() -> None:
    db, gid, port = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    store = GameStore.open(db)
    session = TraySession(port, name="consumer", ack_policy="manual", **resume_args(store, gid))
    consumer = StoringConsumer(store, gid, session)
    with session:
        print("started", flush=True)
        while True:
            consumer.pump(0.05)


if __name__ == "__main__":
    main()
