"""Benchmark the hub under live tables and faults (issue 32), on a real Mosquitto and PostgreSQL
started here (loopback only).

    .venv/bin/python bench/bench_hub_faults.py [--sizes 8,32,64] [--fault-tables 32]

1. **Ingest**: N scripted tables (real SQLite stores, outboxes and links, in two processes of
   their own) play at once, a commit of 1-4 records every ``--pace`` s each; the hub stores
   them. Records/s from the first stored to the last, and the commit → stored delay (p50/p99:
   PostgreSQL's ``received`` minus the record's own time, same machine clock) at 8, 32, 64
   tables.
2. **Catch-up after each fault**: ``--fault-tables`` tables play while PostgreSQL is restarted,
   the broker killed and the hub killed (each down ``--down`` s, then ``--calm`` s). Catch-up =
   from the moment the fault is over (the server back) until the hub has stored every record
   committed before that moment (taken afterwards from PostgreSQL: every record does arrive,
   the tests check it). Also the delay p99 in the calm stretches.

Prints a table and writes bench/results/hub_faults.json.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "hub_faults.json"
sys.path.insert(0, str(ROOT / "tests" / "hub"))

from dialtray.hub import devservers, pgschema  # noqa: E402
from dialtray.hub.ingest import Ingest  # noqa: E402
from dialtray.hub.sim import ScriptedTable, crash_hub, wait_for  # noqa: E402
from dialtray.hub.table import Broker  # noqa: E402
from hubhelp import fresh_db  # noqa: E402

EVENT = "ev1"


def run_tables(specs: list[tuple[str, str, str, int, int, float, int]], go: Any,
               done: Any) -> None:
    """A process of scripted tables; sets ``done`` when every table has finished and sent."""
    tables = [ScriptedTable(Path(root), EVENT, tid, Broker("127.0.0.1", port, tid, pw),
                            (f"{tid}a", f"{tid}b"), 1, records, seed=seed, pace=pace)
              for root, tid, pw, port, records, pace, seed in specs]
    go.wait()
    for t in tables:
        t.start()
    for t in tables:
        t.done.wait(600)
    wait_for(lambda: all(t.link.outstanding() == 0 for t in tables), 300, "outboxes empty")
    done.set()
    for t in tables:
        t.close()


def play(s: devservers.DevServers, tmp: Path, name: str, tables: int, records: int,
         pace: float, faults: list[str] | None = None, down: float = 1.5, calm: float = 6.0
         ) -> tuple[str, list[tuple[str, float]], float]:
    """Run ``tables`` tables to the end (with ``faults`` in order); returns the database and
    each fault's (kind, end time), and the share of the run the last hub's writer was busy."""
    import multiprocessing as mp

    dsn = fresh_db(s, name)
    specs = []
    for i in range(tables):
        tid, pw = f"{name}{i:02d}", secrets.token_urlsafe(9)
        s.mqtt.add_user(tid, pw)
        specs.append((str(tmp), tid, pw, s.mqtt.port, records, pace, i))
    ctx = mp.get_context("spawn")
    go = ctx.Event()
    dones = [ctx.Event() for _ in range(2)]
    procs = [ctx.Process(target=run_tables, args=(specs[k::2], go, dones[k]))
             for k in range(2)]
    for p in procs:
        p.start()

    def start() -> Ingest:
        return Ingest(dsn, EVENT, "127.0.0.1", s.mqtt.port,
                      s.hub_password).start()  # type: ignore[attr-defined]

    hub = start()
    ends: list[tuple[str, float]] = []
    t_hub = time.monotonic()
    try:
        time.sleep(3)  # the table processes import and open their stores
        go.set()
        time.sleep(calm)
        for kind in faults or []:
            if kind == "postgres restart":
                s.pg.down()
                time.sleep(down)
                s.pg.up()
            elif kind == "broker killed":
                s.mqtt.kill()
                time.sleep(down)
                s.mqtt.start()
            else:
                crash_hub(hub)
                time.sleep(down)
                hub = start()
                t_hub = time.monotonic()
            ends.append((kind, time.time()))
            time.sleep(calm)
        for d in dones:
            if not d.wait(600):
                raise TimeoutError("the tables did not finish")
    finally:
        for p in procs:
            p.join(60)
        busy = hub.stats.busy_s / max(time.monotonic() - t_hub, 1e-9)
        hub.stop()
    return dsn, ends, busy


def delays(dsn: str, skip: list[tuple[float, float]] | None = None) -> dict[str, float]:
    import psycopg

    with psycopg.connect(dsn) as db:
        rows = db.execute(
            "SELECT (convert_from(content, 'UTF8')::jsonb ->> 'at')::float, "
            "EXTRACT(EPOCH FROM received)::float FROM hub_records").fetchall()
    rows = [(at, got) for at, got in rows if not any(a <= at <= b for a, b in skip or [])]
    lat = sorted(got - at for at, got in rows)
    if os.environ.get("BENCH_WORST") and skip:
        worst = sorted(rows, key=lambda r: r[0] - r[1])[:12]
        print("worst (s after the first fault's end, delay):",
              [(round(at - skip[0][1], 1), round(got - at, 2)) for at, got in worst])
    first, last = min(g for _a, g in rows), max(g for _a, g in rows)

    def pct(q: float) -> float:
        return float(lat[min(len(lat) - 1, int(q * (len(lat) - 1)))] * 1000)

    return {"records": len(rows), "records_per_s": len(rows) / max(last - first, 1e-9),
            "p50_ms": pct(0.5), "p99_ms": pct(0.99), "max_ms": lat[-1] * 1000}


def catch_up(dsn: str, ends: list[tuple[str, float]]) -> list[dict[str, Any]]:
    import psycopg

    out = []
    with psycopg.connect(dsn) as db:
        for kind, end in ends:
            row = db.execute(
                "SELECT MAX(EXTRACT(EPOCH FROM received)::float) FROM hub_records WHERE "
                "(convert_from(content, 'UTF8')::jsonb ->> 'at')::float <= %s", (end,)
            ).fetchone()
            got = float(row[0]) if row and row[0] is not None else end
            out.append({"fault": kind, "catch_up_s": max(0.0, got - end)})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="8,32,64", help="table counts for the ingest runs")
    ap.add_argument("--records", type=int, default=400, help="records per table (ingest)")
    ap.add_argument("--pace", type=float, default=0.05, help="s between a table's commits")
    ap.add_argument("--fault-tables", type=int, default=32)
    ap.add_argument("--down", type=float, default=1.5, help="s each fault lasts")
    ap.add_argument("--calm", type=float, default=6.0, help="s between faults")
    a = ap.parse_args()
    why = devservers.missing()
    if why:
        print(f"bench_hub_faults: {why}")
        return 2
    out: dict[str, Any] = {"machine_load": os.getloadavg()[0], "ingest": {}}
    with devservers.DevServers(EVENT) as s, tempfile.TemporaryDirectory() as tmp:
        s.hub_password = secrets.token_urlsafe(12)  # type: ignore[attr-defined]
        s.mqtt.add_user("hub", s.hub_password)  # type: ignore[attr-defined]
        pgschema.migrate(s.pg.admin_dsn)
        for n in (int(x) for x in a.sizes.split(",")):
            dsn, _, busy = play(s, Path(tmp), f"ing{n}_", n, a.records, a.pace, calm=0.0)
            out["ingest"][str(n)] = {**delays(dsn), "writer_busy_share": busy}
        faults = ["postgres restart", "broker killed", "hub killed"]
        records = int((len(faults) + 1) * (a.calm + a.down) / 0.25 * 2.5) + 50
        dsn, ends, _ = play(s, Path(tmp), "flt_", a.fault_tables, records, 0.25, faults,
                         a.down, a.calm)
        out["faults"] = catch_up(dsn, ends)
        skip = [(end - a.down - 1.0, end + 3.0) for _k, end in ends]
        out["faults_calm"] = delays(dsn, skip)
    print(f"{'ingest: tables':<34}{'records':>9}{'rec/s':>9}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'writer busy':>13}")
    for n, r in out["ingest"].items():
        print(f"{n:<34}{r['records']:>9}{r['records_per_s']:>9.0f}{r['p50_ms']:>9.0f}"
              f"{r['p99_ms']:>9.0f}{r['writer_busy_share']:>12.0%}")
    print(f"\n{a.fault_tables} tables, each fault {a.down:g} s:")
    for f in out["faults"]:
        print(f"  catch-up after {f['fault']:<22}{f['catch_up_s']:>8.2f} s")
    c = out["faults_calm"]
    print(f"  between faults: p50 {c['p50_ms']:.0f} ms, p99 {c['p99_ms']:.0f} ms "
          f"({c['records']} records)")
    print(f"(load average {out['machine_load']:.2f})")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
