"""The hub's stages of bench_side_by_side (issue 35), each beside its bare anchor, on a real
Mosquitto and PostgreSQL started here (loopback only).

* ``table_to_hub``: a record committed at a table (the real ``GameStore`` with the hub's outbox,
  the real ``TableLink``) until the hub (the real ``Ingest``) has it in PostgreSQL, one record a
  commit every ``GAP_S``; against a bare pipeline on the same servers: paho publish (QoS 1) →
  a paho subscriber → INSERT → COMMIT. Both delays are PostgreSQL's ``now()`` of the storing
  transaction minus the time taken just before the commit (or the publish): same clock. The
  ratio is taken on that; the real path's delay from the *end* of the table's commit (its
  fsync, the store's cost, left out) is given beside it.
* ``page_push``: one change pushed by the hub page to 1, 8 and 32 open websockets; the time
  from ``changed()`` until every page has it, and the database reads per change (one snapshot
  per change shared by every page: the reads do not grow with the pages). Its anchor is the
  same text written to the same sockets with nothing read (``push_floor``).
"""

from __future__ import annotations

import contextlib
import json
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "hub"))

EVENT = "ev1"
GAP_S = 0.02


def _pcts(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return xs[len(xs) // 2] * 1000, xs[min(len(xs) - 1, int(0.99 * len(xs)))] * 1000


def servers() -> Any:
    """A local Mosquitto and PostgreSQL for the hub benches, the hub's broker user
    (``s.hub_password``) and schema set up; RuntimeError saying what is missing. The caller
    stops them (``hub_servers()`` does)."""
    from dialtray.hub import devservers, pgschema

    why = devservers.missing()
    if why:
        raise RuntimeError(why)
    s = devservers.DevServers(EVENT).start()
    s.hub_password = secrets.token_urlsafe(12)  # type: ignore[attr-defined]
    s.mqtt.add_user("hub", s.hub_password)  # type: ignore[attr-defined]
    pgschema.migrate(s.pg.admin_dsn)
    return s


@contextlib.contextmanager
def hub_servers() -> Iterator[tuple[Any, Path]]:
    """``servers()`` and a temporary directory, both gone at the end."""
    s = servers()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            yield s, Path(tmp)
    finally:
        s.stop()


def with_hub_servers(name: str, body: Callable[[Any, Path], int]) -> int:
    """Run ``body(servers, tmp)`` with the bench's PostgreSQL and Mosquitto up, stopped after;
    without them, one line naming the bench and exit status 2."""
    try:
        running = hub_servers()
        s, tmp = running.__enter__()
    except RuntimeError as e:  # no local broker/database
        print(f"{name}: {e}")
        return 2
    try:
        return body(s, tmp)
    finally:
        running.__exit__(None, None, None)


def real_table_to_hub(s: Any, tmp: Path, n: int) -> tuple[list[float], list[float]]:
    """(delays from just before the table's commit, the same from its end)."""
    import psycopg
    from dialtray.hub.ingest import Ingest
    from dialtray.hub.sim import wait_for
    from dialtray.hub.table import Broker, Outbox, TableLink
    from dialtray.store.db import GameStore
    from hubhelp import fresh_db

    dsn = fresh_db(s, "side_real")
    pw = secrets.token_urlsafe(9)
    s.mqtt.add_user("side", pw)
    hub = Ingest(dsn, EVENT, "127.0.0.1", s.mqtt.port, s.hub_password).start()
    path = tmp / "side.sqlite3"
    link = TableLink(path, EVENT, "side", Broker("127.0.0.1", s.mqtt.port, "side", pw))
    store = GameStore.open(path)
    box = Outbox.install(store, link.wake)
    link.start()
    try:
        link.connected.wait(10)
        hub.subscribed.wait(10)
        gid = store.new_game("airaction", seats=[("A", "x"), ("B", "y")], origin="bench")
        store.commit()
        committing = []  # each record's local commit (an fsync with synchronous=FULL)
        for k in range(n):
            t = time.time()
            store.append(gid, "device", {"i": k, "t": t})
            store.commit()
            committing.append(time.time() - t)
            time.sleep(GAP_S)
        wait_for(lambda: hub.stats.stored >= n + 1, 60, "every record stored")
        with psycopg.connect(dsn) as db:
            rows = db.execute(
                "SELECT (convert_from(content, 'UTF8')::jsonb -> 'data' ->> 'i')::int, "
                "EXTRACT(EPOCH FROM received) - (convert_from(content, 'UTF8')::jsonb "
                "-> 'data' ->> 't')::float FROM hub_records WHERE kind = 'device'").fetchall()
        return [float(d) for _i, d in rows], [float(d) - committing[i] for i, d in rows]
    finally:
        box.forget()
        link.stop()
        store.close()
        hub.stop()


def bare_table_to_hub(s: Any, n: int) -> list[float]:
    import paho.mqtt.client as mqtt
    import psycopg
    from dialtray.hub.topics import no_delay
    from hubhelp import fresh_db

    fresh_db(s, "side_bare")
    dsn = s.pg.dsn("dialtray", s.pg.owner_password, "side_bare")  # (the owner may create)
    with psycopg.connect(dsn) as db:
        db.execute("CREATE TABLE bare (n INTEGER PRIMARY KEY, t DOUBLE PRECISION, content BYTEA, "
                   "received TIMESTAMPTZ DEFAULT now())")
    got = threading.Event()
    conn = psycopg.connect(dsn)
    stored = [0]

    def on_message(_c: Any, _u: Any, m: Any) -> None:
        body = json.loads(m.payload)
        conn.execute("INSERT INTO bare (n, t, content) VALUES (%s, %s, %s)",
                     (body["n"], body["t"], m.payload))
        conn.commit()
        stored[0] += 1
        if stored[0] >= n:
            got.set()

    v2 = mqtt.CallbackAPIVersion.VERSION2
    sub = mqtt.Client(v2, client_id=f"{EVENT}-hub", protocol=mqtt.MQTTv5)
    sub.username_pw_set("hub", s.hub_password)
    sub.on_message = on_message
    no_delay(sub)  # (the anchor as quick as the real path's sockets)
    sub.connect("127.0.0.1", s.mqtt.port)
    sub.subscribe(f"dialtray/{EVENT}/t/bare/rec", qos=1)
    sub.loop_start()
    pw = secrets.token_urlsafe(9)
    s.mqtt.add_user("bare", pw)
    pub = mqtt.Client(v2, client_id="bare", protocol=mqtt.MQTTv5)
    pub.username_pw_set("bare", pw)
    no_delay(pub)
    pub.connect("127.0.0.1", s.mqtt.port)
    pub.loop_start()
    try:
        time.sleep(0.5)  # (subscribed)
        for k in range(n):
            pub.publish(f"dialtray/{EVENT}/t/bare/rec",
                        json.dumps({"n": k, "t": time.time(), "i": k}).encode(), qos=1)
            time.sleep(GAP_S)
        if not got.wait(60):
            raise TimeoutError("the bare pipeline lost messages")
        with psycopg.connect(dsn) as db:
            return [float(x) for (x,) in db.execute(
                "SELECT EXTRACT(EPOCH FROM received) - t FROM bare")]
    finally:
        for c in (pub, sub):
            c.disconnect()
            c.loop_stop()
        conn.close()


def table_to_hub(n: int) -> dict[str, Any]:
    s = servers()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            real, after = real_table_to_hub(s, Path(tmp), n)
        bare = bare_table_to_hub(s, n)
    finally:
        s.stop()
    r50, r99 = _pcts(real)
    a50, a99 = _pcts(after)
    b50, b99 = _pcts(bare)
    return {"records": n, "real_p50_ms": round(r50, 2), "real_p99_ms": round(r99, 2),
            "after_commit_p50_ms": round(a50, 2), "after_commit_p99_ms": round(a99, 2),
            "bare_p50_ms": round(b50, 2), "bare_p99_ms": round(b99, 2),
            "p99_over_bare": round(r99 / b99, 2), "ratio": round(b99 / r99, 3),
            "note": f"{r50:.1f}/{r99:.1f} ms (p50/p99; {a50:.1f}/{a99:.1f} from the end of the "
                    f"table's commit) vs bare paho→insert→commit {b50:.1f}/{b99:.1f}: p99 "
                    f"{r99 / b99:.1f}× bare (goal ≤ 5×)"}


def page_push(changes: int, pages: tuple[int, ...] = (1, 8, 32)) -> dict[str, Any]:
    from dialtray.hub.web import HubPage, ServedHub
    from hubhelp import fresh_db
    from websockets.sync.client import connect

    s = servers()
    out: dict[str, Any] = {"changes": changes}
    try:
        dsn = fresh_db(s, "side_page")
        page = HubPage(dsn, "k")
        served = ServedHub(page)
        bare = BarePush()
        try:
            for p in pages:
                socks = [connect(f"ws://127.0.0.1:{served.port}/ws?key=k", legacy=True)
                         for _ in range(p)]
                for ws in socks:
                    ws.recv(timeout=10)
                took, reads = [], page.reads
                for _ in range(changes):
                    t0 = time.perf_counter()
                    page.changed()
                    for ws in socks:
                        ws.recv(timeout=10)
                    took.append(time.perf_counter() - t0)
                    time.sleep(0.01)
                text = page._shared[2] if page._shared else "{}"
                floor = push_floor(bare, p, text, changes)
                for ws in socks:
                    ws.close()
                out[str(p)] = {"push_ms_p50": round(statistics.median(took) * 1000, 2),
                               "floor_ms_p50": round(statistics.median(floor) * 1000, 2),
                               "reads_per_change": round((page.reads - reads) / changes, 2),
                               "bytes": len(text)}
        finally:
            bare.close()
            served.close()
    finally:
        s.stop()
    one, most = out[str(pages[0])], out[str(pages[-1])]
    extra = most["push_ms_p50"] - one["push_ms_p50"]
    floor_extra = most["floor_ms_p50"] - one["floor_ms_p50"]
    out["ratio"] = round(one["push_ms_p50"] / max(most["push_ms_p50"], 1e-9), 3)
    out["note"] = (f"{pages[0]}/{pages[-1]} pages: {one['push_ms_p50']:.1f}/"
                   f"{most['push_ms_p50']:.1f} ms, reads/change {one['reads_per_change']}/"
                   f"{most['reads_per_change']}; writes alone grow {floor_extra:.1f} ms, the "
                   f"push {extra:.1f} ms")
    return out


class BarePush:
    """The floor: a bare Starlette websocket server that sends a given text to every open
    socket when told (nothing read, nothing encoded) — the socket writes alone. With ``html``,
    it also serves that page at ``/`` (side_page.py's bare page)."""

    def __init__(self, html: str | None = None) -> None:
        import asyncio
        import socket

        import uvicorn
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import HTMLResponse
        from starlette.routing import BaseRoute, Route, WebSocketRoute
        from starlette.websockets import WebSocket

        self.socks: set[Any] = set()
        self.loop: Any = None

        async def ws(w: WebSocket) -> None:
            await w.accept()
            self.loop = asyncio.get_running_loop()
            self.socks.add(w)
            try:
                while (await w.receive())["type"] != "websocket.disconnect":
                    pass
            finally:
                self.socks.discard(w)

        async def index(_r: Request) -> HTMLResponse:
            return HTMLResponse(html or "")

        routes: list[BaseRoute] = [WebSocketRoute("/ws", ws)]
        if html is not None:
            routes.append(Route("/", index))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(
            Starlette(routes=routes), log_level="warning",
            ws="websockets-sansio"))
        threading.Thread(target=lambda: self.server.run(sockets=[self.sock]),
                         daemon=True).start()
        while not self.server.started:
            time.sleep(0.02)

    async def send(self, text: str) -> None:
        for w in list(self.socks):
            await w.send_text(text)

    def close(self) -> None:
        self.server.should_exit = True


def push_floor(bare: BarePush, p: int, text: str, changes: int) -> list[float]:
    import asyncio

    from websockets.sync.client import connect

    socks = [connect(f"ws://127.0.0.1:{bare.port}/ws", legacy=True) for _ in range(p)]
    while len(bare.socks) < p:
        time.sleep(0.01)
    took = []
    for _ in range(changes):
        t0 = time.perf_counter()
        asyncio.run_coroutine_threadsafe(bare.send(text), bare.loop).result(10)
        for ws in socks:
            ws.recv(timeout=10)
        took.append(time.perf_counter() - t0)
        time.sleep(0.01)
    for ws in socks:
        ws.close()
    return took
