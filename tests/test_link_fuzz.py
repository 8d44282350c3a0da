"""Host link fuzzers, a quick pass (issue 8: "the link fuzzers are part of the project"); the
long run with over a million inputs is bench/bench_link_fuzz.py.

1. The deframer and decoder alone: garbage, damaged frames and protocol-breaking frames never
   raise anything but ProtoError, a damaged frame never decodes as a different message, and
   every byte is accounted for in the deframer's counters.
2. A live session over a real pty (the scripted tray): the same inputs written into the port
   between real events. The session never fails, delivers nothing that was not sent, keeps its
   state, and still delivers every real click exactly once.
"""

from __future__ import annotations

import random
import time

from dialrig import proto
from dialtray.link.messages import Click, decode
from dialtray.link.session import SessionState, TraySession
from link_fuzz_inputs import carries_a_valid_message, fuzz_input, valid_frames
from link_scripted_tray import ScriptedTray
from test_link_session import Got, wait_until

QUICK_INPUTS = 20_000


def test_deframer_and_decoder_survive_garbage_damage_and_protocol_breakers() -> None:
    rng = random.Random(8)
    frames = valid_frames(rng)
    originals = {f: decode(p) for f in frames for p in proto.Deframer().feed(f)}
    d = proto.Deframer()
    kinds = {"garbage": 0, "damaged": 0, "protocol": 0}
    rejected_protocol = decoded = 0
    for i in range(QUICK_INPUTS):
        if i % 500 == 0:
            frames = valid_frames(rng)
            originals = {f: decode(p) for f in frames for p in proto.Deframer().feed(f)}
        kind, data = fuzz_input(rng, frames)
        kinds[kind] += 1
        for payload in d.feed(data + b"\x00"):
            try:
                msg = decode(payload)
            except proto.ProtoError:
                rejected_protocol += 1
                continue
            decoded += 1
            # A payload that passes the CRC is one of the frames we built, never a mutant.
            assert kind == "damaged" and msg in originals.values(), (kind, data, msg)
    assert all(n > 4000 for n in kinds.values())
    assert d.corrupt > 5000 and d.noise > 0 and rejected_protocol > 1000
    assert d.ok == rejected_protocol + decoded


def test_a_live_session_shrugs_off_fuzz_written_into_its_port() -> None:
    rng = random.Random(9)
    tray = ScriptedTray(boot_id=0xF)
    try:
        with TraySession(tray.port, name="fuzz") as session:
            got = Got(session)
            session.wait_synced(10)
            time.sleep(0.2)
            before = len(got.events)
            boot, sent = session.boot_id, []
            for i in range(1500):
                frames = valid_frames(rng)
                data = fuzz_input(rng, frames)[1]
                if carries_a_valid_message(data):
                    continue
                with tray.lock:
                    tray.send(b"\x00" + data + b"\x00")
                if i % 25 == 0:
                    sent.append(tray.click(0, i % 2, +1))
            wait_until(lambda: len([e for e in got.events if isinstance(e, Click)]) >= len(sent),
                       what="the real clicks")
            session.wait_synced(10)
            time.sleep(0.3)
            new = got.events[before:]
            assert all(isinstance(e, Click) for e in new), "only the real clicks are delivered"
            assert sorted(e.seq for e in new) == sent
            assert session.boot_id == boot and session.state == SessionState.LIVE
            assert not [c for c in session.state_history if c.new in (
                SessionState.RESYNCING, SessionState.FAILED, SessionState.DOWN)]
            rejected = session.rejection_counts()
            assert rejected["rejected: corrupt"] > 500 and rejected["rejected: protocol"] > 100
    finally:
        tray.close()
