"""A table at an event, inside ``dialtray play --event`` / ``serve --event`` (issue 17).

The game never waits for the network: its store fills the outbox in each record's own
transaction (the SQLite trigger of ``hub.table``) and ``TableLink`` empties it from its own
thread; everything here is called from the game's loop and returns at once.

What the table adds to the link, reading the tracker only through its public view:

* **live state** (phase, dials, flags, the round's time left) on the retained ``state`` topic,
  at most every ``STATE_EVERY_S`` and only when it changed;
* **judge calls**: the roll button held ``HOLD_S`` seconds (the tray reports the press and the
  release; the host times the hold), or a call made by the program (``judge NOTE`` at play's
  prompt, the table screen's button). The last call is *pending* until a ruling from the hub
  reaches the table (the hub's answer: a ``note`` ruling closes a call with words only); the
  screen's button makes no second call while one is pending (``call_judge(once=True)``);
* **the round**: the hub's table assignment (both players' squadrons; ``table.event`` builds
  the game from it) and its timer — the event's time limit (AC-M67 (2), AA-M53 (2)): when it
  runs out the table ends the game with the rules' own time-limit decision as soon as the rules
  take it (between actions, dials agreeing);
* **rulings** signed by the hub, checked, stored in the table's game and shown.
"""

from __future__ import annotations

import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from dialtray.hub.table import Broker, TableLink, install_trigger, remove_trigger, wake_after_commit
from dialtray.link.messages import ButtonPressed, ButtonReleased, TrayEvent

log = logging.getLogger(__name__)

HOLD_S = 3.0  # the roll button held this long calls the judge
STATE_EVERY_S = 0.1  # the live state at most this often per table (the page follows it)
TIME_END = {"airaction": "end time", "aces": "endgame time"}
"""The rules' own decision that ends a game at the time limit: AA-M53 (2), AC-M67 (2)."""
HOLD_NOTE = "the roll button was held 3 s at the table"


class EventError(ValueError):
    """A bad ``--event`` URL or credentials file; the message names what is wrong."""


@dataclass(frozen=True)
class EventAddress:
    host: str
    port: int
    event: str | None  # None: the credentials' event


def parse_url(text: str) -> EventAddress:
    """``mqtt://HOST[:PORT][/EVENT]`` (port 1883 by default)."""
    u = urlsplit(text)
    if u.scheme != "mqtt" or not u.hostname:
        raise EventError(f"expected mqtt://HOST[:PORT][/EVENT], e.g. mqtt://hub.local:1883/"
                         f"spring, not {text!r}")
    try:
        port = u.port or 1883
    except ValueError as e:
        raise EventError(f"{text!r}: the port is not a number 0..65535") from e
    if u.username or u.password:
        raise EventError(f"{text!r}: no password in the URL (it would show in the process "
                         "list); the table's credentials come from --creds")
    event = u.path.strip("/") or None
    if event is not None and not event.replace("-", "").replace("_", "").isalnum():
        raise EventError(f"{text!r}: the event's name is letters, digits, - and _")
    return EventAddress(u.hostname, port, event)


def load_creds(path: Path) -> dict[str, Any]:
    """The JSON ``dialtray hub enroll TABLE`` prints: table, password, ruling_key, event."""
    try:
        creds = json.loads(path.read_text())
        if not isinstance(creds, dict):
            raise TypeError("not a JSON object")
        out = {"table": str(creds["table"]), "password": str(creds["password"]),
               "ruling_key": bytes.fromhex(creds["ruling_key"]),
               "event": creds.get("event")}
    except OSError as e:
        raise EventError(f"{path}: {e.strerror or e}") from e
    except (ValueError, KeyError, TypeError) as e:
        raise EventError(f"{path}: not the JSON `dialtray hub enroll` prints ({e})") from e
    return out


