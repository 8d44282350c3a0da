# The wire codec's tests, in the subset of Python both interpreters run: they are executed by
# MicroPython (tests/test_firmware_mpy.py) and by CPython (tests/test_proto_cpython.py), so the
# firmware and the host are proven to speak the same bytes.
import struct

from dialrig import proto


def _frame_event(seq, value=0):
    return proto.encode(proto.T_EVENT, proto.EVENT_FMT, seq, 1000 + seq, proto.EV_CLICK, 3, 1,
                        value, 1)


def _lcg(seed):
    # A tiny deterministic generator: MicroPython's random module differs from CPython's.
    state = [seed]

    def nxt(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return state[0] % n

    return nxt


def test_cobs_round_trip_including_zero_runs_and_long_blocks():
    cases = [b"", b"\x00", b"\x00\x00", b"\x11\x22\x00\x33", bytes(range(256)),
             bytes([7]) * 600, b"\x00" * 300 + b"\x01"]
    for data in cases:
        out = bytearray(len(data) + len(data) // 254 + 2)
        n = proto.cobs_encode_into(data, len(data), out, 0)
        enc = bytes(out[:n])
        assert 0 not in enc
        assert proto.cobs_decode(enc) == data


def test_cobs_rejects_a_block_that_runs_past_the_end():
    assert proto.cobs_decode(b"\x05\x01\x02") is None
    assert proto.cobs_decode(b"\x00") is None


def test_frame_has_no_repl_control_bytes_inside():
    # Values chosen so the payload is full of 0x00-0x05 and 0x10 before escaping.
    wire = proto.encode(proto.T_EVENT, proto.EVENT_FMT, 0x03030303, 0x10010203, 3, 4, 5,
                        0x04000300, 0x0102)
    inner = wire[1:-1]
    assert wire[0] == 0 and wire[-1] == 0
    for b in (0x00, 0x01, 0x02, 0x03, 0x04, 0x05):
        assert b not in inner


def test_deframer_round_trip_and_field_decoding():
    d = proto.Deframer()
    stream = b"".join(_frame_event(s, -5 * s) for s in range(1, 50))
    out = d.feed(stream)
    assert len(out) == 49 and d.ok == 49
    for i, p in enumerate(out):
        mtype, body = proto.parse(p)
        assert mtype == proto.T_EVENT
        f = proto.fields(mtype, body)
        assert f[0] == i + 1 and f[5] == -5 * (i + 1)


def test_frames_split_across_reads_at_every_byte():
    wire = _frame_event(7) + _frame_event(8)
    for cut in range(len(wire) + 1):
        d = proto.Deframer()
        got = d.feed(wire[:cut]) + d.feed(wire[cut:])
        assert [proto.fields(proto.T_EVENT, proto.parse(p)[1])[0] for p in got] == [7, 8]


def test_repl_noise_is_counted_as_noise_and_never_a_frame():
    d = proto.Deframer()
    noise = b"Traceback (most recent call last):\r\nKeyboardInterrupt:\r\n>>> "
    out = d.feed(noise + _frame_event(1) + b"MicroPython v1.29 on rp2\r\n" + _frame_event(2))
    assert len(out) == 2
    assert d.noise == 2 and d.corrupt == 0


def test_every_single_bit_flip_is_detected():
    wire = _frame_event(42, 12345)
    for i in range(1, len(wire) - 1):
        for bit in range(8):
            bad = bytearray(wire)
            bad[i] ^= 1 << bit
            d = proto.Deframer()
            out = d.feed(bytes(bad))
            for p in out:
                # Any payload that survives must be the true one (a flip that only changed the
                # framing, e.g. split it, loses the frame, never forges one).
                assert proto.parse(p)[1] == proto.parse(proto.Deframer().feed(wire)[0])[1]
            assert len(out) + d.corrupt + d.noise >= 1


def test_random_corruption_never_yields_a_wrong_event():
    rnd = _lcg(1)
    good = [_frame_event(s, s * 7) for s in range(1, 400)]
    stream = bytearray(b"".join(good))
    for _ in range(len(stream) // 50):
        stream[rnd(len(stream))] = rnd(256)
    d = proto.Deframer()
    seen = 0
    for p in d.feed(bytes(stream)):
        try:
            mtype, body = proto.parse(p)
        except proto.ProtoError:
            continue
        f = proto.fields(mtype, body)
        assert f[5] == f[0] * 7  # the payload is exactly one of the frames that were sent
        seen += 1
    assert seen > 100 and d.corrupt > 0


def test_parse_rejects_unknown_type_wrong_length_and_version():
    body = struct.pack(proto.CMD_ID_FMT, 9)
    for payload in (bytes([proto.PROTO_VERSION, 0x7E]) + body,
                    bytes([proto.PROTO_VERSION, proto.C_REPLAY]) + body,
                    bytes([proto.PROTO_VERSION + 1, proto.C_SNAPSHOT]) + body,
                    b"\x01"):
        try:
            proto.parse(payload)
        except proto.ProtoError:
            continue
        raise AssertionError("accepted %r" % (payload,))


def test_overlong_garbage_is_dropped_as_overflow():
    d = proto.Deframer(max_wire=64)
    out = d.feed(bytes([0x55]) * 200 + _frame_event(1))
    assert d.overflow >= 1
    assert len(out) == 1


def test_dice_faces_pack_into_event_fields():
    faces = bytearray([6, 1, 2, 3, 4, 5, 6, 6, 1, 2, 3, 6])
    for n in (1, 2, 8, 12):
        value, extra = proto.pack_faces(faces, n)
        wire = proto.encode(proto.T_EVENT, proto.EVENT_FMT, 1, 0, proto.EV_DICE, n, 0, value, extra)
        f = proto.fields(proto.T_EVENT, proto.parse(proto.Deframer().feed(wire)[0])[1])
        assert proto.unpack_faces(n, f[5], f[6]) == list(faces[:n])


def test_snapshot_and_diag_variable_bodies():
    body = struct.pack(proto.SNAP_HEAD_FMT, 77, 5, 2) + struct.pack(
        proto.SNAP_DIAL_FMT, 0, 0, 1, proto.ST_OK, 12, 3) + struct.pack(
        proto.SNAP_DIAL_FMT, 0, 1, 2, proto.ST_LOST_TRACK, 12, -4)
    mtype, b = proto.parse(proto.Deframer().feed(proto.encode_body(proto.T_SNAPSHOT, body))[0])
    assert proto.snapshot_dials(b) == (77, 5, [(0, 0, 1, 0, 12, 3), (0, 1, 2, 1, 12, -4)])
    try:
        proto.parse(bytes([proto.PROTO_VERSION, proto.T_SNAPSHOT]) + body[:-1])
        raise AssertionError("short snapshot accepted")
    except proto.ProtoError:
        pass
    diag = struct.pack(proto.DIAG_HEAD_FMT, 10, 2) + struct.pack("<ii", 4095, -1)
    mtype, b = proto.parse(proto.Deframer().feed(proto.encode_body(proto.T_DIAG, diag))[0])
    assert proto.diag_readings(b) == (10, [4095, -1])
