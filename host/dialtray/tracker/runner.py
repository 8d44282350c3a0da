"""A tracker at a live tray: the link thread's events are queued and fed to the tracker on the
caller's thread (the tracker is single-threaded; dice it rolls on the tray block only that
thread, never the link), with the clock ticking in between.

``play_out`` runs a game whose players are all bot hands (``hands.Hands``), given a function that
physically turns a dial — the virtual tray's, in ``dialtray.virtual.hands``.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

from dialtray.link.messages import TrayEvent
from dialtray.link.session import TraySession
from dialtray.tracker.binding import Slot
from dialtray.tracker.hands import Eye, Hands, Turn, Typed
from dialtray.tracker.tracker import OVER, Tracker

CHUNK = 3  # clicks per movement of a hand
MAX_MOVES_PER_ACTION = 100  # far beyond any mistake and its correction: the hands are looping


_WAKE = object()  # queued by ``wake``: not an event, only ends the pump's wait


class Stuck(RuntimeError):
    """The table did not reach what it waited for in time; says what the tray waited for."""


def _whole(table: TrackedTray, move: tuple[Turn, ...], turn: Callable[[Slot, int], None],
           timeout: float) -> None:
    """A move handed whole to a hand that paces its own grips (``whole_moves``: a camera-only
    tray's, whose camera reports a dial once it is still — parts waited on one by one would
    be judged short between them), then waited for: every dial where the move leaves it, and
    at least one event (a turn and back ends where it began)."""
    t = table.tracker
    targets: dict[Slot, int] = {}
    seen = t.events_seen
    for m in move:
        targets[m.slot] = targets.get(m.slot, t.slots[m.slot].seen or 0) + m.clicks
        turn(m.slot, m.clicks)
    table.wait_until(lambda: t.events_seen > seen and all(
        t.slots[s].seen == v for s, v in targets.items()), timeout,
        "the dials to report " + ", ".join(f"{t.slots[s].label} at {v}"
                                           for s, v in targets.items()))


class TrackedTray:
    """``Tracker`` + ``TraySession``. Subscribe before the session starts to see its first
    snapshot; otherwise call ``sync()`` to ask for one."""

    def __init__(self, tracker: Tracker, session: TraySession,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.tracker = tracker
        self.session = session
        self.clock = clock
        self.queue: queue.SimpleQueue[TrayEvent] = queue.SimpleQueue()
        session.subscribe(self.queue.put)

    def close(self) -> None:
        self.session.unsubscribe(self.queue.put)

    def wake(self) -> None:
        """(Any thread.) End a pump's wait now: there is work for the pumping thread that is
        not a tray event (a page's request), so it need not poll for it."""
        self.queue.put(_WAKE)  # type: ignore[arg-type]

    def sync(self, timeout: float = 5.0) -> None:
        """Ask the tray for every dial's position (the start check reads it)."""
        self.tracker.feed(self.session.snapshot(timeout), self.clock())

    def pump(self, timeout: float = 0.0) -> int:
        """Feed every queued event (waiting up to ``timeout`` for the first), then tick.

        The events queued are fed together, at the time they are taken (``feed_many``): a
        stored table records a burst in one pass (issue 35)."""
        evs: list[TrayEvent] = []
        try:
            ev = self.queue.get(timeout=timeout) if timeout > 0 else self.queue.get_nowait()
            while True:
                if ev is not _WAKE:
                    evs.append(ev)
                ev = self.queue.get_nowait()
        except queue.Empty:
            pass
        if len(evs) == 1:
            self.tracker.feed(evs[0], self.clock())
        elif evs:
            self.tracker.feed_many(evs, self.clock())
        self.tracker.tick(self.clock())
        return len(evs)

    def wait_until(self, done: Callable[[], bool], timeout: float, what: str) -> None:
        end = self.clock() + timeout
        while not done():
            if self.clock() > end:
                raise Stuck(f"waited {timeout:.0f} s for {what}; the tray waits for: "
                            + "; ".join(self.tracker.waiting_for()))
            self.pump(0.01)


def play_out(table: TrackedTray, hands: Hands, turn: Callable[[Slot, int], None], *,
             timeout: float = 120.0, say: Callable[[str], None] | None = None,
             step_timeout: float = 10.0) -> None:
    """Let the bot hands play the game to its end on a live tray: every click they turn goes
    through the tray and comes back through the link before the next move."""
    t = table.tracker
    end = table.clock() + timeout
    idle_since = table.clock()
    moves_here, at = 0, -1
    while t.phase != OVER:
        if len(t.game.history) != at:
            moves_here, at = 0, len(t.game.history)
        if moves_here > MAX_MOVES_PER_ACTION:
            raise Stuck(f"{moves_here} moves without the game moving on; the tray waits for: "
                        + "; ".join(t.waiting_for()))
        now = table.clock()
        if now > end:
            raise Stuck(f"the game did not end within {timeout:.0f} s; the tray waits for: "
                        + "; ".join(t.waiting_for()))
        table.pump()
        move = hands.next()
        if move is None:
            if now - idle_since > step_timeout:
                raise Stuck("nothing moved for {:.0f} s; the tray waits for: {}".format(
                    step_timeout, "; ".join(t.waiting_for())))
            table.pump(0.01)
            continue
        idle_since = now
        moves_here += 1
        if isinstance(move, Eye):  # a dial whose encoder lost track: confirmed by eye
            r = t.confirm_eye(move.slot, move.click, table.clock(), "a bot")
            if not r.ok:
                raise Stuck(f"a bot's confirmation by eye was refused: {r.message}")
            if say is not None:
                say(r.message)
            continue
        if isinstance(move, Typed):
            r = t.decide(move.text, table.clock())
            if move.too_early:
                if r.ok:
                    raise Stuck(f"{move.text!r} was taken while clicks were due")
                continue
            if not r.ok and r.retry:
                if say is not None:
                    say(r.message)
                hands.retry(move)
                continue
            if not r.ok:
                raise Stuck(f"a bot's decision was refused: {r.message}")
            if say is not None:
                say(f"{move.text}")
            continue
        if getattr(turn, "whole_moves", False):  # a camera-only tray's hand: one person's
            _whole(table, move, turn, step_timeout)  # motions, sensed once still
            continue
        for m in move:
            st = t.slots[m.slot]
            left = m.clicks
            while left:  # a few clicks at a time: half a turn at once reads either way round
                step = max(-CHUNK, min(CHUNK, left))
                left -= step
                target = (st.seen or 0) + step
                turn(m.slot, step)
                table.wait_until(lambda st=st, target=target: st.seen == target,  # type: ignore[misc]
                                 step_timeout, f"{st.label} to report {step:+d} click(s)")