class EventTable:
    """One table's side of an event: ``start()``, ``track(gid)``, ``step(...)`` from the game's
    loop, ``stop()``."""

    def __init__(self, db: Path, address: EventAddress, creds: dict[str, Any], *,
                 hold_s: float = HOLD_S, clock: Callable[[], float] = time.monotonic) -> None:
        event = address.event or creds.get("event")
        if address.event and creds.get("event") and address.event != creds["event"]:
            raise EventError(f"the URL names event {address.event!r}, the credentials "
                             f"{creds['event']!r} (they were made for that one)")
        if not event:
            raise EventError("the event's name is neither in the URL (mqtt://HOST:PORT/EVENT) "
                             "nor in the credentials")
        self.db, self.event, self.table = db, str(event), str(creds["table"])
        self.hold_s, self.clock = hold_s, clock
        self.link = TableLink(db, self.event, self.table,
                              Broker(address.host, address.port, self.table, creds["password"]),
                              creds["ruling_key"], self._ruling, on_pairing=self._pairing,
                              on_callack=self._callack)
        self.gid: int | None = None
        self.calls: list[str] = []  # judge calls made (the notes)
        self.messages: queue.SimpleQueue[str] = queue.SimpleQueue()  # for the players
        self.assignment: dict[str, Any] | None = None
        self.deadline: float | None = None  # the round's end on this table's clock
        self.time_ended = False
        self.states = 0  # live states published
        self._got_pairing = threading.Event()
        self._lock = threading.Lock()
        self._press = 0  # bumped by each press and release: a hold timer checks it is current
        self._state_at = -1e9  # when the live state was last sent
        self._state = ""
        self._sig: tuple[Any, ...] = ()  # what it was built from
        self._time_tried = -1e9
        self._session: Any = None
        self._lockfile: Any = None
        self._unwake: Callable[[], None] = lambda: None
        self.pending: dict[str, Any] | None = None  # the call waiting for the judge's answer
        self.answered: dict[str, Any] | None = None  # the last ruling that reached the table

    # ---- life -----------------------------------------------------------------------------------

    def start(self) -> EventTable:
        """Raises EventError when another table's program already uses this data directory
        (two tables on one store would send, and acknowledge away, each other's games)."""
        self._lockfile = lock_store(self.db, self.table)
        install_trigger(self.db, backfill=False)  # (records of this game onwards: track())
        self._unwake = wake_after_commit(self.db, self.link.wake)  # (no record waits a poll)
        self.link.start()
        return self

    def reached_broker(self) -> bool:
        """Whether the link has ever been connected to the event's broker this run."""
        return self.link.stats.connects > 0

    def track(self, gid: int) -> None:
        """The game this table plays: its records already stored go to the outbox too."""
        self.gid = gid
        with sqlite3.connect(self.db, timeout=30) as conn:
            conn.execute("INSERT OR IGNORE INTO hub_outbox SELECT game_id, n FROM records "
                         "WHERE game_id = ?", (gid,))
        self.link.wake()

    def announce(self, data: dict[str, Any]) -> None:
        """For a game started by another program's recorder (``serve``): an ``event`` record
        (event, round, the seats' players) in its chain, for the hub's results."""
        from dialtray.store.db import GameStore

        if self.gid is None:
            raise ValueError("announce: track(gid) first")
        with GameStore.open(self.db) as st:  # (chained at commit after the game's own records)
            st.append(self.gid, "event", data)
            st.commit()

    def watch(self, session: Any) -> None:
        """Follow the tray's roll button (``TraySession.subscribe``: the link's thread)."""
        self._session = session
        session.subscribe(self.tray_event)

    def stop(self, flush_s: float = 5.0) -> int:
        """Give the link up to ``flush_s`` to hand the last records over (never longer: the
        rest waits in the outbox for the next run); returns how many still wait."""
        if self._session is not None:
            self._session.unsubscribe(self.tray_event)
        end = time.monotonic() + flush_s
        left = self.link.outstanding()
        while left and self.link.connected.is_set() and time.monotonic() < end:
            time.sleep(0.05)
            left = self.link.outstanding()
        self._press += 1  # a hold timer still running calls nobody
        self._unwake()
        self.link.stop()
        remove_trigger(self.db)
        if self._lockfile is not None:
            self._lockfile.close()  # (releases the lock)
            self._lockfile = None
        return left

    # ---- the round ------------------------------------------------------------------------------

    def _pairing(self, body: dict[str, Any]) -> None:  # paho's thread
        left = body.get("left_s")
        if body.get("cancelled"):
            with self._lock:
                if self.assignment is not None and \
                        self.assignment.get("round") == body.get("round"):
                    self.assignment, self.deadline = None, None
            self.messages.put(f"the organiser cancelled round {body.get('round')}: this "
                              "table's assignment is withdrawn")
            return
        with self._lock:
            self.assignment = body
            if isinstance(left, (int, float)):
                self.deadline = self.clock() + float(left)
        self._got_pairing.set()

    def wait_assignment(self, timeout: float) -> dict[str, Any] | None:
        """The hub's assignment of this table for the current round (None: none in time)."""
        self._got_pairing.wait(timeout)
        with self._lock:
            return self.assignment

    def left_s(self) -> float | None:
        with self._lock:
            return None if self.deadline is None else max(0.0, self.deadline - self.clock())

    # ---- the roll button ------------------------------------------------------------------------

    def tray_event(self, ev: TrayEvent) -> None:
        if isinstance(ev, ButtonPressed):
            self._press += 1
            t = threading.Timer(self.hold_s, self._held, (self._press,))
            t.daemon = True
            t.start()
        elif isinstance(ev, ButtonReleased):
            self._press += 1

    def _held(self, press: int) -> None:
        if press == self._press:  # not released (nor pressed again) since
            self.call_judge(HOLD_NOTE)

    def call_judge(self, note: str, *, once: bool = False) -> bool:
        """Call the judge; with ``once`` (the screen's button) not while a call is pending
        (returns False, nothing sent). The hub's answer is the next ruling that reaches the
        table (its calls are numbered at the hub, so one call pends at a time)."""
        with self._lock:
            if once and self.pending is not None:
                return False
            self.pending = {"note": note, "at": time.time()}
            pending = self.pending
        pending["uid"] = self.link.call_judge(self.gid, note)  # (kept until the hub has it)
        self.messages.put(f"judge called ({note})" + (
            "" if self.link.connected.is_set() else
            "; the hub is not reachable now: the call goes when it is"))
        self.calls.append(note)  # (last: tests wait on it)
        return True

    def _callack(self, uid: str, call: int) -> None:  # the link's thread
        """The hub has the call (its number ``call``): the ruling on it answers it."""
        with self._lock:
            if self.pending is not None and self.pending.get("uid") == uid:
                self.pending["call"] = call

    def call_status(self) -> dict[str, Any]:
        """For the table's screen: the pending call, the last answer, the link's state."""
        with self._lock:
            pending, answered = self.pending, self.answered
        return {"event": self.event, "table": self.table, "game": self.gid,
                "connected": self.link.connected.is_set(), "pending": pending,
                "answered": answered}

    # ---- rulings --------------------------------------------------------------------------------

    def _ruling(self, body: dict[str, Any]) -> None:  # paho's thread; the signature checked
        from dialtray.store.db import GameStore, StoreError

        try:
            with GameStore.open(self.db) as st:
                gid = int(body["game"])
                if any(json.loads(c)["data"].get("call") == body.get("call") for (c,) in
                       st.conn.execute("SELECT content FROM records WHERE game_id = ? AND "
                                       "kind = 'ruling'", (gid,))):
                    return  # sent again (the hub had not yet seen it stored): kept once
                st.append(gid, "ruling", body)
                st.commit()
            with self._lock:  # the hub answered: the table may call again
                if self.pending is None or self.pending.get("call") in (None, body.get("call")):
                    self.pending = None
                self.answered = {k: body.get(k) for k in ("call", "ruling", "args", "why")}
                self.answered["at"] = time.time()
            self.messages.put(f"the judge ruled: {body.get('ruling')} {body.get('args')} "
                              f"({body.get('why')}) — stored with game {body['game']}")
        except (StoreError, KeyError, ValueError, TypeError) as e:
            self.messages.put(f"a ruling from the hub could not be stored: {e}")

    # ---- the game's loop ------------------------------------------------------------------------

    def holds_play(self) -> bool:
        """The round's time is up and the game not yet ended by it: the table's bots start no
        new decision (``Hands(hold=…)``), so the time-limit decision finds the dials agreeing."""
        return self.left_s() == 0 and not self.time_ended

    def step(self, table: Any, say: Callable[[str], None]) -> None:
        """From the game's loop (the table's thread), never blocking: hand on messages,
        publish the live state when due, end the game when the round's time is up.

        ``table``: the front end's ``dialtray.table.Table`` (``play``, ``serve``), whose view
        the live state shows and through which the time-limit decision is taken (stored and
        narrated as the table's); a bare tracker is observed the same way (tests, a table not
        yet seated)."""
        tracker = getattr(table, "t", table)
        game_table = table if tracker is not table else None
        while True:
            try:
                say(self.messages.get_nowait())
            except queue.Empty:
                break
        now = self.clock()
        left = self.left_s()
        if left == 0 and not self.time_ended and now - self._time_tried > 0.5:
            self._time_tried = now
            self._end_at_time(game_table or tracker, now, say)
        sig = signature(tracker, left)
        if sig != self._sig and now - self._state_at >= STATE_EVERY_S:  # (a change made too
            self._sig = sig  # soon after the last goes at the next step that may send)
            state = live_state(tracker, self.gid, left)
            if game_table is not None:
                state.update(table_view(game_table))
            if self.publish(state):
                self._state_at = now

    def publish(self, state: dict[str, Any]) -> bool:
        text = json.dumps(state, sort_keys=True)
        if text == self._state:
            return False
        self._state = text
        self.link.publish_state(state)
        self.states += 1
        return True

    def _end_at_time(self, table: Any, now: float, say: Callable[[str], None]) -> None:
        """``table``: a ``dialtray.table.Table`` (the decision is the table's own) or a bare
        tracker."""
        game = table.game
        if game.outcome() is not None:
            self.time_ended = True
            return
        text = TIME_END.get(game.kind)
        if text is None:
            self.time_ended = True
            say(f"the round's time is up, but {game.kind} has no time-limit decision: "
                "end the game by hand")
            return
        r = table.decide_as_table(text) if hasattr(table, "decide_as_table") else \
            table.decide(text, now)
        if r.ok:
            self.time_ended = True
            rule = "AC-M67 (2)" if game.kind == "aces" else "AA-M53 (2)"
            say(f"the round's time is up: the game ends ({text}, {rule})")


