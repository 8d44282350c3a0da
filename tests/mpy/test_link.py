# The device's end of the link, run in MicroPython against the simulated board: bad input is
# counted and changes nothing, the replay window, once-only commands, and Ctrl-C judgement.
import struct
import time

from dialrig import proto
from dialrig.app import CtrlCJudge

from devrig import device


def _cmd(mtype, fmt, *fields):
    return proto.encode(mtype, fmt, *fields)


def _acks(msgs):
    return [proto.fields(t, b)[:2] for t, b in msgs if t == proto.T_ACK]


def _state(app):
    return (app.ring.next_seq, repr(app.cfg), bytes(app.display.buffer), app.diag_period)


def test_garbage_truncated_frames_and_unknown_types_are_counted_and_change_nothing():
    app, io = device()
    before = _state(app)
    link = app.link
    now = time.ticks_ms()
    link.receive(b"\x00\x13\x37garbage\xff\xfe\x00", now)                     # corrupt
    link.receive(_cmd(proto.C_SNAPSHOT, proto.CMD_ID_FMT, 5)[:-4] + b"\x00", now)  # truncated
    link.receive(b"hello REPL\r\n\x00", now)                                 # text
    link.receive(proto.encode(0x7E, "<HB", 9, 1), now)                       # unknown type
    bad_len = proto.encode_body(proto.C_ROLL_DICE, b"\x01\x00\x02")            # wrong length
    link.receive(bad_len, now)
    assert link.deframer.corrupt >= 2 and link.deframer.noise == 1
    assert link.unknown == 2
    assert _acks(io.messages()) == [(9, proto.ACK_UNKNOWN), (1, proto.ACK_UNKNOWN)]
    assert _state(app) == before


def test_out_of_range_commands_are_refused_with_bad_args_and_change_nothing():
    app, io = device()
    before = _state(app)
    now = time.ticks_ms()
    for frame in (
        _cmd(proto.C_ROLL_DICE, proto.ROLL_FMT, 1, 13, 5),                    # 13 dice
        _cmd(proto.C_ROLL_DICE, proto.ROLL_FMT, 2, 0, 5),                     # zero dice
        _cmd(proto.C_SHOW_DICE, proto.SHOW_DICE_FMT, 3, 2, b"\x07" * 12, bytes(12)),  # face 7
        _cmd(proto.C_SET_DIAL, proto.SET_DIAL_FMT, 4, 9, 0, 1, 0x70, 0, -1, 12, 1, 1, 0),  # dock 9
        _cmd(proto.C_SET_DIAL, proto.SET_DIAL_FMT, 5, 0, 0, 1, 0x70, 9, -1, 12, 1, 1, 0),  # ch 9
        _cmd(proto.C_SET_DIAL, proto.SET_DIAL_FMT, 6, 0, 0, 1, 0x70, 0, -1, 1, 1, 1, 0),  # 1 det
        _cmd(proto.C_SET_TIMING, proto.SET_TIMING_FMT, 7, 5000, 1),
        _cmd(proto.C_DIAG, proto.DIAG_CMD_FMT, 8, 1, 1),
        _cmd(proto.C_REPLAY, proto.REPLAY_FMT, 10, 999999),
    ):
        app.link.receive(frame, now)
    acks = _acks(io.messages())
    assert [a[0] for a in acks] == [1, 2, 3, 4, 5, 6, 7, 8, 10]
    assert all(a[1] == proto.ACK_BAD_ARGS for a in acks)
    assert app.link.bad_args == 9
    assert _state(app) == before


def test_a_resent_roll_is_answered_again_but_rolled_once():
    app, io = device()
    frame = _cmd(proto.C_ROLL_DICE, proto.ROLL_FMT, 42, 3, 7)
    app.link.receive(frame, time.ticks_ms())
    app.link.receive(frame, time.ticks_ms())
    assert _acks(io.messages()) == [(42, proto.ACK_OK), (42, proto.ACK_OK)]
    dice = [s for s in range(1, app.ring.next_seq)
            if struct.unpack(proto.EVENT_FMT, app.ring.record(s))[2] == proto.EV_DICE]
    assert len(dice) == 1


def test_replay_from_an_overwritten_sequence_says_gap_so_the_host_takes_a_snapshot():
    app, io = device()
    for i in range(app.cfg["ring_size"] + 10):
        app.ring.append(i, proto.EV_CLICK, 0, 0, i % 12, 1)
    app.link.receive(_cmd(proto.C_REPLAY, proto.REPLAY_FMT, 3, 2), time.ticks_ms())
    msgs = io.messages()
    assert _acks(msgs) == [(3, proto.ACK_REJECTED)]
    gap = [proto.fields(t, b) for t, b in msgs if t == proto.T_REPLAY_GAP]
    assert gap == [(2, app.ring.oldest())]


def test_events_stream_once_the_host_says_hello_and_a_nack_goes_back():
    app, io = device()
    link = app.link
    now = time.ticks_ms()
    for i in range(5):
        app.ring.append(now, proto.EV_CLICK, 1, 0, i, 1)
    link.pump(now)
    assert io.messages() == [], "nothing streams before a host is there"
    link.receive(_cmd(proto.C_HELLO, proto.HOST_HELLO_FMT, 1, proto.PROTO_VERSION), now)
    link.receive(_cmd(proto.C_REPLAY, proto.REPLAY_FMT, 2, 1), now)
    io.messages()
    link.pump(now)
    seqs = [proto.fields(t, b)[0] for t, b in io.messages() if t == proto.T_EVENT]
    assert seqs == list(range(1, app.ring.next_seq))
    link.receive(proto.encode(proto.C_NACK, proto.NACK_FMT, 4), now)
    link.pump(now)
    seqs = [proto.fields(t, b)[0] for t, b in io.messages() if t == proto.T_EVENT]
    assert seqs == list(range(4, app.ring.next_seq))


def test_host_silence_hands_ctrl_c_back_to_the_hardware():
    app, io = device()
    now = time.ticks_ms()
    app.link.receive(_cmd(proto.C_HELLO, proto.HOST_HELLO_FMT, 1, proto.PROTO_VERSION), now)
    assert io.judge_ctrl_c is True
    app.link.heartbeat(time.ticks_add(now, app.cfg["host_timeout_ms"] + 1))
    assert io.judge_ctrl_c is False and app.link.host_present is False


def test_ctrl_c_is_judged_by_context():
    t = time.ticks_ms()
    j = CtrlCJudge()
    j.is_interrupt(0x41, t)
    assert not j.is_interrupt(0x03, t + 5), "a 0x03 amid traffic is line damage"
    assert j.is_interrupt(0x03, t + 6), "Ctrl-C twice is meant"
    j = CtrlCJudge()
    j.is_interrupt(0x0D, t)
    assert j.is_interrupt(0x03, t + 1), "mpremote sends CR, Ctrl-C"
    j = CtrlCJudge()
    j.is_interrupt(0x41, t)
    assert j.is_interrupt(0x03, t + 600), "Ctrl-C after half a second of silence"
