# MicroPython tests of dialrig.fairdice: the published derivation vector, the commitment, every
# roll of a session (host command, plain ROLL_DICE, the roll button, a d10) tagged with its
# counter and derived from the seed, the reveal, and refusals that change nothing.
import hashlib
import struct
import time

from dialrig import fairdice, proto

from devrig import device, send

# The test vector published in docs/protocol.md ("Verifiably fair dice"); the host's own
# implementation (dialtray.link.fairproof) is tested against the same numbers.
VECTOR_SEED = bytes(range(32))
VECTOR_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
VECTOR = (
    (0, 6, (4, 1, 2, 6, 5, 2, 2, 6, 2, 4, 2, 6)),
    (1, 6, (6, 5, 4, 1, 4, 3, 4, 5, 1, 5, 6, 5)),
    (7, 10, (4, 4, 7, 5, 6, 8, 5, 10, 7, 8, 8, 9)),
    (0, 2, (2, 1, 2, 2, 1, 2, 1, 2, 2, 2, 2, 2, 2, 1, 2, 1)),
    (3, 255, (156, 194, 69, 52, 51, 43, 86, 99)),
    (12345, 6, (2, 3, 4)),
    (0, 6, (4, 1, 2, 6, 5, 2, 2, 6, 2, 4, 2, 6, 1, 6, 3, 4, 4, 1, 2, 2, 4, 6, 2, 4, 1, 1, 2, 3,
            1, 5, 4, 1, 3, 3, 4, 1, 5, 6, 3, 1)),  # 40 faces: more than one HMAC block
)
# With the host's nonce 0xA0..0xAF mixed in: key = HMAC-SHA256(seed, nonce).
VECTOR_NONCE = bytes(range(0xA0, 0xB0))
VECTOR_KEY = "b1489727b2602a0e047cb237580a4c795aaf9023c5bc6b0b865c7fa17e0a2367"
VECTOR_MIXED = ((0, 6, (4, 5, 5, 2, 4, 4, 2, 2, 5, 3, 2, 3)), (5, 10, (1, 7, 5, 8, 5, 3)))


def _events(app, since=1):
    out = []
    for s in range(since, app.ring.next_seq):
        out.append(struct.unpack(proto.EVENT_FMT, app.ring.record(s)))
    return out


def _blob(events, kind, session):
    parts = {}
    for e in events:
        if e[2] == kind and e[4] == session and e[3] < 8:
            parts[e[3]] = struct.pack("<i", e[5])
    assert sorted(parts) == list(range(8)), parts
    return b"".join(parts[i] for i in range(8))


def _hex(b):
    return "".join("%02x" % x for x in b)


def test_the_published_vector():
    ipad, opad = fairdice.pads(VECTOR_SEED)
    assert _hex(hashlib.sha256(VECTOR_SEED).digest()) == VECTOR_COMMITMENT
    msg = bytearray(8)
    for counter, sides, want in VECTOR:
        faces = bytearray(len(want))
        fairdice.derive_into(faces, len(want), sides, ipad, opad, counter, msg)
        assert tuple(faces) == want, (counter, sides, tuple(faces))
    key = fairdice.hmac_sha256(ipad, opad, VECTOR_NONCE)
    assert _hex(key) == VECTOR_KEY
    ipad, opad = fairdice.pads(key)
    for counter, sides, want in VECTOR_MIXED:
        faces = bytearray(len(want))
        fairdice.derive_into(faces, len(want), sides, ipad, opad, counter, msg)
        assert tuple(faces) == want, (counter, sides, tuple(faces))


def test_faces_are_uniform_for_d6_and_d10():
    ipad, opad = fairdice.pads(b"\x5a" * 32)
    msg = bytearray(8)
    faces = bytearray(12)
    for sides in (6, 10):
        counts = [0] * (sides + 1)
        for c in range(600):
            fairdice.derive_into(faces, 12, sides, ipad, opad, c, msg)
            for f in faces:
                counts[f] += 1
        assert counts[0] == 0
        expect = 7200 / sides
        chi2 = sum((counts[f] - expect) ** 2 / expect for f in range(1, sides + 1))
        # 99.9th percentile of chi-square: 20.5 (5 dof), 27.9 (9 dof); the seed is fixed.
        assert chi2 < (20.5 if sides == 6 else 27.9), (sides, counts, chi2)


