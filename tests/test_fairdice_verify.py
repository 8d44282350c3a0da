"""The host's check of a committed dice session (dialtray.link.fairproof), as pure functions:
the published derivation vector, and every kind of problem named precisely."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest
from dialrig import proto
from dialtray.link.fairproof import (
    FairRoll,
    Problem,
    commitment_of,
    derive_faces,
    roll_key,
    verify,
)
from dialtray.link.messages import FairCommit, FairReveal, FairRollTag, RawEvent

# Published in docs/protocol.md; tests/mpy/test_fairdice.py checks the firmware against it.
SEED = bytes(range(32))
COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
VECTOR = [
    (0, 6, (4, 1, 2, 6, 5, 2, 2, 6, 2, 4, 2, 6)),
    (1, 6, (6, 5, 4, 1, 4, 3, 4, 5, 1, 5, 6, 5)),
    (7, 10, (4, 4, 7, 5, 6, 8, 5, 10, 7, 8, 8, 9)),
    (0, 2, (2, 1, 2, 2, 1, 2, 1, 2, 2, 2, 2, 2, 2, 1, 2, 1)),
    (3, 255, (156, 194, 69, 52, 51, 43, 86, 99)),
    (12345, 6, (2, 3, 4)),
]


def _hmac_by_hand(key: bytes, msg: bytes) -> bytes:
    """RFC 2104 written out with bare SHA-256, as a reader of the docs would."""
    k = key.ljust(64, b"\0")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in k) + msg).digest()
    return hashlib.sha256(bytes(b ^ 0x5C for b in k) + inner).digest()


NONCE = bytes(range(0xA0, 0xB0))
KEY = "b1489727b2602a0e047cb237580a4c795aaf9023c5bc6b0b865c7fa17e0a2367"
VECTOR_MIXED = [(0, 6, (4, 5, 5, 2, 4, 4, 2, 2, 5, 3, 2, 3)), (5, 10, (1, 7, 5, 8, 5, 3))]


@pytest.mark.parametrize(("counter", "sides", "faces"), VECTOR)
def test_the_published_vector(counter: int, sides: int, faces: tuple[int, ...]) -> None:
    assert commitment_of(SEED).hex() == COMMITMENT
    assert derive_faces(SEED, counter, sides, len(faces)) == faces
    # And from the documented recipe alone, without derive_faces.
    stream = b"".join(_hmac_by_hand(SEED, counter.to_bytes(4, "little") + j.to_bytes(4, "little"))
                      for j in range(4))
    limit = 256 - 256 % sides
    assert tuple(b % sides + 1 for b in stream if b < limit)[:len(faces)] == faces


@pytest.mark.parametrize(("counter", "sides", "faces"), VECTOR_MIXED)
def test_the_published_vector_with_the_host_nonce(counter: int, sides: int,
                                                  faces: tuple[int, ...]) -> None:
    assert _hmac_by_hand(SEED, NONCE).hex() == KEY == roll_key(SEED, NONCE).hex()
    assert roll_key(SEED, None) == SEED
    assert derive_faces(bytes.fromhex(KEY), counter, sides, len(faces)) == faces


def test_a_session_with_a_nonce_is_checked_with_the_mixed_key() -> None:
    key = roll_key(SEED, NONCE)
    rolls = [FairRoll(c, 6, derive_faces(key, c, 6, 3), "x") for c in range(4)]
    assert verify(bytes.fromhex(COMMITMENT), SEED, 4, rolls, nonce=NONCE).ok
    # The same faces against the bare seed (a tray that ignored the nonce) all fail.
    v = verify(bytes.fromhex(COMMITMENT), SEED, 4, rolls)
    assert [p.kind for p in v.problems] == ["face"] * 4


def test_long_rolls_run_into_further_blocks_and_prefixes_agree() -> None:
    long = derive_faces(SEED, 0, 6, 100)
    assert long[:12] == VECTOR[0][2]
    assert len(long) == 100 and set(long) == {1, 2, 3, 4, 5, 6}


def test_sides_out_of_range_are_refused() -> None:
    for sides in (0, 1, 256):
        with pytest.raises(ValueError, match="sides"):
            derive_faces(SEED, 0, sides, 1)


def _honest(n: int) -> list[FairRoll]:
    return [FairRoll(c, 6, derive_faces(SEED, c, 6, 2), f"shot {c}", 100 + 2 * c, c % 255 + 1)
            for c in range(n)]


def test_an_honest_session_is_ok() -> None:
    v = verify(bytes.fromhex(COMMITMENT), SEED, 5, _honest(5))
    assert v.ok and v.problems == () and v.rolls_checked == 5
    assert "every roll matches" in str(v)


def test_a_wrong_face_is_named_with_counter_purpose_claimed_and_derived() -> None:
    rolls = _honest(5)
    bad = rolls[3]
    lie = (bad.faces[0] % 6 + 1, bad.faces[1])
    rolls[3] = FairRoll(bad.counter, 6, lie, "shot 3: B2 at A1", bad.seq)
    v = verify(bytes.fromhex(COMMITMENT), SEED, 5, rolls)
    assert not v.ok
    (p,) = v.problems
    assert (p.kind, p.counter, p.purpose, p.claimed, p.derived) == (
        "face", 3, "shot 3: B2 at A1", lie, bad.faces)
    assert str(p) == (f"roll #3 (shot 3: B2 at A1, event {bad.seq}): the tray reported "
                      f"{lie[0]} {lie[1]}, the seed gives {bad.faces[0]} {bad.faces[1]}")


def test_a_die_other_than_the_one_asked_for_is_caught_even_when_its_faces_derive() -> None:
    d5 = FairRoll(0, 5, derive_faces(SEED, 0, 5, 12), "volley", 7, 3, asked=6)
    v = verify(bytes.fromhex(COMMITMENT), SEED, 1, [d5])
    assert [(p.kind, p.counter, p.purpose) for p in v.problems] == [("sides", 0, "volley")]
    assert "drew a d5, a d6 was asked for" in str(v.problems[0])
    assert verify(bytes.fromhex(COMMITMENT), SEED, 1, [replace(d5, asked=5)]).ok


def test_a_seed_that_does_not_hash_to_the_commitment_is_caught() -> None:
    other = bytes([1]) + SEED[1:]
    rolls = [FairRoll(c, 6, derive_faces(other, c, 6, 2), "x") for c in range(3)]
    v = verify(bytes.fromhex(COMMITMENT), other, 3, rolls)
    assert [p.kind for p in v.problems] == ["commitment"]
    assert COMMITMENT in str(v.problems[0]) and commitment_of(other).hex() in str(v.problems[0])


def test_missing_duplicate_and_extra_counters() -> None:
    rolls = _honest(6)
    v = verify(bytes.fromhex(COMMITMENT), SEED, 6, rolls[:2] + rolls[4:])
    assert [(p.kind, p.counter) for p in v.problems] == [("missing", 2)]
    assert "#2, #3" in str(v.problems[0])
    v = verify(bytes.fromhex(COMMITMENT), SEED, 6, [*rolls, rolls[1]])
    assert [(p.kind, p.counter) for p in v.problems] == [("duplicate", 1)]
    v = verify(bytes.fromhex(COMMITMENT), SEED, 5, rolls)
    assert [(p.kind, p.counter) for p in v.problems] == [("extra", 5)]
    v = verify(bytes.fromhex(COMMITMENT), SEED, 60, rolls)
    assert "and 34 more" in str(v.problems[0])


def test_no_reveal_and_anomalies_fail_the_session() -> None:
    v = verify(bytes.fromhex(COMMITMENT), None, 0, _honest(2))
    assert [p.kind for p in v.problems] == ["incomplete"] and "never revealed" in str(v)
    seen = Problem("unseeded", "dice at event 9 (roll button: 3) ...")
    v = verify(bytes.fromhex(COMMITMENT), SEED, 2, _honest(2), [seen])
    assert v.problems == (seen,)


def test_fair_events_decode_from_the_wire() -> None:
    part = RawEvent(12, 0, proto.EV_FAIR_COMMIT, 3, 42, -2, 0).to_event()
    assert part == FairCommit(12, 42, 3, b"\xfe\xff\xff\xff")
    tag = RawEvent(13, 0, proto.EV_FAIR_ROLL, 5, 42, 7, 10).to_event()
    assert tag == FairRollTag(13, 42, 7, 10, 5) and "roll #7 (5d10)" in str(tag)
    rolls = RawEvent(14, 0, proto.EV_FAIR_REVEAL, 8, 42, 201, 0).to_event()
    assert isinstance(rolls, FairReveal) and rolls.rolls == 201 and "201 roll" in str(rolls)
