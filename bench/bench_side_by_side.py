"""Each stage of the table beside its bare floor, in one run on the same machine (issue 35).

    .venv/bin/python bench/bench_side_by_side.py [--events N] [--only NAME,...]

A stage is a small function registered in ``STAGES``: it runs the real path and its bare anchor
on the same data and returns both figures and their ratio (bare cost / real cost: 1.0 is the
floor, 0.5 is twice the floor's cost). A stage that cannot run here says why in the table and
the JSON ("skipped: ..."), never a made-up figure.

Stages:

* ``store path b=1000`` / ``store path b=1`` — tray EVENT frames → deframe (the link's
  ``HostDeframer``) → decode → the ``GameRecorder`` of a live Air Action game (tracker, records:
  clicks and the flags the tracker raises, canonical JSON, SHA-256 chain, HMAC per record, game
  row sealed; each read's events handed over together, as ``StoredTable.pump`` hands over its
  queue: ``GameRecorder.devices``), committed every B events, against a bare sqlite3 loop
  that inserts the very rows the full path stored (read back from its database) into a fresh
  database with the same schema and pragmas, in the same batches, with one ``UPDATE games``
  per commit (``bench_store_stages.py`` takes the path apart by stage). Goal ≥ 0.6
  (b=1000), ≥ 0.8 (b=1). The JSON gives the ratio by CPU time too (``ratio_cpu``, shown after
  the bare figure): on a machine shared with other work it moves far less than the wall-clock
  ratio.
* ``commit FULL vs NORMAL`` — the same b=1 path and bare loop with ``synchronous=FULL`` (an
  fsync of the WAL per commit) against ``NORMAL``: what a power-cut-safe acknowledgement costs.
* ``verify per record`` — ``checked`` chain check of a stored keyed game (SHA-256 link, HMAC,
  JSON of the records it decodes) against a bare loop recomputing SHA-256 + HMAC per row.
* ``click → host`` — bench_link.py's latency (the virtual tray's real firmware in MicroPython
  over a pty, through ``TraySession``) against the turn + settle the firmware waits by design
  plus a bare pty round-trip of the same frame read by a pyserial thread.
* ``table → hub``, ``hub page push`` — side_hub.py (a real Mosquitto and PostgreSQL started
  for them): a committed record into the hub's PostgreSQL vs paho → insert → commit (the ratio
  is bare p99 / real p99); one change to 1 and 32 open pages vs the same text written to the
  same number of sockets by a bare Starlette server.
* ``click → page (p99)`` — side_page.py, in real Chromium (Playwright): the host received the
  virtual tray's click event → the table's page has the new state in its DOM (bench_ui.py's
  run, ``--page-clicks`` clicks, ``--pages`` pages open) vs a bare Starlette server pushing a
  message of the same mean size to as many pages whose script writes it into the DOM (server
  send → DOM, timed the same way); the ratio is bare p99 / real p99. Without Chromium it says
  "not run: ...".
* ``camera frame`` — side_camera.py: a frame that must find the tray again (every window read)
  vs markers at half size + homography + remaps, and a game's live loop at 30 frames a second
  vs refining the markers and remapping + comparing every window; one core (the ratio is the
  full frame's).

Prints a table and writes bench/results/side_by_side.json. Figures on a shared machine move with
the load; the ratio (both sides in the same minute) moves much less.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "side_by_side.json"
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "tracker"))

from bench_store import feed, live_game  # noqa: E402
from benchframes import click_stream  # noqa: E402
from benchout import print_table, write_results  # noqa: E402
from dialtray.store import GameStore, schema  # noqa: E402
from dialtray.store.keys import ChainKey  # noqa: E402
from dialtray.store.table import steady_gc  # noqa: E402

Result = dict[str, Any]
_SERIAL = itertools.count()  # a fresh database file per run
Stage = Callable[[argparse.Namespace, Path], Result]
STAGES: list[tuple[str, Stage | str]] = []  # name, function or the reason it is skipped


def stage(name: str) -> Callable[[Stage], Stage]:
    def reg(fn: Stage) -> Stage:
        STAGES.append((name, fn))
        return fn
    return reg


def skipped(name: str, why: str) -> None:
    STAGES.append((name, why))


def _best(runs: int, fn: Callable[[], float]) -> float:
    """The shortest of ``runs`` timings (seconds): the least disturbed by other processes."""
    return min(fn() for _ in range(runs))


# ---- the store path ----------------------------------------------------------------------------

def full_path(db: Path, n: int, batch: int, sync: str) -> tuple[float, float, int, int]:
    """(seconds, CPU seconds, game id, records before the events) of n events through frames →
    tracker → store."""
    store = GameStore.open(db, synchronous=sync)
    rec = live_game(store)
    assert rec.tracker is not None
    stream = click_stream(rec.tracker, n)
    start = store.game(rec.gid).records
    old = steady_gc()
    try:
        _, _, dt, cpu = feed(rec, stream, batch)
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()
    store.close()
    return dt, cpu, rec.gid, start


def stored_rows(db: Path, gid: int, first: int) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT game_id, n, kind, content, sha, prev, mac FROM records "
                        "WHERE game_id = ? AND n > ? ORDER BY n", (gid, first)).fetchall()
    conn.close()
    return rows


def bare_loop(db: Path, rows: list[tuple[Any, ...]], per_commit: list[int], sync: str
              ) -> tuple[float, float]:
    """Seconds and CPU seconds to insert ``rows`` (already made) in commits of the given
    sizes, the same schema and pragmas as the store, one UPDATE of the game row per commit."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={sync}")
    conn.execute("PRAGMA foreign_keys=ON")
    schema.migrate(conn)
    conn.execute("INSERT INTO games (id, kind, created, origin, status, head) "
                 "VALUES (1, 'airaction', '', 'bench', 'running', '')")
    rows = [(1, *r[1:]) for r in rows]
    ins = "INSERT INTO records (game_id, n, kind, content, sha, prev, mac) " \
          "VALUES (?, ?, ?, ?, ?, ?, ?)"
    upd = "UPDATE games SET records = ?, head = ?, seal = ? WHERE id = 1"
    i = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for k in per_commit:
        chunk = rows[i:i + k]
        i += k
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(ins, chunk)
        conn.execute(upd, (chunk[-1][1], chunk[-1][4], chunk[-1][6]))
        conn.execute("COMMIT")
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    conn.close()
    return dt, cpu


