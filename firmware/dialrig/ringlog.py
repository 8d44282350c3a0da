# dialrig.ringlog — the device's memory of recent events, for replay after a lost link.
#
# Every event gets a sequence number (starting at 1 each boot) and a fixed-size record in a
# preallocated ring. The host acknowledges what it has; on reconnect it asks for a replay from
# its last seen sequence. When that is older than the oldest record still here the device says
# so (REPLAY_GAP) and the host falls back to a full snapshot, as DGT boards and MegaMek clients do.
#
# The record is exactly the EVENT message body, so sending an event is framing a slice of the
# ring: no copy, no allocation when logging from the sampling loop.
import struct

from dialrig import proto


class RingLog:
    def __init__(self, size):
        self.size = size
        self.buf = bytearray(size * proto.EVENT_SIZE)
        self.mv = memoryview(self.buf)
        self.next_seq = 1

    def append(self, t_ms, kind, dock, dial, value, extra):
        """Record one event; returns its sequence number. Allocation-free."""
        seq = self.next_seq
        slot = (seq % self.size) * proto.EVENT_SIZE
        struct.pack_into(proto.EVENT_FMT, self.buf, slot, seq, t_ms & 0x7FFFFFFF, kind, dock, dial,
                         value, extra)
        self.next_seq = seq + 1
        return seq

    def oldest(self):
        """The oldest sequence number still held."""
        o = self.next_seq - self.size
        return o if o > 1 else 1

    def record(self, seq):
        """The record for seq as a memoryview, or None if it was overwritten or not yet logged."""
        if seq < self.oldest() or seq >= self.next_seq:
            return None
        slot = (seq % self.size) * proto.EVENT_SIZE
        return self.mv[slot : slot + proto.EVENT_SIZE]
