"""Benchmark the tray link: click→host latency on the virtual tray, and host decode throughput.

    .venv/bin/python bench/bench_link.py [--clicks N]

Latency is measured from the moment a dial is turned on the virtual tray (the real firmware in
MicroPython, over a real pty and pyserial) to the moment the host's session delivers the Click.
It includes the physical turn (1 ms here) and the firmware's settle window (1 ms here; the
shipped default is 15 ms and adds directly to this figure, by design: a click is only reported
once the dial has come to rest). Decode throughput is frames → verified payloads → typed events
on the host, the path every tray event takes.

Prints a table and writes bench/results/link.json.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "link.json"

from benchout import print_table, write_results  # noqa: E402
from dialrig import config, proto  # noqa: E402
from dialtray.link.messages import Click, RawEvent, decode  # noqa: E402
from dialtray.link.session import TraySession  # noqa: E402
from dialtray.virtual.tray import VirtualTray  # noqa: E402

TURN_MS = 1
SETTLE_MS = 1


def latency(clicks: int) -> list[float]:
    """Milliseconds from turn() to the host's Click, one click at a time on rotating dials."""
    cfg = config.default_config(8)
    cfg["settle_ms"] = SETTLE_MS
    cfg["sample_ms"] = 1
    got = threading.Event()
    out: list[float] = []
    with VirtualTray(cfg, seed=1) as tray, TraySession(tray.port, name="bench") as session:
        session.subscribe(lambda ev: got.set() if isinstance(ev, Click) else None)
        session.wait_synced(20)
        time.sleep(0.5)
        for i in range(clicks):
            k = i % 16
            got.clear()
            t0 = time.perf_counter()
            tray.turn(k // 2, k % 2, 1 if (i // 16) % 2 == 0 else -1, ms=TURN_MS)
            if not got.wait(2):
                raise RuntimeError(f"click {i} never arrived")
            out.append((time.perf_counter() - t0) * 1000)
            if (i + 1) % 250 == 0:
                print(f"  latency: {i + 1}/{clicks} clicks", file=sys.stderr, flush=True)
            time.sleep(0.004)
    return out


def decode_throughput(n: int = 200_000) -> float:
    """Events per second through Deframer → decode → RawEvent → TrayEvent."""
    w = proto.FrameWriter()
    stream = b"".join(bytes(w.frame(proto.T_EVENT, proto.EVENT_FMT, s, s * 3, proto.EV_CLICK,
                                     s % 8, s % 2, s % 12, 1)) for s in range(1, n + 1))
    d = proto.Deframer()
    t0 = time.perf_counter()
    events = 0
    for i in range(0, len(stream), 4096):  # as a serial port hands data over
        for payload in d.feed(stream[i:i + 4096]):
            msg = decode(payload)
            assert isinstance(msg, RawEvent)
            msg.to_event()
            events += 1
    dt = time.perf_counter() - t0
    assert events == n, (events, n)
    return n / dt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clicks", type=int, default=1000)
    args = ap.parse_args()
    lat = latency(args.clicks)
    q = statistics.quantiles(lat, n=100)
    rate = decode_throughput()
    results = {
        "latency_clicks": len(lat),
        "latency_turn_ms": TURN_MS,
        "latency_settle_ms": SETTLE_MS,
        "latency_p50_ms": round(q[49], 3),
        "latency_p99_ms": round(q[98], 3),
        "latency_max_ms": round(max(lat), 3),
        "decode_events_per_s": round(rate),
    }
    rows = [
        ("click→host latency p50", f"{results['latency_p50_ms']:.2f} ms", ""),
        ("click→host latency p99", f"{results['latency_p99_ms']:.2f} ms", "target ≤ 5 ms"),
        ("click→host latency max", f"{results['latency_max_ms']:.2f} ms", ""),
        ("  (includes turn + settle)", f"{TURN_MS} ms + {SETTLE_MS} ms", ""),
        ("host decode throughput", f"{rate:,.0f} events/s", "target ≥ 50 000"),
    ]
    print_table(rows, 32, 20)
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
