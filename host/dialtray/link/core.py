"""The part of the link that the link thread and the callers share.

:class:`LinkCore` holds one session's state (the state cell, the counters, the dials as last
known, the waiters for answers), writes numbered commands on the wire, and hands events up to
the session's queue and listeners. The handshake (:mod:`dialtray.link.handshake`) and the loop
that reads the tray and answers it (:mod:`dialtray.link.engine`) build on it; callers use
``TraySession``.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from dialrig import proto

from dialtray.link.bootstream import BootStream
from dialtray.link.commands import CommandEncoder
from dialtray.link.deframe import HostDeframer
from dialtray.link.messages import (
    Ack,
    DiceRolled,
    Hello,
    RawEvent,
    Snapshot,
    Stats,
    TrayEvent,
)
from dialtray.link.reconcile import DialMemory, remember
from dialtray.link.state import SessionState, StateCell
from dialtray.link.transport import Transport


@dataclass
class Pending:
    """A command on the wire, until its ACK comes or it is given up."""

    mtype: int
    cmd_id: int
    frame: bytes
    sent_at: float = 0.0
    tries: int = 0
    done: threading.Event = field(default_factory=threading.Event)
    ack: Ack | None = None
    error: str = ""
    user: bool = False  # asked for by a caller (kept across reconnects), not by the sync logic


class LinkCore:
    """What the link thread and the callers share: the state, the commands on the wire, the
    events handed on. The handshake (:mod:`dialtray.link.handshake`) and the loop that reads the
    tray (:mod:`dialtray.link.engine`) build on it."""

    _t: Transport  # the open port, set by LinkEngine._serve

    def __init__(self, name: str) -> None:
        self.name = name
        self.events: queue.Queue[TrayEvent] = queue.Queue()
        self.counters: Counter[str] = Counter()
        self.hello: Hello | None = None
        self.dials: dict[tuple[int, int], DialMemory] = {}
        self._cell = StateCell()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._outbox: queue.Queue[Pending] = queue.Queue()
        self._pending: dict[int, Pending] = {}
        self._encoder = CommandEncoder(next_id=int(time.monotonic() * 1000) % 60000 + 1)
        self._listeners: list[Callable[[TrayEvent], None]] = []
        self._snapshot_waiters: list[tuple[threading.Event, list[Snapshot]]] = []
        self._stats_waiters: list[tuple[threading.Event, list[Stats]]] = []
        self._dice_waiters: dict[int, tuple[threading.Event, list[DiceRolled]]] = {}
        self._stream: BootStream | None = None  # the boot whose events we deliver
        self._last_boot: int | None = None  # the boot of the last snapshot taken
        self._boot_seen: int | None = None  # the boot named by the tray's latest word
        self._was_live = False
        self._phase = "hello"  # hello → snapshot → replay → live
        self._why = "connect"
        self._snapshot_reason = "connect"
        self._deframer: proto.Deframer = HostDeframer()
        self._serving = False
        self._replay: Pending | None = None
        self._replay_from = 0
        self._replay_target = 0
        self._nack_at = 0.0
        self._phase_at = 0.0
        self._progress_mark = 0
        self._answer_after: int | None = None
        self._progress_at = 0.0

    def _set_state(self, state: SessionState, detail: str = "") -> None:
        self._cell.set(state, detail)

    def _update_state(self) -> None:
        """The state from what is true now: the phase of the handshake and the stream's holes."""
        s = self._stream
        if self._phase == "live" and s is not None:
            if s.missing:
                self._set_state(SessionState.CATCHING_UP, "events missing, asked again")
            else:
                self._set_state(SessionState.LIVE, f"boot {s.boot_id:08x}")
        else:
            self._set_state(SessionState.RESYNCING if self._was_live else SessionState.SYNCING,
                            self._why)

    # ---- commands on the wire ------------------------------------------------------------------

    def _send_command(self, mtype: int, fmt: str, *fields: int | bytes) -> Pending:
        cmd_id, frame = self._encoder.command(mtype, fmt, *fields)
        p = Pending(mtype, cmd_id, frame)
        self._transmit(p, time.monotonic())
        return p

    def _transmit(self, p: Pending, now: float) -> None:
        self._pending[p.cmd_id] = p
        p.sent_at = now
        p.tries += 1
        self._t.write(p.frame)

    # ---- what goes up to the session ----------------------------------------------------------

    def _deliver_event(self, raw: RawEvent) -> None:
        ev = raw.to_event()
        remember(self.dials, ev)
        if isinstance(ev, DiceRolled):
            with self._lock:
                waiter = self._dice_waiters.pop(ev.request_id, None)
            if waiter:
                waiter[1].append(ev)
                waiter[0].set()
        self._deliver(ev)

    def _deliver(self, ev: TrayEvent) -> None:
        """The listeners, in order, then the session's queue (``events``): what waits on the
        queue acts on the event, so every listener has heard of it first (the camera
        witness, subscribed ``first``, asks for its read before any of them)."""
        self.counters["delivered"] += 1
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(ev)
        self.events.put(ev)

    def _sync_counters(self) -> None:
        d = self._deframer
        self._deframer = HostDeframer()
        self.counters["rejected: corrupt"] += d.corrupt
        self.counters["rejected: noise"] += d.noise
        self.counters["rejected: overflow"] += d.overflow

    def rejection_counts(self) -> dict[str, int]:
        """Host-side counts of everything refused, including the live connection's."""
        out = {k: v for k, v in self.counters.items() if k.startswith("rejected")}
        d = self._deframer
        if self._serving:
            out["rejected: corrupt"] = out.get("rejected: corrupt", 0) + d.corrupt
            out["rejected: noise"] = out.get("rejected: noise", 0) + d.noise
            out["rejected: overflow"] = out.get("rejected: overflow", 0) + d.overflow
        return out
