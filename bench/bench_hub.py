"""Benchmark the tournament hub on a real Mosquitto and PostgreSQL (started here, loopback only).

    .venv/bin/python bench/bench_hub.py [--tables N] [--records M] [--clicks K]
    .venv/bin/python bench/bench_hub.py --faults [--sizes 8,32,64] [--fault-tables 32]

1. **Ingest**: N tables whose SQLite stores already hold M records each (every one in the outbox,
   as after a long network cut) all connect at once; records/s the hub stores in PostgreSQL
   (chain checked, idempotent insert, ack), from the first record stored to the last, and from
   the links' start. Target ≥ 5 000 records/s.
2. **Click → hub page**: a table publishes its live state (a click, stamped with the time) K
   times; a websocket client of the hub page (as the browser is) notes when the page's state
   shows that click. p50/p99 of the delay. Target p99 ≤ 500 ms. (It starts at the table's
   publish: the tray → host part is the link's, measured by bench_link.)
3. **Live tracker click → hub page**: as at a table playing with ``--event``: a click fed to a real
   tracker (as the link delivers it), the game's loop stepping ``EventTable`` (live state built
   from the tracker's view, sent when it changed, at most every 0.1 s), until the page shows the
   click's due turn. One click every 0.12 s. p50/p99, same target.
(The acceptance scenario — 32 tables, broker kills, one table cut for 30 s — is a test now:
tests/hub/test_soak.py carries it with the issue 32 soak.)

Prints a table and writes bench/results/hub.json. With ``--faults`` (issue 32; writes
bench/results/hub_faults.json):

* **Ingest**: N scripted tables (real SQLite stores, outboxes and links, in two processes of
   their own) play at once, a commit of 1-4 records every ``--pace`` s each; the hub stores
   them. Records/s from the first stored to the last, and the commit → stored delay (p50/p99:
   PostgreSQL's ``received`` minus the record's own time, same machine clock) at 8, 32, 64
   tables.
* **Catch-up after each fault**: ``--fault-tables`` tables play while PostgreSQL is restarted,
   the broker killed and the hub killed (each down ``--down`` s, then ``--calm`` s). Catch-up =
   from the moment the fault is over (the server back) until the hub has stored every record
   committed before that moment (taken afterwards from PostgreSQL: every record does arrive,
   the tests check it). Also the delay p99 in the calm stretches.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "hub.json"
RESULTS_FAULTS = ROOT / "bench" / "results" / "hub_faults.json"
sys.path.insert(0, str(ROOT / "tests" / "hub"))
sys.path.insert(0, str(ROOT / "bench"))

import side_hub  # noqa: E402
from benchout import write_results  # noqa: E402
from dialtray.hub import devservers  # noqa: E402
from dialtray.hub.ingest import Ingest  # noqa: E402
from dialtray.hub.sim import ScriptedTable, crash_hub, wait_for  # noqa: E402
from dialtray.hub.table import Broker, TableLink  # noqa: E402
from dialtray.store.db import GameStore  # noqa: E402
from hubhelp import fresh_db  # noqa: E402
from hubstores import one_store  # noqa: E402

EVENT = "ev1"


def run_links(specs: list[tuple[str, str, str, int]], go: Any, stop: Any) -> None:
    """A process of tables (the hub's process is left to the hub, as at an event)."""
    links = [TableLink(Path(path), EVENT, tid, Broker("127.0.0.1", port, tid, pw))
             for path, tid, pw, port in specs]
    go.wait()
    for link in links:
        link.start()
    stop.wait()
    for link in links:
        link.stop()


def rss_mb() -> float:
    """This process' resident memory now (the hub's: the tables run in processes of their
    own; the servers are processes too)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def ingest_rate(s: devservers.DevServers, hub_pw: str, tmp: Path, tables: int,
                records: int) -> dict[str, float]:
    import multiprocessing as mp

    dsn = fresh_db(s, "bench_ingest")
    specs = []
    for i in range(tables):
        tid = f"b{i:02d}"
        pw = secrets.token_urlsafe(9)
        s.mqtt.add_user(tid, pw)
        path = tmp / f"{tid}.sqlite3"
        one_store(path, records, every=500)
        specs.append((str(path), tid, pw, s.mqtt.port))
    ctx = mp.get_context("spawn")
    go, stop = ctx.Event(), ctx.Event()
    procs = [ctx.Process(target=run_links, args=(specs[k::2], go, stop)) for k in range(2)]
    for p in procs:
        p.start()
    rss0 = rss_mb()
    hub = Ingest(dsn, EVENT, "127.0.0.1", s.mqtt.port, hub_pw).start()
    total = tables * records
    try:
        time.sleep(3)  # the table processes import and open their stores
        t0 = time.monotonic()
        go.set()
        wait_for(lambda: hub.stats.stored >= total, 300, "every record stored", every=0.01)
        t1 = time.monotonic()
        st = hub.stats
        return {"records": total, "records_per_s_from_start": total / (t1 - t0),
                "records_per_s_first_to_last": total / max(st.last_at - st.first_at, 1e-9),
                "batches": st.batches, "duplicates": st.duplicates,
                "writer_busy_s": st.busy_s, "records_per_writer_s": total / max(st.busy_s, 1e-9),
                "hub_rss_mb_before": rss0, "hub_rss_mb_after": rss_mb(),
                "hub_peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    finally:
        stop.set()
        for p in procs:
            p.join(30)
        hub.stop()


def watch_page(ws: Any, done: threading.Event, table: str,
               figure: Callable[[dict[str, Any]], object], seen: dict[int, float],
               sign: int = 1) -> None:
    """Read the hub page's websocket (as the browser does) on a thread until done: seen[k] is
    the wall-clock time the page first showed table's state with figure(state) == sign * k (an
    int; anything else is not a click)."""

    def read() -> None:
        while not done.is_set():
            try:
                msg = json.loads(ws.recv(timeout=1))
            except TimeoutError:
                continue
            except Exception:
                return
            now = time.time()
            for tb in msg.get("tables", []):
                k = figure(tb.get("state") or {})
                if tb["id"] == table and isinstance(k, int):
                    seen.setdefault(sign * k, now)

    threading.Thread(target=read, daemon=True).start()


def delay_figures(clicks: int, delays: list[float]) -> dict[str, float]:
    """p50/p99/max of the click → page delays, in ms."""
    delays.sort()
    return {"clicks": clicks, "p50_ms": statistics.median(delays) * 1000,
            "p99_ms": delays[min(len(delays) - 1, int(len(delays) * 0.99))] * 1000,
            "max_ms": delays[-1] * 1000}


def new_table(s: devservers.DevServers, tid: str) -> tuple[Path, str]:
    """A table's broker account (its password) and its empty game store."""
    pw = secrets.token_urlsafe(9)
    s.mqtt.add_user(tid, pw)
    db = Path(tempfile.mkdtemp()) / f"{tid}.sqlite3"
    GameStore.open(db).close()
    return db, pw


