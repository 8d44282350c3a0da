"""The table's thread: the one thread that touches the tracker (it is single-threaded).

It drives the table (``dialtray.table.Table``: the bots at their pace, the bookkeeping nobody
objected to) over the tray's events fed into the tracker through the store's recorder (every
event stored, then fed), runs the page's requests (a decision, a turn of a virtual dial, the
seats, a ruling) between two pumps, and after each pump publishes the page's state when it
changed. A judge's ruling (the page's, or ``dialtray judge``'s from
another process) is stored, then applied to the live tracker by the recorder's
``RecordingTracker`` (``tracker.rulings``) and shown on the page. ``received`` in a state is
the wall-clock time the first tray click behind it reached the host (the bench measures
event → page from it).
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, cast

from dialtray.link.messages import Click, TrayEvent
from dialtray.link.session import TraySession
from dialtray.rules.core.dials import Dial
from dialtray.store.recorder import GameRecorder
from dialtray.store.recording import RecordingTracker
from dialtray.table import Table
from dialtray.tracker import Tracker
from dialtray.tracker.binding import Slot
from dialtray.tracker.hands import Mistakes
from dialtray.tracker.runner import TrackedTray
from dialtray.tracker.skyace_life import LifeDisplay
from dialtray.ui import views
from dialtray.ui.layout import TrayLayout
from dialtray.ui.push import diff
from dialtray.ui.state import StateBuilder

log = logging.getLogger(__name__)
IDLE_WAIT = 0.1  # longest the idle table waits for an event (the link's state is shown)
DICE_RETRY_S = 0.1  # a roll the tray's dice could not make is tried again this soon
CALL_TIMEOUT = 15.0
MAX_TURN = 12  # clicks the page may turn a virtual dial at once
RULINGS_EVERY_S = 0.5  # how often an idle table looks for rulings another process stored
RULINGS_SHOWN = 8


class Stopped(Exception):
    """The server is shutting down: leave the table's loop."""


class _Table(TrackedTray):
    """``TrackedTray`` whose every pump is followed by the page's requests and a publish."""

    live: LiveTable

    def pump(self, timeout: float = 0.0) -> int:
        n = super().pump(min(timeout, self.live.idle_wait()) if timeout else 0.0)
        self.live.after_pump()
        return n


