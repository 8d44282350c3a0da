"""The link thread's protocol work: the loop that reads the tray, acknowledges and resends.

:class:`LinkEngine` is the half of ``TraySession`` that runs on the session's own thread and
owns the port: it reads frames and dispatches them, feeds EVENT frames through the boot's
:class:`BootStream`, acknowledges and NACKs, resends commands until acknowledged, notices a
silent tray, and keeps the session's state truthful. The handshake it runs (hello, snapshot,
replay; ``docs/protocol.md``) is :class:`dialtray.link.handshake.Handshake`; the shared state
and the delivery of events, :class:`dialtray.link.core.LinkCore`. Callers never touch it
directly; they use ``TraySession``.

HELLO is only ever sent while the handshake waits for one (never resent by the command pump
afterwards): the firmware starts streaming a boot's events only once a host has said hello to
that boot, so no event of a boot the host has not met can reach it unnoticed.
"""

from __future__ import annotations

import logging
import queue
import time

from dialrig import proto

from dialtray.link.core import Pending
from dialtray.link.deframe import HostDeframer
from dialtray.link.handshake import Handshake
from dialtray.link.messages import (
    Ack,
    Diag,
    Heartbeat,
    Hello,
    LinkState,
    RawEvent,
    ReplayGap,
    Snapshot,
    Stats,
    decode,
)
from dialtray.link.seqspace import to_wire
from dialtray.link.transport import LinkDown, Transport

__all__ = ["LinkEngine", "Pending", "patient"]

log = logging.getLogger("dialtray.link")

ACK_EVERY_S = 0.02
HEARTBEAT_EVERY_S = 0.25
SILENCE_S = 1.5  # the device heartbeats every 0.5 s: three missed beats means the link is gone
COMMAND_RETRY_S = 0.25
COMMAND_TRIES = 8
NACK_EVERY_S = 0.02
SYNC_RETRY_S = 0.08
# The handshake's REPLAY is resent at the handshake's pace (like HELLO and SNAPSHOT), with as
# many tries as a command gets in its time: a lost REPLAY (or its ACK) held a reboot's handshake
# 0.25 s, the commonest wait of a reboot through a noisy cable; the tray answers it at once,
# and a replay asked twice is two copies of events, which the host drops.
REPLAY_TRIES = round(COMMAND_TRIES * COMMAND_RETRY_S / SYNC_RETRY_S)
STALL_S = 1.0  # events known to be missing and none arriving for this long: handshake again
# How many times longer than a real tray the tray on the other end may take to answer: 1 for
# hardware. A tray emulated on this computer (virtual.rp2040, a chip at 0.1-0.4x real time)
# raises it while it runs, so retries, silence and stall limits stay the same in its own time.
PATIENCE = 1.0


def patient(seconds: float) -> float:
    """A link time limit, stretched for a tray slower than real time (see PATIENCE)."""
    return seconds * PATIENCE



class LinkEngine(Handshake):
    """The link thread's loop over one connection (``_serve``) and its answers to each frame."""

    def _serve(self, t: Transport) -> None:
        self._t = t
        self._deframer = HostDeframer()
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


    def _pump_commands(self, now: float) -> None:
        while True:
            try:
                p = self._outbox.get_nowait()
            except queue.Empty:
                break
            self._transmit(p, now)
        for p in list(self._pending.values()):
            replay = p is self._replay
            if now - p.sent_at <= patient(SYNC_RETRY_S if replay else COMMAND_RETRY_S):
                continue
            if p.mtype in (proto.C_HELLO, proto.C_SNAPSHOT) and not p.user:
                del self._pending[p.cmd_id]  # the handshake asks again itself
            elif p.tries >= (REPLAY_TRIES if replay else COMMAND_TRIES):
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