def click_delay(s: devservers.DevServers, clicks: int) -> dict[str, float]:
    from hubhelp import hub_page
    from websockets.sync.client import connect

    dsn = fresh_db(s, "bench_click")
    page, hub, served = hub_page(s, dsn)
    db, pw = new_table(s, "clk")
    link = TableLink(db, EVENT, "clk", Broker("127.0.0.1", s.mqtt.port, "clk", pw)).start()
    delays: list[float] = []
    seen: dict[int, float] = {}
    done = threading.Event()
    try:
        link.connected.wait(10)
        ws = connect(f"ws://127.0.0.1:{served.port}/ws?key={page.token}", legacy=True)

        watch_page(ws, done, "clk", lambda st: st.get("click"), seen)
        for k in range(clicks):
            sent = time.time()
            link.publish_state({"phase": "movement", "click": k, "sent": sent})
            wait_for(lambda k=k: k in seen, 10, f"click {k} on the page", every=0.001)
            delays.append(seen[k] - sent)
            time.sleep(0.02)
        done.set()
        ws.close()
    finally:
        link.stop()
        served.close()
        hub.stop()
    return delay_figures(clicks, delays)


def tracker_click_delay(s: devservers.DevServers, clicks: int) -> dict[str, float]:
    from dialtray.hub.tableside import EventAddress, EventTable
    from dialtray.link.messages import Click
    from hubhelp import agree, hub_page, tracker
    from websockets.sync.client import connect

    dsn = fresh_db(s, "bench_live")
    page, hub, served = hub_page(s, dsn)
    db, pw = new_table(s, "live")
    ev = EventTable(db, EventAddress("127.0.0.1", s.mqtt.port, EVENT),
                    {"table": "live", "password": pw, "ruling_key": b"k" * 16}).start()
    t = tracker("airaction")
    agree(t, time.monotonic())
    slot = next(sl for sl, d in t.binding.items() if d.figure == "B2" and d.kind == "combat")
    delays: list[float] = []
    seen: dict[int, float] = {}
    done = threading.Event()
    try:
        ev.link.connected.wait(10)
        ws = connect(f"ws://127.0.0.1:{served.port}/ws?key={page.token}", legacy=True)

        watch_page(ws, done, "live", lambda st: (st.get("due") or {}).get("B2 combat"), seen,
                   sign=-1)
        for k in range(1, clicks + 1):
            sent = time.time()
            t.feed(Click(k, slot.dock, slot.dial, k % 12, 1), time.monotonic())
            while k not in seen:  # the game's loop
                ev.step(t, print)  # (nothing to say: no messages come)
                time.sleep(0.002)
                if time.time() - sent > 10:
                    raise TimeoutError(f"click {k} never reached the page")
            delays.append(seen[k] - sent)
            time.sleep(0.12)
        done.set()
        ws.close()
    finally:
        ev.stop(0)
        served.close()
        hub.stop()
    return delay_figures(clicks, delays)


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


