"""The table side of an event: the outbox and the link that empties it (issue 17).

``Outbox.install(store)`` adds a ``hub_outbox`` table to the table's own SQLite store (owned by the
hub package, created if missing) and a commit hook on the ``GameStore``: every record the store
commits gets an outbox row *in the same transaction* (``GameStore.commit_hooks``). The game never
waits for the network: ``TableLink`` runs in its own thread with its own SQLite connection,
publishes each outbox record (QoS 1) while the broker is reachable, and deletes outbox rows only
when the hub acknowledges that it stored them. After any reconnect, or when the hub goes quiet
with records outstanding, it publishes again everything not yet confirmed; the hub keeps each
record once. Presence is a retained message whose Last Will says ``offline``.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dialtray.hub import topics
from dialtray.store.db import GameStore, StoreError

log = logging.getLogger(__name__)

OUTBOX_SQL = ("CREATE TABLE IF NOT EXISTS hub_outbox (game INTEGER NOT NULL, n INTEGER NOT NULL, "
              "PRIMARY KEY (game, n)) WITHOUT ROWID")


CALLS_SQL = ("CREATE TABLE IF NOT EXISTS hub_calls_out (uid TEXT PRIMARY KEY, game INTEGER, "
             "note TEXT NOT NULL, at REAL NOT NULL, hub_call INTEGER)")
"""Judge calls wait here until the hub acknowledges them (``callack``, naming the hub's number
for the call): a call made while the broker or the hub is away goes when it is back."""

FIRSTS_SQL = ("WITH RECURSIVE g(game) AS (SELECT MIN(game) FROM hub_outbox UNION ALL "
              "SELECT (SELECT MIN(game) FROM hub_outbox WHERE game > g.game) FROM g "
              "WHERE g.game IS NOT NULL) "
              "SELECT game, (SELECT MIN(n) FROM hub_outbox o WHERE o.game = g.game) FROM g "
              "WHERE game IS NOT NULL")
"""Each game in the outbox with its first record not acknowledged, by index look-ups alone (a
skip over the primary key): ``GROUP BY game`` or ``DISTINCT`` read every outbox row, at every
step of the link — with 60 000 records waiting per table that was the link's whole CPU."""

TRIGGER_SQL = ("CREATE TRIGGER IF NOT EXISTS hub_outbox_fill AFTER INSERT ON records BEGIN "
               "INSERT OR IGNORE INTO hub_outbox VALUES (new.game_id, new.n); END")


def install_trigger(db: Path, backfill: bool = True) -> int:
    """For a store written by another process (``dialtray play``/``serve``/``judge``): an SQLite
    trigger fills the outbox inside each transaction that inserts records — the same guarantee
    as the commit hook, whatever program commits. ``backfill`` queues the records already
    stored (the hub keeps each once). Returns how many records the outbox holds."""
    with sqlite3.connect(db, timeout=30) as conn:
        conn.execute(OUTBOX_SQL)
        conn.execute(TRIGGER_SQL)
        if backfill:
            conn.execute("INSERT OR IGNORE INTO hub_outbox SELECT game_id, n FROM records")
        return int(conn.execute("SELECT COUNT(*) FROM hub_outbox").fetchone()[0])


def remove_trigger(db: Path) -> None:
    """The table has left the event: games played from now on are not the event's (what the
    outbox still holds goes at the next ``--event`` or ``dialtray hub table``)."""
    with sqlite3.connect(db, timeout=30) as conn:
        conn.execute("DROP TRIGGER IF EXISTS hub_outbox_fill")


def ruling_storer(db: Path, say: Callable[[str], None]) -> Callable[[dict[str, Any]], None]:
    """What a table does with a judge's ruling from the hub (``TableLink``'s ``on_ruling``):
    store it with its game in the table's database ``db`` too, and ``say`` what it was (or
    why it could not be stored)."""

    def store_ruling(body: dict[str, Any]) -> None:
        try:
            with GameStore.open(db) as st:
                st.append(int(body["game"]), "ruling", body)
                st.commit()
            say(f"ruling on game {body['game']}: {body['ruling']} {body['args']} "
                f"({body['why']})")
        except (StoreError, KeyError, ValueError) as e:
            say(f"a ruling could not be stored: {e}")

    return store_ruling


