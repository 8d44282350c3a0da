# The device's end of two link rules the host relies on (issue 8), run in MicroPython:
#  - defect 5: sequence numbers pass 2**32 - 1. The ring counts on; the wire carries the count
#    modulo 2**32; the host's 32-bit acks, NACKs and replay requests are read as the count
#    nearest the device's own.
#  - defect 3: a boot streams its events only to a host that said HELLO to this boot, never to a
#    host still acknowledging the previous boot with its heartbeats.
import time

from dialrig import proto

from devrig import device

WRAP = 1 << 32


def _event_seqs(msgs):
    return [proto.fields(t, b)[0] for t, b in msgs if t == proto.T_EVENT]


def test_sequence_numbers_wrap_at_2_32_on_the_wire_and_acks_nacks_replays_still_work():
    app, io = device(docks=1)
    link, ring = app.link, app.ring
    ring.next_seq = WRAP - 3  # as if this boot had logged 2**32 - 4 events already
    for i in range(6):  # counts 2**32-3 .. 2**32+2: wire 0xFFFFFFFD, FE, FF, 0, 1, 2
        ring.append(time.ticks_ms(), proto.EV_CLICK, 0, 0, i, 1)
    now = time.ticks_ms()
    link.receive(proto.encode(proto.C_HELLO, proto.HOST_HELLO_FMT, 1, proto.PROTO_VERSION), now)
    hello = next(proto.fields(t, b) for t, b in io.messages() if t == proto.T_HELLO)
    assert hello[6] == (WRAP + 3 - ring.size) % WRAP  # oldest, on the wire
    assert hello[7] == 3  # next_seq 2**32 + 3 on the wire
    link.receive(proto.encode(proto.C_REPLAY, proto.REPLAY_FMT, 2, WRAP - 3), now)
    io.messages()
    link.pump(now)
    assert _event_seqs(io.messages()) == [WRAP - 3, WRAP - 2, WRAP - 1, 0, 1, 2]
    # The host acknowledges everything below count 2**32 + 1 (wire 1) and NACKs count 2**32
    # (wire 0): the device goes back across the wrap.
    link.receive(proto.encode(proto.C_ACK_EVENTS, proto.ACK_EVENTS_FMT, 1), now)
    assert link.acked == WRAP + 1
    link.receive(proto.encode(proto.C_NACK, proto.NACK_FMT, 0), now)
    assert link.send_seq == WRAP
    link.pump(now)
    assert _event_seqs(io.messages()) == [0, 1, 2]
    # A replay from wire 0xFFFFFFFE is count 2**32 - 2, still in the ring.
    link.receive(proto.encode(proto.C_REPLAY, proto.REPLAY_FMT, 3, WRAP - 2), now)
    acks = [proto.fields(t, b)[:2] for t, b in io.messages() if t == proto.T_ACK]
    assert acks == [(3, proto.ACK_OK)]
    link.pump(now)
    assert _event_seqs(io.messages()) == [WRAP - 2, WRAP - 1, 0, 1, 2]


def test_a_host_still_acking_the_previous_boot_gets_no_events_until_it_says_hello():
    app, io = device(docks=1)
    link = app.link
    now = time.ticks_ms()
    for i in range(5):
        app.ring.append(now, proto.EV_CLICK, 0, 0, i, 1)
    # The host's heartbeat names next-expected 3 (of the boot before): it is a host, so Ctrl-C
    # judgement is on, but nothing of this boot is sent to it.
    link.receive(proto.encode(proto.C_HEARTBEAT, proto.HOST_HEARTBEAT_FMT, 3), now)
    assert link.host_present
    link.pump(now)
    assert _event_seqs(io.messages()) == []
    link.receive(proto.encode(proto.C_HELLO, proto.HOST_HELLO_FMT, 1, proto.PROTO_VERSION), now)
    link.receive(proto.encode(proto.C_REPLAY, proto.REPLAY_FMT, 2, 1), now)
    io.messages()
    link.pump(now)
    assert _event_seqs(io.messages()) == list(range(1, app.ring.next_seq))
