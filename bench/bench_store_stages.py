"""What each stage of the store's full path costs per event, beside the bare loop (issue 35).

    .venv/bin/python bench/bench_store_stages.py [--events N] [--batch B] [--sync NORMAL|FULL]

The path of ``bench_side_by_side.py``'s "store path" stage (tray EVENT frames → deframe →
decode → the ``GameRecorder`` of a live Air Action game → commit every B events), taken apart
by CPU time of this process (moves far less with the machine's load than the wall clock):

* deframe — ``HostDeframer`` over the stream, alone;
* decode — ``decode`` + ``to_event`` of every payload, alone;
* tracker — ``Tracker.feed_many`` of the events (a run per read, a tick every 64), alone;
* records — the full path before its commits, less the three above: the device records, a
  peek's flag record, the recorder's bookkeeping;
* chain — the commit's Python that chains: SHA-256 link, HMAC per record, the seal;
* statements — the commit's SQL (BEGIN, INSERT, UPDATE, COMMIT) as the store runs them;
* the rest of the commit (bookkeeping around the statements);
* bare — ``bench_side_by_side.bare_loop``: the very rows inserted by plain sqlite3.

Each figure is the least of ``--repeat`` runs, the full path and its parts in the same process
one after the other. Prints a table and writes bench/results/store_stages.json.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "store_stages.json"
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "tracker"))

from bench_side_by_side import bare_loop, commits_of, stored_rows  # noqa: E402
from bench_store import feed, live_game  # noqa: E402
from benchframes import CHUNK, click_stream  # noqa: E402
from benchout import print_table, write_results  # noqa: E402
from dialtray.link.deframe import HostDeframer  # noqa: E402
from dialtray.link.messages import TrayEvent, decode  # noqa: E402
from dialtray.store import GameStore, chainwrite  # noqa: E402
from dialtray.store.table import steady_gc  # noqa: E402

cpu = time.process_time


def one_run(tmp: Path, k: int, n: int, batch: int, sync: str) -> dict[str, float]:
    """CPU seconds of each stage in one run."""
    out: dict[str, float] = defaultdict(float)
    db = tmp / f"full-{k}.sqlite3"
    store = GameStore.open(db, synchronous=sync)
    rec = live_game(store)
    t = rec.tracker
    assert t is not None
    stream = click_stream(t, n)
    start = store.game(rec.gid).records
    old = steady_gc()
    try:
        c0 = cpu()
        d, payloads = HostDeframer(), []
        for i in range(0, len(stream), CHUNK):
            payloads += d.feed(stream[i:i + CHUNK])
        out["deframe"] = cpu() - c0
        c0 = cpu()
        evs: list[TrayEvent] = [decode(p).to_event() for p in payloads]  # type: ignore[union-attr]
        out["decode"] = cpu() - c0
        del evs
        chain, commit, execute = chainwrite.ChainWriter._chain, store.commit, store._exec

        def timed_chain(self: Any, *a: Any) -> Any:
            c = cpu()
            r = chain(self, *a)
            out["chain"] += cpu() - c
            return r

        def timed_commit() -> None:
            c = cpu()
            commit()
            out["commit"] += cpu() - c

        def timed_exec(sql: str, params: Any = (), many: bool = False) -> Any:
            c = cpu()
            r = execute(sql, params, many)
            out["statements"] += cpu() - c
            return r

        chainwrite.ChainWriter._chain = timed_chain  # type: ignore[method-assign]
        store.commit = timed_commit  # type: ignore[method-assign]
        store._exec = timed_exec  # type: ignore[method-assign]
        try:
            _, _, _, out["full"] = feed(rec, stream, batch)
        finally:
            chainwrite.ChainWriter._chain = chain  # type: ignore[method-assign]
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()
    store.close()
    rows = stored_rows(db, rec.gid, start)
    _, out["bare"] = bare_loop(tmp / f"bare-{k}.sqlite3", rows, commits_of(rows, batch), sync)
    out["tracker"] = tracker_alone(tmp / f"t-{k}.sqlite3", n, sync)
    return out


def tracker_alone(db: Path, n: int, sync: str) -> float:
    """CPU seconds of ``Tracker.feed_many`` over the decoded events (runs as ``feed`` makes
    them: a read's events up to a tick), ticks included."""
    store = GameStore.open(db, synchronous=sync)
    rec = live_game(store)
    t = rec.tracker
    assert t is not None
    stream = click_stream(t, n)
    d, evs = HostDeframer(), []
    for i in range(0, len(stream), CHUNK):
        evs.append([decode(p).to_event() for p in d.feed(stream[i:i + CHUNK])])  # type: ignore[union-attr]
    old = steady_gc()
    try:
        c0 = cpu()
        clock, seen = 0.0, 0
        for read in evs:
            while read:
                k = min(len(read), 64 - seen % 64)
                t.feed_many(read[:k], clock)
                read = read[k:]
                seen += k
                if seen % 64 == 0:
                    clock += 0.001
                    t.tick(clock)
        took = cpu() - c0
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()
    store.close()
    return took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=50_000)
    ap.add_argument("--batch", type=int, default=1000, help="events per commit")
    ap.add_argument("--sync", default="NORMAL", choices=("FULL", "NORMAL"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        runs = [one_run(Path(tmp), k, args.events, args.batch, args.sync)
                for k in range(args.repeat)]
    us = {k: min(r[k] for r in runs) / args.events * 1e6 for k in runs[0]}
    us["records"] = us["full"] - us["commit"] - us["deframe"] - us["decode"] - us["tracker"]
    us["commit rest"] = us["commit"] - us["chain"] - us["statements"]
    load = os.getloadavg()[0]
    order = ["deframe", "decode", "tracker", "records", "chain", "statements", "commit rest",
             "full", "bare"]
    results: dict[str, Any] = {"events": args.events, "batch": args.batch,
                               "synchronous": args.sync, "load_average_1min": round(load, 2),
                               "cpu_us_per_event": {k: round(us[k], 2) for k in order},
                               "ratio_cpu": round(us["bare"] / us["full"], 3)}
    print(f"{os.cpu_count()} core(s), load average {load:.1f}; CPU µs an event, least of "
          f"{args.repeat} runs, {args.batch} events a commit, synchronous={args.sync}")
    rows = [(k, f"{us[k]:.2f}", "") for k in order]
    rows.append(("ratio (bare / full, CPU)", f"{us['bare'] / us['full']:.2f}×", ""))
    print_table(rows, 26, 8)
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
