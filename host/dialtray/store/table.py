"""A stored table: the tracker's runner (``TrackedTray``) whose every event is stored, and
acknowledged to the tray only after its commit — what ``play`` and ``demo`` use to keep their
game (issue 12).

    store = GameStore.open(db)
    rec = GameRecorder.start(store, tracker, origin="play")
    session = TraySession(port, ack_policy="manual")
    table = StoredTable(rec, session)      # subscribe before session.start()
    ... table.pump() / play_out(table, ...) as with a TrackedTray; every pump commits then acks.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from dialtray.link.session import TraySession
from dialtray.store.recorder import GameRecorder, RecordingTracker
from dialtray.tracker.runner import TrackedTray


class StoredTable(TrackedTray):
    def __init__(self, rec: GameRecorder, session: TraySession,
                 clock: Callable[[], float] = time.monotonic,
                 on_ruling: Callable[[str], None] | None = None) -> None:
        self.recording = RecordingTracker(rec, session, on_ruling=on_ruling)
        super().__init__(self.recording, session, clock)  # type: ignore[arg-type]

    def pump(self, timeout: float = 0.0) -> int:
        n = super().pump(timeout)
        self.recording.commit()  # stored, then acknowledged
        return n

    def sync(self, timeout: float = 5.0) -> None:
        super().sync(timeout)
        self.recording.commit()

    def close(self) -> None:
        super().close()
        self.recording.commit()
        self.recording.close()