def test_a_session_commits_rolls_from_the_seed_for_everyone_and_reveals():
    app, io = device()
    start = app.ring.next_seq
    send(app, proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, 1, 42)
    assert io.acks() == [(1, proto.ACK_OK, 0)]
    assert app.link.fair.active
    send(app, proto.C_ROLL_DICE, proto.ROLL_FMT, 2, 5, 9)           # plain roll: counter 0
    send(app, proto.C_FAIR_ROLL, proto.FAIR_ROLL_FMT, 3, 12, 6, 10)  # counter 1
    now = time.ticks_ms()
    app.button_since = now - 1000
    app.board.held = True
    app.button_tick(now)                                              # button: counter 2
    app.board.held = False
    app.button_tick(now + 100)
    send(app, proto.C_FAIR_ROLL, proto.FAIR_ROLL_FMT, 4, 4, 10, 11)  # a d10: counter 3
    send(app, proto.C_FAIR_REVEAL, proto.FAIR_SESSION_FMT, 5, 42)
    assert io.acks() == [(2, 0, 0), (3, 0, 0), (4, 0, 0), (5, proto.ACK_OK, 4)]
    assert not app.link.fair.active
    ev = _events(app, start)
    commitment = _blob(ev, proto.EV_FAIR_COMMIT, 42)
    seed = _blob(ev, proto.EV_FAIR_REVEAL, 42)
    assert hashlib.sha256(seed).digest() == commitment
    count = [e for e in ev if e[2] == proto.EV_FAIR_REVEAL and e[3] == 8]
    assert [(e[4], e[5]) for e in count] == [(42, 4)]
    ipad, opad = fairdice.pads(seed)
    msg = bytearray(8)
    rolls = []
    for k in range(len(ev)):
        if ev[k][2] == proto.EV_FAIR_ROLL:
            _, _, _, n, session, counter, sides = ev[k]
            dice = ev[k + 1]  # the faces follow at once
            assert dice[0] == ev[k][0] + 1 and dice[2] == proto.EV_DICE and dice[3] == n
            want = bytearray(n)
            fairdice.derive_into(want, n, sides, ipad, opad, counter, msg)
            assert proto.unpack_faces(n, dice[5], dice[6]) == list(want)
            rolls.append((counter, n, sides, dice[4]))
    assert rolls == [(0, 5, 6, 9), (1, 12, 6, 10), (2, 12, 6, 0), (3, 4, 10, 11)]
    assert [e[2] for e in ev].count(proto.EV_DICE) == 4, "every roll has its counter"
    # The seed is forgotten, and rolls after the session are plain entropy rolls again.
    assert app.link.fair.seed == bytearray(32)
    before = app.ring.next_seq
    send(app, proto.C_ROLL_DICE, proto.ROLL_FMT, 6, 2, 12)
    assert [e[2] for e in _events(app, before)] == [proto.EV_DICE]


def test_the_seed_is_a_hash_of_the_entropy_and_the_commitment_a_hash_of_the_seed():
    raw = bytes(range(100, 164))

    def entropy(buf):
        buf[:] = raw

    app, io = device(entropy=entropy)
    start = app.ring.next_seq
    send(app, proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, 1, 7)
    seed = hashlib.sha256(raw).digest()
    assert bytes(app.link.fair.seed) == seed
    assert _blob(_events(app, start), proto.EV_FAIR_COMMIT, 7) == hashlib.sha256(seed).digest()


def test_a_stuck_entropy_source_refuses_to_commit():
    def stuck(buf):
        for i in range(len(buf)):
            buf[i] = 0x55

    app, io = device(entropy=stuck)
    start = app.ring.next_seq
    send(app, proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, 1, 7)
    assert io.acks() == [(1, proto.ACK_REJECTED, 0)]
    assert not app.link.fair.active
    assert app.ring.next_seq == start


def test_bad_arguments_and_no_session_change_nothing():
    app, io = device()
    start = app.ring.next_seq
    send(app, proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, 1, 0)          # session 0
    send(app, proto.C_FAIR_ROLL, proto.FAIR_ROLL_FMT, 2, 2, 6, 1)        # no session open
    send(app, proto.C_FAIR_REVEAL, proto.FAIR_SESSION_FMT, 3, 9)         # no session open
    assert io.acks() == [(1, proto.ACK_BAD_ARGS, 0), (2, proto.ACK_REJECTED, 0),
                         (3, proto.ACK_REJECTED, 0)]
    assert app.ring.next_seq == start
    send(app, proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, 4, 3)
    io.acks()
    opened = app.ring.next_seq
    for i, fields in enumerate(((13, 6, 1), (0, 6, 1), (2, 1, 1), (2, 16, 1), (2, 6, 0))):
        send(app, proto.C_FAIR_ROLL, proto.FAIR_ROLL_FMT, 10 + i, *fields)
    send(app, proto.C_FAIR_REVEAL, proto.FAIR_SESSION_FMT, 20, 4)        # another session
    acks = io.acks()
    assert [a[1] for a in acks] == [proto.ACK_BAD_ARGS] * 5 + [proto.ACK_REJECTED]
    assert acks[-1][2] == 3, "the refusal names the open session"
    assert app.ring.next_seq == opened and app.link.fair.counter == 0


