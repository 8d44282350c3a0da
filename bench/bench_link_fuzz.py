"""Fuzz the host end of the tray link: over a million inputs (issue 8).

    .venv/bin/python bench/bench_link_fuzz.py [--inputs 1000000] [--live 100000] [--seed 1]

1. Deframer + decoder: garbage (every byte value, frame boundaries, REPL keys), damaged device
   frames of every type (bit flips, replaced/dropped/inserted/duplicated bytes, truncation,
   splices) and protocol-breaking frames with a valid CRC (unknown types, wrong lengths, another
   version, our own commands echoed back). Nothing may raise but ProtoError, and no damaged
   frame may decode as anything but an intact original.
2. A live TraySession over a real pty (pyserial), fed the same kinds of input by a scripted
   tray between real clicks: the session must not fail, must stay on its boot and live, must
   deliver every real click exactly once and nothing else.

The inputs are seeded (``--seed``): a failure is replayed by running again with the same seed.
Prints a table and writes bench/results/link_fuzz.json. Part of the quick test run is
tests/test_link_fuzz.py (the same generators, fewer inputs).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "link_fuzz.json"
sys.path.insert(0, str(ROOT / "tests"))  # the generators and the scripted tray live with tests

from dialrig import proto  # noqa: E402
from dialtray.link.messages import Click, TrayEvent, decode  # noqa: E402
from dialtray.link.session import SessionState, TraySession  # noqa: E402
from link_fuzz_inputs import carries_a_valid_message, fuzz_input, valid_frames  # noqa: E402
from link_scripted_tray import ScriptedTray  # noqa: E402


def codec(n: int, seed: int) -> dict[str, float | int]:
    rng = random.Random(seed)
    d = proto.Deframer()
    kinds: Counter[str] = Counter()
    protocol = decoded = size = 0
    frames: list[bytes] = []
    originals: list[object] = []
    t0 = time.perf_counter()
    for i in range(n):
        if i % 500 == 0:
            frames = valid_frames(rng)
            originals = [decode(p) for f in frames for p in proto.Deframer().feed(f)]
        kind, data = fuzz_input(rng, frames)
        kinds[kind] += 1
        size += len(data)
        for payload in d.feed(data + b"\x00"):
            try:
                msg = decode(payload)
            except proto.ProtoError:
                protocol += 1
                continue
            decoded += 1
            if kind != "damaged" or msg not in originals:
                raise AssertionError(f"input {i} ({kind}, seed {seed}) decoded as {msg}")
        if (i + 1) % 200_000 == 0:
            print(f"  codec: {i + 1:,}/{n:,} inputs", file=sys.stderr, flush=True)
    dt = time.perf_counter() - t0
    assert d.ok == protocol + decoded
    return {"inputs": n, "bytes": size, "seconds": round(dt, 2), "inputs_per_s": round(n / dt),
            "garbage": kinds["garbage"], "damaged": kinds["damaged"],
            "protocol_breaking": kinds["protocol"], "rejected_corrupt": d.corrupt,
            "rejected_noise": d.noise, "rejected_overflow": d.overflow,
            "rejected_protocol": protocol, "intact_frames_decoded": decoded}


def live(n: int, seed: int) -> dict[str, float | int]:
    rng = random.Random(seed)
    tray = ScriptedTray(boot_id=0xF022)
    delivered: list[TrayEvent] = []
    try:
        with TraySession(tray.port, name="fuzz") as session:
            session.wait_synced(10)
            time.sleep(0.2)
            session.subscribe(delivered.append)
            boot, sent = session.boot_id, []
            written = skipped = 0
            t0 = time.perf_counter()
            frames = valid_frames(rng)
            for i in range(n):
                if i % 50 == 0:
                    frames = valid_frames(rng)
                    sent.append(tray.click(0, i % 2, +1))
                data = fuzz_input(rng, frames)[1]
                if carries_a_valid_message(data):
                    skipped += 1  # an intact frame survived the mutation: not fuzz
                    continue
                with tray.lock:
                    tray.send(b"\x00" + data + b"\x00")
                written += 1
                if (i + 1) % 5000 == 0:
                    print(f"  live: {i + 1:,}/{n:,} inputs", file=sys.stderr, flush=True)
            end = time.monotonic() + 30
            while len([e for e in delivered if isinstance(e, Click)]) < len(sent):
                if time.monotonic() > end:
                    raise AssertionError(f"only {len(delivered)} of {len(sent)} clicks arrived")
                time.sleep(0.01)
            session.wait_synced(10)
            dt = time.perf_counter() - t0
            time.sleep(0.3)
            if [e for e in delivered if not isinstance(e, Click)] or \
                    sorted(e.seq for e in delivered) != sent:
                raise AssertionError("the session delivered something that was not sent")
            bad = [c for c in session.state_history if c.new in (
                SessionState.RESYNCING, SessionState.FAILED, SessionState.DOWN)]
            if bad or session.boot_id != boot:
                raise AssertionError(f"fuzz moved the session: {bad}")
            rejected = session.rejection_counts()
            return {"inputs_written": written, "intact_frames_skipped": skipped,
                    "real_clicks": len(sent), "seconds": round(dt, 2),
                    "inputs_per_s": round(written / dt),
                    "rejected_corrupt": rejected.get("rejected: corrupt", 0),
                    "rejected_noise": rejected.get("rejected: noise", 0),
                    "rejected_protocol": rejected.get("rejected: protocol", 0),
                    "nacks": session.counters["nacks"]}
    finally:
        tray.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=1_000_000, help="codec inputs (default 1 M)")
    ap.add_argument("--live", type=int, default=100_000, help="inputs into a live session")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    logging.getLogger("dialtray.link").setLevel(logging.ERROR)  # every rejection would log
    c = codec(args.inputs, args.seed)
    s = live(args.live, args.seed + 1)
    print(f"{'fuzzer':34} {'value':>16}")
    rows = [
        ("codec inputs", f"{c['inputs']:,}"),
        ("  garbage / damaged / protocol", f"{c['garbage']:,}/{c['damaged']:,}/"
                                           f"{c['protocol_breaking']:,}"),
        ("  rejected corrupt", f"{c['rejected_corrupt']:,}"),
        ("  rejected noise (text)", f"{c['rejected_noise']:,}"),
        ("  rejected protocol (valid CRC)", f"{c['rejected_protocol']:,}"),
        ("  intact frames decoded", f"{c['intact_frames_decoded']:,}"),
        ("  exceptions / wrong messages", "0 / 0"),
        ("  throughput", f"{c['inputs_per_s']:,} inputs/s"),
        ("live session inputs", f"{s['inputs_written']:,}"),
        ("  real clicks, each delivered once", f"{s['real_clicks']:,}"),
        ("  rejected corrupt / protocol", f"{s['rejected_corrupt']:,}/"
                                          f"{s['rejected_protocol']:,}"),
        ("  state changes away from live", "0"),
        ("  throughput", f"{s['inputs_per_s']:,} inputs/s"),
    ]
    for name, value in rows:
        print(f"{name:34} {value:>16}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"seed": args.seed, "codec": c, "live_session": s},
                                  indent=2) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
