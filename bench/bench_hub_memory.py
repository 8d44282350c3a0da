"""Memory of the hub and of a table's link as the records grow (issue 35), on a real Mosquitto
and PostgreSQL started here (loopback only).

    .venv/bin/python bench/bench_hub_memory.py [--records 1000000] [--tables 16]
        [--link-records 200000] [--only hub|link]

* **hub**: ``--tables`` tables whose stores hold ``--records`` records in all (every one in the
  outbox, as after a long cut; each table in a process of its own pair, the hub in this one)
  connect at once; the hub's resident memory (RSS) as it has stored 10 %, 25 %, 50 % and 100 %
  of them. The stated bound: **the hub's RSS stays under ``HUB_BOUND_MB`` whatever the count**.
  What it holds does not grow with the records: per game its head and the last ``RECENT`` shas
  (duplicates older than that are looked up in PostgreSQL), at most ``MAX_BATCH`` + 3 ×
  ``RECEIVE_MAX`` messages in hand, records beyond gaps within ``WAITING_BYTES``.
* **link**: one table whose outbox holds ``--link-records`` records of one game, its hub away
  (the broker up: nothing is acknowledged, so the link sends again every ``RETRY_S``), for a
  few re-send rounds; the link process' peak RSS over its RSS before the link started: as
  shipped, with no ``WINDOW``, and as the link was before issue 35 (no window, and paho handed
  records whatever it still held).

Prints a table and writes bench/results/hub_memory.json.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import secrets
import shutil
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "hub_memory.json"
sys.path.insert(0, str(ROOT / "tests" / "hub"))
sys.path.insert(0, str(ROOT / "bench"))

import side_hub  # noqa: E402
from bench_hub import rss_mb, run_links  # noqa: E402
from benchout import print_table, write_results  # noqa: E402
from dialtray.hub.ingest import Ingest  # noqa: E402
from dialtray.hub.sim import wait_for  # noqa: E402
from dialtray.hub.table import Broker, TableLink  # noqa: E402
from hubhelp import fresh_db  # noqa: E402
from hubstores import one_store  # noqa: E402

EVENT = "ev1"
HUB_BOUND_MB = 100.0  # the hub's RSS after any number of records (the stated bound)


def hub_memory(s: Any, tmp: Path, records: int, tables: int) -> dict[str, Any]:
    dsn = fresh_db(s, "mem_hub")
    per = records // tables
    first = tmp / "template.sqlite3"
    one_store(first, per)  # (every table the same game: the chains are per table and game)
    specs = []
    for i in range(tables):
        tid = f"m{i:02d}"
        pw = secrets.token_urlsafe(9)
        s.mqtt.add_user(tid, pw)
        shutil.copy(first, tmp / f"{tid}.sqlite3")
        specs.append((str(tmp / f"{tid}.sqlite3"), tid, pw, s.mqtt.port))
    ctx = mp.get_context("spawn")
    go, stop = ctx.Event(), ctx.Event()
    procs = [ctx.Process(target=run_links, args=(specs[k::2], go, stop)) for k in range(2)]
    for p in procs:
        p.start()
    before = rss_mb()
    hub = Ingest(dsn, EVENT, "127.0.0.1", s.mqtt.port, s.hub_password).start()
    total = per * tables
    marks: dict[str, float] = {}
    try:
        time.sleep(3)  # the table processes import and open their stores
        t0 = time.monotonic()
        go.set()
        for share in (0.1, 0.25, 0.5, 1.0):
            wait_for(lambda share=share: hub.stats.stored >= share * total, 1800,  # type: ignore[misc]
                     f"{share:.0%} stored", every=0.05)
            marks[f"{share:.0%}"] = round(rss_mb(), 1)
            print(f"  {share:.0%} stored after {time.monotonic() - t0:.0f} s: hub RSS "
                  f"{marks[f'{share:.0%}']:.0f} MB", flush=True)
        took = time.monotonic() - t0
        return {"records": total, "tables": tables, "hub_rss_mb_before": round(before, 1),
                "hub_rss_mb_at": marks, "hub_peak_rss_mb":
                    round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                "bound_mb": HUB_BOUND_MB, "records_per_s": round(total / took),
                "duplicates": hub.stats.duplicates, "quarantined": hub.stats.quarantined}
    finally:
        stop.set()
        for p in procs:
            p.join(60)
        hub.stop()


def _link_peak(path: str, tid: str, pw: str, port: int, window: int, hold: bool,
               seconds: float, out: Any) -> None:
    """(A process of its own.) The link with ``window``, for ``seconds``, hub away;
    ``hold=False``: paho handed records whatever it still holds (the link before issue 35)."""
    link = TableLink(Path(path), EVENT, tid, Broker("127.0.0.1", port, tid, pw))
    link.WINDOW = window
    if not hold:
        link._in_paho = lambda: False  # type: ignore[method-assign]
    before = rss_mb()
    link.start()
    time.sleep(seconds)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    published = link.stats.published
    link.stop()
    out.put({"window": window, "rss_mb_before": round(before, 1), "peak_rss_mb": round(peak, 1),
             "grew_mb": round(peak - before, 1), "published": published})


def link_memory(s: Any, tmp: Path, records: int) -> dict[str, Any]:
    path = tmp / "link.sqlite3"
    one_store(path, records)
    pw = secrets.token_urlsafe(9)
    s.mqtt.add_user("memlink", pw)
    seconds = 3 * TableLink.RETRY_S + 2  # the first send and a few re-send rounds
    ctx = mp.get_context("spawn")
    out: dict[str, Any] = {"records": records, "seconds": seconds}
    for name, window, hold in (("window", TableLink.WINDOW, True),
                               ("no_window", 1 << 40, True),
                               ("as_before", 1 << 40, False)):
        q = ctx.Queue()
        p = ctx.Process(target=_link_peak, args=(str(path), "memlink", pw, s.mqtt.port, window,
                                                 hold, seconds, q))
        p.start()
        out[name] = q.get(timeout=seconds + 120)
        p.join(60)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=1_000_000, help="records the hub ingests")
    ap.add_argument("--tables", type=int, default=16)
    ap.add_argument("--link-records", type=int, default=200_000)
    ap.add_argument("--only", choices=("hub", "link"), default=None)
    a = ap.parse_args()
    return side_hub.with_hub_servers("bench_hub_memory", lambda s, tmp: measure(a, s, tmp))


def measure(a: argparse.Namespace, s: Any, tmp: Path) -> int:
    """The parts asked for, printed as a table and written to the results file."""
    out: dict[str, Any] = {"load_average_1min": round(os.getloadavg()[0], 2)}
    rows = []
    if a.only in (None, "link"):
        lk = out["link"] = link_memory(s, tmp, a.link_records)
        for name in ("window", "no_window", "as_before"):
            r = lk[name]
            rows.append((f"link RSS growth, {name.replace('_', ' ')}", f"{r['grew_mb']:.0f} MB",
                         f"{lk['records']} records waiting, {lk['seconds']:.0f} s hub away: "
                         f"{r['published']} published, peak {r['peak_rss_mb']:.0f} MB"))
    if a.only in (None, "hub"):
        hb = out["hub"] = hub_memory(s, tmp, a.records, a.tables)
        at = hb["hub_rss_mb_at"]
        met = "met" if hb["hub_peak_rss_mb"] <= HUB_BOUND_MB else "NOT met"
        rows.append(("hub RSS at 10/25/50/100 % stored", f"{at['100%']:.0f} MB",
                     f"{hb['records']} records, {hb['tables']} tables: "
                     f"{' / '.join(f'{v:.0f}' for v in at.values())} MB (before "
                     f"{hb['hub_rss_mb_before']:.0f}, peak {hb['hub_peak_rss_mb']:.0f}); "
                     f"bound {HUB_BOUND_MB:.0f} MB {met}; "
                     f"{hb['records_per_s']} records/s"))
    print(f"load average {out['load_average_1min']}")
    print_table(rows, 36, 10)
    if a.only and RESULTS.exists():  # (the other part's figures kept from its last run)
        kept = json.loads(RESULTS.read_text())
        out = {**{k: v for k, v in kept.items() if k in ("hub", "link")}, **out}
    write_results(RESULTS, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
