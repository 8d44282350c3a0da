"""The link thread's protocol work: one connection's handshake, events in order, commands.

:class:`LinkEngine` is the half of ``TraySession`` that runs on the session's own thread and
owns the port: it says hello, learns the boot, takes a snapshot and asks for replays
(``docs/protocol.md``, "Sequencing, acknowledgement and recovery"), feeds EVENT frames through
the boot's :class:`BootStream`, acknowledges and NACKs, resends commands, and keeps the
session's state truthful. Callers never touch it directly; they use ``TraySession``.

A reboot is noticed from any frame that names the boot (HELLO, HEARTBEAT, SNAPSHOT) — the link
need not drop — and everything tied to the old boot's sequence numbers is dropped with its
``BootStream``. HELLO is only ever sent while the handshake waits for one (never resent by the
command pump afterwards): the firmware starts streaming a boot's events only once a host has
said hello to that boot, so no event of a boot the host has not met can reach it unnoticed.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from dialrig import proto

from dialtray.link.bootstream import BootStream
from dialtray.link.commands import CommandEncoder
from dialtray.link.messages import (
    Ack,
    Diag,
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
)
from dialtray.link.reconcile import DialMemory, at_boot, reconcile, remember
from dialtray.link.seqspace import to_wire, unwrap
from dialtray.link.state import SessionState, StateCell
from dialtray.link.transport import LinkDown, Transport

log = logging.getLogger("dialtray.link")

ACK_EVERY_S = 0.02
HEARTBEAT_EVERY_S = 0.25
SILENCE_S = 1.5  # the device heartbeats every 0.5 s: three missed beats means the link is gone
COMMAND_RETRY_S = 0.25
COMMAND_TRIES = 8
NACK_EVERY_S = 0.02
SYNC_RETRY_S = 0.08
STALL_S = 1.0  # events known to be missing and none arriving for this long: handshake again
# How many times longer than a real tray the tray on the other end may take to answer: 1 for
# hardware. A tray emulated on this computer (virtual.rp2040, a chip at 0.1-0.4x real time)
# raises it while it runs, so retries, silence and stall limits stay the same in its own time.
PATIENCE = 1.0


def patient(seconds: float) -> float:
    """A link time limit, stretched for a tray slower than real time (see PATIENCE)."""
    return seconds * PATIENCE

@dataclass
class Pending:
    mtype: int
    cmd_id: int
    frame: bytes
    sent_at: float = 0.0
    tries: int = 0
    done: threading.Event = field(default_factory=threading.Event)
    ack: Ack | None = None
    error: str = ""
    user: bool = False  # asked for by a caller (kept across reconnects), not by the sync logic


class LinkEngine:
    """Protocol state shared by the link thread and the callers (guarded where they meet)."""

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
        self._deframer = proto.Deframer()
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

    def _check_caught_up(self) -> None:
        """The handshake ends when the replay is acknowledged and has brought us up to what the
        tray had logged when we asked (and a reboot's boot-time picture is delivered)."""
        s = self._stream
        if self._phase == "replay" and self._replay is None and s is not None and \
                s.boot_snapshot is None and s.expected >= self._replay_target:
            self._phase = "live"
            self._was_live = True

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

    def _serve(self, t: Transport) -> None:
        self._t = t
        self._deframer = proto.Deframer()
        self._serving = True
        # Sync commands from the last connection are stale; a caller's command is resent.
        self._pending = {k: p for k, p in self._pending.items() if p.user}
        self._replay = None
        self._nack_at = 0.0
        last_rx = time.monotonic()
        last_ack = last_beat = 0.0
        acked = -1
        self._progress_at = time.monotonic()
        self._start_handshake("reconnected" if self._was_live else "connect")
        self._deliver(LinkState(0, True, "connected"))
        while not self._stop.is_set():
            data = t.read()
            now = time.monotonic()
            if data:
                last_rx = now
                for payload in self._deframer.feed(data):
                    self._handle(payload, now)
            elif now - last_rx > patient(SILENCE_S):
                raise LinkDown(f"tray silent for {patient(SILENCE_S):.1f} s")
            self._pump_commands(now)
            if self._phase in ("hello", "snapshot") and (
                    now - self._phase_at > patient(SYNC_RETRY_S)
                    or self._answer_lost()):
                # The answer (HELLO or SNAPSHOT) was lost even though the command's ACK may
                # have arrived: ask again. Large frames are the likeliest to be damaged.
                self.counters[f"{self._phase} retries"] += 1
                self._send_sync(proto.C_HELLO if self._phase == "hello" else proto.C_SNAPSHOT)
            s = self._stream
            if s is not None and self._phase in ("replay", "live"):
                if s.expected != acked and now - last_ack > ACK_EVERY_S:
                    t.write(self._encoder.ack_events(to_wire(s.expected)))
                    acked, last_ack = s.expected, now
                if now - last_beat > HEARTBEAT_EVERY_S:
                    t.write(self._encoder.heartbeat(to_wire(s.expected)))
                    last_beat = now
                if s.expected != self._progress_mark:
                    self._progress_mark, self._progress_at = s.expected, now
                if not s.missing:
                    self._progress_at = now
                elif now - self._progress_at > patient(STALL_S):
                    # Nothing comes although the tray has more (it may never have been greeted
                    # by us, if its hello crossed ours): start again from hello.
                    self.counters["stalls"] += 1
                    self._progress_at = now
                    self._start_handshake("stalled")
                else:
                    self._nack(now)
            self._update_state()

    # ---- the handshake -------------------------------------------------------------------------

    def _start_handshake(self, why: str) -> None:
        """Say hello and learn the boot and its sequence range; nothing is live until done."""
        self._why = why
        self._phase = "hello"
        self._update_state()
        self._forget_sync_commands()
        self._send_sync(proto.C_HELLO)

    def _send_sync(self, mtype: int) -> None:
        """HELLO and SNAPSHOT of the handshake: resent by the phase logic while it waits, never
        after it (a stale HELLO reaching a rebooted tray would start its stream)."""
        self._phase_at = time.monotonic()
        self._answer_after = None
        if mtype == proto.C_HELLO:
            self._send_command(mtype, proto.HOST_HELLO_FMT, proto.PROTO_VERSION)
        else:
            self._send_command(mtype, proto.CMD_ID_FMT)

    def _chunks(self) -> int:
        d = self._deframer
        return d.ok + d.corrupt + d.noise + d.overflow

    def _answer_lost(self) -> bool:
        """The ACK of our HELLO/SNAPSHOT came, and then a chunk that was not the answer (the
        answer is the larger frame, the likelier one to be damaged): ask again at once instead
        of waiting out SYNC_RETRY_S. Under a noisy cable this halves a reboot's handshake."""
        if self._answer_after is None or self._chunks() <= self._answer_after:
            return False
        self.counters["answers lost, asked at once"] += 1
        return True

    def _forget_sync_commands(self) -> None:
        self._pending = {k: p for k, p in self._pending.items() if p.user}
        self._replay = None

    def _note_boot(self, boot_id: int) -> bool:
        """The tray named its boot. True when that is not the boot it named last: it rebooted,
        and every per-boot thing we hold (held events, a replay in progress) is dropped."""
        seen, self._boot_seen = self._boot_seen, boot_id
        if seen is None or seen == boot_id:
            return False
        self.counters["reboots noticed"] += 1
        # The state goes down before anything it vouches for changes (boot_id, expected).
        self._why, self._phase = "tray rebooted", "hello"
        self._update_state()
        s = self._stream
        if s is not None and s.boot_id != boot_id:
            self.counters["held events dropped at a reboot"] += len(s.held)
            log.info("%s: tray rebooted (boot %08x → %08x)", self.name, s.boot_id, boot_id)
            self._stream = None
        return True

    def _on_hello(self, h: Hello) -> None:
        if self._note_boot(h.boot_id):
            # A new boot announcing itself (or answering a hello meant for the old one): it
            # streams only to a host that greeted *it*, so greet it and take its answer.
            self._start_handshake("tray rebooted")
            return
        if self._phase != "hello":
            return  # a late answer to a hello we asked again
        self._forget_sync_commands()
        self.hello = h
        if h.protocol != proto.PROTO_VERSION:
            raise LinkDown(f"tray speaks protocol {h.protocol}, this host {proto.PROTO_VERSION}: "
                           "update the firmware with `dialtray flash`")
        s = self._stream
        if s is not None and s.boot_id == h.boot_id:
            s.saw_device_next(h.next_seq)
            self._phase = "replay"
            self._request_replay()
        elif self._last_boot is None:
            self._ask_snapshot("connect")
        else:
            self._ask_snapshot("tray rebooted" if h.boot_id != self._last_boot else "resync")

    def _ask_snapshot(self, reason: str) -> None:
        self._why = reason
        self._phase = "snapshot"
        self._update_state()
        self._snapshot_reason = reason
        self._send_sync(proto.C_SNAPSHOT)

    def _on_snapshot(self, snap: Snapshot) -> None:
        with self._lock:
            waiters, self._snapshot_waiters = self._snapshot_waiters, []
        for ev, got in waiters:
            got.append(snap)
            ev.set()
        if self._note_boot(snap.boot_id):
            self._start_handshake("tray rebooted")  # the hello we had was the old boot's
            return
        if self._phase != "snapshot" or self.hello is None:
            return
        self._forget_sync_commands()
        snap = Snapshot(0, snap.boot_id, snap.next_seq, snap.dials, self._snapshot_reason)
        rebooted = self._last_boot is not None and snap.boot_id != self._last_boot
        self._last_boot = snap.boot_id
        if rebooted and self.hello.oldest == 1 and snap.next_seq > 1:
            # The ring still holds every event since the reboot. Replay them all: the boot-time
            # positions are the snapshot minus those clicks, so only what happened while the
            # tray was down is "recovered"; everything after boot arrives click by click.
            s = BootStream(snap.boot_id, 1, self.counters)
            s.boot_snapshot = replace(snap, next_seq=unwrap(snap.next_seq, 1))
        else:
            old = self._stream
            nxt = old.count(snap.next_seq) if old and old.boot_id == snap.boot_id else \
                snap.next_seq
            self._reconcile(replace(snap, next_seq=nxt), rebooted)
            s = BootStream(snap.boot_id, nxt, self.counters)
        s.saw_device_next(self.hello.next_seq)  # the same boot: _note_boot saw to that
        self._stream = s
        self._phase = "replay"
        self._request_replay()

    def _boot_replayed(self, s: BootStream) -> None:
        """Every event from boot to the snapshot is in: reconcile at boot time, then deliver."""
        snap, events = s.boot_snapshot, s.boot_events
        assert snap is not None
        s.boot_snapshot, s.boot_events = None, []
        self._reconcile(replace(at_boot(snap, events), next_seq=1), rebooted=True)
        for raw in events:
            self._deliver_event(raw)

    def _replay_refused(self, gap: bool) -> None:
        """The ring no longer holds what we asked for (gap), or the tray refused the replay
        (we asked for events it never logged: our idea of it is wrong). Either way the
        snapshot is the truth to restart from."""
        self._replay = None
        s = self._stream
        if gap and s is not None and s.boot_snapshot is not None:
            # The ring lost the start of this boot after all: fall back to the snapshot alone.
            snap, s.boot_snapshot, s.boot_events = s.boot_snapshot, None, []
            self._reconcile(snap, rebooted=True)
            self._stream = BootStream(s.boot_id, snap.next_seq, self.counters)
            self._request_replay()
        else:
            self._ask_snapshot("replay window lost" if gap else "replay refused")

    def _reconcile(self, snap: Snapshot, rebooted: bool) -> None:
        for ev in reconcile(self.dials, snap, rebooted, self.counters):
            self._deliver(ev)

    def _request_replay(self) -> None:
        s = self._stream
        assert s is not None
        self.counters["replays requested"] += 1
        self._progress_at = time.monotonic()
        self._replay_from = s.expected
        self._replay_target = s.device_next
        self._replay = self._send_command(proto.C_REPLAY, proto.REPLAY_FMT, to_wire(s.expected))

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

    def _pump_commands(self, now: float) -> None:
        while True:
            try:
                p = self._outbox.get_nowait()
            except queue.Empty:
                break
            self._transmit(p, now)
        for p in list(self._pending.values()):
            if now - p.sent_at <= patient(COMMAND_RETRY_S):
                continue
            if p.mtype in (proto.C_HELLO, proto.C_SNAPSHOT) and not p.user:
                del self._pending[p.cmd_id]  # the handshake asks again itself
            elif p.tries >= COMMAND_TRIES:
                del self._pending[p.cmd_id]
                p.error = f"no acknowledgement after {p.tries} tries"
                p.done.set()
                if p is self._replay:
                    self._start_handshake("replay never acknowledged")
            else:
                self.counters["command resends"] += 1
                self._transmit(p, now)

    def _on_ack(self, ack: Ack) -> None:
        p = self._pending.pop(ack.cmd_id, None)
        if p is None:
            self.counters["stray acks"] += 1
            return
        p.ack = ack
        p.done.set()
        if not p.user and p.mtype in (proto.C_HELLO, proto.C_SNAPSHOT):
            # The device sends the answer right behind this ACK: the next chunk is the answer.
            self._answer_after = self._chunks()
        if p is self._replay:
            if ack.status == proto.ACK_OK:
                self._replay = None
                self._check_caught_up()
            else:
                self._replay_refused(gap=ack.status == proto.ACK_REJECTED)

    # ---- what the tray says --------------------------------------------------------------------

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
            self._on_heartbeat(msg, now)
        elif isinstance(msg, Hello):
            self._on_hello(msg)
        elif isinstance(msg, Snapshot):
            self._on_snapshot(msg)
        elif isinstance(msg, ReplayGap):
            self.counters["replay gaps"] += 1
            if self._replay is not None and msg.requested == to_wire(self._replay_from):
                self._pending.pop(self._replay.cmd_id, None)
                self._replay_refused(gap=True)
        elif isinstance(msg, Diag):
            self._deliver(msg)
        elif isinstance(msg, Stats):
            with self._lock:
                waiters, self._stats_waiters = self._stats_waiters, []
            for ev, got in waiters:
                got.append(msg)
                ev.set()
        self._update_state()  # a hole opened or closed, a replay caught up

    def _on_heartbeat(self, hb: Heartbeat, now: float) -> None:
        if self._note_boot(hb.boot_id):
            self._start_handshake("tray rebooted")  # rebooted under us without the link dropping
            return
        s = self._stream
        if s is not None and s.boot_id == hb.boot_id and self._phase in ("replay", "live"):
            s.saw_device_next(hb.next_seq)
            if s.missing:
                self._nack(now)  # the device has events we never saw

    def _on_event(self, raw: RawEvent, now: float) -> None:
        s = self._stream
        if s is None or self._phase not in ("replay", "live"):
            self.counters["events before sync"] += 1
            return
        for ev in s.offer(raw):
            snap = s.boot_snapshot
            if snap is None:
                self._deliver_event(ev)
                continue
            s.boot_events.append(ev)
            if ev.seq + 1 >= snap.next_seq:
                self._boot_replayed(s)
        if s.missing:
            self._nack(now)
        self._check_caught_up()

    def _nack(self, now: float) -> None:
        s = self._stream
        if s is not None and now - self._nack_at >= NACK_EVERY_S:
            self._nack_at = now
            self.counters["nacks"] += 1
            self._t.write(self._encoder.nack(to_wire(s.expected)))

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
        self.counters["delivered"] += 1
        self.events.put(ev)
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
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
        d = self._deframer
        if self._serving:
            out["rejected: corrupt"] = out.get("rejected: corrupt", 0) + d.corrupt
            out["rejected: noise"] = out.get("rejected: noise", 0) + d.noise
            out["rejected: overflow"] = out.get("rejected: overflow", 0) + d.overflow
        return out
