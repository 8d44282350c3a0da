# dialrig.link — the device's end of the host link.
#
# Events are streamed from the ring log as they happen. The host acknowledges cumulatively and,
# as soon as it sees a hole in the sequence numbers, sends a NACK naming the first missing event:
# the device goes back there and streams on (go-back-N; the host keeps what it already had past
# the hole). If acknowledgements stop advancing altogether the device goes back on its own after
# RETRANSMIT_MS. Both sides drop duplicates by sequence number, so a
# corrupted, dropped or duplicated frame costs a resend, never a lost or double click.
#
# When the host falls silent (cable out, host app closed) the device keeps logging into the
# ring and keeps sending heartbeats only; a returning host says hello and asks for a replay.
#
# Commands from the host are acknowledged with a status. A command that is malformed, unknown or
# out of range is counted, acknowledged with the reason where it carries an id, and changes
# nothing.
import struct
import time

from dialrig import calstore, config, fairdice, proto

RETRANSMIT_MS = 150
MAX_EVENTS_PER_TICK = 16
_SENSOR_NAMES = {}
for _name in proto.SENSOR_CODES:
    _SENSOR_NAMES[proto.SENSOR_CODES[_name]] = _name
# Commands that must not run twice when the host resends them after a lost ACK: the device
# remembers the last one and answers a repeat with the same ACK without acting again.
_ONCE_ONLY = (proto.C_ROLL_DICE, proto.C_SET_DIAL, proto.C_SET_TIMING, proto.C_REBOOT,
              proto.C_FAIR_BEGIN, proto.C_FAIR_ROLL, proto.C_FAIR_REVEAL, proto.C_FAIR_MIX,
              proto.C_ROLL_SIDED)


