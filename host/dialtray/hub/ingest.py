"""The hub's intake: every table's records from the broker into PostgreSQL, exactly once.

paho's network thread only queues what arrives; one writer thread takes it in batches. A record
is stored when it chains onto what the hub holds for its game (table, game, n = head + 1,
``prev`` = the head's sha, and SHA-256(prev ‖ kind ‖ LF ‖ content) = its sha, its content
naming the same game, number and kind); a copy of a record already held is dropped (the insert
is ``ON CONFLICT DO NOTHING`` besides); a record from beyond a gap waits while the gap is asked
for again (``resend``); a record that does not chain is put in quarantine with the reason, for
the judge, and the genuine one asked for again. After each batch is committed the hub
acknowledges each game's head to its table, which only then forgets its outbox rows.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dialtray.hub import pgschema, topics
from dialtray.store.chain import GENESIS, link

log = logging.getLogger(__name__)
Key = tuple[str, int]  # (table, game)


@dataclass
class IngestStats:
    received: int = 0
    stored: int = 0
    duplicates: int = 0
    quarantined: int = 0
    gaps_asked: int = 0
    batches: int = 0
    first_at: float = 0.0
    last_at: float = 0.0
    busy_s: float = 0.0  # the writer's time in batches (the rest it waited for messages)


@dataclass
class Chain:
    n: int = 0
    sha: str = GENESIS
    shas: list[str] = field(default_factory=list)  # every stored record's sha, by n - 1
    waiting: dict[int, tuple[str, bytes, str, str]] = field(default_factory=dict)
    asked: float = 0.0


class Ingest:
    """``Ingest(dsn, event, host, port, password).start()``; ``stop()``."""

    MAX_BATCH = 5000
    MAX_WAITING = 10000

    def __init__(self, dsn: str, event: str, host: str, port: int, password: str,
                 user: str = "hub",
                 on_change: Callable[[set[str]], None] | None = None) -> None:
        import paho.mqtt.client as mqtt
        import psycopg
        from paho.mqtt.enums import CallbackAPIVersion

        self.event = event
        self.db = psycopg.connect(dsn)
        pgschema.check(self.db)
        self.db.execute("CREATE TEMP TABLE hub_in (LIKE hub_records INCLUDING DEFAULTS) "
                        "ON COMMIT DELETE ROWS")
        self.db.commit()
        self.stats = IngestStats()
        self.on_change = on_change
        self.chains: dict[Key, Chain] = {}
        self._load()
        self.pushed_round = 0
        self.pairings: dict[str, dict[str, Any]] = {}  # the current round's, by table
        self.round_ends: float | None = None  # its end (epoch seconds, the database's clock)
        self._pairings_checked = 0.0
        self.q: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self._stop = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{event}-hub",
                        protocol=mqtt.MQTTv5)
        c.username_pw_set(user, password)
        c.max_inflight_messages_set(1000)
        c.reconnect_delay_set(1, 2)
        c.on_connect = self._on_connect
        c.on_subscribe = self._on_subscribe
        self.subscribed = threading.Event()  # (set at the first subscription; tests wait on it)
        c.on_message = lambda _c, _u, m: self.q.put((m.topic, bytes(m.payload)))
        self.client = c
        self.host, self.port = host, port
        self.thread = threading.Thread(target=self._run, name="hub-ingest", daemon=True)

    def _load(self) -> None:
        for table, game, n, sha in self.db.execute(
                "SELECT table_id, game, n, sha FROM hub_heads"):
            shas = [r[0] for r in self.db.execute(
                "SELECT sha FROM hub_records WHERE table_id = %s AND game = %s ORDER BY n",
                (table, game))]
            self.chains[(table, game)] = Chain(n, sha, shas)
        self.db.commit()

    def _on_connect(self, client: Any, _u: Any, _f: Any, rc: Any, _p: Any = None) -> None:
        if rc.is_failure:
            log.warning("hub: the broker refused the connection: %s", rc)
            return
        client.subscribe(f"{topics.ROOT}/{self.event}/t/+/+", qos=1)

    def _on_subscribe(self, *_args: Any) -> None:
        self.subscribed.set()

    def start(self) -> Ingest:
        self.client.connect_async(self.host, self.port, keepalive=5)
        self.client.loop_start()
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(10)
        self.client.disconnect()
        self.client.loop_stop()
        self.db.close()

    def send(self, table: str, what: str, body: dict[str, Any]) -> None:
        self.client.publish(topics.cmd_topic(self.event, table, what),
                            json.dumps(body).encode(), qos=1)

    # ---- the writer thread --------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                first = self.q.get(timeout=0.2)
            except queue.Empty:
                self._push_pairings()
                continue
            batch = [first]
            while len(batch) < self.MAX_BATCH:
                try:
                    batch.append(self.q.get_nowait())
                except queue.Empty:
                    break
            t0 = time.perf_counter()
            try:
                self._batch(batch)
            except Exception:  # the database went away: log, the tables will send again
                log.exception("hub: could not store a batch of %d messages", len(batch))
                self.db.rollback()
                for ch in self.chains.values():
                    ch.waiting.clear()
                self.chains.clear()
                self._load()
            self.stats.busy_s += time.perf_counter() - t0

    def _batch(self, batch: list[tuple[str, bytes]]) -> None:
        rows: list[tuple[Any, ...]] = []
        quarantine: list[tuple[Any, ...]] = []
        touched: dict[Key, Chain] = {}
        changed: set[str] = set()
        before: dict[Key, tuple[int, str, int]] = {}
        for topic, payload in batch:
            where = topics.parse_table_topic(topic)
            if where is None:
                continue
            table, what = where
            changed.add(table)
            if what == "rec":
                self.stats.received += 1
                self._record(table, payload, rows, quarantine, touched, before)
            elif what == "presence":
                self.db.execute("INSERT INTO hub_tables (id, presence, seen) VALUES (%s, %s, "
                                "now()) ON CONFLICT (id) DO UPDATE SET presence = "
                                "excluded.presence, seen = now()",
                                (table, payload.decode(errors="replace")[:20]))
                if payload == b"online":  # (again: it may have been away)
                    if table in self.pairings:
                        self.send_pairing(table)
                    self._resend_rulings(table)
            elif what == "state":
                self._state(table, payload)
            elif what == "call":
                self._call(table, payload)
        if rows:  # COPY into a session table, then one idempotent INSERT … SELECT
            with self.db.cursor() as cur:
                with cur.copy("COPY hub_in (table_id, game, n, kind, content, sha, prev) FROM "
                              "STDIN") as cp:
                    for r in rows:
                        cp.write_row(r)
                cur.execute("INSERT INTO hub_records (table_id, game, n, kind, content, sha, "
                            "prev) SELECT table_id, game, n, kind, content, sha, prev FROM hub_in "
                            "ON CONFLICT DO NOTHING")
        if touched:
            with self.db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO hub_heads VALUES (%s, %s, %s, %s) ON CONFLICT (table_id, game) "
                    "DO UPDATE SET n = excluded.n, sha = excluded.sha",
                    [(t, g, ch.n, ch.sha) for (t, g), ch in touched.items()])
            for r in rows:
                if r[3] in ("game", "event", "end"):
                    self._event_record(r)
        if quarantine:
            with self.db.cursor() as cur:
                cur.executemany("INSERT INTO hub_quarantine (table_id, game, n, raw, reason) "
                                "VALUES (%s, %s, %s, %s, %s)", quarantine)
        try:
            self.db.commit()
        except Exception:
            for key, (n, sha, count) in before.items():  # nothing of the batch is held
                ch = self.chains[key]
                ch.n, ch.sha = n, sha
                del ch.shas[count:]
            raise
        self.stats.stored += len(rows)
        self.stats.quarantined += len(quarantine)
        self.stats.batches += 1
        now = time.monotonic()
        if rows and not self.stats.first_at:
            self.stats.first_at = now
        self.stats.last_at = now
        for (table, game), ch in touched.items():
            self.send(table, "ack", {"game": game, "n": ch.n})
        if self.on_change is not None and changed:
            self.on_change(changed)

    def _record(self, table: str, payload: bytes, rows: list[tuple[Any, ...]],
                quarantine: list[tuple[Any, ...]], touched: dict[Key, Chain],
                before: dict[Key, tuple[int, str, int]]) -> None:
        try:
            game, n, kind, content, sha, prev = topics.decode_record(payload)
        except ValueError as e:
            quarantine.append((table, None, None, payload, f"not a record: {e}"))
            return
        key = (table, game)
        ch = self.chains.setdefault(key, Chain())
        if key not in before:
            before[key] = (ch.n, ch.sha, len(ch.shas))
        if n <= ch.n:
            if ch.shas[n - 1] == sha and link(prev, kind, content) == sha:
                self.stats.duplicates += 1
                touched[key] = ch  # acknowledged again: the table's earlier ack was lost
                return
            quarantine.append((table, game, n, payload, f"record {n} of game {game} differs "
                               "from the copy already stored (its hash does not match)"))
            return
        if n > ch.n + 1:
            if len(ch.waiting) < self.MAX_WAITING:
                ch.waiting[n] = (kind, content, sha, prev)
            self._ask(table, game, ch)
            return
        why = self._why_not(table, game, n, kind, content, sha, prev, ch)
        if why:
            quarantine.append((table, game, n, payload, why))
            self._ask(table, game, ch, force=True)
            return
        self._accept(table, game, n, kind, content, sha, prev, ch, rows)
        touched[key] = ch
        while ch.n + 1 in ch.waiting:
            k, c, s, p = ch.waiting.pop(ch.n + 1)
            nn = ch.n + 1
            why = self._why_not(table, game, nn, k, c, s, p, ch)
            if why:
                quarantine.append((table, game, nn, topics.encode_record(game, nn, k, c, s, p),
                                   why))
                self._ask(table, game, ch, force=True)
                break
            self._accept(table, game, nn, k, c, s, p, ch, rows)
        for stale in [m for m in ch.waiting if m <= ch.n]:
            del ch.waiting[stale]

    @staticmethod
    def _why_not(table: str, game: int, n: int, kind: str, content: bytes, sha: str, prev: str,
                 ch: Chain) -> str | None:
        if prev != ch.sha:
            return (f"record {n} of game {game} at table {table}: its 'prev' is not the sha of "
                    f"record {n - 1} the hub holds (does not chain)")
        if link(prev, kind, content) != sha:
            return (f"record {n} of game {game} at table {table}: its kind and content do not "
                    "hash to its sha (altered)")
        try:
            rec = json.loads(content)
        except ValueError:
            return f"record {n} of game {game} at table {table}: its content is not JSON"
        if not isinstance(rec, dict) or rec.get("game") != game or rec.get("n") != n \
                or rec.get("kind") != kind:
            return (f"record {n} of game {game} at table {table}: its hashed content names "
                    "another game, number or kind")
        return None

    @staticmethod
    def _accept(table: str, game: int, n: int, kind: str, content: bytes, sha: str, prev: str,
                ch: Chain, rows: list[tuple[Any, ...]]) -> None:
        rows.append((table, game, n, kind, content, sha, prev))
        ch.n, ch.sha = n, sha
        ch.shas.append(sha)

    def _ask(self, table: str, game: int, ch: Chain, force: bool = False) -> None:
        now = time.monotonic()
        if now - ch.asked > (0.2 if force else 1.0):
            ch.asked = now
            self.stats.gaps_asked += 1
            self.send(table, "resend", {"game": game, "from": ch.n + 1})

    def _push_pairings(self) -> None:
        """A new round's table assignments go to the tables (each with both squads, so the
        table loads the pairing's figures), once per round."""
        now = time.monotonic()
        if now - self._pairings_checked < 1.0:
            return
        self._pairings_checked = now
        try:
            row = self.db.execute("SELECT COALESCE(MAX(n), 0) FROM hub_rounds").fetchone()
            rnd = int(row[0]) if row else 0
            if rnd <= self.pushed_round:
                self.db.commit()
                return
            squads = {p: (name, sq) for p, name, sq in self.db.execute(
                "SELECT id, name, squad FROM hub_players")}
            mrow = self.db.execute("SELECT minutes, EXTRACT(EPOCH FROM started) FROM "
                                   "hub_rounds WHERE n = %s", (rnd,)).fetchone()
            mins = mrow[0] if mrow else None
            self.round_ends = float(mrow[1]) + 60 * int(mins) if mrow and mins else None
            pairs = self.db.execute("SELECT table_id, a, b FROM hub_pairings WHERE round = %s "
                                    "AND table_id IS NOT NULL", (rnd,)).fetchall()
            self.db.commit()
        except Exception:
            log.exception("hub: could not read the round's pairings")
            self.db.rollback()
            return
        self.pairings = {table: {
            "round": rnd, "minutes": mins, "seats": [["A", a], ["B", b]],
            "squads": {a: squads.get(a, ("", []))[1], b: squads.get(b, ("", []))[1]}}
            for table, a, b in pairs}
        for table in self.pairings:
            self.send_pairing(table)
        self.pushed_round = rnd

    def repush(self) -> None:
        """The round's clock changed in the database (time added, or called early): every
        table gets its assignment again with the time left now (within a second)."""
        self.pushed_round = 0

    def send_pairing(self, table: str) -> None:
        """The table's assignment, with the round's time left *now* (the table counts it down
        on its own clock: the round timer, AC-M67 (2) / AA-M53 (2))."""
        body = dict(self.pairings[table])
        if self.round_ends is not None:
            body["left_s"] = max(0.0, round(self.round_ends - time.time(), 1))
        self.send(table, "pairing", body)

    # ---- the event's side of records, calls and live states ------------------------------------

    def _event_record(self, row: tuple[Any, ...]) -> None:
        table, game, _n, kind, content = row[:5]
        data = json.loads(content).get("data") or {}
        if kind in ("game", "event") and isinstance(data.get("round"), int):
            self.db.execute("UPDATE hub_pairings SET game = %s WHERE round = %s AND "
                            "table_id = %s", (game, data["round"], table))
        elif kind == "end" and isinstance(data.get("vp"), dict):
            row2 = self.db.execute("SELECT round, a, b FROM hub_pairings WHERE table_id = %s "
                                   "AND game = %s", (table, game)).fetchone()
            if row2 is None:
                return
            seats = self._seats(table, game)
            vp = {seats.get(k, k): int(v) for k, v in data["vp"].items()}
            winner = seats.get(str(data.get("winner")), data.get("winner"))
            self.db.execute("UPDATE hub_pairings SET vp_a = %s, vp_b = %s, winner = %s WHERE "
                            "round = %s AND a = %s", (vp.get(row2[1], 0), vp.get(row2[2], 0),
                                                      winner, row2[0], row2[1]))

    def _seats(self, table: str, game: int) -> dict[str, str]:
        row = self.db.execute(  # the game's first record, or the event's record when it has one
            "SELECT content FROM hub_records WHERE table_id = %s AND game = %s AND (n = 1 OR "
            "kind = 'event') ORDER BY n DESC LIMIT 1", (table, game)).fetchone()
        if row is None:
            return {}
        data = json.loads(bytes(row[0])).get("data", {})
        players = data.get("players")  # a table at an event: its seats' players (tableside)
        if isinstance(players, dict):
            return {str(s): str(p) for s, p in players.items()}
        return {str(s): str(name) for s, name in data.get("seats", [])}

    def _resend_rulings(self, table: str) -> None:
        """Rulings whose ``ruling`` record has not come back in the table's chain (sent while
        the table was away: its new session lost them) go again; the table keeps one per call."""
        for body, sig in self.db.execute(
                "SELECT r.body, r.sig FROM hub_rulings r WHERE r.table_id = %s AND NOT EXISTS ("
                "SELECT 1 FROM hub_records h WHERE h.table_id = r.table_id AND h.game = r.game "
                "AND h.kind = 'ruling' AND convert_from(h.content, 'UTF8')::jsonb -> 'data' "
                "->> 'call' = r.body ->> 'call')", (table,)).fetchall():
            self.send(table, "ruling", {"body": body, "sig": sig})

    def _state(self, table: str, payload: bytes) -> None:
        try:
            state = json.loads(payload)
        except ValueError:
            return
        self.db.execute("INSERT INTO hub_tables (id, presence, seen, state) VALUES (%s, "
                        "'online', now(), %s) ON CONFLICT (id) DO UPDATE SET state = "
                        "excluded.state, seen = now()", (table, json.dumps(state)))

    def _call(self, table: str, payload: bytes) -> None:
        try:
            body = json.loads(payload)
        except ValueError:
            body = {}
        game = body.get("game") if isinstance(body, dict) else None
        note = str(body.get("note", ""))[:200] if isinstance(body, dict) else ""
        self.db.execute("INSERT INTO hub_calls (table_id, game, note) VALUES (%s, %s, %s)",
                        (table, game if isinstance(game, int) else None, note))
