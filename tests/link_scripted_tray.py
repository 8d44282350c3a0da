"""A scripted tray for link tests: the fake sits at the device boundary and speaks the real
protocol (``dialrig.proto``) on the master side of a real pty; the host's TraySession opens the
slave with pyserial, as it would a Pico.

It behaves like the firmware's link where the tests need it to (HELLO/SNAPSHOT/REPLAY answers,
REPLAY_GAP, heartbeats naming the boot, go-back-N on NACK, streaming only after a HELLO to this
boot) and lets a test do what a real tray only does by bad luck: withhold an event to open a hole,
reboot at an exact moment without the link dropping, or start a boot's count just below 2^32.
"""

from __future__ import annotations

import os
import select
import struct
import threading
import time

from dialrig import proto
from dialtray.virtual.bridge import make_raw

WIRE = 1 << 32


class ScriptedTray:
    def __init__(self, *, boot_id: int = 0xA, first_seq: int = 1, docks: int = 1,
                 heartbeat_s: float = 0.1, ring_size: int = 2048) -> None:
        self.master, self._slave = os.openpty()
        make_raw(self._slave)
        self.port = os.ttyname(self._slave)
        self.lock = threading.RLock()
        self.deframer = proto.Deframer()
        self.docks = docks
        self.heartbeat_s = heartbeat_s
        self.ring_size = ring_size
        self.positions = {(d, i): 0 for d in range(docks) for i in range(2)}
        self.withheld: set[int] = set()  # counts never sent (a hole that is not refilled)
        self.withheld_once: set[int] = set()  # counts skipped the first time only
        self.commands: list[int] = []  # every command type received, in order
        self.boots = 0
        self.error: BaseException | None = None
        self._boot(boot_id, first_seq)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="scripted-tray")
        self.thread.start()

    # ---- what the test does ---------------------------------------------------------------------

    def _boot(self, boot_id: int, first_seq: int) -> None:
        self.boot_id = boot_id
        self.ring: dict[int, tuple[int, int, int, int, int, int]] = {}
        self.first_seq = first_seq
        self.next_seq = first_seq
        self.send_seq = first_seq
        self.greeted = False
        self.boots += 1
        self.log(proto.EV_BOOT, 0, 0, proto.BOOT_POWER_ON, 0)

    def reboot(self, boot_id: int, *, announce: bool = True) -> None:
        """Power-cycle without the link dropping: RAM is lost, the dials stay where they are."""
        with self.lock:
            self.withheld.clear()
            self.withheld_once.clear()
            self._boot(boot_id, 1)
            if announce:
                self._hello()
            self._heartbeat()

    def log(self, kind: int, dock: int, dial: int, value: int, extra: int) -> int:
        with self.lock:
            seq = self.next_seq
            self.ring[seq] = (self.boot_id * 1000 + seq % 1000, kind, dock, dial, value, extra)
            self.ring.pop(seq - self.ring_size, None)
            self.next_seq += 1
            return seq

    def click(self, dock: int, dial: int, delta: int) -> int:
        with self.lock:
            pos = (self.positions[(dock, dial)] + delta) % 12
            self.positions[(dock, dial)] = pos
            return self.log(proto.EV_CLICK, dock, dial, pos, delta)

    def send(self, data: bytes) -> None:
        """Write everything, waiting while the port's buffer is full (USB flow control)."""
        view = memoryview(data)
        end = time.monotonic() + 10
        while view:
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:
                if time.monotonic() > end:
                    raise
                select.select([], [self.master], [], 0.05)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        os.close(self.master)
        os.close(self._slave)
        if self.error is not None:
            raise RuntimeError("the scripted tray failed") from self.error

    # ---- the device ---------------------------------------------------------------------------

    @property
    def oldest(self) -> int:
        return max(self.first_seq, self.next_seq - self.ring_size)

    def _hello(self) -> None:
        self.send(proto.encode(proto.T_HELLO, proto.HELLO_FMT, 0, 1, 0, proto.PROTO_VERSION,
                               b"SCRIPTED", self.boot_id, self.oldest % WIRE,
                               self.next_seq % WIRE, self.docks, 0))

    def _heartbeat(self) -> None:
        self.send(proto.encode(proto.T_HEARTBEAT, proto.HEARTBEAT_FMT, self.boot_id,
                               self.next_seq % WIRE, 0))

    def _count(self, wire: int) -> int:
        n = self.next_seq
        return n + (wire - n + (1 << 31)) % WIRE - (1 << 31)

    def _send_event(self, seq: int) -> None:
        t_ms, kind, dock, dial, value, extra = self.ring[seq]
        self.send(proto.encode(proto.T_EVENT, proto.EVENT_FMT, seq % WIRE, t_ms, kind, dock, dial,
                               value, extra))

    def _snapshot(self) -> None:
        dials = sorted(self.positions.items())
        body = struct.pack(proto.SNAP_HEAD_FMT, self.boot_id, self.next_seq % WIRE, len(dials))
        for (dock, dial), pos in dials:
            body += struct.pack(proto.SNAP_DIAL_FMT, dock, dial, proto.SENSOR_CODES["as5600"],
                                proto.ST_OK, 12, pos)
        self.send(proto.encode_body(proto.T_SNAPSHOT, body))

    def _answer(self, mtype: int, body: bytes) -> None:
        self.commands.append(mtype)
        if mtype in (proto.C_ACK_EVENTS, proto.C_HEARTBEAT):
            return
        if mtype == proto.C_NACK:
            missing = self._count(struct.unpack(proto.NACK_FMT, body)[0])
            if self.oldest <= missing < self.send_seq:
                self.send_seq = missing
            return
        cmd = struct.unpack_from("<H", body)[0]
        ack = proto.ACK_OK
        if mtype == proto.C_REPLAY:
            start = self._count(struct.unpack(proto.REPLAY_FMT, body)[1])
            if start > self.next_seq:
                ack = proto.ACK_BAD_ARGS
            elif start < self.oldest:
                self.send(proto.encode(proto.T_ACK, proto.ACK_FMT, cmd, proto.ACK_REJECTED, 0))
                self.send(proto.encode(proto.T_REPLAY_GAP, proto.REPLAY_GAP_FMT, start % WIRE,
                                       self.oldest % WIRE))
                return
            else:
                self.send_seq = start
        self.send(proto.encode(proto.T_ACK, proto.ACK_FMT, cmd, ack, 0))
        if mtype == proto.C_HELLO:
            self.greeted = True
            self._hello()
        elif mtype == proto.C_SNAPSHOT:
            self._snapshot()

    def _run(self) -> None:
        try:
            self._serve()
        except BaseException as e:  # the test must hear of it: close() raises it again
            self.error = e
            raise

    def _serve(self) -> None:
        last_beat = 0.0
        os.set_blocking(self.master, False)
        while not self.stop.is_set():
            try:
                data = os.read(self.master, 4096)
            except (BlockingIOError, OSError):
                data = b""
            with self.lock:
                for payload in self.deframer.feed(data):
                    self._answer(*proto.parse(payload))
                if time.monotonic() - last_beat > self.heartbeat_s:
                    last_beat = time.monotonic()
                    self._heartbeat()
                while self.greeted and self.send_seq < self.next_seq:
                    seq = self.send_seq
                    self.send_seq += 1
                    if seq in self.withheld_once:
                        self.withheld_once.discard(seq)
                    elif seq not in self.withheld and seq in self.ring:
                        self._send_event(seq)
            time.sleep(0.002)