def commits_of(rows: list[tuple[Any, ...]], batch: int) -> list[int]:
    """The full path's batching over its stored rows: how many records each commit held (a
    commit every ``batch`` events; the records an event made follow it)."""
    sizes, cur, ev = [], 0, 0
    for r in rows:
        if r[2] == "device":
            if ev and ev % batch == 0:
                sizes.append(cur)
                cur = 0
            ev += 1
        cur += 1
    sizes.append(cur)
    return sizes


def store_stage(args: argparse.Namespace, tmp: Path, batch: int, n: int,
                sync: str = "FULL") -> Result:
    runs = []
    for _ in range(args.repeat):
        r = next(_SERIAL)
        db = tmp / f"full-{batch}-{sync}-{r}.sqlite3"
        dt, cpu, gid, start = full_path(db, n, batch, sync)
        rows = stored_rows(db, gid, start)
        sizes = commits_of(rows, batch)
        records = len(rows)
        bare, bare_cpu = bare_loop(tmp / f"bare-{batch}-{sync}-{r}.sqlite3", rows, sizes, sync)
        runs.append((dt, bare, records, len(sizes), cpu, bare_cpu))
    dt = min(r[0] for r in runs)
    bare = min(r[1] for r in runs)
    cpu, bare_cpu = min(r[4] for r in runs), min(r[5] for r in runs)
    _, _, records, commits, _, _ = runs[0]
    return {"events": n, "records": records, "commits": commits, "synchronous": sync,
            "real_events_per_s": round(n / dt), "bare_events_per_s": round(n / bare),
            "real_us_per_commit": round(dt / commits * 1e6, 1),
            "bare_us_per_commit": round(bare / commits * 1e6, 1),
            "ratio": round(bare / dt, 3),
            # CPU seconds of this process (user + system), both sides: moves far less with
            # the machine's load than the wall clock (a process waiting for a core or a disk
            # costs no CPU); an fsync's wait for the disk is in neither
            "real_cpu_us_per_event": round(cpu / n * 1e6, 2),
            "bare_cpu_us_per_event": round(bare_cpu / n * 1e6, 2),
            "ratio_cpu": round(bare_cpu / cpu, 3),
            "real": f"{n / dt:,.0f} ev/s",
            "bare": f"{n / bare:,.0f} ev/s; by CPU {bare_cpu / cpu:.2f}×"}


@stage("store path b=1000 (goal ≥ 0.6)")
def store_1000(args: argparse.Namespace, tmp: Path) -> Result:
    return store_stage(args, tmp, 1000, args.events, args.sync)


@stage("store path b=1 (goal ≥ 0.8)")
def store_1(args: argparse.Namespace, tmp: Path) -> Result:
    return store_stage(args, tmp, 1, args.events_b1, args.sync)