class LiveTable:
    """One tracked game at a tray, followed by pages.

    ``publish(kind, text[, full])`` is called on the table's thread with each new message
    (JSON text, serialised once for every page): ``"game"`` (legal decisions, odds: only when
    the game moved on) before the state (the tray, dice, log: every change) — ``"patch"``
    (what changed, with ``full``, the whole state it leads to) or, the first time, ``"state"``.
    ``setup`` (the table package's: game, brain, dial owners): the game is driven by a
    ``Table``; ``brain``/``turn`` (both or neither): bots play ``bot_seats`` (default: every
    seat), turning their dials with ``turn`` (the virtual tray's hand); a person takes the
    other seats on the page (decisions, and the virtual tray's dials). ``pace``: seconds a bot
    waits before each of its moves and the table before taking a bookkeeping step, so a person
    can follow and object (0 in tests). ``ask``: the page's first screen picks the seats.
    """

    def __init__(self, tracker: Tracker, session: TraySession, recorder: GameRecorder,
                 layout: TrayLayout, publish: Callable[..., None], *,
                 brain: Any = None, turn: Callable[[Slot, int], None] | None = None,
                 mistakes: Mistakes | None = None, source: str = "", hold: bool = False,
                 sim_turn: Callable[[Slot, int], None] | None = None,
                 bot_seats: Iterable[str] | None = None,
                 owner: Callable[[Dial], str | None] | None = None, pace: float = 0.0,
                 board: Callable[[], dict[str, Any]] | None = None,
                 ask: bool = False, setup: Any = None) -> None:
        self.tracker = tracker
        self.session = session
        self.recorder = recorder
        self.game_id = recorder.gid
        self.publish = publish
        self.brain = brain
        self.turn = turn
        seats = tracker.game.seats()
        self.bot_seats: tuple[str, ...] = () if brain is None else \
            tuple(seats if bot_seats is None else [x for x in seats if x in set(bot_seats)])
        self.people = tuple(x for x in seats if x not in self.bot_seats)
        self.owner = owner
        self.pace = pace
        self.setup = setup
        self.game_table: Table | None = None  # once the seats are known (``_run``)
        self.asking = ask and brain is not None  # the page picks who takes each seat first
        # Sky Ace's LIFE counters on the tray's LED dice (SA-M01), pushed when they change
        life = getattr(tracker.game, "life", None)
        self.life = LifeDisplay(session) if callable(life) and \
            any(d.kind == "life" for d in life()) else None
        self._life_at = -1
        self.mistakes = mistakes
        # Set by whoever runs the table at an event (serve --event): while it says True the
        # bots start no new decision (the round's time is up; ``Hands(hold=…)``).
        self.hold_bots: Callable[[], bool] | None = None
        self.sim_turn = sim_turn  # the virtual tray's hand: the page may turn its dials
        self.states = StateBuilder(tracker, layout, recorder.gid, bots=not self.people,
                                   source=source, sim=sim_turn is not None, board=board,
                                   people=self.people)
        self.states.asking = self.asking
        self.states.pending = self.pending
        self.rulings: list[str] = []  # every ruling (or refused attempt) as the table was shown it
        self.recording = RecordingTracker(recorder, boot=self._boot, on_ruling=self.rulings.append)
        self._looked = 0.0  # monotonic time rulings were last looked for
        self._head = -1  # the game's stored record count after our last commit
        session.subscribe(self._stamp)  # before the table's queue: stamped before it is fed
        self.table = _Table(cast(Tracker, self.recording), session)
        self.table.live = self
        self.rev = 0
        self.last_text = ""
        self.latest: dict[str, str] = {}  # the last of each kind (a new page gets them)
        self.game_rev = 0
        self._last_game: object = None
        self.received: float | None = None
        self.error = ""
        self._last_state: dict[str, Any] | None = None
        self._last_sig: tuple[object, ...] = ()
        self._calls: queue.SimpleQueue[tuple[Callable[[], Any], cf.Future[Any]]] = \
            queue.SimpleQueue()
        self._stop = threading.Event()
        self._go = threading.Event()
        if not hold and not self.asking:
            self._go.set()
        self._thread = threading.Thread(target=self._run, name="dialtray-table", daemon=True)
        self.publish_now()

    # ---- life ---------------------------------------------------------------------------------

    def start(self) -> None:
        self._thread.start()

    def go(self) -> None:
        """Let the bots start (a table built with ``hold``)."""
        self._go.set()
        self.table.wake()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self.table.wake()
        if self._thread.is_alive():
            self._thread.join(timeout)
        self.session.unsubscribe(self._stamp)
        self.table.close()

    def _boot(self) -> int | None:
        boot = getattr(self.session, "boot_id", None)
        return boot if isinstance(boot, int) else None

    def _stamp(self, ev: TrayEvent) -> None:  # the link's thread: one assignment
        if self.received is None and type(ev) is Click:
            self.received = time.time()

    def _run(self) -> None:
        try:
            while not self._go.is_set():  # (the page picks the seats first: ``choose``)
                self.table.pump(IDLE_WAIT)
            if self.setup is None:
                while True:
                    self.table.pump(IDLE_WAIT)
            seats = self.tracker.game.seats()
            roles = ["bot" if x in self.bot_seats else "human" for x in seats]
            self.game_table = gt = Table(
                self.setup, roles, self.table, hand=self.turn, pace=self.pace,
                mistakes=self.mistakes if self.bot_seats else None,
                hold=lambda: self.hold_bots is not None and self.hold_bots())
            moved = False
            while True:  # after a change the bots may act again at once: no wait for the tray
                moved = gt.pump(0.0 if moved else IDLE_WAIT)
                self.after_pump()  # a bot's move or the table's bookkeeping, shown at once
        except Stopped:
            pass
        except Exception as e:  # the page says so; the server keeps serving the store
            self.error = f"the table stopped: {type(e).__name__}: {e}"
            log.exception("the table stopped")
            self.publish_now()
        finally:
            try:
                self.recording.commit()
            except Exception:
                log.exception("could not commit the game's last records")

    # ---- each pump ----------------------------------------------------------------------------

    def idle_wait(self) -> float:
        """How long the table may wait for the tray's next event: until the first dial due to
        be judged (it rests ``judge_s`` after its last click), the next look for rulings, a
        retry of the dice — no polling in between (a page's request wakes it: ``call``)."""
        t = self.tracker
        now = self.table.clock()
        due = min(now + IDLE_WAIT, self._looked + RULINGS_EVERY_S)
        if t.dice_error:
            due = min(due, now + DICE_RETRY_S)
        judge_s = t.timing.judge_s
        for st in t.slots.values():
            if not st.judged:
                due = min(due, st.moved_at + judge_s)
        return max(0.0, due - now)

    def after_pump(self) -> None:
        while True:
            try:
                fn, fut = self._calls.get_nowait()
            except queue.Empty:
                break
            if fut.set_running_or_notify_cancel():
                try:
                    fut.set_result(fn())
                except Exception as e:
                    fut.set_exception(e)
        self.publish_now()
        self._show_life()
        now = time.monotonic()
        store = self.recorder.store
        if store.pending:
            self._looked = now
            self.recording.commit()  # stored, then rulings stored meanwhile are applied
            self._head = store.game(self.game_id).records
            self.publish_now()
        elif now - self._looked >= RULINGS_EVERY_S:  # idle: did another process store records
            self._looked = now                       # (`dialtray judge`)? a read, no write
            if store.game(self.game_id).records != self._head:
                self.recording.commit()  # its rulings applied to the live tracker, shown
                self._head = store.game(self.game_id).records
                self.publish_now()
        if self._stop.is_set():
            raise Stopped

    def _show_life(self) -> None:
        n = len(self.tracker.game.history)
        if self.life is None or n == self._life_at:
            return
        self._life_at = n
        try:
            self.life.update(self.tracker.game.life())  # type: ignore[attr-defined]
        except Exception as e:  # the game goes on; the page says the dice are not showing
            self.error = f"the tray's LED dice could not show the LIFE counters: {e}"
            log.warning("%s", self.error)

    def signature(self) -> tuple[object, ...]:
        """Cheap to take: when it is unchanged, so is the page's state (the tracker moves only
        by events, decisions, its clock's judgements — which raise or resolve flags — and
        rolls)."""
        t = self.tracker
        return (t.events_seen, len(t.game.history), len(t.flags), len(t.lines), len(t.notes),
                len(t.confirmed), t.phase, t.dice_error, id(t.dice.last), self.error,
                len(self.rulings), self.people, self.asking,
                self.session.state,
                tuple((id(st.flag), st.flag.text if st.flag else "", st.fault)
                      for st in t.slots.values()))

    def publish_now(self) -> None:
        """Build the state; publish it when anything in it changed."""
        sig = self.signature()
        if sig == self._last_sig:
            return
        self._last_sig = sig
        game = self.states.game()
        if game is not self._last_game:  # the game moved on: its message goes first
            self._last_game = game
            self.game_rev += 1
            gtext = json.dumps({"op": "game", "game_rev": self.game_rev, "game": game},
                               separators=(",", ":"))
            self.latest["game"] = gtext
            self.publish("game", gtext)
        body = self.states.build()
        body["error"] = self.error
        body["link"] = self.session.state.value  # the tray's link: live, down, resyncing, …
        body["game_rev"] = self.game_rev
        body["rulings"] = self.rulings[-RULINGS_SHOWN:]
        change = diff(self._last_state, body)
        if change is not None and not change["set"] and not change["docks"]:
            return
        received, self.received = self.received, None
        self._last_state = body
        self.rev += 1
        stamp = {"rev": self.rev, "received": received, "sent": time.time()}
        full = json.dumps({**body, **stamp}, separators=(",", ":"))
        self.latest["state"] = full
        if change is None:
            self.publish("state", full)
        else:  # serialised once for every page: the patch, and the full state it leads to
            patch = json.dumps({"op": "patch", "base": self.rev - 1, **change, **stamp},
                               separators=(",", ":"))
            self.publish("patch", patch, full)

    # ---- the page's requests (any thread) -----------------------------------------------------

    def call(self, fn: Callable[[], Any]) -> cf.Future[Any]:
        """Run ``fn`` on the table's thread between two pumps."""
        fut: cf.Future[Any] = cf.Future()
        if not self._thread.is_alive():
            fut.set_exception(RuntimeError(self.error or "the table is not running"))
            return fut
        self._calls.put((fn, fut))
        self.table.wake()
        return fut

    def turn_virtual(self, dock: int, reader: int, clicks: int) -> dict[str, Any]:
        """(Any thread.) Turn a dial of the *virtual* tray, as a hand on the table would: its
        clicks come back through the firmware and the link like any other."""
        if self.sim_turn is None:
            return {"ok": False, "message": "this is a real tray: turn its dials by hand"}
        if not any(s.slot.dock == dock and s.slot.dial == reader
                   for s in self.tracker.slots.values()):
            return {"ok": False, "message": f"no dial of this game on dock {dock} reader "
                    f"{reader}"}
        if not 1 <= abs(clicks) <= MAX_TURN:
            return {"ok": False, "message": f"clicks: 1..{MAX_TURN} either way"}
        self.sim_turn(Slot(dock, reader), clicks)
        return {"ok": True, "message": f"turned dock {dock} reader {reader} {clicks:+d}"}

    def decide(self, text: str, seat: str | None) -> dict[str, Any]:
        """(Table thread.) A decision typed on the page, through the recorder and tracker."""
        if self.asking:
            return {"ok": False, "message": "pick who takes each seat first"}
        if not self.people:
            return {"ok": False, "message": "the bots play every seat in this game: the page "
                    "follows it and takes no decisions"}
        if (refused := self._unknown_seat(seat)) is not None:
            return refused
        who = self.tracker.game.to_move()
        if who in self.bot_seats and seat in (None, who):
            return {"ok": False, "message": f"{who} is a bot's seat: it decides for itself"}
        if self.game_table is not None:
            r = self.game_table.decide(text, seat)
        else:
            r = self.recording.decide(text, time.monotonic(), seat)
        return {"ok": bool(r.ok), "message": str(r.message), "events": list(r.events)}

    def confirm_eye(self, dock: int, reader: int, click: int | None,
                    seat: str | None) -> dict[str, Any]:
        """(Table thread.) A dial whose encoder lost track confirmed by eye on the page
        (``Table.confirm_eye``: stored for the judge, never a decision)."""
        if (refused := self._unknown_seat(seat)) is not None:
            return refused
        if self.game_table is not None:
            r = self.game_table.confirm_eye(dock, reader, click, seat)
        else:
            r = self.recording.confirm_eye(Slot(dock, reader), click, time.monotonic(),
                                           seat or "a player")
        return {"ok": bool(r.ok), "message": str(r.message)}

    def _unknown_seat(self, seat: str | None) -> dict[str, Any] | None:
        """The refusal of a request naming a seat this game does not have (None: no seat
        named, or one it has)."""
        seats = list(self.tracker.game.seats())
        if seat is None or seat in seats:
            return None
        return {"ok": False, "message": f"unknown seat {seat!r} (seats: {' '.join(seats)})"}

    def object(self) -> dict[str, Any]:
        """(Table thread.) A player objects to the bookkeeping the table is about to take: it
        waits for them to decide it themselves."""
        if self.game_table is None:
            return {"ok": False, "message": "the table has not started"}
        return {"ok": True, "message": self.game_table.object()}

    def pending(self) -> str:
        """The bookkeeping the table will take unless someone objects ("" none)."""
        gt = self.game_table
        book = gt._bookkeeping() if gt is not None else None
        return "" if book is None else str(book.text())

    def choose(self, players: list[str]) -> dict[str, Any]:
        """(Table thread.) The page's first screen: who takes each seat ("human": a person at
        this page, "bot"), in seating order; then the bots start."""
        seats = self.tracker.game.seats()
        if not self.asking:
            return {"ok": False, "message": "the seats are already taken: the game is on"}
        if len(players) != len(seats) or any(p not in ("human", "bot") for p in players):
            return {"ok": False, "message": f"seats: one of human or bot for each of "
                    f"{', '.join(seats)}"}
        self.bot_seats = tuple(x for x, p in zip(seats, players, strict=True) if p == "bot")
        self.people = tuple(x for x in seats if x not in self.bot_seats)
        self.states.people, self.states.bots = self.people, not self.people
        self.asking = self.states.asking = False
        self.go()
        who = ", ".join(f"{x} {'a bot' if p == 'bot' else 'you'}"
                        for x, p in zip(seats, players, strict=True))
        return {"ok": True, "message": f"seats taken: {who}"}

    def rule(self, token: str | None, ruling: str, args: dict[str, Any],
             why: str) -> dict[str, Any]:
        """(Table thread.) A judge's ruling on the live game from the page: stored in the
        recorder's store like ``dialtray judge``'s (refused and recorded without a judge
        token: ``views.Refused``), then applied to the live tracker at once (undo, set-dial,
        VP, dispute, end: ``tracker.rulings``) and shown. ``done``: what was stored;
        ``shown``: what the table was told."""
        self.recording.commit()  # what was played is stored first: an undo replays the store
        n = len(self.rulings)
        try:
            done = views.rule(self.recorder.store, self.game_id, token, ruling, args, why)
        except views.Refused:
            self.recording.commit()  # the refused attempt is shown to the table too
            raise
        self.recording.commit()  # applied by the tracker (RecordingTracker's rulings)
        return {"done": done, "shown": self.rulings[n:]}
