"""What a tray session can truthfully claim at each moment, and how consumers follow it.

A consumer that believes the link is live while events may be missing makes wrong calls (a
rules engine resolving a turn without the last damage click). So the session does not keep a
"synced" flag that someone must remember to clear: it has one state, every change goes through
:class:`StateCell`, and ``synced`` is derived from it.

::

    CONNECTING ──▶ SYNCING ──▶ LIVE ◀──▶ CATCHING_UP
                      ▲         │  ▲           │
                      │         ▼  │           ▼
        DOWN ◀────────┴──── RESYNCING ◀────────┘
    (any) ──▶ FAILED | STOPPED   (final)
"""

from __future__ import annotations

import enum
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


class SessionState(enum.Enum):
    CONNECTING = "connecting"  # first connection not made yet (no port, or no answer yet)
    SYNCING = "syncing"  # first handshake with this tray: hello, snapshot, replay
    LIVE = "live"  # every event the tray is known to have logged has been delivered, in order
    CATCHING_UP = "catching up"  # in sync, but the tray has logged events not yet delivered (a
    #                              hole being refilled, or a heartbeat says it has more)
    RESYNCING = "resyncing"  # was in sync; reconnecting, or the tray rebooted or lost the replay
    #                          window: hello, snapshot and replay again before anything is live
    DOWN = "down"  # the port is gone or silent; reconnecting with back-off
    FAILED = "failed"  # the session's thread stopped on an error: ``TraySession.error`` says why
    STOPPED = "stopped"  # stop() was called

    @property
    def final(self) -> bool:
        return self in (SessionState.FAILED, SessionState.STOPPED)


IN_SYNC = frozenset({SessionState.LIVE, SessionState.CATCHING_UP})
CONNECTED = frozenset({SessionState.SYNCING, SessionState.LIVE, SessionState.CATCHING_UP,
                       SessionState.RESYNCING})


class SessionFailed(RuntimeError):
    """The session's thread stopped on an error; ``__cause__`` is that error."""


class SessionStopped(RuntimeError):
    """The session was stopped while someone still waited on it."""


@dataclass(frozen=True)
class StateChange:
    old: SessionState
    new: SessionState
    detail: str
    at: float  # time.monotonic()

    def __str__(self) -> str:
        return f"{self.old.value} → {self.new.value}" + (f" ({self.detail})" if self.detail else "")


class StateCell:
    """One session's state: set by the link thread, waited on and watched from anywhere."""

    def __init__(self, initial: SessionState = SessionState.CONNECTING) -> None:
        self._state = initial
        self._cond = threading.Condition()
        self._listeners: list[Callable[[StateChange], None]] = []
        self.history: deque[StateChange] = deque(maxlen=10_000)
        self.error: BaseException | None = None

    @property
    def state(self) -> SessionState:
        return self._state

    def set(self, new: SessionState, detail: str = "") -> StateChange | None:
        """Move to ``new``; listeners hear about it. A final state is never left."""
        with self._cond:
            old = self._state
            if old == new or old.final:
                return None
            self._state = new
            change = StateChange(old, new, detail, time.monotonic())
            self.history.append(change)
            listeners = list(self._listeners)
            self._cond.notify_all()
        for listener in listeners:
            listener(change)
        return change

    def fail(self, error: BaseException, detail: str) -> None:
        with self._cond:
            if self._state.final:
                return
            self.error = error
        self.set(SessionState.FAILED, detail)

    def subscribe(self, listener: Callable[[StateChange], None]) -> None:
        with self._cond:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[StateChange], None]) -> None:
        with self._cond:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def raise_if_failed(self) -> None:
        if self._state == SessionState.FAILED:
            raise SessionFailed(f"the tray session failed: {self.error!r}") from self.error

    def wait_for(self, states: frozenset[SessionState], timeout: float | None) -> SessionState:
        """Block until the state is one of ``states``. Raises :class:`SessionFailed` if the
        session fails first, TimeoutError when ``timeout`` passes, SessionStopped once stopped."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._state not in states:
                if self._state == SessionState.FAILED:
                    break
                if self._state == SessionState.STOPPED:
                    raise SessionStopped("the tray session was stopped")
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    names = ", ".join(sorted(s.value for s in states))
                    raise TimeoutError(f"tray session still {self._state.value} after "
                                       f"{timeout:.1f} s (waited for: {names})")
                self._cond.wait(left)
            state = self._state
        if state not in states:
            self.raise_if_failed()
        return state


class StateFlag:
    """A read-only, Event-like view of "the state is one of these" (``session.synced``)."""

    def __init__(self, cell: StateCell, states: frozenset[SessionState]) -> None:
        self._cell = cell
        self._states = states

    def is_set(self) -> bool:
        return self._cell.state in self._states

    def wait(self, timeout: float | None = None) -> bool:
        """Like ``threading.Event.wait``: False on timeout (or once stopped); a failed session
        raises :class:`SessionFailed` instead of answering False forever."""
        try:
            self._cell.wait_for(self._states, timeout)
        except (TimeoutError, SessionStopped):
            return False
        return True