def test_resent_commands_act_once():
    app, io = device()
    start = app.ring.next_seq
    begin = proto.encode(proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, 1, 5)
    mix = proto.encode(proto.C_FAIR_MIX, proto.FAIR_MIX_FMT, 4, 5, VECTOR_NONCE)
    roll = proto.encode(proto.C_FAIR_ROLL, proto.FAIR_ROLL_FMT, 2, 3, 6, 1)
    reveal = proto.encode(proto.C_FAIR_REVEAL, proto.FAIR_SESSION_FMT, 3, 5)
    for frame in (begin, begin, mix, mix, roll, roll, reveal, reveal):
        app.link.receive(frame, time.ticks_ms())
    assert [a[:2] for a in io.acks()] == [(1, 0), (1, 0), (4, 0), (4, 0), (2, 0), (2, 0), (3, 0),
                                          (3, 0)]
    kinds = [e[2] for e in _events(app, start)]
    assert kinds.count(proto.EV_FAIR_COMMIT) == 8
    assert kinds.count(proto.EV_FAIR_MIX) == 4
    assert kinds.count(proto.EV_FAIR_ROLL) == 1
    assert kinds.count(proto.EV_FAIR_REVEAL) == 9


def test_beginning_again_reveals_the_open_session_first():
    app, io = device()
    start = app.ring.next_seq
    send(app, proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, 1, 5)
    send(app, proto.C_ROLL_DICE, proto.ROLL_FMT, 2, 2, 1)
    send(app, proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, 3, 6)
    ev = _events(app, start)
    first = _blob(ev, proto.EV_FAIR_REVEAL, 5)
    assert hashlib.sha256(first).digest() == _blob(ev, proto.EV_FAIR_COMMIT, 5)
    assert app.link.fair.session == 6 and app.link.fair.counter == 0
    last_reveal = max(k for k, e in enumerate(ev) if e[2] == proto.EV_FAIR_REVEAL)
    first_commit6 = min(k for k, e in enumerate(ev) if e[2] == proto.EV_FAIR_COMMIT and e[4] == 6)
    assert last_reveal < first_commit6


def test_the_host_nonce_is_taken_once_before_the_first_roll_and_keys_every_roll():
    app, io = device()
    start = app.ring.next_seq
    send(app, proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, 1, 9)
    send(app, proto.C_FAIR_MIX, proto.FAIR_MIX_FMT, 2, 8, VECTOR_NONCE)    # another session
    send(app, proto.C_FAIR_MIX, proto.FAIR_MIX_FMT, 3, 9, VECTOR_NONCE)
    send(app, proto.C_FAIR_MIX, proto.FAIR_MIX_FMT, 4, 9, bytes(16))       # a second nonce
    send(app, proto.C_FAIR_ROLL, proto.FAIR_ROLL_FMT, 5, 6, 6, 1)
    send(app, proto.C_FAIR_REVEAL, proto.FAIR_SESSION_FMT, 6, 9)
    assert [a[:2] for a in io.acks()] == [(1, 0), (2, proto.ACK_REJECTED), (3, 0),
                                          (4, proto.ACK_REJECTED), (5, 0), (6, 0)]
    ev = _events(app, start)
    nonce = b"".join(struct.pack("<i", e[5]) for e in ev if e[2] == proto.EV_FAIR_MIX)
    assert nonce == VECTOR_NONCE
    seed = _blob(ev, proto.EV_FAIR_REVEAL, 9)
    ipad, opad = fairdice.pads(fairdice.hmac_sha256(*fairdice.pads(seed), VECTOR_NONCE))
    want = bytearray(6)
    fairdice.derive_into(want, 6, 6, ipad, opad, 0, bytearray(8))
    dice = [e for e in ev if e[2] == proto.EV_DICE]
    assert len(dice) == 1 and proto.unpack_faces(6, dice[0][5], dice[0][6]) == list(want)
    # A nonce after the first roll comes too late: refused, and the refusal says how many rolls.
    send(app, proto.C_FAIR_BEGIN, proto.FAIR_SESSION_FMT, 7, 10)
    send(app, proto.C_ROLL_DICE, proto.ROLL_FMT, 8, 2, 3)
    send(app, proto.C_FAIR_MIX, proto.FAIR_MIX_FMT, 9, 10, VECTOR_NONCE)
    assert io.acks()[-1] == (9, proto.ACK_REJECTED, 1)
    assert not app.link.fair.mixed
