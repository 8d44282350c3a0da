"""Inputs for the host link fuzzers (tests/test_link_fuzz.py, bench/bench_link_fuzz.py).

Three kinds, all seeded so a failure can be replayed:

* garbage: random bytes of every value, including frame boundaries (0x00) and REPL keys;
* damaged frames: valid device frames of every type, then bit flips, replaced, dropped,
  inserted or duplicated bytes, truncation and splices — what a noisy cable makes of them;
* protocol-breaking frames with a *valid* CRC: unknown types, wrong body lengths, another
  protocol version, host-only (command) types echoed back — what a confused peer sends.

None of them may raise anything but ``ProtoError`` from the decoder, and none may change what a
session has delivered or its state.
"""

from __future__ import annotations

import random
import struct

from dialrig import proto


def valid_frames(rng: random.Random) -> list[bytes]:
    """One valid device → host frame of each type, with random field values."""
    r = rng.randrange
    dials = b"".join(struct.pack(proto.SNAP_DIAL_FMT, d >> 1, d & 1, 1, 0, 12, r(12))
                     for d in range(r(1, 17)))
    n_diag = r(0, 17)
    return [
        proto.encode(proto.T_HELLO, proto.HELLO_FMT, 0, 1, 0, proto.PROTO_VERSION, b"FUZZTRAY",
                     r(1 << 31), 1, r(1 << 32), r(1, 9), 0),
        proto.encode(proto.T_EVENT, proto.EVENT_FMT, r(1 << 32), r(1 << 31), r(1, 8), r(8),
                     r(2), r(-(1 << 31), 1 << 31), r(-(1 << 15), 1 << 15)),
        proto.encode(proto.T_HEARTBEAT, proto.HEARTBEAT_FMT, r(1 << 32), r(1 << 32),
                     r(1 << 31)),
        proto.encode(proto.T_ACK, proto.ACK_FMT, r(1 << 16), r(4), r(-(1 << 31), 1 << 31)),
        proto.encode_body(proto.T_SNAPSHOT, struct.pack(proto.SNAP_HEAD_FMT, r(1 << 32),
                                                        r(1 << 32), len(dials) // 9) + dials),
        proto.encode_body(proto.T_DIAG, struct.pack(proto.DIAG_HEAD_FMT, r(1 << 31), n_diag)
                          + b"".join(struct.pack("<i", r(4096)) for _ in range(n_diag))),
        proto.encode(proto.T_REPLAY_GAP, proto.REPLAY_GAP_FMT, r(1 << 32), r(1 << 32)),
        proto.encode(proto.T_STATS, proto.STATS_FMT, *(r(1 << 32) for _ in range(7))),
    ]


def garbage(rng: random.Random, longest: int = 300) -> bytes:
    return rng.randbytes(rng.randrange(1, longest))


def damage(rng: random.Random, frame: bytes, other: bytes) -> bytes:
    """A noisy cable's version of ``frame`` (``other`` is another frame, for splices)."""
    b = bytearray(frame)
    for _ in range(rng.randrange(1, 4)):
        how = rng.randrange(7)
        i = rng.randrange(len(b)) if b else 0
        if how == 0 and b:
            b[i] ^= 1 << rng.randrange(8)
        elif how == 1 and b:
            b[i] = rng.randrange(256)
        elif how == 2 and len(b) > 1:
            del b[i]
        elif how == 3:
            b.insert(i, rng.randrange(256))
        elif how == 4 and b:
            b[i:i] = b[i:i + rng.randrange(1, 8)]
        elif how == 5:
            del b[rng.randrange(1, len(b) + 1):]
        else:
            j = rng.randrange(len(other))
            b = b[:i] + bytearray(other[j:])
    return bytes(b)


class _VersionWriter(proto.FrameWriter):
    def __init__(self, version: int) -> None:
        super().__init__()
        self.version = version

    def begin(self, mtype: int) -> bytearray:
        p = super().begin(mtype)
        p[0] = self.version
        return p


def protocol_breaking(rng: random.Random) -> bytes:
    """A frame whose CRC is right but which breaks the protocol (the decoder says ProtoError)."""
    how = rng.randrange(4)
    if how == 0:  # a type nobody defined
        known = set(proto.BODY_FORMATS) | {proto.T_SNAPSHOT, proto.T_DIAG}
        mtype = rng.choice([t for t in range(256) if t not in known])
        return proto.encode_body(mtype, rng.randbytes(rng.randrange(0, 40)))
    if how == 1:  # a known device type with the wrong body length
        mtype = rng.choice([proto.T_HELLO, proto.T_EVENT, proto.T_HEARTBEAT, proto.T_ACK,
                            proto.T_REPLAY_GAP, proto.T_STATS, proto.T_SNAPSHOT, proto.T_DIAG])
        good = {proto.T_SNAPSHOT: -1, proto.T_DIAG: -1}.get(
            mtype, struct.calcsize(proto.BODY_FORMATS.get(mtype, "")))
        n = rng.choice([x for x in range(0, 60) if x != good])
        body = bytearray(rng.randbytes(n))
        if mtype == proto.T_SNAPSHOT and n >= 9:
            body[8] = (n - 9) // 9 + 1  # claims one dial more than it carries
        if mtype == proto.T_DIAG and n >= 5:
            body[4] = (n - 5) // 4 + 1
        return proto.encode_body(mtype, bytes(body))
    if how == 2:  # another protocol version
        version = rng.choice([v for v in range(256) if v != proto.PROTO_VERSION])
        return bytes(_VersionWriter(version).frame(proto.T_HEARTBEAT, proto.HEARTBEAT_FMT,
                                                   1, 1, 1))
    mtype = rng.choice([proto.C_HELLO, proto.C_HEARTBEAT, proto.C_NACK, proto.C_ACK_EVENTS,
                        proto.C_SNAPSHOT, proto.C_REPLAY])  # our own commands, echoed back
    fmt = proto.BODY_FORMATS[mtype]
    fields = [rng.randrange(1 << (8 * struct.calcsize("<" + c))) for c in fmt[1:]]
    return proto.encode(mtype, fmt, *fields)


def fuzz_input(rng: random.Random, frames: list[bytes]) -> tuple[str, bytes]:
    """One input and its kind: 'garbage', 'damaged' or 'protocol'."""
    k = rng.randrange(10)
    if k < 3:
        return "garbage", garbage(rng)
    if k < 8:
        return "damaged", damage(rng, rng.choice(frames), rng.choice(frames))
    return "protocol", protocol_breaking(rng)


def carries_a_valid_message(data: bytes) -> bool:
    """True when some frame in ``data`` survived intact (a splice or a no-op truncation can
    leave one): such an input is a real message, not fuzz, and a live session must act on it."""
    from dialtray.link.messages import decode

    for payload in proto.Deframer().feed(b"\x00" + data + b"\x00"):
        try:
            decode(payload)
        except proto.ProtoError:
            continue
        return True
    return False
