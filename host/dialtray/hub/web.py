"""The hub page: standings, every table live (presence, phase, flags, records held), the judge
queue and the quarantine — the web UI's framework and conventions (Starlette + uvicorn, one
websocket that pushes each new state, the latest only, JSON errors in words).

Every request needs the organiser's token (``?key=``, then kept in a cookie) — the page shows
live games and makes rulings. The intake's ``on_change`` wakes the pages; each page is sent a
snapshot read from PostgreSQL once per change on one kept connection and encoded once, the same
text sent to every open page (issue 35: a push costs the socket writes, not a query per page); a
slow page skips states, never falls behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from dialtray.hub import event, rulings, validate
from dialtray.hub.ingest import Ingest

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
KEY_COOKIE = "dialtray_hub_key"


OPEN_CALLS, RULED_CALLS, QUARANTINE_ROWS = 200, 20, 50  # a page update stays small


def snapshot(dsn: str) -> dict[str, Any]:
    """Everything the page shows, bounded: at most ``OPEN_CALLS`` open judge calls (oldest
    first) and the last ``RULED_CALLS`` ruled ones, the last ``QUARANTINE_ROWS`` quarantined
    messages, with the totals."""
    import psycopg

    with psycopg.connect(dsn, connect_timeout=3) as db:
        return read_snapshot(db)


def read_snapshot(db: Any) -> dict[str, Any]:
    """``snapshot`` on an open connection (the page keeps one)."""
    st = [s.__dict__ for s in event.standings(db)]
    tables = [{"id": t, "presence": p, "state": s, "records": int(n or 0),
               "seen": seen.isoformat() if seen else None}
              for t, p, s, n, seen in db.execute(
                  "SELECT t.id, t.presence, t.state, (SELECT SUM(n) FROM hub_heads h WHERE "
                  "h.table_id = t.id), t.seen FROM hub_tables t ORDER BY t.id")]
    calls = [{"id": i, "table": t, "game": g, "note": n, "status": s,
              "at": at.isoformat()} for i, t, g, n, s, at in db.execute(
        "(SELECT id, table_id, game, note, status, at FROM hub_calls WHERE status = 'open' "
        "ORDER BY id LIMIT %s) UNION ALL (SELECT id, table_id, game, note, status, at FROM "
        "hub_calls WHERE status <> 'open' ORDER BY id DESC LIMIT %s) ORDER BY id",
        (OPEN_CALLS, RULED_CALLS))]
    open_calls = _count(db, "SELECT COUNT(*) FROM hub_calls WHERE status = 'open'")
    quarantine = [{"table": t, "game": g, "n": n, "reason": r} for t, g, n, r in db.execute(
        "SELECT table_id, game, n, reason FROM hub_quarantine ORDER BY id DESC LIMIT %s",
        (QUARANTINE_ROWS,))]
    quarantined = _count(db, "SELECT COUNT(*) FROM hub_quarantine")
    rnd = db.execute("SELECT n, minutes, EXTRACT(EPOCH FROM started) FROM hub_rounds "
                     "ORDER BY n DESC LIMIT 1").fetchone()
    now = time.time()
    clock = None
    if rnd is not None:  # the round timer (the Aces time limit): seconds left, never below 0
        ends = float(rnd[2]) + 60 * int(rnd[1])
        clock = {"round": rnd[0], "minutes": rnd[1], "left_s": max(0, round(ends - now))}
    return {"op": "state", "standings": st, "tables": tables, "calls": calls,
            "open_calls": open_calls, "quarantine": quarantine, "quarantined": quarantined,
            "round": clock, "at": now, "db": None}


def _count(db: Any, sql: str) -> int:
    row = db.execute(sql).fetchone()
    return int(row[0]) if row else 0


class HubPage:
    """The routes; ``changed()`` (any thread) wakes every page."""

    FRESH_S = 1.0

    def __init__(self, dsn: str, token: str, ingest: Ingest | None = None) -> None:
        self.dsn, self.token, self.ingest = dsn, token, ingest
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiters: set[asyncio.Event] = set()
        self._last: dict[str, Any] | None = None
        self._down_since: float | None = None
        self._db: Any = None  # the page's one connection (opened again after an outage)
        self._db_lock = threading.Lock()
        self._changes = 0  # bumped by changed(): the shared snapshot is older than this
        self._shared: tuple[int, float, str] | None = None  # (changes in it, read at, JSON)
        self._shared_lock: asyncio.Lock | None = None
        self.reads = 0  # snapshots read from the database (the bench counts them)

    def snapshot(self) -> dict[str, Any]:
        """The page's state; while the database is unreachable, the last one read with the
        words "database unreachable since …" (the page says so instead of going blank)."""
        import psycopg

        try:
            snap = self._read()
        except psycopg.OperationalError:
            since = (self.ingest.db_down_since if self.ingest is not None else None) \
                or self._down_since or time.time()
            self._down_since = since
            snap = dict(self._last or {"op": "state", "standings": [], "tables": [],
                                       "calls": [], "quarantine": [], "round": None})
            snap["db"] = ("database unreachable since "
                          + time.strftime("%H:%M:%S", time.localtime(since)))
            snap["at"] = time.time()
            return snap
        self._down_since = None
        self._last = snap
        return snap

    def _read(self) -> dict[str, Any]:
        import psycopg

        with self._db_lock:
            if self._db is None or self._db.closed:
                self._db = psycopg.connect(self.dsn, connect_timeout=3, autocommit=True)
            try:
                self.reads += 1
                with self._db.transaction():  # (one consistent view, as one transaction was)
                    return read_snapshot(self._db)
            except psycopg.Error:
                with contextlib.suppress(Exception):
                    self._db.close()
                self._db = None
                raise

    async def shared(self) -> str:
        """The current state as JSON text, read and encoded once per change for every page (and
        at least every ``FRESH_S``: a page opened later gets the round's clock as it is now)."""
        if self._shared_lock is None:
            self._shared_lock = asyncio.Lock()
        async with self._shared_lock:
            wanted, now = self._changes, time.monotonic()
            if self._shared is None or self._shared[0] != wanted \
                    or now - self._shared[1] > self.FRESH_S:
                snap = await asyncio.to_thread(self.snapshot)
                self._shared = (wanted, now, json.dumps(snap))
            return self._shared[2]

    def close(self) -> None:
        with self._db_lock:
            if self._db is not None:
                with contextlib.suppress(Exception):
                    self._db.close()
                self._db = None

    def changed(self, _tables: object = None) -> None:
        self._changes += 1  # (before the wake: a page woken reads a snapshot at least this new)
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        for w in self.waiters:
            w.set()

    def allowed(self, conn: HTTPConnection) -> bool:
        given = conn.query_params.get("key") or conn.cookies.get(KEY_COOKIE) or ""
        return hmac.compare_digest(given.encode(), self.token.encode())

    async def index(self, request: Request) -> Response:
        if not self.allowed(request):
            return error(403, "the hub page needs the organiser's token: open the address "
                              "`dialtray hub run` printed (it carries ?key=…)")
        resp = FileResponse(STATIC / "hub.html")
        resp.set_cookie(KEY_COOKIE, self.token, httponly=True, samesite="strict")
        return resp

    async def state(self, request: Request) -> Response:
        if not self.allowed(request):
            return error(403, "the organiser's token is missing or wrong")
        return JSONResponse(await asyncio.to_thread(self.snapshot))

    async def rule(self, request: Request) -> Response:
        if not self.allowed(request):
            return error(403, "the organiser's token is missing or wrong")
        try:
            body = validate.loads(await request.body() or b"{}", "the ruling", 4096)
            call = int(body["call"])
            ruling = str(body.get("ruling", "note"))
            args = body.get("args") or {}
            why = str(body.get("why", ""))[:200]
            if not isinstance(args, dict):
                raise ValueError("args: a JSON object is needed")
            validate.check_value({"args": args, "why": why, "ruling": ruling}, "the ruling")
        except (ValueError, KeyError, TypeError) as e:
            return error(400, f"a ruling needs call (a number), ruling, args, why: {e}")
        try:
            sent = await asyncio.to_thread(self._rule, call, ruling, args, why)
        except ValueError as e:
            return error(400, str(e))
        self.changed()
        return JSONResponse({"ok": True, "ruling": sent})

    def _rule(self, call: int, ruling: str, args: dict[str, Any], why: str) -> dict[str, Any]:
        import psycopg

        with psycopg.connect(self.dsn) as db:
            row = db.execute("SELECT table_id FROM hub_calls WHERE id = %s", (call,)).fetchone()
            if row is None:
                raise ValueError(f"no judge call {call}")
            key = rulings.ruling_key(db, row[0])
            body, sig = rulings.make_ruling(db, key, call, ruling, args, why)
            db.commit()
        if self.ingest is not None:
            self.ingest.send(row[0], "ruling", {"body": body, "sig": sig})
        return body

    async def ws(self, ws: WebSocket) -> None:
        await ws.accept()
        if not self.allowed(ws):
            await ws.send_json({"op": "error", "message": "the organiser's token is missing or "
                                "wrong"})
            await ws.close(4403)
            return
        wake = asyncio.Event()
        wake.set()
        self.waiters.add(wake)

        async def push() -> None:
            while True:
                await wake.wait()
                wake.clear()
                await ws.send_text(await self.shared())

        task = asyncio.create_task(push())
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.waiters.discard(wake)
            task.cancel()

    def app(self) -> Starlette:
        @contextlib.asynccontextmanager
        async def lifespan(_app: Starlette) -> AsyncIterator[None]:
            self.loop = asyncio.get_running_loop()
            yield
            self.loop = None

        return Starlette(routes=[
            Route("/", self.index),
            Route("/api/state", self.state),
            Route("/api/rule", self.rule, methods=["POST"]),
            WebSocketRoute("/ws", self.ws),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ], lifespan=lifespan)


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class ServedHub:
    """The page on ``host:port`` in its own thread (uvicorn), like ``ui.server.Served``."""

    def __init__(self, page: HubPage, host: str = "127.0.0.1", port: int = 0) -> None:
        self.page = page
        self.host = host
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.port = int(self.sock.getsockname()[1])
        self.server = uvicorn.Server(uvicorn.Config(page.app(), log_level="warning",
                                                    lifespan="on", ws="websockets-sansio"))
        self.thread = threading.Thread(target=lambda: self.server.run(sockets=[self.sock]),
                                       name="dialtray-hub-http", daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started or not self.thread.is_alive():
                break
            time.sleep(0.05)
        if not self.server.started:
            raise OSError(f"the hub page did not start on {host}:{self.port}")

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/?key={self.page.token}"

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
        self.page.close()
