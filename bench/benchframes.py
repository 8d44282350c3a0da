"""The tray's side of the host-throughput benchmarks: a stream of click frames as the tray would
send them, and the host's read loop feeding them to a tracker.

bench_store (decode → tracker alone, for scale) and bench_tracker (frames → tracker) measure the
same stream through the same loop; written once so that the two figures stay comparable.
"""

from __future__ import annotations

from dialrig import proto
from dialtray.link.deframe import HostDeframer
from dialtray.link.messages import RawEvent, decode
from dialtray.tracker import Tracker

CHUNK = 4096  # bytes per read, as a serial port hands data over


def click_stream(t: Tracker, n: int, first_seq: int = 1) -> bytes:
    """n EVENT frames (sequence first_seq on): the combat dials of t's docks in turn, each turned
    one click clockwise and then back to where it was."""
    slots = [sl for sl in t.binding.slots() if sl.dial == 0]
    w = proto.FrameWriter()
    frames = []
    pos = {sl: 0 for sl in slots}
    for k in range(n):
        seq = first_seq + k
        sl = slots[(k // 2) % len(slots)]
        delta = 1 if k % 2 == 0 else -1
        pos[sl] += delta
        frames.append(bytes(w.frame(proto.T_EVENT, proto.EVENT_FMT, seq, seq * 3, proto.EV_CLICK,
                                    sl.dock, sl.dial, pos[sl] % 12, delta)))
    return b"".join(frames)


def track_stream(t: Tracker, stream: bytes) -> int:
    """Feed the frames of stream to t (deframe, decode, feed), the clock 1 ms on and a tick every
    64 events; the number of events fed."""
    d = HostDeframer()  # the link's
    clock, events = 0.0, 0
    for i in range(0, len(stream), CHUNK):
        for payload in d.feed(stream[i:i + CHUNK]):
            msg = decode(payload)
            assert isinstance(msg, RawEvent)
            t.feed(msg.to_event(), clock)
            events += 1
            if events % 64 == 0:
                clock += 0.001
                t.tick(clock)
    return events
