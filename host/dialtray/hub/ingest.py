"""The hub's intake: every table's records from the broker into PostgreSQL, exactly once.

paho's network thread only queues what arrives; one writer thread takes it in batches. Each
message is checked against its schema first (``validate``: sizes, depth, integer ranges, no NUL,
finite numbers), then each record against its game's hash chain (``chains``); what fails is
quarantined alone with its reason, so one bad message never costs a batch. After each batch is
committed the hub acknowledges each game's head to its table (which only then forgets its outbox
rows: that, not the broker, is what makes a record safe). To the broker the hub acknowledges a
message when the writer takes it into a batch, and the broker may have at most ``RECEIVE_MAX``
unacknowledged messages out to the hub: while the database is away the writer holds one batch
and takes nothing more, so the rest waits at the broker (QoS 1), not in the hub's memory
(at most ``MAX_BATCH`` + 3 x ``RECEIVE_MAX`` messages of at most 64 KiB each are held).

When PostgreSQL goes away the writer keeps the batch it holds, reconnects with a growing delay
(0.2 s → 2 s), reloads the chains' heads and stores the batch again; ``status()`` says "database
unreachable since …" meanwhile. The hub's broker session outlives a crash of the hub (MQTT 5
session expiry), so what the broker queued meanwhile arrives when it is back; the tables send
again whatever stays unacknowledged besides.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dialtray.hub import pgschema, results, topics
from dialtray.hub.chains import Chains, Verdict

log = logging.getLogger(__name__)
Msg = tuple[int, int, int, str, bytes]  # (connection generation, mid, qos, topic, payload)


@dataclass
class IngestStats:
    received: int = 0
    stored: int = 0
    duplicates: int = 0
    quarantined: int = 0
    invalid: int = 0  # messages refused by their schema (records among them are quarantined)
    gaps_asked: int = 0
    batches: int = 0
    db_outages: int = 0
    first_at: float = 0.0
    last_at: float = 0.0
    busy_s: float = 0.0  # the writer's time in batches (the rest it waited for messages)


class Ingest:
    """``Ingest(dsn, event, host, port, password).start()``; ``stop()``."""

    MAX_BATCH = 5000
    RECEIVE_MAX = 1000  # messages the broker may have out to the hub unacknowledged
    QUARANTINE_PER_TABLE = 2000  # rows kept per table per run (then only counted)
    RULINGS_AGAIN_S = 5.0  # a ruling not yet back in its table's chain is sent again

    def __init__(self, dsn: str, event: str, host: str, port: int, password: str,
                 user: str = "hub",
                 on_change: Callable[[set[str]], None] | None = None) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        self.dsn, self.event = dsn, event
        self.stats = IngestStats()
        self.on_change = on_change
        self.chains = Chains()
        self.db: Any = None
        self.db_down_since: float | None = None  # epoch seconds
        self.db_error = ""
        import psycopg

        try:  # a wrong schema is the caller's error; a database away now is an outage
            self._connect_db()
        except psycopg.OperationalError as e:
            self._down(e)
        self.pushed_round: int | None = 0
        self.pairings: dict[str, dict[str, Any]] = {}  # the open round's, by table
        self.round_ends: float | None = None  # its end (epoch seconds, the database's clock)
        self._pairings_checked = 0.0
        self._rulings_checked = 0.0
        self._quarantined: dict[str, int] = {}
        self.q: queue.Queue[Msg] = queue.Queue(maxsize=3 * self.RECEIVE_MAX)
        self._gen = 0  # bumped at each broker connection: older mids are not acknowledged
        self._stop = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{event}-hub",
                        protocol=mqtt.MQTTv5, manual_ack=True)
        c.username_pw_set(user, password)
        c.max_inflight_messages_set(1000)
        c.reconnect_delay_set(1, 2)
        topics.no_delay(c)
        c.on_connect = self._on_connect
        c.on_subscribe = self._on_subscribe
        self.subscribed = threading.Event()  # (set at the first subscription; tests wait on it)
        c.on_message = self._on_message
        self._props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        self._props.SessionExpiryInterval = 600  # the broker keeps messages for a crashed hub
        self._props.ReceiveMaximum = self.RECEIVE_MAX
        self.client = c
        self.host, self.port = host, port
        self.thread = threading.Thread(target=self._run, name="hub-ingest", daemon=True)

    # ---- the database connection --------------------------------------------------------------

    def _connect_db(self) -> None:
        import psycopg

        db = psycopg.connect(self.dsn, connect_timeout=10)
        try:
            pgschema.check(db)
            db.execute("CREATE TEMP TABLE hub_in (LIKE hub_records INCLUDING DEFAULTS) "
                       "ON COMMIT DELETE ROWS")
            self.chains.load(db.execute("SELECT table_id, game, n, sha FROM hub_heads")
                             .fetchall())
            db.commit()
        except BaseException:
            db.close()
            raise
        self.db = db

    def _down(self, e: BaseException) -> None:
        if self.db_down_since is None:
            self.db_down_since = time.time()
            self.stats.db_outages += 1
            log.warning("hub: the database is unreachable: %s", str(e).strip().splitlines()[0]
                        if str(e).strip() else type(e).__name__)
        self.db_error = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
        if self.db is not None:
            try:
                self.db.close()
            except Exception:  # (closing a dead connection may fail too)
                log.debug("hub: closing the dead connection failed", exc_info=True)
        self.db = None

    def _reconnect(self, delay: float) -> bool:
        if self._stop.wait(delay):
            return False
        try:
            self._connect_db()
        except Exception as e:  # still away
            self._down(e)
            return False
        log.warning("hub: the database is back (unreachable since %s)",
                    time.strftime("%H:%M:%S", time.localtime(self.db_down_since or 0)))
        self.db_down_since = None
        self.pushed_round = 0  # (pairings read again)
        return True

    def _lost(self, e: BaseException) -> bool:
        import psycopg

        return (self.db is None or self.db.closed or self.db.broken
                or isinstance(e, (psycopg.OperationalError, psycopg.InterfaceError)))

    def status(self) -> str:
        st = self.stats
        line = (f"stored {st.stored}, duplicates {st.duplicates}, quarantined {st.quarantined}, "
                f"gaps asked {st.gaps_asked}")
        if self.db_down_since is not None:
            since = time.strftime("%H:%M:%S", time.localtime(self.db_down_since))
            line += f"; database unreachable since {since} ({self.db_error}), reconnecting"
        return line

    # ---- the broker ---------------------------------------------------------------------------

    def _on_connect(self, client: Any, _u: Any, _f: Any, rc: Any, _p: Any = None) -> None:
        if rc.is_failure:
            log.warning("hub: the broker refused the connection: %s", rc)
            return
        self._gen += 1
        client.subscribe(f"{topics.ROOT}/{self.event}/t/+/+", qos=1)

    def _on_subscribe(self, *_args: Any) -> None:
        self.subscribed.set()

    def _on_message(self, _c: Any, _u: Any, m: Any) -> None:
        item = (self._gen, m.mid, m.qos, m.topic, bytes(m.payload))
        while not self._stop.is_set():  # (bounded by RECEIVE_MAX per connection: rarely waits)
            try:
                self.q.put(item, timeout=0.5)
                return
            except queue.Full:
                continue

    def start(self) -> Ingest:
        self.client.connect_async(self.host, self.port, keepalive=5, clean_start=False,
                                  properties=self._props)
        self.client.loop_start()
        self.thread.start()
        return self

    def stop(self) -> None:
        """A clean stop ends the hub's broker session (a crash keeps it for the next run)."""
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        self._stop.set()
        self.thread.join(10)
        bye = Properties(PacketTypes.DISCONNECT)  # type: ignore[no-untyped-call]
        bye.SessionExpiryInterval = 0
        self.client.disconnect(properties=bye)
        self.client.loop_stop()
        if self.db is not None:
            self.db.close()

    def send(self, table: str, what: str, body: dict[str, Any]) -> None:
        self.client.publish(topics.cmd_topic(self.event, table, what),
                            json.dumps(body).encode(), qos=1)

    # ---- the writer thread --------------------------------------------------------------------

    def _run(self) -> None:
        pending: list[Msg] = []  # taken from the queue, not yet stored
        delay = 0.2
        idle_at = time.monotonic()
        idle_due = False
        while not self._stop.is_set():
            if self.db is None:
                if not self._reconnect(delay):
                    delay = min(2.0, delay * 2)
                    continue
                delay = 0.2
            if not pending:
                pending = self._take()
                idle_due = idle_due or not pending or time.monotonic() - idle_at > 1.0
            if pending:
                pending = self._write_pending(pending)
            if idle_due and self.db is not None:  # (after the records: they never wait for it)
                idle_at, idle_due = time.monotonic(), False
                self._guarded(self._idle)

    def _write_pending(self, pending: list[Msg]) -> list[Msg]:
        """Store a batch; returns what is still to store (the batch is kept while the database
        is away and stored again after the reconnect)."""
        t0 = time.perf_counter()
        try:
            self._store(pending)
            pending = []
        except Exception as e:
            if self._lost(e):
                self._down(e)
            else:  # (not the schema's: a bug or a constraint) each message alone
                log.warning("hub: a batch failed (%s); storing its messages one by one", e)
                self._rollback()
                pending = self._one_by_one(pending)
        self.stats.busy_s += time.perf_counter() - t0
        return pending

    def _take(self) -> list[Msg]:
        try:
            batch = [self.q.get(timeout=0.2)]
        except queue.Empty:
            return []
        while len(batch) < self.MAX_BATCH:
            try:
                batch.append(self.q.get_nowait())
            except queue.Empty:
                break
        self._ack(batch)  # the broker may send the next ones while these are stored
        return batch

    def _guarded(self, fn: Callable[[], None]) -> None:
        try:
            fn()
        except Exception as e:
            if self._lost(e):
                self._down(e)
            else:
                log.exception("hub: %s failed", getattr(fn, "__name__", fn))
                self._rollback()

    def _rollback(self) -> None:
        if self.db is not None:
            try:
                self.db.rollback()
            except Exception as e:
                self._down(e)

    def _one_by_one(self, batch: list[Msg]) -> list[Msg]:
        """Each message of a failed batch in its own transaction; one that fails alone is
        quarantined with the database's words. Returns what is left when the database went."""
        for i, msg in enumerate(batch):
            try:
                self._store([msg])
            except Exception as e:
                if self._lost(e):
                    self._down(e)
                    return batch[i:]
                self._rollback()
                where = topics.parse_table_topic(msg[3]) or ("?", "?")
                try:
                    self.db.execute("INSERT INTO hub_quarantine (table_id, game, n, raw, reason) "
                                    "VALUES (%s, NULL, NULL, %s, %s)",
                                    (where[0], msg[4], f"table {where[0]}: the database "
                                     f"refused a {where[1]} message: {str(e)[:200]}"))
                    self.db.commit()
                    self.stats.quarantined += 1
                except Exception as e2:
                    if self._lost(e2):
                        self._down(e2)
                        return batch[i:]
                    self._rollback()
        return []

    def _ack(self, batch: list[Msg]) -> None:
        for gen, mid, qos, _t, _p in batch:
            if qos and gen == self._gen:
                self.client.ack(mid, qos)

    def _store(self, batch: list[Msg]) -> None:
        from dialtray.hub.intake_msgs import Side

        v = Verdict()
        side = Side(self, v)
        try:
            self._write(batch, v, side)
        except BaseException:
            self.chains.undo(v)  # nothing of the batch is held: the chains as before it
            raise
        self.stats.stored += len(v.rows)
        self.stats.duplicates += v.duplicates
        self.stats.quarantined += len(v.quarantine)
        self.stats.batches += 1
        now = time.monotonic()
        if v.rows and not self.stats.first_at:
            self.stats.first_at = now
        self.stats.last_at = now
        for (table, game), ch in v.touched.items():
            self.send(table, "ack", {"game": game, "n": ch.n})
        for table, game, first in v.asks:
            self.stats.gaps_asked += 1
            self.send(table, "resend", {"game": game, "from": first})
        side.after_commit()
        if self.on_change is not None and side.changed:
            self.on_change(side.changed)

    def _write(self, batch: list[Msg], v: Verdict, side: Any) -> None:
        """The batch in one transaction (the chains advance in memory as records are taken)."""
        for _g, _m, _q, topic, payload in batch:
            where = topics.parse_table_topic(topic)
            if where is None:
                continue
            side.message(*where, payload)
        db = self.db
        if v.rows:  # COPY into a session table, then one idempotent INSERT … SELECT
            with db.cursor() as cur:
                with cur.copy("COPY hub_in (table_id, game, n, kind, content, sha, prev) FROM "
                              "STDIN") as cp:
                    for r in v.rows:
                        cp.write_row(r)
                cur.execute("INSERT INTO hub_records (table_id, game, n, kind, content, sha, "
                            "prev) SELECT table_id, game, n, kind, content, sha, prev FROM hub_in "
                            "ON CONFLICT DO NOTHING")
        self._old_copies(v)  # after the INSERT: an original taken earlier in this batch counts
        if v.touched:
            with db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO hub_heads VALUES (%s, %s, %s, %s) ON CONFLICT (table_id, game) "
                    "DO UPDATE SET n = excluded.n, sha = excluded.sha",
                    [(t, g, ch.n, ch.sha) for (t, g), ch in v.touched.items()])
            for r in v.rows:
                side.stored_row(r)
        quarantine = [q for q in v.quarantine if self._keep_quarantine(q[0])]
        if quarantine:
            with db.cursor() as cur:
                cur.executemany("INSERT INTO hub_quarantine (table_id, game, n, raw, reason) "
                                "VALUES (%s, %s, %s, %s, %s)", quarantine)
        db.commit()

    def _keep_quarantine(self, table: str) -> bool:
        """A table flooding bad messages fills no disk: past the limit they are only counted."""
        n = self._quarantined.get(table, 0) + 1
        self._quarantined[table] = n
        if n == self.QUARANTINE_PER_TABLE:
            log.warning("hub: table %s: %d messages quarantined; further ones are only counted",
                        table, n)
        return n <= self.QUARANTINE_PER_TABLE

    def _old_copies(self, v: Verdict) -> None:
        """Copies of records older than the chains keep in memory: compared with the database,
        once this batch's records are in it (same transaction). Looked up before the INSERT, a
        copy re-sent in the batch that brought its original (more than ``RECENT`` records of
        the game earlier) found nothing and was quarantined as if it differed."""
        wanted: dict[tuple[str, int], set[int]] = {}
        for table, game, n, _s, _p in v.old_copies:
            wanted.setdefault((table, game), set()).add(n)
        stored: dict[tuple[str, int, int], str] = {}
        for (table, game), ns in wanted.items():  # (one look-up per game, not per copy)
            for n, sha in self.db.execute(
                    "SELECT n, sha FROM hub_records WHERE table_id = %s AND game = %s AND "
                    "n = ANY(%s)", (table, game, sorted(ns))):
                stored[(table, game, n)] = sha
        for table, game, n, sha, payload in v.old_copies:
            if stored.get((table, game, n)) == sha:
                v.duplicates += 1
                v.touched[(table, game)] = self.chains.by_key[(table, game)]
            else:
                v.quarantine.append((table, game, n, payload, f"record {n} of game {game} at "
                                     f"table {table} differs from the copy already stored"))
        v.old_copies.clear()

    # ---- when idle: pairings and rulings -------------------------------------------------------

    def _idle(self) -> None:
        self._push_pairings()
        now = time.monotonic()
        if now - self._rulings_checked >= self.RULINGS_AGAIN_S:
            self._rulings_checked = now
            rows = self.db.execute(
                "SELECT r.table_id, r.body, r.sig FROM hub_rulings r JOIN hub_tables t ON "
                "t.id = r.table_id WHERE NOT r.confirmed AND t.presence = 'online' AND "
                "r.at < now() - interval '3 seconds'").fetchall()
            self.db.commit()
            for table, body, sig in rows:  # the durable way back: until it is in the chain
                self.send(table, "ruling", {"body": body, "sig": sig})

    def _push_pairings(self) -> None:
        """A new round's table assignments go to the tables (each with both squads, so the
        table loads the pairing's figures), once per round; a cancelled round's tables are told."""
        now = time.monotonic()
        if now - self._pairings_checked < 1.0:
            return
        self._pairings_checked = now
        rnd = results.open_round(self.db)
        if rnd == self.pushed_round:
            self.db.commit()
            return
        squads = {p: sq for p, _name, sq in self.db.execute(
            "SELECT id, name, squad FROM hub_players")}
        mrow = self.db.execute("SELECT minutes, EXTRACT(EPOCH FROM started) FROM hub_rounds "
                               "WHERE n = %s", (rnd,)).fetchone() if rnd else None
        mins = mrow[0] if mrow else None
        pairs = self.db.execute("SELECT table_id, a, b FROM hub_pairings WHERE round = %s AND "
                                "table_id IS NOT NULL AND vp_a IS NULL", (rnd,)).fetchall() \
            if rnd else []
        self.db.commit()
        self.round_ends = float(mrow[1]) + 60 * int(mins) if mrow and mins else None
        old = self.pairings
        self.pairings = {table: {
            "round": rnd, "minutes": mins, "seats": [["A", a], ["B", b]],
            "squads": {a: squads.get(a, []), b: squads.get(b, [])}}
            for table, a, b in pairs}
        old_round = next(iter(old.values()))["round"] if old else None
        if old_round is not None and (rnd is None or rnd < old_round):  # cancelled
            for table in old:
                self.send(table, "pairing", {"round": old_round, "cancelled": True})
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

    def resend_rulings(self, table: str) -> None:
        """Rulings whose ``ruling`` record has not come back in the table's chain go again (the
        table keeps one per call)."""
        for body, sig in self.db.execute(
                "SELECT body, sig FROM hub_rulings WHERE table_id = %s AND NOT confirmed",
                (table,)).fetchall():
            self.send(table, "ruling", {"body": body, "sig": sig})
