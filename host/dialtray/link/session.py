"""The host's end of the tray link: one connection, kept alive across cables, reboots and noise.

Recovery follows the DGT board and MegaMek's reconnect: on every (re)connection the host says
hello, learns the device's boot id and sequence range, and then

* same boot, replay window still holds what we missed → REPLAY from our next expected sequence;
* same boot, the window has moved on (REPLAY_GAP) → full SNAPSHOT, and the difference between
  what we knew and the snapshot is delivered as recovered clicks;
* new boot (the tray rebooted) → SNAPSHOT the same way; quadrature dials report that they lost
  track, because incremental encoders cannot know what happened while they were off.

Events are delivered exactly once and in sequence order: duplicates are dropped by sequence
number; events that arrive past a hole are held back while a NACK asks the device to go back to
the hole, and are delivered once it is filled.
Commands are numbered, acknowledged and resent when the ACK does not come back; the device
recognises a resent command and does not act twice.

The work happens on one background thread that owns the port; other threads talk to it through
thread-safe calls, and asyncio code through :meth:`TraySession.stream`.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from dialrig import config, proto

from dialtray.link import revive
from dialtray.link.messages import (
    ACK_NAMES,
    Ack,
    Click,
    CommandEncoder,
    Diag,
    DialFault,
    DialState,
    DiceRolled,
    Heartbeat,
    Hello,
    LinkState,
    RawEvent,
    ReplayGap,
    Snapshot,
    Stats,
    TrayEvent,
    decode,
    set_dial_fields,
    show_dice_fields,
)
from dialtray.link.transport import LinkDown, SerialTransport, Transport

log = logging.getLogger("dialtray.link")

ACK_EVERY_S = 0.02
HEARTBEAT_EVERY_S = 0.25
SILENCE_S = 1.5  # the device heartbeats every 0.5 s: three missed beats means the link is gone
COMMAND_RETRY_S = 0.25
COMMAND_TRIES = 8
REPLAY_RETRY_S = 0.15
NACK_EVERY_S = 0.02
ANSWER_WAIT_S = 0.3
REORDER_LIMIT = 4096  # events held past a hole while it is refilled
SYNC_RETRY_S = 0.08
BACKOFF_FIRST_S = 0.05
BACKOFF_MAX_S = 0.5  # a replugged Pico enumerates in about a second: look often


class CommandFailed(RuntimeError):
    """The device refused a command (bad arguments, unknown) or never acknowledged it."""


@dataclass
class _Pending:
    mtype: int
    cmd_id: int
    frame: bytes
    sent_at: float = 0.0
    tries: int = 0
    done: threading.Event = field(default_factory=threading.Event)
    ack: Ack | None = None
    error: str = ""
    user: bool = False  # asked for by a caller (kept across reconnects), not by the sync logic


@dataclass
class _DialMemory:
    sensor: str
    detents: int
    position: int


class TraySession:
    """A connection to one tray. Use as a context manager, or start()/stop()."""

    def __init__(self, port: str | None = None, *, connect: Callable[[], Transport] | None = None,
                 name: str = "tray") -> None:
        self._connect: Callable[[], Transport] = connect or (lambda: SerialTransport.open(port))
        self.name = name
        self.events: queue.Queue[TrayEvent] = queue.Queue()
        self.counters: Counter[str] = Counter()
        self.hello: Hello | None = None
        self.boot_id: int | None = None
        self.expected = 0  # next sequence number we will deliver (0: not synchronised yet)
        self.dials: dict[tuple[int, int], _DialMemory] = {}
        self._lock = threading.Lock()
        self._outbox: queue.Queue[_Pending] = queue.Queue()
        self._pending: dict[int, _Pending] = {}
        self._encoder = CommandEncoder(next_id=int(time.monotonic() * 1000) % 60000 + 1)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._listeners: list[Callable[[TrayEvent], None]] = []
        self._snapshot_waiters: list[tuple[threading.Event, list[Snapshot]]] = []
        self._stats_waiters: list[tuple[threading.Event, list[Stats]]] = []
        self._dice_waiters: dict[int, tuple[threading.Event, list[DiceRolled]]] = {}
        self._next_roll = 1
        self._boot_snapshot: Snapshot | None = None  # a reboot being replayed from seq 1
        self._boot_events: list[RawEvent] = []
        self.connected = threading.Event()
        self.synced = threading.Event()

    # ---- lifecycle ---------------------------------------------------------------------------

    def start(self) -> TraySession:
        self._thread = threading.Thread(target=self._run, name=f"{self.name}-link", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)

    def __enter__(self) -> TraySession:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_synced(self, timeout: float = 10.0) -> None:
        if not self.synced.wait(timeout):
            raise TimeoutError(f"no synchronised tray after {timeout:.0f} s")

    def subscribe(self, listener: Callable[[TrayEvent], None]) -> None:
        """Call ``listener`` (on the link thread) for every delivered event."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[TrayEvent], None]) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    async def stream(self) -> AsyncIterator[TrayEvent]:
        """Every delivered event, for asyncio code."""
        loop = asyncio.get_running_loop()
        q: asyncio.Queue[TrayEvent] = asyncio.Queue()
        def forward(ev: TrayEvent) -> None:
            loop.call_soon_threadsafe(q.put_nowait, ev)

        self.subscribe(forward)
        while True:
            yield await q.get()

    # ---- commands (any thread) -----------------------------------------------------------------

    def request(self, mtype: int, fmt: str, *fields: int | bytes, timeout: float = 3.0) -> Ack:
        cmd_id, frame = self._encoder.command(mtype, fmt, *fields)
        p = _Pending(mtype, cmd_id, frame, user=True)
        self._outbox.put(p)
        if not p.done.wait(timeout):
            raise TimeoutError(f"command 0x{mtype:02x} not acknowledged within {timeout:.1f} s")
        if p.ack is None:
            raise CommandFailed(p.error or "no acknowledgement")
        if p.ack.status not in (proto.ACK_OK, proto.ACK_REJECTED):
            raise CommandFailed(f"tray refused command 0x{mtype:02x}: "
                                f"{ACK_NAMES.get(p.ack.status, p.ack.status)}")
        return p.ack

    def _ask(self, mtype: int, waiters: list[tuple[threading.Event, list[Any]]],
             timeout: float, what: str) -> Any:
        """Send a command whose answer is a separate message; ask again while the answer is
        lost (its ACK may well have arrived: the answer is the larger, likelier-damaged frame)."""
        got: list[Any] = []
        ev = threading.Event()
        with self._lock:
            waiters.append((ev, got))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.request(mtype, proto.CMD_ID_FMT, timeout=max(0.1, deadline - time.monotonic()))
            if ev.wait(min(ANSWER_WAIT_S, max(0.0, deadline - time.monotonic()))):
                return got[0]
        raise TimeoutError(f"no {what} from the tray within {timeout:.1f} s")

    def snapshot(self, timeout: float = 3.0) -> Snapshot:
        snap: Snapshot = self._ask(proto.C_SNAPSHOT, self._snapshot_waiters, timeout, "snapshot")
        return snap

    def stats(self, timeout: float = 3.0) -> Stats:
        stats: Stats = self._ask(proto.C_STATS, self._stats_waiters, timeout, "statistics")
        return stats

    def roll_dice(self, n: int, timeout: float = 3.0) -> DiceRolled:
        """Ask the tray to roll n d6 from its hardware entropy; returns the faces it logged."""
        with self._lock:
            req = self._next_roll
            self._next_roll = req % 255 + 1
            ev = threading.Event()
            got: list[DiceRolled] = []
            self._dice_waiters[req] = (ev, got)
        self.request(proto.C_ROLL_DICE, proto.ROLL_FMT, n, req, timeout=timeout)
        if not ev.wait(timeout):
            raise TimeoutError(f"the tray did not report the {n} dice it rolled")
        return got[0]

    def roll_led_dice(self, count: int, purpose: str) -> tuple[int, ...]:
        """The rules engines' tray dice (``rules.core.dice.TrayDiceLink``): ``count`` d6 from the
        tray's hardware entropy, in batches of at most the 12 dice the LED panel shows."""
        log.info("%s: rolling %dd6 on the tray for %s", self.name, count, purpose)
        faces: list[int] = []
        try:
            while len(faces) < count:
                batch = min(config.MAX_DICE, count - len(faces))
                faces.extend(self.roll_dice(batch).faces)
        except CommandFailed as e:
            raise ConnectionError(f"the tray could not roll for {purpose}: {e}") from e
        return tuple(faces)

    def show_dice(self, faces: list[int], colours: list[int]) -> None:
        self.request(proto.C_SHOW_DICE, proto.SHOW_DICE_FMT, *show_dice_fields(faces, colours))

    def set_dial(self, dock: int, dial: int, settings: dict[str, int | str]) -> None:
        self.request(proto.C_SET_DIAL, proto.SET_DIAL_FMT, dock, dial, *set_dial_fields(settings))

    def set_timing(self, settle_ms: int, sample_ms: int) -> None:
        self.request(proto.C_SET_TIMING, proto.SET_TIMING_FMT, settle_ms, sample_ms)

    def diagnostics(self, on: bool, period_ms: int = 100) -> None:
        self.request(proto.C_DIAG, proto.DIAG_CMD_FMT, int(on), period_ms if on else 0)

    def reboot(self) -> None:
        self.request(proto.C_REBOOT, proto.CMD_ID_FMT)

    # ---- the link thread -----------------------------------------------------------------------

    def _run(self) -> None:
        backoff = BACKOFF_FIRST_S
        reported_down = False
        while not self._stop.is_set():
            try:
                transport = revive.guard(self._connect(), self.name)
            except LinkDown as e:
                if not reported_down:
                    self._deliver(LinkState(0, False, str(e)))
                    reported_down = True
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX_S)
                continue
            backoff = BACKOFF_FIRST_S
            reported_down = False
            self.counters["connects"] += 1
            try:
                self._serve(transport)
            except LinkDown as e:
                self._deliver(LinkState(0, False, str(e)))
                reported_down = True
            finally:
                transport.close()
                self._sync_counters()
                self.connected.clear()
                self.synced.clear()

    def _serve(self, t: Transport) -> None:
        self._t = t
        self._deframer = proto.Deframer()
        # Sync commands from the last connection are stale; a caller's command is resent.
        self._pending = {k: p for k, p in self._pending.items() if p.user}
        self._phase = "hello"
        self._replay_in_flight: _Pending | None = None
        self._replay_at = 0.0
        self._held: dict[int, RawEvent] = {}
        self._nack_at = 0.0
        self._boot_snapshot = None
        last_rx = time.monotonic()
        last_ack = last_beat = 0.0
        acked = -1
        self._send_command(proto.C_HELLO, proto.HOST_HELLO_FMT, proto.PROTO_VERSION)
        self._phase_at = time.monotonic()
        self.connected.set()
        self._deliver(LinkState(0, True, "connected"))
        while not self._stop.is_set():
            data = t.read()
            now = time.monotonic()
            if data:
                last_rx = now
                for payload in self._deframer.feed(data):
                    self._handle(payload, now)
            elif now - last_rx > SILENCE_S:
                raise LinkDown(f"tray silent for {SILENCE_S:.1f} s")
            self._pump_commands(now)
            if self._phase in ("hello", "snapshot") and now - self._phase_at > SYNC_RETRY_S:
                # The answer (HELLO or SNAPSHOT) was lost even though the command's ACK may
                # have arrived: ask again. Large frames are the likeliest to be damaged.
                self.counters[f"{self._phase} retries"] += 1
                if self._phase == "hello":
                    self._send_command(proto.C_HELLO, proto.HOST_HELLO_FMT, proto.PROTO_VERSION)
                else:
                    self._send_command(proto.C_SNAPSHOT, proto.CMD_ID_FMT)
                self._phase_at = now
            if self.expected and self._phase in ("replay", "synced"):
                if self.expected != acked and now - last_ack > ACK_EVERY_S:
                    t.write(self._encoder.ack_events(self.expected))
                    acked, last_ack = self.expected, now
                if now - last_beat > HEARTBEAT_EVERY_S:
                    t.write(self._encoder.heartbeat(self.expected))
                    last_beat = now
                if self._held:
                    self._nack(now)

    def _send_command(self, mtype: int, fmt: str, *fields: int | bytes) -> _Pending:
        cmd_id, frame = self._encoder.command(mtype, fmt, *fields)
        p = _Pending(mtype, cmd_id, frame)
        self._transmit(p, time.monotonic())
        return p

    def _transmit(self, p: _Pending, now: float) -> None:
        self._pending[p.cmd_id] = p
        p.sent_at = now
        p.tries += 1
        self._t.write(p.frame)

    def _pump_commands(self, now: float) -> None:
        while True:
            try:
                p = self._outbox.get_nowait()
            except queue.Empty:
                break
            self._transmit(p, now)
        for p in list(self._pending.values()):
            if now - p.sent_at > COMMAND_RETRY_S:
                if p.tries >= COMMAND_TRIES:
                    del self._pending[p.cmd_id]
                    p.error = f"no acknowledgement after {p.tries} tries"
                    p.done.set()
                    if p is self._replay_in_flight:
                        self._replay_in_flight = None
                else:
                    self.counters["command resends"] += 1
                    self._transmit(p, now)

    def _handle(self, payload: bytes, now: float) -> None:
        try:
            msg = decode(payload)
        except proto.ProtoError as e:
            self.counters["rejected: protocol"] += 1
            log.warning("%s: rejected frame: %s", self.name, e)
            return
        if isinstance(msg, RawEvent):
            self._on_event(msg, now)
        elif isinstance(msg, Ack):
            self._on_ack(msg)
        elif isinstance(msg, Heartbeat):
            if self._phase == "synced" and msg.boot_id == self.boot_id and \
                    msg.next_seq > self.expected:
                self._nack(now)  # the device has events we never saw
            elif self._phase == "synced" and msg.boot_id != self.boot_id:
                self._phase = "hello"  # rebooted under us without the link dropping
                self._phase_at = now
                self._send_command(proto.C_HELLO, proto.HOST_HELLO_FMT, proto.PROTO_VERSION)
        elif isinstance(msg, Hello):
            self._on_hello(msg)
        elif isinstance(msg, Snapshot):
            self._on_snapshot(msg)
        elif isinstance(msg, ReplayGap):
            self.counters["replay gaps"] += 1
            if self._boot_snapshot is not None:
                self._abandon_boot_replay()
            else:
                self._ask_snapshot("replay window lost")
        elif isinstance(msg, Diag):
            self._deliver(msg)
        elif isinstance(msg, Stats):
            with self._lock:
                waiters, self._stats_waiters = self._stats_waiters, []
            for ev, got in waiters:
                got.append(msg)
                ev.set()

    def _on_hello(self, h: Hello) -> None:
        if self._phase != "hello":
            return
        self.hello = h
        if h.protocol != proto.PROTO_VERSION:
            raise LinkDown(f"tray speaks protocol {h.protocol}, this host {proto.PROTO_VERSION}: "
                           "update the firmware with `dialtray flash`")
        if self.boot_id is None:
            self._ask_snapshot("connect")
        elif h.boot_id != self.boot_id:
            self._ask_snapshot("tray rebooted")
        else:
            self._phase = "replay"
            self._request_replay(time.monotonic(), force=True)

    def _ask_snapshot(self, reason: str) -> None:
        self._phase = "snapshot"
        self._phase_at = time.monotonic()
        self._snapshot_reason = reason
        self._send_command(proto.C_SNAPSHOT, proto.CMD_ID_FMT)

    def _on_snapshot(self, snap: Snapshot) -> None:
        with self._lock:
            waiters, self._snapshot_waiters = self._snapshot_waiters, []
        for ev, got in waiters:
            got.append(snap)
            ev.set()
        if self._phase != "snapshot":
            return
        snap = Snapshot(0, snap.boot_id, snap.next_seq, snap.dials, self._snapshot_reason)
        rebooted = self.boot_id is not None and snap.boot_id != self.boot_id
        self.boot_id = snap.boot_id
        self._phase = "replay"
        if rebooted and self.hello is not None and self.hello.oldest <= 1:
            # The ring still holds every event since the reboot. Replay them all: the boot-time
            # positions are the snapshot minus those clicks, so only what happened while the
            # tray was down is "recovered"; everything after boot arrives click by click.
            self._boot_snapshot = snap
            self._boot_events = []
            self.expected = 1
        else:
            self._reconcile(snap, rebooted)
            self.expected = snap.next_seq
        self._request_replay(time.monotonic(), force=True)

    def _boot_replayed(self) -> None:
        """Every event from boot to the snapshot is in: reconcile at boot time, then deliver."""
        snap, events = self._boot_snapshot, self._boot_events
        assert snap is not None
        self._boot_snapshot = None
        moved: Counter[tuple[int, int]] = Counter()
        for raw in events:
            if raw.kind == proto.EV_CLICK:
                moved[(raw.dock, raw.dial)] += raw.extra
        at_boot = tuple(replace(d, position=self._wrap(d, d.position - moved[(d.dock, d.dial)]))
                        for d in snap.dials)
        self._reconcile(replace(snap, dials=at_boot, next_seq=1), rebooted=True)
        for raw in events:
            self._deliver_event(raw)

    def _abandon_boot_replay(self) -> None:
        """The ring lost the start of this boot after all: fall back to the snapshot alone."""
        snap = self._boot_snapshot
        assert snap is not None
        self._boot_snapshot = None
        self._reconcile(snap, rebooted=True)
        self.expected = snap.next_seq
        self._request_replay(time.monotonic(), force=True)

    @staticmethod
    def _wrap(d: DialState, position: int) -> int:
        return position % d.detents if d.sensor == "as5600" and d.detents else position

    def _reconcile(self, snap: Snapshot, rebooted: bool) -> None:
        """Turn the difference between what we knew and the snapshot into recovered clicks."""
        self._deliver(snap)
        for d in snap.dials:
            key = (d.dock, d.dial)
            old = self.dials.get(key)
            self.dials[key] = _DialMemory(d.sensor, d.detents, d.position)
            if d.sensor == "none" or old is None or old.sensor != d.sensor:
                continue
            if d.status == proto.ST_LOST_TRACK and rebooted:
                self._deliver(DialFault(0, d.dock, d.dial, proto.ST_LOST_TRACK))
                continue
            if d.status in (proto.ST_NAK, proto.ST_NO_MAGNET):
                self._deliver(DialFault(0, d.dock, d.dial, d.status))
                continue
            delta = d.position - old.position
            if d.sensor == "as5600" and d.detents:
                delta %= d.detents
                if delta > d.detents // 2:
                    delta -= d.detents
            if delta:
                self.counters["recovered clicks"] += abs(delta)
                self._deliver(Click(0, d.dock, d.dial, d.position, delta, recovered=True))

    def _request_replay(self, now: float, force: bool = False) -> None:
        busy = self._replay_in_flight is not None or now - self._replay_at < REPLAY_RETRY_S
        if busy and not force:
            return
        self._replay_at = now
        self.counters["replays requested"] += 1
        self._replay_in_flight = self._send_command(proto.C_REPLAY, proto.REPLAY_FMT, self.expected)

    def _on_ack(self, ack: Ack) -> None:
        p = self._pending.pop(ack.cmd_id, None)
        if p is None:
            self.counters["stray acks"] += 1
            return
        p.ack = ack
        p.done.set()
        if p is self._replay_in_flight:
            self._replay_in_flight = None
            if ack.status == proto.ACK_OK and self._phase == "replay":
                self._phase = "synced"
                self.synced.set()

    def _on_event(self, raw: RawEvent, now: float) -> None:
        if self._phase not in ("replay", "synced") or not self.expected:
            self.counters["events before sync"] += 1
            return
        if raw.seq < self.expected:
            self.counters["duplicates dropped"] += 1
            return
        if raw.seq > self.expected:
            if raw.seq not in self._held and len(self._held) < REORDER_LIMIT:
                self._held[raw.seq] = raw
                self.counters["held past a hole"] += 1
            self._nack(now)
            return
        self._accept(raw)
        while self.expected in self._held:
            self._accept(self._held.pop(self.expected))

    def _nack(self, now: float) -> None:
        if now - self._nack_at >= NACK_EVERY_S:
            self._nack_at = now
            self.counters["nacks"] += 1
            self._t.write(self._encoder.nack(self.expected))

    def _accept(self, raw: RawEvent) -> None:
        self.expected += 1
        boot = self._boot_snapshot
        if boot is not None:
            self._boot_events.append(raw)
            if self.expected >= boot.next_seq:
                self._boot_replayed()
            return
        self._deliver_event(raw)

    def _deliver_event(self, raw: RawEvent) -> None:
        ev = raw.to_event()
        if isinstance(ev, Click):
            mem = self.dials.get((ev.dock, ev.dial))
            if mem is not None:
                mem.position = ev.position
        elif isinstance(ev, DiceRolled):
            with self._lock:
                waiter = self._dice_waiters.pop(ev.request_id, None)
            if waiter:
                waiter[1].append(ev)
                waiter[0].set()
        self._deliver(ev)

    def _deliver(self, ev: TrayEvent) -> None:
        self.counters["delivered"] += 1
        self.events.put(ev)
        for listener in list(self._listeners):
            listener(ev)

    def _sync_counters(self) -> None:
        d = self._deframer
        self._deframer = proto.Deframer()
        self.counters["rejected: corrupt"] += d.corrupt
        self.counters["rejected: noise"] += d.noise
        self.counters["rejected: overflow"] += d.overflow

    def rejection_counts(self) -> dict[str, int]:
        """Host-side counts of everything refused, including the live connection's."""
        out = {k: v for k, v in self.counters.items() if k.startswith("rejected")}
        d = getattr(self, "_deframer", None)
        if d is not None and self.connected.is_set():
            out["rejected: corrupt"] = out.get("rejected: corrupt", 0) + d.corrupt
            out["rejected: noise"] = out.get("rejected: noise", 0) + d.noise
            out["rejected: overflow"] = out.get("rejected: overflow", 0) + d.overflow
        return out