class Link:
    """Protocol state for one device. `io` has write(buf) and read_available() -> bytes."""

    def __init__(self, app, io, boot_id):
        self.app = app
        self.io = io
        self.boot_id = boot_id
        self.writer = proto.FrameWriter()
        self.deframer = proto.Deframer()
        self.send_seq = 1  # next event to send
        self.acked = 1  # every event below this has reached the host
        self.last_ack_ms = time.ticks_ms()
        self.last_rx_ms = time.ticks_ms()
        self.host_present = False
        # Events stream only once a host has said HELLO to *this* boot: a host still acking the
        # previous boot (its heartbeats) must not receive this boot's events as the old one's.
        self.greeted = False
        self.unknown = 0
        self.bad_args = 0
        self.tx_frames = 0
        self.overflows = 0
        self.snap = bytearray(9 + 32 * struct.calcsize(proto.SNAP_DIAL_FMT))
        self.diag = bytearray(5 + 4 * 32)
        self.last_cmd = (0, 0)  # (type, id) of the last once-only command
        self.last_status = 0
        self.last_info = 0
        self.fair = fairdice.FairDice(app.ring, app.board.entropy_into)  # committed dice

    def set_host_present(self, present):
        """A host is talking to us (or has gone quiet): hand Ctrl-C judgement over."""
        if present != self.host_present:
            self.host_present = present
            self.app.board.set_ctrl_c(not present)
            self.io.judge_ctrl_c = present

    # ---- sending ----------------------------------------------------------------------------

    def send(self, wire):
        if self.io.write(wire) is False:
            self.overflows += 1  # the port was full: see SerialIO.write
            return
        self.tx_frames += 1

    def pump(self, now):
        """Send pending events (a bounded batch per call) and resend after a silent spell."""
        ring = self.app.ring
        if not self.host_present or not self.greeted:
            return
        if self.acked < self.send_seq and time.ticks_diff(now, self.last_ack_ms) > RETRANSMIT_MS:
            self.send_seq = max(self.acked, ring.oldest())
            self.last_ack_ms = now
        sent = 0
        while self.send_seq < ring.next_seq and sent < MAX_EVENTS_PER_TICK:
            rec = ring.record(self.send_seq)
            if rec is None:  # overwritten before the host took it: the host will see the gap
                self.send_seq = ring.oldest()
                continue
            self.send(self.writer.frame_bytes(proto.T_EVENT, rec))
            self.send_seq += 1
            sent += 1

    def heartbeat(self, now):
        self.send(self.writer.frame(proto.T_HEARTBEAT, proto.HEARTBEAT_FMT, self.boot_id,
                                    self.app.ring.next_seq, now & 0x7FFFFFFF))
        if self.host_present and time.ticks_diff(now, self.last_rx_ms) > \
                self.app.cfg["host_timeout_ms"]:
            self.set_host_present(False)

    def hello(self):
        v = [int(x) for x in config.FIRMWARE_VERSION.split(".")]
        ring = self.app.ring
        self.send(self.writer.frame(proto.T_HELLO, proto.HELLO_FMT, v[0], v[1], v[2],
                                    proto.PROTO_VERSION, self.app.board.uid, self.boot_id,
                                    ring.oldest(), ring.next_seq, len(self.app.cfg["docks"]),
                                    self.cal_flags()))

    def cal_flags(self):
        status = self.app.cal_status
        if status == calstore.STORED_OK:
            return proto.HELLO_CAL_STORED
        return proto.HELLO_CAL_BAD if status == calstore.STORED_BAD else 0

    def ack(self, cmd_id, status, info=0):
        self.last_status = status
        self.last_info = info
        self.send(self.writer.frame(proto.T_ACK, proto.ACK_FMT, cmd_id, status, info))

    def snapshot(self):
        dials = self.app.dials
        struct.pack_into(proto.SNAP_HEAD_FMT, self.snap, 0, self.boot_id, self.app.ring.next_seq,
                         dials.n)
        size = struct.calcsize(proto.SNAP_DIAL_FMT)
        for k in range(dials.n):
            struct.pack_into(proto.SNAP_DIAL_FMT, self.snap, 9 + k * size, k >> 1, k & 1,
                             dials.kind[k], dials.status[k], dials.detents[k],
                             dials.reported[k])
        body = memoryview(self.snap)[:9 + dials.n * size]
        self.send(self.writer.frame_bytes(proto.T_SNAPSHOT, body))

    def send_diag(self, now):
        dials = self.app.dials
        struct.pack_into(proto.DIAG_HEAD_FMT, self.diag, 0, now & 0x7FFFFFFF, dials.n)
        for k in range(dials.n):
            struct.pack_into("<i", self.diag, 5 + 4 * k, dials.raw[k])
        self.send(self.writer.frame_bytes(proto.T_DIAG, memoryview(self.diag)[:5 + 4 * dials.n]))

    def stats(self):
        d = self.deframer
        self.send(self.writer.frame(proto.T_STATS, proto.STATS_FMT, d.ok, d.corrupt, d.noise,
                                    self.unknown, self.bad_args, self.tx_frames,
                                    d.overflow + self.overflows))

    # ---- receiving --------------------------------------------------------------------------

    def receive(self, data, now):
        for payload in self.deframer.feed(data):
            self.last_rx_ms = now
            try:
                mtype, body = proto.parse(payload)
            except proto.ProtoError:
                self.unknown += 1
                if len(payload) >= 4 and payload[0] == proto.PROTO_VERSION:
                    # Unknown type or wrong length: answer with the id if the body has one.
                    self.ack(payload[2] | (payload[3] << 8), proto.ACK_UNKNOWN)
                continue
            self.dispatch(mtype, body, now)

    def dispatch(self, mtype, body, now):
        if mtype == proto.C_ACK_EVENTS or mtype == proto.C_HEARTBEAT:
            (upto,) = struct.unpack(proto.ACK_EVENTS_FMT, body)
            self.set_host_present(True)
            self.take_ack(self.seq_count(upto), now)
            return
        if mtype == proto.C_NACK:
            missing = self.seq_count(struct.unpack(proto.NACK_FMT, body)[0])
            self.set_host_present(True)
            ring = self.app.ring
            if ring.oldest() <= missing < self.send_seq:
                # Go back to the hole; the host keeps what it already has after it.
                self.send_seq = missing
                self.last_ack_ms = now
            return
        if mtype < 0x40:
            # A device-to-host message arriving at the device: someone is echoing us.
            self.unknown += 1
            return
        cmd_id = body[0] | (body[1] << 8)
        if mtype in _ONCE_ONLY:
            if self.last_cmd == (mtype, cmd_id):
                self.ack(cmd_id, self.last_status, self.last_info)
                return
            self.last_cmd = (mtype, cmd_id)
        if mtype == proto.C_HELLO:
            self.set_host_present(True)
            self.greeted = True
            self.ack(cmd_id, proto.ACK_OK)
            self.hello()
        elif mtype == proto.C_REPLAY:
            self.replay(cmd_id, self.seq_count(struct.unpack(proto.REPLAY_FMT, body)[1]), now)
        elif mtype == proto.C_SNAPSHOT:
            self.ack(cmd_id, proto.ACK_OK)
            self.snapshot()
        elif mtype == proto.C_STATS:
            self.ack(cmd_id, proto.ACK_OK)
            self.stats()
        elif mtype == proto.C_ROLL_DICE:
            _, n, req = struct.unpack(proto.ROLL_FMT, body)
            if not 1 <= n <= self.app.cfg["dice"] or req == 0:
                return self.reject(cmd_id)
            self.ack(cmd_id, proto.ACK_OK)
            self.app.roll_dice(n, req, now)
        elif mtype == proto.C_ROLL_SIDED:
            _, n, sides, req, rolls = struct.unpack(proto.ROLL_SIDED_FMT, body)
            if not 1 <= n <= self.app.cfg["dice"] or not 2 <= sides <= proto.MAX_WIRE_FACE \
                    or req == 0 or rolls == 0:
                return self.reject(cmd_id)
            if not self.app.start_batch(n, sides, req, rolls):
                return self.ack(cmd_id, proto.ACK_REJECTED, self.app.batch_left)  # one runs
            self.ack(cmd_id, proto.ACK_OK)
            self.app.batch_tick(now)  # the first rolls at once (a single roll: all of it)
        elif mtype == proto.C_SHOW_DICE:
            _, n, faces, colours = struct.unpack(proto.SHOW_DICE_FMT, body)
            if n > self.app.cfg["dice"]:
                return self.reject(cmd_id)
            for i in range(n):
                if not 1 <= faces[i] <= 6 or colours[i] > proto.COLOUR_SIX:
                    return self.reject(cmd_id)
            self.ack(cmd_id, proto.ACK_OK)
            self.app.show_dice(n, faces, colours)
        elif mtype == proto.C_SET_DIAL:
            self.set_dial(cmd_id, struct.unpack(proto.SET_DIAL_FMT, body))
        elif mtype == proto.C_SET_TIMING:
            _, settle, sample = struct.unpack(proto.SET_TIMING_FMT, body)
            if settle > 1000 or not 1 <= sample <= 100:
                return self.reject(cmd_id)
            self.app.cfg["settle_ms"] = settle
            self.app.cfg["sample_ms"] = sample
            self.app.dials.settle_ms = settle
            self.ack(cmd_id, proto.ACK_OK)
        elif mtype == proto.C_DIAG:
            _, on, period = struct.unpack(proto.DIAG_CMD_FMT, body)
            if on > 1 or (on and not 5 <= period <= 5000):
                return self.reject(cmd_id)
            self.app.diag_period = period if on else 0
            self.ack(cmd_id, proto.ACK_OK)
        elif mtype == proto.C_CAL_INFO:
            crc = self.app.cal_crc
            self.ack(cmd_id, proto.ACK_OK, crc - 0x100000000 if crc >= 0x80000000 else crc)
        elif mtype == proto.C_SELFTEST:
            lamps = body[2]
            if lamps > 1:
                return self.reject(cmd_id)
            if not self.app.start_selftest(lamps):
                return self.ack(cmd_id, proto.ACK_REJECTED)  # one is running: wait for it
            self.ack(cmd_id, proto.ACK_OK)
        elif mtype == proto.C_REBOOT:
            self.ack(cmd_id, proto.ACK_OK)
            self.app.reboot_requested = True
        elif mtype == proto.C_STALL:
            task = body[2]
            if task not in (proto.STALL_SAMPLER, proto.STALL_LINK, proto.STALL_HEARTBEAT):
                return self.reject(cmd_id)
            self.ack(cmd_id, proto.ACK_OK)
            self.app.stalled |= task
        elif proto.C_FAIR_BEGIN <= mtype <= proto.C_FAIR_MIX:
            self.fair.command(self.app, self, mtype, cmd_id, body, now)
        else:
            self.unknown += 1
            self.ack(cmd_id, proto.ACK_UNKNOWN)

    def reject(self, cmd_id):
        self.bad_args += 1
        self.ack(cmd_id, proto.ACK_BAD_ARGS)

    def seq_count(self, wire):
        """A host's 32-bit sequence number as this boot's count: the count nearest our own.

        Sequence numbers go on the wire modulo 2**32 (struct "I" keeps the low 32 bits); the
        ring counts on. Until 2**30 events no count can be ambiguous, and no long integer is
        made on the way (docs/protocol.md, "Sequence numbers past 2^32 − 1")."""
        n = self.app.ring.next_seq
        if n < 0x40000000:
            return wire
        return n + ((wire - n + 0x80000000) & 0xFFFFFFFF) - 0x80000000

    def take_ack(self, upto, now):
        ring = self.app.ring
        if upto > ring.next_seq:
            self.bad_args += 1  # acknowledges events that never existed: ignore it
            return
        if upto > self.acked:
            self.acked = upto
            self.last_ack_ms = now
        if self.send_seq < self.acked:
            self.send_seq = self.acked

    def replay(self, cmd_id, from_seq, now):
        ring = self.app.ring
        if from_seq > ring.next_seq or from_seq < 1:
            return self.reject(cmd_id)
        self.set_host_present(True)
        if from_seq < ring.oldest():
            self.ack(cmd_id, proto.ACK_REJECTED, ring.oldest())
            self.send(self.writer.frame(proto.T_REPLAY_GAP, proto.REPLAY_GAP_FMT, from_seq,
                                        ring.oldest()))
            return
        self.ack(cmd_id, proto.ACK_OK)
        self.send_seq = from_seq
        self.acked = from_seq
        self.last_ack_ms = now

    def set_dial(self, cmd_id, f):
        _, dock, dial, sensor, mux, channel, quad, detents, pulses, direction, zero = f
        name = _SENSOR_NAMES.get(sensor)
        if name is None or dock >= len(self.app.cfg["docks"]) or dial > 1:
            return self.reject(cmd_id)
        new = {"sensor": name, "mux": mux, "channel": channel, "quad": quad, "detents": detents,
               "pulses": pulses, "direction": direction, "zero": zero}
        if config.validate_dial(new, "dial"):
            return self.reject(cmd_id)
        other = config.sensor_user(self.app.cfg, dock, dial, new)
        if other >= 0:  # two dials on one sensor would both report the same turns
            self.bad_args += 1
            return self.ack(cmd_id, proto.ACK_IN_USE, other)
        if name == config.SENSOR_QUADRATURE and not self.app.board.ensure_quad(quad):
            return self.reject(cmd_id)
        self.app.cfg["docks"][dock][dial] = new
        self.app.dials.configure(dock * 2 + dial, new)
        self.app.cal_dirty = True  # the saver task puts it on the flash
        self.ack(cmd_id, proto.ACK_OK)