@stage("commit b=1: NORMAL cost / FULL cost")
def full_vs_normal(args: argparse.Namespace, tmp: Path) -> Result:
    full = store_stage(args, tmp, 1, args.events_b1, "FULL")
    normal = store_stage(args, tmp, 1, args.events_b1, "NORMAL")
    return {"full": full, "normal": normal,
            "real_us_per_commit_full": full["real_us_per_commit"],
            "real_us_per_commit_normal": normal["real_us_per_commit"],
            "bare_us_per_commit_full": full["bare_us_per_commit"],
            "bare_us_per_commit_normal": normal["bare_us_per_commit"],
            "ratio": round(normal["real_us_per_commit"] / full["real_us_per_commit"], 3),
            "note": f"full path {full['real_us_per_commit']:.0f} µs/commit FULL, "
                    f"{normal['real_us_per_commit']:.0f} NORMAL; bare loop "
                    f"{full['bare_us_per_commit']:.0f} FULL, {normal['bare_us_per_commit']:.0f} "
                    "NORMAL"}


# ---- verify per record -------------------------------------------------------------------------

@stage("verify per record (chain + MAC)")
def verify_stage(args: argparse.Namespace, tmp: Path) -> Result:
    import hashlib

    from dialtray.store.chain import check_chain

    db = tmp / "verify.sqlite3"
    full_path(db, args.events, 1000, "NORMAL")
    store = GameStore.open(db, readonly=True)
    key = store.key
    assert isinstance(key, ChainKey)
    g = store.latest()
    assert g is not None
    rows = list(store.rows(g.id))

    def real() -> float:
        t0 = time.perf_counter()
        _, broken = check_chain(g.id, rows, g.records, g.head, decode=("game", "action"), key=key)
        dt = time.perf_counter() - t0
        assert broken is None, broken
        return dt

    pads = key.pads  # the cheapest HMAC-SHA256 Python has: the key's pads, copied

    def bare() -> float:
        t0 = time.perf_counter()
        prev = "0" * 64
        for r in rows:
            sha = hashlib.sha256(f"{prev}{r.kind}\n".encode() + r.content).hexdigest()
            i = pads[0].copy()
            i.update(sha.encode())
            o = pads[1].copy()
            o.update(i.digest())
            assert sha == r.sha and o.hexdigest() == r.mac
            prev = sha
        return time.perf_counter() - t0

    t_real = _best(args.repeat, real)
    t_bare = _best(args.repeat, bare)
    n = len(rows)
    store.close()
    return {"records": n, "real_us_per_record": round(t_real / n * 1e6, 2),
            "bare_us_per_record": round(t_bare / n * 1e6, 2), "ratio": round(t_bare / t_real, 3),
            "real": f"{t_real / n * 1e6:.2f} µs/rec", "bare": f"{t_bare / n * 1e6:.2f} µs/rec"}


def pty_round_trips(n: int, frame: bytes) -> list[float]:
    """Milliseconds for one EVENT frame written on a pty's tray side to be read whole by a
    pyserial reader thread on the host side and handed over (a ``threading.Event``): the bare
    transport the session rides on, with nothing decoded."""
    import threading

    import serial

    master, slave = os.openpty()
    port = serial.Serial(os.ttyname(slave), timeout=0.05)
    got = threading.Event()
    stop = False

    def reader() -> None:
        buf = b""
        while not stop:
            buf += port.read(max(1, port.in_waiting))
            if len(buf) >= len(frame):
                buf = buf[len(frame):]
                got.set()

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    out = []
    try:
        for _ in range(n):
            got.clear()
            t0 = time.perf_counter()
            os.write(master, frame)
            if not got.wait(2):
                raise RuntimeError("a frame never crossed the bare pty")
            out.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.004)
    finally:
        stop = True
        th.join(1)
        port.close()
        os.close(master)
        os.close(slave)
    return out


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


@stage("click → host (p50)")
def click_to_host(args: argparse.Namespace, tmp: Path) -> Result:
    """The virtual tray (the real firmware in MicroPython, a real pty) through ``TraySession``
    (bench_link.latency: turn 1 ms, settle 1 ms) against its floor: the turn and the settle
    window the firmware must wait by design, plus a bare pty round-trip of the same frame."""
    from bench_link import SETTLE_MS, TURN_MS, latency
    from dialrig import proto

    real = latency(args.clicks)
    frame = bytes(proto.FrameWriter().frame(proto.T_EVENT, proto.EVENT_FMT, 1, 3,
                                            proto.EV_CLICK, 0, 0, 1, 1))
    pty = pty_round_trips(args.clicks, frame)
    floor = [TURN_MS + SETTLE_MS + x for x in pty]
    r50, r99, f50, f99 = _pct(real, .5), _pct(real, .99), _pct(floor, .5), _pct(floor, .99)
    return {"clicks": args.clicks, "real_p50_ms": round(r50, 2), "real_p99_ms": round(r99, 2),
            "floor_p50_ms": round(f50, 2), "floor_p99_ms": round(f99, 2),
            "bare_pty_p50_ms": round(_pct(pty, .5), 3), "turn_ms": TURN_MS,
            "settle_ms": SETTLE_MS, "ratio": round(f50 / r50, 3),
            "note": f"{r50:.2f}/{r99:.2f} ms (p50/p99) vs floor {f50:.2f}/{f99:.2f} "
                    f"(turn {TURN_MS} + settle {SETTLE_MS} + bare pty)"}