def lock_store(db: Path, table: str) -> Any:
    """An exclusive lock beside the store (``STORE.hub-lock``) for this table's program; the
    open file holds it (closing it releases it, as does the process' end)."""
    import fcntl
    import os

    path = db.with_name(db.name + ".hub-lock")
    f = open(path, "a+")  # noqa: SIM115 (held open for the run: the lock lives with it)
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        other = f.read().strip() or "another table"
        f.close()
        raise EventError(f"{db}: {other} already uses this data directory at an event; each "
                         "table needs its own (--data-dir), or two tables would lose each "
                         "other's games") from None
    f.seek(0)
    f.truncate()
    f.write(f"table {table} (process {os.getpid()})")
    f.flush()
    return f


def signature(tracker: Any, left_s: float | None) -> tuple[Any, ...]:
    """Cheap to take at every step: when it changes, the live state may have (building the
    view lists the legal decisions, so it is built only then)."""
    return (tracker.events_seen, len(tracker.game.history), len(tracker.flags),
            len(tracker.open_flags()), len(tracker.confirmed), tracker.phase,
            None if left_s is None else round(left_s))


def live_state(tracker: Any, gid: int | None, left_s: float | None) -> dict[str, Any]:
    """What the hub page's board shows of a table: built from the tracker's public view."""
    v = tracker.view()
    sd = tracker.game.state_dict()
    turn = sd.get("turn_number", sd.get("turn"))
    nested = sd.get("turn") if isinstance(sd.get("turn"), dict) else {}
    sub = sd.get("phase") or nested.get("phase", "")
    phase = v.phase if v.phase != "play" else f"turn {turn} {sub}".strip()
    if v.outcome:
        phase = f"over: {v.outcome}"
    return {
        "game": gid, "kind": tracker.game.kind, "phase": phase, "to_move": v.to_move,
        "dials": {f"{d.figure} {d.kind}": d.click for d in v.docks},
        "due": {f"{d.figure} {d.kind}": d.turn for d in v.docks if d.turn},
        "flags": list(v.flags), "waiting": list(v.waiting_for[:3]), "actions": v.history,
        "vp": v.vp, "left_s": None if left_s is None else round(left_s)}


def table_view(table: Any) -> dict[str, Any]:
    """What the table's own view adds for the hub page: the game's title, the turn and phase as
    the players see them, who moves (person, bot or the table), the end with its score rows."""
    v = table.view()
    out: dict[str, Any] = {"title": v.title, "turn": v.turn, "mover": v.mover,
                           "narration": list(table.narration[-3:])}
    if v.over is not None:
        out["over"] = {"termination": v.over.termination, "winner": v.over.winner,
                       "scores": [list(r) for r in v.over.scores]}
    return out
