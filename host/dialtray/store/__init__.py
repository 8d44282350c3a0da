"""The durable game store (issue 12): every game kept, tamper-evident and checkable.

* :mod:`db` — ``GameStore``: one SQLite database (WAL), games, seats, figures and dock bindings,
  append-only records; ``StoreError`` names the database file.
* :mod:`schema` — versioned migrations (``schema_version``).
* :mod:`chain` — SHA-256 hash chain over records; names the first record that does not fit.
* :mod:`recorder` — ``GameRecorder``: what a tracked game writes (device events, actions,
  expectations, flags, dice, outcome).
* :mod:`recording` — ``RecordingTracker``: the tracker seen through its recorder (store, then
  acknowledge; the judge's rulings stored meanwhile applied at each commit).
* :mod:`consumer` — ``StoringConsumer``: a tray session's events stored, then acknowledged.
* :mod:`verify` — chain + replay through the rules engine to the recorded state.
* :mod:`judge`, :mod:`report` — the judge's tokens and rulings, the end-of-game report.

Downstream of the tracker and the engine: nothing here is imported by them.
"""

from dialtray.store.db import GameRow, GameStore, StoreError, default_db
from dialtray.store.recorder import GameRecorder

__all__ = ["GameRecorder", "GameRow", "GameStore", "StoreError", "default_db"]