@stage("click → page (p99)")
def click_to_page(args: argparse.Namespace, tmp: Path) -> Result:
    """Sensed click → the page's DOM vs a bare Starlette push → DOM, real Chromium
    (side_page.py)."""
    import side_page

    try:
        return side_page.click_to_page(args.page_clicks, args.pages)
    except RuntimeError as e:  # no Chromium or Playwright here
        return {"ratio": float("nan"), "note": f"not run: {e}"}


@stage("table → hub p99 (goal ≤ 5× bare)")
def table_to_hub(args: argparse.Namespace, tmp: Path) -> Result:
    """A committed record into the hub's PostgreSQL vs paho → insert → commit (side_hub.py)."""
    import side_hub

    try:
        return side_hub.table_to_hub(args.hub_records)
    except RuntimeError as e:  # no local Mosquitto/PostgreSQL
        return {"ratio": float("nan"), "note": f"not run: {e}"}


@stage("hub page push: 1 vs 32 pages")
def hub_page_push(args: argparse.Namespace, tmp: Path) -> Result:
    """One change to every open page vs the socket writes alone (side_hub.py)."""
    import side_hub

    try:
        return side_hub.page_push(args.hub_changes)
    except RuntimeError as e:
        return {"ratio": float("nan"), "note": f"not run: {e}"}


@stage("camera frame (goal full ≤ 5 ms p50, live ≤ 5 ms p95)")
def camera_frame(args: argparse.Namespace, tmp: Path) -> Result:
    """The reader vs its bare OpenCV floor, one core (side_camera.py)."""
    import side_camera

    return side_camera.camera_stage(args.camera_frames, args.camera_game, args.repeat)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=100_000, help="events at 1 000 per commit")
    ap.add_argument("--events-b1", type=int, default=3_000, help="events at 1 per commit")
    ap.add_argument("--clicks", type=int, default=200, help="clicks for click → host")
    ap.add_argument("--page-clicks", type=int, default=150, help="clicks for click → page")
    ap.add_argument("--pages", type=int, default=4, help="pages open for click → page")
    ap.add_argument("--hub-records", type=int, default=500, help="records for table → hub")
    ap.add_argument("--hub-changes", type=int, default=100, help="changes for hub page push")
    ap.add_argument("--camera-frames", type=int, default=30,
                    help="new scenes for the camera's full frame")
    ap.add_argument("--camera-game", type=int, default=150,
                    help="frames of a game for the camera's live loop (30 a second)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per side (the best is kept)")
    ap.add_argument("--sync", default="FULL", choices=("FULL", "NORMAL"),
                    help="synchronous pragma of the store stages (both sides)")
    ap.add_argument("--only", default="", help="comma-separated stage name prefixes")
    ap.add_argument("--out", type=Path, default=RESULTS, help="where the JSON goes")
    args = ap.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    os.environ.setdefault("DIALTRAY_DATA_DIR", tempfile.mkdtemp(prefix="dialtray-bench-"))
    out: dict[str, Any] = {"cores": os.cpu_count(),
                           "load_average_1min": round(os.getloadavg()[0], 2), "stages": {}}
    rows = []
    with tempfile.TemporaryDirectory(dir=ROOT / "bench") as tmp:  # on the real disk: fsync
        for name, fn in STAGES:
            if only and not any(name.startswith(o) for o in only):
                continue
            if isinstance(fn, str):
                out["stages"][name] = {"skipped": fn}
                rows.append((name, "skipped", fn))
                continue
            r = fn(args, Path(tmp))
            out["stages"][name] = r
            rows.append((name, f"{r['ratio']:.2f}×",
                         r.get("note") or f"{r['real']} vs bare {r['bare']}"))
    print(f"{os.cpu_count()} core(s), load average {out['load_average_1min']}; "
          "ratio = bare cost / real cost (1.0: at the floor)")
    print_table(rows, 42, 10)
    write_results(args.out, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
