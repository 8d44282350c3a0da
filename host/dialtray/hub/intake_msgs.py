"""One batch's messages at the hub, by kind: records, presence, live state, judge calls.

Each message is checked by ``validate`` before anything of it reaches SQL; a record that fails is
quarantined alone with its reason, any other bad message is counted and logged (it carries
nothing to keep). What must go to the tables (call acknowledgements, assignments and rulings for
a table back online) goes only after the batch is committed.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from dialtray.hub import results, validate
from dialtray.hub.chains import Verdict

if TYPE_CHECKING:
    from dialtray.hub.ingest import Ingest

log = logging.getLogger(__name__)


class Side:
    """The batch's side effects besides records: ``message`` for each, ``stored_row`` for each
    record stored, ``after_commit`` once."""

    def __init__(self, hub: Ingest, v: Verdict) -> None:
        self.hub, self.v, self.db = hub, v, hub.db
        self.changed: set[str] = set()
        self._online: list[str] = []
        self._callacks: list[tuple[str, str, int]] = []

    def message(self, table: str, what: str, payload: bytes) -> None:
        try:
            validate.table_id(table)
        except validate.Invalid as e:
            self.hub.stats.invalid += 1
            log.warning("hub: %s", e)
            return
        self.changed.add(table)
        try:
            if what == "rec":
                self.hub.stats.received += 1
                self._record(table, payload)
            elif what == "presence":
                self._presence(table, validate.presence(payload))
            elif what == "state":
                self._state(table, validate.state(payload))
            elif what == "call":
                self._call(table, *validate.call(payload))
        except validate.Invalid as e:
            self.hub.stats.invalid += 1
            log.warning("hub: table %s: a %s message refused: %s", table, what, e)

    def _record(self, table: str, payload: bytes) -> None:
        try:
            game, n, kind, content, sha, prev, rec = validate.record(payload, table,
                                                                      self.hub.event)
        except validate.Invalid as e:
            self.hub.stats.invalid += 1
            self.v.quarantine.append((table, None, None, payload,
                                      f"table {table}: not a record the hub can keep: {e}"))
            return
        self.hub.chains.offer(table, game, n, kind, content, sha, prev, rec, payload, self.v)

    def _presence(self, table: str, presence: str) -> None:
        self.db.execute("INSERT INTO hub_tables (id, presence, seen) VALUES (%s, %s, now()) "
                        "ON CONFLICT (id) DO UPDATE SET presence = excluded.presence, "
                        "seen = now()", (table, presence))  # (a table leaving cleanly also
        # clears its retained live state; one cut off keeps it: it may come back mid-game)
        if presence == "online":  # (again: it may have been away)
            self._online.append(table)

    def _state(self, table: str, state: dict[str, Any] | None) -> None:
        self.db.execute("INSERT INTO hub_tables (id, presence, seen, state) VALUES (%s, "
                        "'online', now(), %s) ON CONFLICT (id) DO UPDATE SET state = "
                        "excluded.state, seen = now()",
                        (table, None if state is None else json.dumps(state)))

    def _call(self, table: str, uid: str | None, game: int | None, note: str) -> None:
        if uid is None:
            self.db.execute("INSERT INTO hub_calls (table_id, game, note) VALUES (%s, %s, %s)",
                            (table, game, note))
            return
        self.db.execute("INSERT INTO hub_calls (table_id, game, note, uid) VALUES (%s, %s, %s, "
                        "%s) ON CONFLICT (table_id, uid) DO NOTHING", (table, game, note, uid))
        row = self.db.execute("SELECT id FROM hub_calls WHERE table_id = %s AND uid = %s",
                              (table, uid)).fetchone()
        self._callacks.append((table, uid, int(row[0])))

    def stored_row(self, row: tuple[Any, ...]) -> None:
        """A record just stored (same transaction): its part in the event."""
        table, game, n, kind, content = row[:5]
        if kind not in ("game", "event", "end", "ruling"):
            return
        rec = json.loads(content)
        why = results.take(self.db, table, game, kind, rec)
        if why is not None:
            self.v.quarantine.append((table, game, n, content, f"result not taken: {why}"))
        if kind == "end":  # the page no longer shows the game's last phase as if it went on
            self.db.execute("UPDATE hub_tables SET state = %s WHERE id = %s AND "
                            "COALESCE(state ->> 'phase', '') NOT LIKE 'over%%'",
                            (json.dumps({"game": game, "phase": "game over"}), table))
            # (a table that said how its game ended keeps saying so)

    def after_commit(self) -> None:
        for table, uid, call in self._callacks:
            self.hub.send(table, "callack", {"id": uid, "call": call})
        for table in self._online:
            if table in self.hub.pairings:
                self.hub.send_pairing(table)
        if self._online:
            try:
                for table in self._online:
                    self.hub.resend_rulings(table)
                self.hub.db.commit()
            except Exception as e:  # (the next idle round sends them)
                log.warning("hub: rulings for tables back online: %s", e)
                self.hub._rollback()