class Outbox:
    """The store's commit hook: each committed record's (game, n) is queued for the hub, and
    the link woken once the transaction is committed (before COMMIT it would find nothing)."""

    def __init__(self, wake: Callable[[], None] | None = None) -> None:
        self.wake = wake
        self.forget: Callable[[], None] = lambda: None  # stops the wake (the table closed)

    @classmethod
    def install(cls, store: GameStore, wake: Callable[[], None] | None = None) -> Outbox:
        store.conn.execute(OUTBOX_SQL)
        box = cls(wake)
        store.commit_hooks.append(box.hook)
        if wake is not None:
            box.forget = wake_after_commit(store.path, wake)
        return box

    def hook(self, conn: sqlite3.Connection, rows: list[tuple[Any, ...]]) -> None:
        conn.executemany("INSERT OR IGNORE INTO hub_outbox VALUES (?, ?)",
                         [(r[0], r[1]) for r in rows])


@functools.lru_cache(maxsize=1024)
def _real(path: str) -> str:
    return os.path.realpath(path)


def wake_after_commit(db: Path, wake: Callable[[], None]) -> Callable[[], None]:
    """``wake()`` after every COMMIT of any ``GameStore`` of this process on ``db`` (the
    outbox trigger's transactions included); returns the function that stops it. Another
    process' commits are found by the link's poll."""
    where = _real(str(db))

    def told(path: Path) -> None:
        if _real(str(path)) == where:
            wake()

    GameStore.after_commit.append(told)

    def forget() -> None:
        with contextlib.suppress(ValueError):
            GameStore.after_commit.remove(told)

    return forget


@dataclass
class Broker:
    host: str
    port: int
    user: str
    password: str


@dataclass
class LinkStats:
    published: int = 0
    confirmed: int = 0
    connects: int = 0
    refused: int = 0  # publishes the broker refused (MQTT v5 reason code)
    rulings: list[dict[str, Any]] = field(default_factory=list)
    bad_rulings: int = 0
    pairings: list[dict[str, Any]] = field(default_factory=list)
    calls_sent: int = 0
    calls_acked: int = 0
    most_ahead: int = 0  # the most records of one game out unacknowledged (≤ WINDOW)


