"""A tray session's events into the store, acknowledged only once stored (issue 12).

The session runs with ``ack_policy="manual"``: :class:`StoringConsumer` takes the events it
delivered, writes them (and whatever the tracker makes of them, through a ``GameRecorder``) in
one transaction together with the game's resume point (boot id, last sequence number), commits,
and only then calls ``session.acknowledge``. A host killed at any instant has acknowledged only
what is on disk; the tray's ring still holds the rest, and a restarted host resumes from the
stored point (:func:`resume_args`) and is replayed exactly what it never stored.

If the store cannot write (disk full, read-only) the ``StoreError`` propagates and nothing of the
batch is acknowledged; the session has already delivered those events, so the consumer is done:
restart it (from the stored point) once the store can write again.
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable
from typing import Any

from dialtray.link.messages import DialState, Snapshot, TrayEvent
from dialtray.link.session import TraySession
from dialtray.store.db import GameStore
from dialtray.store.payload import data_of
from dialtray.store.recorder import GameRecorder

BATCH_MAX = 1000


class StoringConsumer:
    """Subscribe before ``session.start()`` to see the first snapshot."""

    def __init__(self, store: GameStore, gid: int, session: TraySession,
                 recorder: GameRecorder | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if session.ack_policy != "manual":
            raise ValueError("the session must run with ack_policy='manual': the store decides "
                             "when events are acknowledged")
        self.store = store
        self.gid = gid
        self.session = session
        self.recorder = recorder
        self.clock = clock
        self.stored = 0
        self.queue: queue.SimpleQueue[tuple[int | None, TrayEvent]] = queue.SimpleQueue()
        session.subscribe(self._on_event)

    def _on_event(self, ev: TrayEvent) -> None:
        # On the link thread, at delivery: the session's boot is the event's boot.
        boot = ev.boot_id if isinstance(ev, Snapshot) else self.session.boot_id
        self.queue.put((boot, ev))

    def close(self) -> None:
        self.session.unsubscribe(self._on_event)

    def pump(self, timeout: float = 0.0, batch_max: int = BATCH_MAX) -> int:
        """Store every queued event (waiting up to ``timeout`` for the first), commit, then
        acknowledge. Returns how many were stored."""
        batch: list[tuple[int | None, TrayEvent]] = []
        try:
            batch.append(self.queue.get(timeout=timeout) if timeout > 0 else
                         self.queue.get_nowait())
            while len(batch) < batch_max:
                batch.append(self.queue.get_nowait())
        except queue.Empty:
            pass
        now = self.clock()
        last: tuple[int, int] | None = None
        rec = self.recorder
        for boot, ev in batch:
            if rec is not None:
                rec.device(ev, boot, now)
            else:
                self.store.append(self.gid, "device", data_of(ev, boot))
            if ev.seq > 0 and boot is not None:
                last = (boot, ev.seq)
        if rec is not None:
            rec.tick(now)
        if last is not None:
            self.store.update_game(self.gid, boot_id=last[0], last_seq=last[1])
        if rec is not None:
            rec.commit()
        else:
            self.store.commit()
        if last is not None:
            self.session.acknowledge(*last)  # only now: it is on disk
        self.stored += len(batch)
        return len(batch)


def resume_args(store: GameStore, gid: int) -> dict[str, Any]:
    """``TraySession`` keyword arguments that carry a stored game on: ``resume_from`` (boot,
    last stored seq) and ``resume_dials`` (every dial's stored position), or {} when the game
    never stored a tray event."""
    g = store.game(gid)
    if g.boot_id is None or g.last_seq is None:
        return {}
    return {"resume_from": (g.boot_id, g.last_seq), "resume_dials": stored_dials(store, gid)}


def stored_dials(store: GameStore, gid: int) -> list[DialState]:
    """Every dial's last stored position: the last snapshot, moved by the clicks after it.

    Read from the end (a restarted host calls this on a game that may hold many thousands of
    clicks): the last snapshot, then clicks backwards only until each of its dials has its
    latest click (a click's position is absolute)."""
    conn = store.conn
    row = conn.execute("SELECT n, content FROM records WHERE game_id = ? AND kind = 'device' "
                       "AND instr(content, ?) > 0 ORDER BY n DESC LIMIT 1",
                       (gid, b'"type":"Snapshot"')).fetchone()
    snap = json.loads(row[1])["data"] if row is not None else None
    if snap is None or snap.get("type") != "Snapshot":
        return _stored_dials_forward(store, gid)
    states = {(s["dock"], s["dial"]): s for s in snap["dials"]}
    latest: dict[tuple[int, int], int] = {}
    for (content,) in conn.execute("SELECT content FROM records WHERE game_id = ? AND "
                                   "kind = 'device' AND n > ? ORDER BY n DESC", (gid, row[0])):
        if len(latest) == len(states):
            break
        d = json.loads(content)["data"]
        if d["type"] == "Click" and (d["dock"], d["dial"]) in states:
            latest.setdefault((d["dock"], d["dial"]), d["position"])
    return [DialState(**{**s, "position": latest.get(k, s["position"])})
            for k, s in states.items()]


def _stored_dials_forward(store: GameStore, gid: int) -> list[DialState]:
    """The same, reading every device record from the start (no snapshot found by text)."""
    dials: dict[tuple[int, int], DialState] = {}
    for row in store.conn.execute("SELECT content FROM records WHERE game_id = ? AND "
                                  "kind = 'device' ORDER BY n", (gid,)):
        d = json.loads(row[0])["data"]
        if d["type"] == "Snapshot":
            for s in d["dials"]:
                dials[(s["dock"], s["dial"])] = DialState(**s)
        elif d["type"] == "Click":
            old = dials.get((d["dock"], d["dial"]))
            if old is not None:
                dials[(d["dock"], d["dial"])] = DialState(old.dock, old.dial, old.sensor,
                                                          old.status, old.detents,
                                                          d["position"])
    return list(dials.values())


__all__ = ["StoringConsumer", "resume_args", "stored_dials"]
