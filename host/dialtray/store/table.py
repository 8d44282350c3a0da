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

import gc
import time
from collections.abc import Callable

from dialtray.link.session import TraySession
from dialtray.store import claim
from dialtray.store.recorder import GameRecorder
from dialtray.store.recording import RecordingTracker
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
        rec = self.recording.recorder
        claim.release(rec.store.path, rec.gid)  # stopped here: it may be carried on elsewhere


def steady_gc() -> tuple[int, int, int]:
    """Tune the collector for a host that stores a game event by event; returns the old
    thresholds (``gc.set_threshold(*old)`` and ``gc.unfreeze()`` undo it).

    Why: per event the host makes short-lived, acyclic garbage (freed by reference counting)
    and a few objects it keeps for the whole game (the tracker's log lines and flags), so the
    collector's default young-generation threshold (700) runs collections that find nothing and
    rescan an ever-growing heap. ``gc.freeze()`` takes everything built during setup (engines,
    catalogues, the tracker) out of the collector's view and a larger young threshold makes the
    fruitless collections rarer; cycles are still collected. bench/bench_store.py measures the
    difference (about a tenth of the CPU per event)."""
    old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)
    return old
