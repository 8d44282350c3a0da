"""Benchmark ``dialtray verify`` with the keyed chain (issue 31): games of 1 000, 10 000 and
100 000 records, each record's MAC and the game row's seal checked with the host's key, plus the
hash chain and the replay through the rules engine.

    .venv/bin/python bench/bench_verify_keyed.py [--sizes 1000,10000,100000] [--repeat 3]

Each game: a live Air Action game (its setup and opening snapshot) topped up with tray clicks
(the bulk of a real game's records), committed 1 000 at a time. Target: linear, and at most
50 ms per 1 000 records. Prints a table and writes bench/results/verify_keyed.json.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "verify_keyed.json"
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "tracker"))

from bench_store import feed, live_game  # noqa: E402
from benchframes import click_stream  # noqa: E402
from benchout import print_table, write_results  # noqa: E402
from dialtray.store import GameStore  # noqa: E402
from dialtray.store.verify import verify_game  # noqa: E402

TARGET_MS_PER_1000 = 50.0


def one(size: int, tmp: Path, repeat: int) -> dict[str, float]:
    db = tmp / f"v{size}.sqlite3"
    store = GameStore.open(db, key_dir=tmp / "keys")
    rec = live_game(store)
    rec.commit()
    have = store.game(rec.gid).records
    # a click is stored with what the tracker makes of it (~1.5 records a click)
    feed(rec, click_stream(rec.tracker, max(0, (size - have) * 2 // 3), 1), 1000)  # type: ignore[arg-type]
    g = store.game(rec.gid)
    store.close()
    walls, cpus = [], []
    for _ in range(repeat):
        ro = GameStore.open(db, readonly=True, key_dir=tmp / "keys")
        t0, c0 = time.perf_counter(), time.process_time()
        v = verify_game(ro, g.id)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        ro.close()
        assert v.vouched, v.text()
    return {"records": g.records, "wall_ms": 1000 * min(walls),
            "wall_ms_median": 1000 * statistics.median(walls), "cpu_ms": 1000 * min(cpus),
            "ms_per_1000": 1000 * min(cpus) / g.records * 1000}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")]
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as d:
        for n in sizes:
            results[str(n)] = one(n, Path(d), a.repeat)
    rows = []
    for r in results.values():
        ok = "ok" if r["ms_per_1000"] <= TARGET_MS_PER_1000 else "OVER TARGET"
        rows.append((f"verify {r['records']:.0f} records (keyed)", f"{r['cpu_ms']:.1f} ms",
                     f"{r['ms_per_1000']:.1f} ms per 1 000 records (CPU; wall "
                     f"{r['wall_ms']:.1f} ms) — target <= {TARGET_MS_PER_1000:.0f}: {ok}"))
    per = [r["ms_per_1000"] for r in results.values()]
    rows.append(("linearity (max/min ms per 1 000)", f"{max(per) / min(per):.2f}",
                 "1.00 is perfectly linear"))
    print_table(rows, 40, 12)
    write_results(RESULTS, {"machine": os.uname().machine, "python": sys.version.split()[0],
                            "target_ms_per_1000": TARGET_MS_PER_1000, "results": results})
    return 0 if all(p <= TARGET_MS_PER_1000 for p in per) else 1


if __name__ == "__main__":
    raise SystemExit(main())
