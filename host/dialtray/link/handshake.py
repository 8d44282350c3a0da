"""The handshake: how the link learns a boot and gets every one of its events.

Hello, snapshot, replay (``docs/protocol.md``, "Sequencing, acknowledgement and recovery"): the
host greets the boot, takes a snapshot of the dials, and asks the ring log for every event from
where it is to what the tray had logged when asked; only then is the session live. A reboot is
noticed from any frame that names the boot (HELLO, HEARTBEAT, SNAPSHOT) and starts the
handshake again; everything tied to the old boot's sequence numbers is dropped with its
``BootStream``. :class:`dialtray.link.engine.LinkEngine` runs it on the link thread.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace

from dialrig import proto

from dialtray.link.bootstream import BootStream
from dialtray.link.core import LinkCore
from dialtray.link.messages import REPLAY_LOST, REPLAY_REFUSED, UNREPLAYED, Hello, Snapshot
from dialtray.link.reconcile import at_boot, reconcile
from dialtray.link.seqspace import to_wire, unwrap
from dialtray.link.transport import LinkDown

log = logging.getLogger("dialtray.link")


class Handshake(LinkCore):
    """Hello → snapshot → replay → live, for the boot the tray names; again at every reboot."""

    def _check_caught_up(self) -> None:
        """The handshake ends when the replay is acknowledged and has brought us up to what the
        tray had logged when we asked (and a reboot's boot-time picture is delivered)."""
        s = self._stream
        if self._phase == "replay" and self._replay is None and s is not None and \
                s.boot_snapshot is None and s.expected >= self._replay_target:
            self._phase = "live"
            self._was_live = True


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
            same = old is not None and old.boot_id == snap.boot_id
            nxt = old.count(snap.next_seq) if old is not None and same else snap.next_seq
            missed = max(0, nxt - old.expected) if old is not None and same and \
                snap.reason in UNREPLAYED else 0
            self._reconcile(replace(snap, next_seq=nxt, missed=missed), rebooted)
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
            self._ask_snapshot(REPLAY_LOST if gap else REPLAY_REFUSED)

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

