"""Benchmark the tournament hub on a real Mosquitto and PostgreSQL (started here, loopback only).

    .venv/bin/python bench/bench_hub.py [--tables N] [--records M] [--clicks K]

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

Prints a table and writes bench/results/hub.json.
"""

from __future__ import annotations

import argparse
import json
import os
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
sys.path.insert(0, str(ROOT / "tests" / "hub"))

from dialtray.hub import devservers, pgschema  # noqa: E402
from dialtray.hub.ingest import Ingest  # noqa: E402
from dialtray.hub.sim import wait_for  # noqa: E402
from dialtray.hub.table import Broker, Outbox, TableLink  # noqa: E402
from dialtray.store.db import GameStore  # noqa: E402
from hubhelp import fresh_db  # noqa: E402

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
        with GameStore.open(path) as store:
            Outbox.install(store)
            gid = store.new_game("airaction", seats=[("A", "x"), ("B", "y")], origin="bench")
            for k in range(records - 1):
                store.append(gid, "device", {"i": k, "click": k % 12, "dock": k % 8})
                if k % 500 == 499:
                    store.commit()
            store.commit()
        specs.append((str(path), tid, pw, s.mqtt.port))
    ctx = mp.get_context("spawn")
    go, stop = ctx.Event(), ctx.Event()
    procs = [ctx.Process(target=run_links, args=(specs[k::2], go, stop)) for k in range(2)]
    for p in procs:
        p.start()
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
                "writer_busy_s": st.busy_s, "records_per_writer_s": total / max(st.busy_s, 1e-9)}
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=16)
    ap.add_argument("--records", type=int, default=2500)
    ap.add_argument("--clicks", type=int, default=300)
    a = ap.parse_args()
    why = devservers.missing()
    if why:
        print(f"bench_hub: {why}")
        return 2
    out: dict[str, object] = {"machine_load": os.getloadavg()[0]}
    with devservers.DevServers(EVENT) as s, tempfile.TemporaryDirectory() as tmp:
        hub_pw = secrets.token_urlsafe(12)
        s.mqtt.add_user("hub", hub_pw)
        s.hub_password = hub_pw  # type: ignore[attr-defined]
        pgschema.migrate(s.pg.admin_dsn)
        out["ingest"] = ingest_rate(s, hub_pw, Path(tmp), a.tables, a.records)
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
    print(f"{'click → hub page p50 ms':<44}{clk['p50_ms']:>14.1f}")
    print(f"{'click → hub page p99 ms':<44}{clk['p99_ms']:>14.1f}  ≤ 500")
    live = out["tracker_click_to_page"]
    assert isinstance(live, dict)
    print(f"{'live tracker click → hub page p50 ms':<44}{live['p50_ms']:>14.1f}")
    print(f"{'live tracker click → hub page p99 ms':<44}{live['p99_ms']:>14.1f}  ≤ 500")
    print(f"(load average {out['machine_load']:.2f})")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