def faults(a: argparse.Namespace, s: Any, tmp: Path) -> int:
    """Issue 32's figures: ingest at --sizes tables, catch-up after each fault."""
    out: dict[str, Any] = {"machine_load": os.getloadavg()[0], "ingest": {}}
    for n in (int(x) for x in a.sizes.split(",")):
        dsn, _, busy = play(s, tmp, f"ing{n}_", n, a.records, a.pace, calm=0.0)
        out["ingest"][str(n)] = {**delays(dsn), "writer_busy_share": busy}
    faults = ["postgres restart", "broker killed", "hub killed"]
    records = int((len(faults) + 1) * (a.calm + a.down) / 0.25 * 2.5) + 50
    dsn, ends, _ = play(s, tmp, "flt_", a.fault_tables, records, 0.25, faults, a.down,
                        a.calm)
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
    write_results(RESULTS_FAULTS, out)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=16)
    ap.add_argument("--records", type=int, default=None,
                    help="records per table (default 2500; with --faults 400)")
    ap.add_argument("--clicks", type=int, default=300)
    ap.add_argument("--faults", action="store_true", help="issue 32's figures instead: ingest "
                    "rate and p99 of live scripted tables at --sizes, catch-up after each fault")
    ap.add_argument("--sizes", default="8,32,64", help="(--faults) table counts for ingest")
    ap.add_argument("--pace", type=float, default=0.05, help="(--faults) s between commits")
    ap.add_argument("--fault-tables", type=int, default=32)
    ap.add_argument("--down", type=float, default=1.5, help="(--faults) s each fault lasts")
    ap.add_argument("--calm", type=float, default=6.0, help="(--faults) s between faults")
    a = ap.parse_args()
    a.records = a.records or (400 if a.faults else 2500)
    return side_hub.with_hub_servers(
        "bench_hub", lambda s, tmp: (faults if a.faults else figures)(a, s, tmp))


def figures(a: argparse.Namespace, s: Any, tmp: Path) -> int:
    """Ingest, click → page and live tracker click → page."""
    out: dict[str, object] = {"machine_load": os.getloadavg()[0]}
    out["ingest"] = ingest_rate(s, s.hub_password, tmp, a.tables, a.records)
    out["click_to_page"] = click_delay(s, a.clicks)
    out["tracker_click_to_page"] = tracker_click_delay(s, a.clicks // 3)
    ing = out["ingest"]
    clk = out["click_to_page"]
    assert isinstance(ing, dict) and isinstance(clk, dict)
    print(f"{'measure':<44}{'value':>14}  target")
    print(f"{'ingest records/s (first → last stored)':<44}"
          f"{ing['records_per_s_first_to_last']:>14.0f}  ≥ 5000")
    print(f"{'ingest records/s (from links start)':<44}{ing['records_per_s_from_start']:>14.0f}")
    print(f"{'records':<44}{ing['records']:>14}")
    print(f"{'records per second of hub writer time':<44}{ing['records_per_writer_s']:>14.0f}")
    print(f"{'hub RSS MB before → after ingest (peak)':<44}{ing['hub_rss_mb_before']:>6.0f} → "
          f"{ing['hub_rss_mb_after']:.0f} ({ing['hub_peak_rss_mb']:.0f})")
    print(f"{'click → hub page p50 ms':<44}{clk['p50_ms']:>14.1f}")
    print(f"{'click → hub page p99 ms':<44}{clk['p99_ms']:>14.1f}  ≤ 500")
    live = out["tracker_click_to_page"]
    assert isinstance(live, dict)
    print(f"{'live tracker click → hub page p50 ms':<44}{live['p50_ms']:>14.1f}")
    print(f"{'live tracker click → hub page p99 ms':<44}{live['p99_ms']:>14.1f}  ≤ 500")
    print(f"(load average {out['machine_load']:.2f})")
    write_results(RESULTS, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
