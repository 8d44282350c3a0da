"""The host's deframer (``link.deframe.HostDeframer``, issue 35: a read's frames in one pass)
returns and counts exactly what the firmware codec's ``proto.Deframer`` does: the same payloads
and the same ok / corrupt / noise / overflow counts and last rejection, for valid frames of
every type, garbage, damaged and protocol-breaking frames, over a stream cut at random places
(as reads from a serial port cut it)."""

from __future__ import annotations

import random

from dialrig import proto
from dialtray.link.deframe import HostDeframer
from link_fuzz_inputs import fuzz_input, valid_frames


def _counts(d: proto.Deframer) -> tuple[int, int, int, int, int]:
    return d.ok, d.corrupt, d.noise, d.overflow, d.last_reject


def test_the_host_deframer_is_the_codecs_byte_for_byte() -> None:
    rng = random.Random(35)
    codec, host = proto.Deframer(), HostDeframer()
    fast = 0
    for round_ in range(300):
        frames = valid_frames(rng)
        parts = []
        for _ in range(rng.randrange(1, 40)):
            if rng.random() < 0.6:
                parts.append(rng.choice(frames))  # (many: the common case, one pass)
            else:
                parts.append(fuzz_input(rng, frames)[1] + b"\x00")
        if round_ % 50 == 0:
            parts.append(bytes(rng.randrange(1, 256) for _ in range(proto.MAX_WIRE * 5)) + b"\x00")
            # (a run longer than any frame)
        stream = b"".join(parts)
        cuts = sorted(rng.sample(range(len(stream)), min(len(stream), rng.randrange(0, 8))))
        got_codec, got_host = [], []
        for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
            got_codec += codec.feed(stream[a:b])
            got_host += host.feed(memoryview(stream)[a:b])
            assert _counts(host) == _counts(codec) and host.partial == codec.partial
        assert got_host == got_codec
        fast += len(got_host)
    assert fast > 3000 and codec.corrupt > 100 and codec.noise > 10 and codec.overflow > 0
