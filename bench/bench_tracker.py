"""Benchmark the click tracker: host throughput and sensed-click → confirmed-expectation latency.

    .venv/bin/python bench/bench_tracker.py [--events N] [--games G]

1. **Throughput** (one core): tray EVENT frames → deframer → decode → typed event → the tracker of
   a live Air Action game (clicks on bound dials: each strays and comes back — a peek the tracker
   records — with a clock tick every 64 events). Target ≥ 50 000 events/s.
2. **Latency** on the virtual tray (the real firmware in MicroPython, pty, pyserial, session):
   whole bot games of Air Action whose every rules click is turned on a virtual dial. For each
   confirmed expectation: from the hand's turn of the dial to the tracker's confirmation (turn +
   the firmware's settle window + link + tracker), and apart from it, from the session
   delivering the click to the confirmation (the host's part). Target p99 ≤ 5 ms with the
   settle window reported apart.

Prints a table and writes bench/results/tracker.json.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "tracker.json"

from benchframes import click_stream, track_stream  # noqa: E402
from benchout import print_table, write_results  # noqa: E402
from dialrig import config  # noqa: E402
from dialtray.link.messages import Click, DialState, Snapshot, TrayEvent  # noqa: E402
from dialtray.link.session import TraySession  # noqa: E402
from dialtray.rules.core.dice import SeededDice, TrayDice  # noqa: E402
from dialtray.table.games import new_game  # noqa: E402
from dialtray.tracker import PLAY, TableDice, Timing, Tracker, auto_bind  # noqa: E402
from dialtray.tracker.binding import Slot  # noqa: E402
from dialtray.tracker.hands import Hands  # noqa: E402
from dialtray.tracker.runner import TrackedTray, play_out  # noqa: E402
from dialtray.virtual.hands import VirtualHands  # noqa: E402
from dialtray.virtual.tray import VirtualTray  # noqa: E402

SETTLE_MS = 5
SAMPLE_MS = 2
CLICK_MS = 2
GAME_TURNS = 10
VERBOSE = "-v" in sys.argv


def throughput(n: int) -> float:
    """Events per second, frames to tracker, on this thread."""
    dice = TableDice(SeededDice(1))
    s = new_game("airaction", dice, 1, 4)
    t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), dice, header=s.header)
    t.feed(Snapshot(0, 1, 1, tuple(DialState(d, i, "as5600", 0, 12, 0)
                                   for d in range(8) for i in range(2))), 0.0)
    assert t.phase == PLAY
    stream = click_stream(t, n)
    t0 = time.perf_counter()
    events = track_stream(t, stream)
    dt = time.perf_counter() - t0
    assert events == n and t.ready(), (events, t.waiting_for())
    return n / dt


lock = threading.Lock()


def latency(games: int) -> tuple[list[float], list[float], int]:
    """(turn → confirmed ms, delivered → confirmed ms, confirmations) over bot games."""
    total: list[float] = []
    host: list[float] = []
    for g in range(games):
        with VirtualTray(config.default_config(8), seed=100 + g) as tray:
            session = TraySession(tray.port, name="bench")
            dice = TableDice(TrayDice(session))
            s = new_game("airaction", dice, 10 + g, GAME_TURNS)
            t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), dice, header=s.header,
                        timing=Timing(judge_s=0.15, grace_s=0.3))
            table = TrackedTray(t, session, clock=time.perf_counter)
            delivered: dict[int, float] = {}

            def on_event(ev: TrayEvent, delivered: dict[int, float] = delivered) -> None:
                if isinstance(ev, Click):
                    with lock:
                        delivered[ev.seq] = time.perf_counter()

            session.subscribe(on_event)
            turned: list[tuple[float, Slot]] = []
            hands = VirtualHands(tray, click_ms=CLICK_MS)

            def turn(slot: Slot, clicks: int, turned: list[tuple[float, Slot]] = turned,
                     hands: VirtualHands = hands) -> None:
                turned.append((time.perf_counter(), slot))
                hands.turn(slot, clicks)

            with session:
                session.wait_synced(60)
                session.set_timing(SETTLE_MS, SAMPLE_MS)
                table.wait_until(lambda t=t: t.phase == PLAY, 30, "the start check")
                seen = len(t.confirmed)
                slot_of = {st.dial: st.slot for st in t.slots.values()}
                play_out(table, Hands(t, s.brain), turn, timeout=300, step_timeout=30,
                         say=lambda m: print(f"   {m}", file=sys.stderr) if VERBOSE else None)
            for c in t.confirmed[seen:]:
                if c.free or c.seq == 0 or c.dial not in slot_of:
                    continue
                # the hand's last movement of that dial before the confirmation
                t_turn = max((at for at, sl in turned if sl == slot_of[c.dial] and at <= c.at),
                             default=None)
                with lock:
                    t_del = delivered.get(c.seq)
                if t_turn is None or t_del is None:
                    continue
                total.append((c.at - t_turn) * 1000)
                host.append((c.at - t_del) * 1000)
            print(f"  latency: game {g + 1}/{games}: {len(total)} confirmations so far",
                  file=sys.stderr, flush=True)
    return total, host, len(total)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=200_000)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("-v", action="store_true", help="print every decision")
    args = ap.parse_args()
    rates = sorted(throughput(args.events) for _ in range(3))  # best of 3: a shared machine
    rate = rates[-1]
    total, host, n = latency(args.games)
    qt = statistics.quantiles(total, n=100)
    qh = statistics.quantiles(host, n=100)
    results = {
        "throughput_events": args.events,
        "throughput_events_per_s": round(rate),
        "throughput_runs_events_per_s": [round(r) for r in rates],
        "latency_confirmations": n,
        "latency_settle_ms": SETTLE_MS,
        "latency_sample_ms": SAMPLE_MS,
        "latency_turn_ms_per_click": CLICK_MS,
        "turn_to_confirmed_p50_ms": round(qt[49], 3),
        "turn_to_confirmed_p99_ms": round(qt[98], 3),
        "delivered_to_confirmed_p50_ms": round(qh[49], 3),
        "delivered_to_confirmed_p99_ms": round(qh[98], 3),
        "delivered_to_confirmed_max_ms": round(max(host), 3),
    }
    rows = [
        ("frames → tracker throughput", f"{rate:,.0f} events/s", "target ≥ 50 000 (one core)"),
        ("  (3 runs)", " / ".join(f"{r / 1000:.0f}k" for r in rates), "best of 3 reported"),
        ("turn → confirmed p50", f"{qt[49]:.2f} ms", "includes turn + settle + link"),
        ("turn → confirmed p99", f"{qt[98]:.2f} ms", ""),
        ("  (of which turn + settle window)", f"≥ {CLICK_MS} + {SETTLE_MS} ms",
         "firmware settle, by design"),
        ("click delivered → confirmed p50", f"{qh[49]:.3f} ms", "the host's part"),
        ("click delivered → confirmed p99", f"{qh[98]:.3f} ms", "target ≤ 5 ms"),
        ("confirmations measured", f"{n}", f"{args.games} Air Action bot game(s)"),
    ]
    print_table(rows, 36, 20)
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