class TableLink:
    """Publishes a table's outbox to the event's broker, in its own thread.

    At most ``WINDOW`` records of a game are out beyond the first one the hub has not
    acknowledged; the rest stay in the outbox (on disk) and are read as acknowledgements move it
    on, and paho is handed nothing more while it still holds the last record it was given
    (``_in_paho``). Before, every unacknowledged record went into paho's memory, again at each
    re-send: +104 MB for 100 000 records waiting with the hub away 11 s, ~400 MB per process
    of 8 tables in a 1 M-record catch-up; now +20 MB (bench/bench_hub_memory.py). A re-send
    waits ``RETRY_S`` without an ack, longer (to ``RETRY_MAX_S``) when the hub acks slowly or a
    re-send brought nothing: a fixed 3 s had 16 tables send 1.7 M duplicates to a hub busy
    catching up on 1 M records."""

    BATCH = 400
    WINDOW = 2000  # records of a game published beyond the first the hub has not acknowledged
    POLL_S = 0.2  # a look at the outbox without a wake: for commits of another process
    RETRY_S = 3.0  # records outstanding and no ack for this long: publish them again
    RETRY_MAX_S = 30.0  # (the patience grows with a slow hub's gaps between acks, to this)

    def __init__(self, db: Path, event: str, table: str, broker: Broker,
                 ruling_key: bytes | None = None,
                 on_ruling: Callable[[dict[str, Any]], None] | None = None,
                 on_pairing: Callable[[dict[str, Any]], None] | None = None,
                 on_callack: Callable[[str, int], None] | None = None) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.db, self.event, self.table, self.broker = db, event, table, broker
        self.ruling_key = ruling_key
        self.on_ruling = on_ruling
        self.on_pairing = on_pairing
        self.on_callack = on_callack
        self._callacks: list[tuple[str, int]] = []
        self._calls_sent: dict[str, float] = {}  # uid → when published on this connection
        self.stats = LinkStats()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._cursor: dict[int, int] = {}  # game → highest n published on this connection
        self._acks: list[tuple[int, int]] = []
        self._resend: list[tuple[int, int]] = []
        self._last_progress = time.monotonic()
        self._patience = self.RETRY_S  # no ack for this long: send again (see _step)
        self._last_info: Any = None  # paho's MQTTMessageInfo of the last record published
        self._last_pub_at = 0.0
        self._held = False  # the link waits for paho to hand its last record to the broker
        self.connected = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{event}-{table}",
                        protocol=mqtt.MQTTv5)
        c.username_pw_set(broker.user, broker.password)
        c.will_set(topics.table_topic(event, table, "presence"), b"offline", qos=1, retain=True)
        c.max_inflight_messages_set(200)
        c.reconnect_delay_set(1, 2)
        topics.no_delay(c)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_subscribe = self._on_subscribe
        c.on_message = self._on_message
        c.on_publish = self._on_publish
        self.client = c
        self.thread = threading.Thread(target=self._run, name=f"hub-link-{table}", daemon=True)

    def wake(self) -> None:
        self._wake.set()

    # ---- paho callbacks (its network thread) --------------------------------------------------

    def _on_connect(self, client: Any, _u: Any, _f: Any, rc: Any, _p: Any = None) -> None:
        if rc.is_failure:
            log.warning("%s: the broker refused the connection: %s", self.table, rc)
            return
        self.stats.connects += 1
        # `online` only once the subscription is in place (_on_subscribe): the hub answers it
        # at once (the assignment, rulings), and a QoS 1 message reaches subscribers only
        client.subscribe(topics.cmd_topic(self.event, self.table, "#"), qos=1)
        with self._lock:
            self._cursor.clear()  # everything unconfirmed goes again
            self._calls_sent.clear()
        self._last_info = None  # (what paho kept from the last connection is not waited for)
        self.connected.set()
        self._wake.set()

    def _on_subscribe(self, client: Any, _u: Any, _mid: int, codes: Any, _p: Any = None) -> None:
        """The broker holds the subscription to the hub's commands (SUBACK): now say `online`.
        Said before it, the hub's immediate answer (the table's assignment) could reach the
        broker ahead of the SUBSCRIBE and be dropped, and the table wait out `--wait`."""
        if any(c.is_failure for c in codes):
            log.warning("%s: the broker refused the subscription to the hub's commands: %s",
                        self.table, codes)
        client.publish(topics.table_topic(self.event, self.table, "presence"), b"online",
                       qos=1, retain=True)

    def _on_disconnect(self, _c: Any, _u: Any, _f: Any, _rc: Any, _p: Any = None) -> None:
        self.connected.clear()

    def _on_publish(self, _c: Any, _u: Any, _mid: int, rc: Any, _p: Any) -> None:
        if rc.is_failure:
            self.stats.refused += 1
        if self._held:  # the link waits for paho's queue to empty
            self._held = False
            self._wake.set()

    def _on_message(self, _c: Any, _u: Any, msg: Any) -> None:
        what = msg.topic.rsplit("/", 1)[-1]
        try:
            body = json.loads(msg.payload)
        except ValueError:
            log.warning("%s: a message from the hub that is not JSON on %s", self.table,
                        msg.topic)
            return
        if not isinstance(body, dict):
            return
        if what == "ack":
            with self._lock:
                self._acks.append((int(body["game"]), int(body["n"])))
        elif what == "resend":
            with self._lock:
                self._resend.append((int(body["game"]), int(body["from"])))
        elif what == "ruling":
            self._ruling(body)
        elif what == "callack":
            if isinstance(body.get("id"), str) and isinstance(body.get("call"), int):
                with self._lock:
                    self._callacks.append((body["id"], body["call"]))
        elif what == "pairing":
            self.stats.pairings.append(body)
            if self.on_pairing is not None:
                self.on_pairing(body)
        self._wake.set()

    def _ruling(self, msg: dict[str, Any]) -> None:
        body, sig = msg.get("body"), msg.get("sig")
        if (self.ruling_key is None or not isinstance(body, dict) or not isinstance(sig, str)
                or not topics.signed_ok(self.ruling_key, body, sig)):
            self.stats.bad_rulings += 1
            log.warning("%s: a ruling whose signature does not check was ignored", self.table)
            return
        self.stats.rulings.append(body)
        if self.on_ruling is not None:
            self.on_ruling({**body, "sig": sig})

    # ---- the link's thread --------------------------------------------------------------------

    def start(self) -> TableLink:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=5)
        self.client.loop_start()
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self.thread.join(10)
        if self.connected.is_set():  # a clean goodbye sends no Last Will: say it
            with contextlib.suppress(RuntimeError, ValueError):  # (the link went meanwhile)
                self.client.publish(topics.table_topic(self.event, self.table, "state"), b"",
                                    qos=1, retain=True)  # (no live state left behind)
                self.client.publish(topics.table_topic(self.event, self.table, "presence"),
                                    b"offline", qos=1, retain=True).wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()

    def outstanding(self) -> int:
        with sqlite3.connect(self.db) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM hub_outbox").fetchone()[0])

    def call_judge(self, game: int | None, note: str) -> str:
        """A judge call (the command, the web button, or the roll button held 3 s): kept in
        the table's SQLite file until the hub acknowledges it, sent whenever the link is up.
        Returns the call's id at the table."""
        uid = secrets.token_hex(8)
        conn = sqlite3.connect(self.db, timeout=30)
        try:
            with conn:
                conn.execute(CALLS_SQL)
                conn.execute("INSERT INTO hub_calls_out VALUES (?, ?, ?, ?, NULL)",
                             (uid, game, note, time.time()))
        finally:
            conn.close()
        self._wake.set()
        return uid

    def calls_waiting(self) -> int:
        """Judge calls the hub has not acknowledged yet."""
        conn = sqlite3.connect(self.db, timeout=30)
        try:
            conn.execute(CALLS_SQL)
            return int(conn.execute("SELECT COUNT(*) FROM hub_calls_out WHERE hub_call IS "
                                    "NULL").fetchone()[0])
        finally:
            conn.close()

    def publish_state(self, state: dict[str, Any]) -> None:
        self.client.publish(topics.table_topic(self.event, self.table, "state"),
                            json.dumps(state).encode(), qos=0, retain=True)

    def _run(self) -> None:
        conn = sqlite3.connect(self.db, timeout=30)
        conn.execute(OUTBOX_SQL)
        conn.execute(CALLS_SQL)
        try:
            while not self._stop.is_set():
                self._wake.wait(self.POLL_S)
                self._wake.clear()
                try:
                    self._step(conn)
                except sqlite3.OperationalError as e:  # the game holds the lock: next time
                    log.debug("%s: outbox busy: %s", self.table, e)
        finally:
            conn.close()

    def _send_calls(self, conn: sqlite3.Connection) -> None:
        now = time.monotonic()
        for uid, game, note, at in conn.execute(
                "SELECT uid, game, note, at FROM hub_calls_out WHERE hub_call IS NULL"):
            with self._lock:
                if now - self._calls_sent.get(uid, -1e9) < self.RETRY_S:
                    continue
                self._calls_sent[uid] = now
            info = self.client.publish(
                topics.table_topic(self.event, self.table, "call"),
                json.dumps({"id": uid, "game": game, "note": note, "at": at}).encode(), qos=1)
            if info.rc != 0:
                return
            self.stats.calls_sent += 1

    def _in_paho(self) -> bool:
        """Whether the last record published is still in paho's hands (not yet acknowledged
        by the broker): then nothing more is handed over, so paho's queue holds at most one
        step's records, however often the link sends again (``_on_publish`` wakes the link
        when it goes). A message paho still holds after ``RETRY_S`` is not waited for."""
        info = self._last_info
        if info is None or time.monotonic() - self._last_pub_at > self.RETRY_S:
            return False
        self._held = True  # (before looking: a PUBACK arriving meanwhile wakes the link)
        try:
            if not info.is_published():
                return True
        except (ValueError, RuntimeError):  # (the message was refused: not in paho's hands)
            pass
        self._held = False
        return False

    def _step(self, conn: sqlite3.Connection) -> None:
        with self._lock:
            acks, self._acks = self._acks, []
            resend, self._resend = self._resend, []
            callacks, self._callacks = self._callacks, []
        if callacks:
            with conn:
                for uid, call in callacks:
                    cur = conn.execute("UPDATE hub_calls_out SET hub_call = ? WHERE uid = ? AND "
                                       "hub_call IS NULL", (call, uid))
                    self.stats.calls_acked += cur.rowcount
            for uid, call in callacks:
                if self.on_callack is not None:
                    self.on_callack(uid, call)
        if acks:
            with conn:
                for game, n in acks:
                    cur = conn.execute("DELETE FROM hub_outbox WHERE game = ? AND n <= ?",
                                       (game, n))
                    self.stats.confirmed += cur.rowcount
            now = time.monotonic()
            self._patience = min(self.RETRY_MAX_S,  # (a busy hub acks seldom: wait for it)
                                 max(self.RETRY_S, 3 * (now - self._last_progress)))
            self._last_progress = now
        if not self.connected.is_set() or self._in_paho():
            with self._lock:
                self._resend[:0] = resend  # (kept for the step that sends)
            return
        with self._lock:
            for game, first in resend:
                self._cursor[game] = min(self._cursor.get(game, 0), first - 1)
            if time.monotonic() - self._last_progress > self._patience:
                self._cursor.clear()  # everything unacknowledged again, and longer to wait
                self._last_progress = time.monotonic()  # next time if still nothing comes
                self._patience = min(self.RETRY_MAX_S, 2 * self._patience)
            cursor = dict(self._cursor)
        self._send_calls(conn)
        low: dict[int, int] = dict(conn.execute(FIRSTS_SQL))
        if not low and not resend:  # nothing outstanding: the wait for an ack starts anew
            self._last_progress = time.monotonic()
        for game, n in resend:  # (or the first the hub asks for again)
            low[game] = min(low.get(game, n), n)
        for game, lo in low.items():
            after = cursor.get(game, 0)
            rows = conn.execute(
                "SELECT n, kind, content, sha, prev FROM records WHERE game_id = ? AND n > ? "
                "AND n >= ? AND n < ? ORDER BY n LIMIT ?",
                (game, after, lo, lo + self.WINDOW, self.BATCH)).fetchall()
            for n, kind, content, sha, prev in rows:
                info = self.client.publish(
                    topics.table_topic(self.event, self.table, "rec"),
                    topics.encode_record(game, n, kind, bytes(content), sha, prev, self.table,
                                         self.event), qos=1)
                if info.rc != 0:  # the connection went: start again on the next connect
                    return
                self._last_info, self._last_pub_at = info, time.monotonic()
                self.stats.published += 1
                self.stats.most_ahead = max(self.stats.most_ahead, n - lo + 1)
                with self._lock:
                    self._cursor[game] = max(self._cursor.get(game, 0), n)
            if len(rows) == self.BATCH:
                self._wake.set()
