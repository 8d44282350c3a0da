"""Benchmark the game store: host throughput through decode → tracker → store, and verify time.

    .venv/bin/python bench/bench_store.py [--events N] [--batch B]

1. **Throughput** (one core): tray EVENT frames → deframer → decode → typed event → the
   ``GameRecorder`` of a live Air Action game (each event stored as a hash-chained ``device``
   record, fed to the tracker, whatever the tracker makes of it — flags, notes — recorded too),
   committed every B events to an SQLite file (WAL), and *only then* acknowledged (the
   ack-after-commit rule of issue 12: a counter stands in for ``session.acknowledge``). Clicks
   stray from and come back to bound dials (a peek the tracker records), with a clock tick every
   64 events. Target ≥ 50 000 events/s.
2. **Verify** (``dialtray verify``'s work: hash chain, game row, replay through the rules engine
   to the recorded state) of a stored game of 10 000 tray events: a whole Air Action bot game on
   the tracker's paper tray with mistakes (its actions, dice, expectations, flags, confirmations
   and every click), topped up with clicks to 10 000 events. Target ≤ 200 ms.

Prints a table and writes bench/results/store.json.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "store.json"
sys.path.insert(0, str(ROOT / "tests" / "tracker"))

from benchframes import click_stream, track_stream  # noqa: E402
from benchout import print_table, write_results  # noqa: E402
from dialrig import proto  # noqa: E402
from dialtray.link.deframe import HostDeframer  # noqa: E402
from dialtray.link.messages import DialState, RawEvent, Snapshot, TrayEvent, decode  # noqa: E402
from dialtray.rules.core.dice import SeededDice  # noqa: E402
from dialtray.store import GameRecorder, GameStore  # noqa: E402
from dialtray.store.recording import RecordingTracker  # noqa: E402
from dialtray.store.table import steady_gc  # noqa: E402
from dialtray.store.verify import verify_game  # noqa: E402
from dialtray.table.games import new_game  # noqa: E402
from dialtray.tracker import PLAY, TableDice, Tracker, auto_bind  # noqa: E402


def feed(rec: GameRecorder, stream: bytes, batch: int, boot: int = 7, one_by_one: bool = False
         ) -> tuple[int, int, float, float]:
    """(events, acknowledgements, wall seconds, CPU seconds): frames through the recorder,
    commit, then ack. The events of one read (up to a tick or a commit) go to the recorder
    together (``GameRecorder.devices``, as ``StoredTable.pump`` hands over its queue);
    ``one_by_one``: each through ``device`` (the path before the batch path, for comparison)."""
    d = proto.Deframer() if one_by_one else HostDeframer()  # (the link's: one pass a read)
    clock = 0.0
    events = acks = 0
    pending = 0
    acked_seq = 0
    last_seq = 0
    run: list[TrayEvent] = []
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(0, len(stream), 4096):  # as a serial port hands data over
        for payload in d.feed(stream[i:i + 4096]):
            msg = decode(payload)
            assert isinstance(msg, RawEvent)
            ev = msg.to_event()
            if one_by_one:
                rec.device(ev, boot, clock)
            else:
                run.append(ev)
            last_seq = ev.seq
            events += 1
            pending += 1
            tick = events % 64 == 0
            if run and (tick or pending >= batch):
                rec.devices(run, boot, clock)
                run = []
            if tick:
                clock += 0.001
                rec.tick(clock)
            if pending >= batch:
                rec.store.update_game(rec.gid, boot_id=boot, last_seq=last_seq)
                rec.commit()
                acked_seq, acks, pending = last_seq, acks + 1, 0  # acknowledged after commit
        if run:
            rec.devices(run, boot, clock)
            run = []
    rec.store.update_game(rec.gid, boot_id=boot, last_seq=last_seq)
    rec.commit()
    acked_seq, acks = last_seq, acks + 1
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert acked_seq == last_seq
    return events, acks, dt, cpu


def live_game(store: GameStore) -> GameRecorder:
    dice = TableDice(SeededDice(1))
    s = new_game("airaction", dice, 1, 4)
    t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), dice, header=s.header)
    rec = GameRecorder.start(store, t, origin="bench")
    rec.device(Snapshot(0, 7, 1, tuple(DialState(d, i, "as5600", 0, 12, 0)
                                       for d in range(8) for i in range(2))), 7, 0.0)
    assert t.phase == PLAY
    return rec


def throughput(n: int, batch: int, db: Path, steady: bool = True) -> dict[str, float]:
    """``steady``: the collector tuned after setup as ``play`` does (``store.table.steady_gc``);
    False: Python's default collector (the figure before that tuning)."""
    store = GameStore.open(db)
    rec = live_game(store)
    assert rec.tracker is not None
    stream = click_stream(rec.tracker, n)
    old = steady_gc() if steady else None
    try:
        events, acks, dt, cpu = feed(rec, stream, batch)
    finally:
        if old is not None:
            gc.set_threshold(*old)
            gc.unfreeze()
    records = store.game(rec.gid).records
    store.close()
    return {"events": events, "acks": acks, "seconds": dt, "rate": events / dt,
            "cpu_rate": events / cpu, "records": records}


def store_only(n: int, batch: int, db: Path) -> tuple[float, float]:
    """Click records alone (no decoding, no tracker): the store's own ceiling, events/s
    (wall, CPU)."""
    from dialtray.link.messages import Click
    from dialtray.store.payload import click_content

    store = GameStore.open(db)
    gid = store.new_game("airaction")
    clicks = [Click(i + 1, i % 8, 0, i % 12, 1, 3 * i) for i in range(n)]
    t0, c0 = time.perf_counter(), time.process_time()
    for i, ev in enumerate(clicks, 1):
        store.append_content(gid, "device", lambda k, ev=ev: click_content(gid, k, 0.0, ev, 7))
        if i % batch == 0:
            store.update_game(gid, boot_id=7, last_seq=ev.seq)
            store.commit()
    store.commit()
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    store.close()
    return n / dt, n / cpu


