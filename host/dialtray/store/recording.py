"""The tracker seen through its recorder (``RecordingTracker``): code written against a
``Tracker`` — the runner (``TrackedTray``), the bots' hands, the paper tray — records the game
without knowing it, and a table stored as it is played acknowledges the tray only after the
store's commit (ack after commit).

Also here, because they happen on the same commit: rulings that ``dialtray judge`` stored into
the game while it is played, applied to the live tracker and shown at the table. What is written
for each event is ``recorder.GameRecorder``'s.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

from dialtray.link.messages import Click, Snapshot, TrayEvent
from dialtray.store.recorder import GameRecorder
from dialtray.tracker.rulings import apply_ruling

log = logging.getLogger("dialtray.store")


class RecordingTracker:
    """The tracker seen through its recorder: ``feed``/``tick``/``decide`` store first (and the
    rest is the tracker's own), so code written against a ``Tracker`` — the tracker's runner
    (``TrackedTray``), the bots' hands, the paper tray — records the game without knowing it.

    With a ``session`` (``ack_policy="manual"``), each tray event's boot is noted at delivery
    and :meth:`commit` stores the batch with the resume point, *then* acknowledges it to the
    tray: ``TrackedTray(RecordingTracker(rec, session), session)`` and ``commit()`` after each
    ``pump()`` is a stored, ack-after-commit table. ``boot`` gives the boot id without a
    session (tests)."""

    def __init__(self, rec: GameRecorder, session: Any = None,
                 boot: Callable[[], int | None] | None = None,
                 on_ruling: Callable[[str], None] | None = None) -> None:
        assert rec.tracker is not None
        self._rec, self._t = rec, rec.tracker
        self.on_ruling = on_ruling  # shown at the table: rulings another process stored
        self._seen = rec.store.game(rec.gid).records
        self._boot = boot or (lambda: None)
        self._session = session
        self._boots: dict[int, int | None] = {}
        self.last: tuple[int, int] | None = None  # (boot, seq) of the last tray event fed
        self._now = 0.0  # the table's clock at the last event or tick (rulings are dated so)
        # (boot, seq): clicks of that boot below seq were turned while no host listened (set
        # by a resumed `play` until the tray's snapshot is in; see table.stored)
        self.away_before: tuple[int, int] | None = None
        if session is not None:
            if session.ack_policy != "manual":
                raise ValueError("the session must run with ack_policy='manual'")
            session.subscribe(self._delivered)

    def _delivered(self, ev: TrayEvent) -> None:  # on the link thread, at delivery
        self._boots[id(ev)] = self._session.boot_id

    def __getattr__(self, name: str) -> Any:
        return getattr(self._t, name)

    @property
    def recorder(self) -> GameRecorder:
        return self._rec

    def _arrived(self, ev: TrayEvent) -> tuple[TrayEvent, int | None]:
        """The event as it is stored, and its boot."""
        boot = self._boots.pop(id(ev), None) if self._session is not None else self._boot()
        if type(ev) is Snapshot:
            boot = ev.boot_id
        else:
            away = self.away_before
            if away is not None and type(ev) is Click and not ev.recovered and \
                    boot == away[0] and 0 < ev.seq < away[1]:
                # a resumed host is replayed the clicks turned while it was down: so marked
                ev = dataclasses.replace(ev, recovered=True)
        return ev, boot

    def feed(self, ev: TrayEvent, now: float) -> None:
        ev, boot = self._arrived(ev)
        self._now = now
        self._rec.device(ev, boot, now)
        if ev.seq > 0 and boot is not None:
            self.last = (boot, ev.seq)

    def feed_many(self, evs: Sequence[TrayEvent], now: float) -> None:
        """Events that arrived together (a pump's queue), in order: ``feed`` for each, stored
        through the recorder's batch path (``GameRecorder.devices``) a run of one boot at a
        time."""
        self._now = now
        run: list[TrayEvent] = []
        run_boot: int | None = None
        for ev in evs:
            ev, boot = self._arrived(ev)
            if run and boot != run_boot:
                self._rec.devices(run, run_boot, now)
                run = []
            run.append(ev)
            run_boot = boot
            if ev.seq > 0 and boot is not None:
                self.last = (boot, ev.seq)
        if run:
            self._rec.devices(run, run_boot, now)

    def tick(self, now: float) -> None:
        self._now = now
        self._rec.tick(now)

    def decide(self, text: str, now: float, seat: str | None = None) -> Any:
        return self._rec.decide(text, now, seat)

    def confirm_eye(self, slot: Any, click: int | None, now: float, by: str) -> Any:
        """A dial whose encoder lost track confirmed by eye (``Tracker.confirm_eye``), recorded
        (an ``eye`` record) with whatever it put right."""
        self._now = now
        r = self._t.confirm_eye(slot, click, now, by)
        self._rec.sync()
        return r

    def commit(self) -> None:
        """Store everything recorded so far (with the resume point), then acknowledge it."""
        last = self.last
        if last is not None:
            self._rec.store.update_game(self._rec.gid, boot_id=last[0], last_seq=last[1])
        self._rec.commit()
        if last is not None and self._session is not None:
            self._session.acknowledge(*last)
        self._rulings()

    def _rulings(self) -> None:
        """Rulings (and refused attempts) that ``dialtray judge`` stored into this game while it
        is played: applied to the live tracker (``tracker.rulings``) and shown to the players,
        never silent."""
        store, gid = self._rec.store, self._rec.gid
        for n, kind, content in store.conn.execute(
                "SELECT n, kind, content FROM records WHERE game_id = ? AND n > ? AND "
                "kind IN ('judge', 'judge-refused') ORDER BY n", (gid, self._seen)):
            data = json.loads(content)["data"]
            if kind == "judge":  # applied to the live game, shown with what it did
                shown = apply_ruling(self._t, data, self._now)
                if data.get("ruling") == "undo":
                    self._rec.undone()
            else:
                shown = ("a ruling was refused (no valid judge token): "
                         f"{data.get('text', '')}")
            log.warning("game %d: %s", gid, shown)
            if self.on_ruling is not None:
                self.on_ruling(shown)
            self._seen = n
        self._seen = max(self._seen, store.committed(gid))  # (our own records: not rulings)

    def close(self) -> None:
        if self._session is not None:
            self._session.unsubscribe(self._delivered)
