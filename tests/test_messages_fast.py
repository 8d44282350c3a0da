"""The host's fast path for EVENT frames (issue 35: ``messages.decode`` unpacks an event without
``proto.parse`` and builds RawEvent/Click without the frozen dataclasses' ``__init__``) gives
exactly what the plain path gives, and refuses exactly what it refuses."""

from __future__ import annotations

import dataclasses
import random
import struct

import pytest
from dialrig import proto
from dialtray.link.messages import Click, RawEvent, decode


def _payload(fields: tuple[int, ...], version: int = proto.PROTO_VERSION,
             mtype: int = proto.T_EVENT) -> bytes:
    return bytes((version, mtype)) + struct.pack(proto.EVENT_FMT, *fields)


def test_events_decode_as_the_dataclasses_would_build_them() -> None:
    rng = random.Random(35)
    for _ in range(2000):
        fields = (rng.randrange(1 << 32), rng.randrange(1 << 32),
                  rng.choice([proto.EV_CLICK, proto.EV_BOOT, proto.EV_FAULT, rng.randrange(256)]),
                  rng.randrange(256), rng.randrange(256), rng.randrange(-(1 << 31), 1 << 31),
                  rng.randrange(-(1 << 15), 1 << 15))
        msg = decode(_payload(fields))
        plain = RawEvent(*proto.fields(*proto.parse(_payload(fields))))
        assert isinstance(msg, RawEvent) and type(msg) is RawEvent
        assert msg == plain and hash(msg) == hash(plain)
        assert repr(msg) == repr(plain)
        ev, want = msg.to_event(), plain.to_event()
        assert type(ev) is type(want) and ev == want and repr(ev) == repr(want)
        if fields[2] == proto.EV_CLICK:
            assert ev == Click(fields[0], fields[3], fields[4], fields[5], fields[6], fields[1])
            assert isinstance(ev, Click) and hash(ev) == hash(want) and not ev.recovered
    raw = decode(_payload((1, 2, proto.EV_CLICK, 0, 0, 1, 1)))
    assert isinstance(raw, RawEvent)
    with pytest.raises(dataclasses.FrozenInstanceError):
        raw.seq = 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.seq = 1  # type: ignore[misc]


def test_what_is_not_an_event_frame_takes_the_plain_path() -> None:
    fields = (7, 21, proto.EV_CLICK, 1, 0, 3, 1)
    with pytest.raises(proto.ProtoError, match="protocol version"):
        decode(_payload(fields, version=proto.PROTO_VERSION + 1))
    with pytest.raises(proto.ProtoError, match="body is"):
        decode(_payload(fields)[:-1])
    assert type(decode(_payload(fields))) is RawEvent