def decode_and_track(n: int) -> tuple[float, float]:
    """The same frames through decode and the tracker alone (no store), events/s (wall, CPU)."""
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore.open(Path(tmp) / "x.sqlite3")
        rec = live_game(store)
        t = rec.tracker
        assert t is not None
        stream = click_stream(t, n)
        t0, c0 = time.perf_counter(), time.process_time()
        events = track_stream(t, stream)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        store.close()
    return events / dt, events / cpu


def ten_thousand(db: Path) -> tuple[int, int, int, list[float], list[float]]:
    """A stored game of 10 000 tray events; (records, actions, events, verify wall and CPU
    times in s)."""
    from dialtray.tracker.hands import Hands, Mistakes
    from paper import PaperTray, run_bots

    store = GameStore.open(db)
    dice = TableDice(SeededDice(5))
    s = new_game("airaction", dice, 5, 6)
    t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), dice, header=s.header)
    rec = GameRecorder.start(store, t, origin="bench")
    tray = PaperTray(RecordingTracker(rec))  # type: ignore[arg-type]
    tray.snapshot()
    tray.settle()
    run_bots(tray, Hands(RecordingTracker(rec), s.brain, Mistakes()))  # type: ignore[arg-type]
    rec.commit()
    played = sum(1 for r in store.rows(rec.gid) if r.kind == "device")
    if played < 10_000:
        feed(rec, click_stream(t, 10_000 - played, tray.seq + 1), 1000)
    events = sum(1 for r in store.rows(rec.gid) if r.kind == "device")
    g = store.game(rec.gid)
    store.close()
    times, cpus = [], []
    for _ in range(7):
        ro = GameStore.open(db, readonly=True)
        t0, c0 = time.perf_counter(), time.process_time()
        v = verify_game(ro, g.id)
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        assert v.ok, v.text()
        ro.close()
    return g.records, v.actions, events, times, cpus


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=200_000)
    ap.add_argument("--batch", type=int, default=1000, help="events per commit")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        runs = {b: throughput(args.events, b, Path(tmp) / f"t{b}.sqlite3")
                for b in sorted({args.batch, 100})}
        default_gc = throughput(args.events, args.batch, Path(tmp) / "d.sqlite3", steady=False)
        alone, alone_cpu = store_only(args.events, args.batch, Path(tmp) / "alone.sqlite3")
        tracked, tracked_cpu = decode_and_track(args.events)
        records, actions, events, times, cpus = ten_thousand(Path(tmp) / "ten.sqlite3")
    main_run = runs[args.batch]
    med, med_cpu = statistics.median(times), statistics.median(cpus)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else -1.0
    results = {
        "cores": os.cpu_count(),
        "load_average_1min": round(load, 2),
        "throughput_events": args.events,
        "throughput_batch": args.batch,
        "throughput_events_per_s": round(main_run["rate"]),
        "throughput_events_per_cpu_s": round(main_run["cpu_rate"]),
        "throughput_commits_then_acks": main_run["acks"],
        "throughput_records": main_run["records"],
        "throughput_batch_100_events_per_s": round(runs[100]["rate"]),
        "throughput_gc": "steady_gc(): frozen after setup, thresholds (10000, 50, 100)",
        "throughput_default_gc_events_per_s": round(default_gc["rate"]),
        "throughput_default_gc_events_per_cpu_s": round(default_gc["cpu_rate"]),
        "store_alone_click_records_per_s": round(alone),
        "store_alone_click_records_per_cpu_s": round(alone_cpu),
        "decode_and_tracker_alone_events_per_s": round(tracked),
        "decode_and_tracker_alone_events_per_cpu_s": round(tracked_cpu),
        "verify_game_records": records,
        "verify_game_actions": actions,
        "verify_game_tray_events": events,
        "verify_median_ms": round(med * 1000, 1),
        "verify_median_cpu_ms": round(med_cpu * 1000, 1),
        "verify_max_ms": round(max(times) * 1000, 1),
    }
    rows = [
        (f"frames → tracker → store, batch {args.batch}", f"{main_run['rate']:,.0f} /s",
         f"{main_run['cpu_rate']:,.0f} per CPU-s; target ≥ 50 000 (one core)"),
        ("  commits (each then acknowledged)", f"{main_run['acks']}",
         f"{main_run['records']} records; collector tuned (steady_gc)"),
        ("  the same, Python's default collector", f"{default_gc['rate']:,.0f} /s",
         f"{default_gc['cpu_rate']:,.0f} per CPU-s (before steady_gc)"),
        ("frames → tracker → store, batch 100", f"{runs[100]['rate']:,.0f} /s",
         f"{runs[100]['cpu_rate']:,.0f} per CPU-s"),
        ("  for scale: store alone (click records)", f"{alone:,.0f} /s",
         f"{alone_cpu:,.0f} per CPU-s"),
        ("  for scale: decode → tracker alone", f"{tracked:,.0f} /s",
         f"{tracked_cpu:,.0f} per CPU-s"),
        ("verify a 10 000-event game (median)", f"{med * 1000:.1f} ms",
         f"{med_cpu * 1000:.1f} CPU-ms; target ≤ 200 ms"),
        ("  (worst of 7)", f"{max(times) * 1000:.1f} ms",
         f"{records} records, {actions} actions, {events} tray events"),
    ]
    print(f"{os.cpu_count()} core(s), load average {load:.1f} (wall-clock rates suffer when the "
          "machine is shared; CPU-second rates much less)")
    print_table(rows, 42, 14)
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
