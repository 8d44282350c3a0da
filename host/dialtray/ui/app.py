"""The web application (Starlette): the page, its static assets, a websocket that pushes every
state of the live game, and JSON endpoints for the report, the odds calculator and the judge.

Every bad request gets a clear error in words and changes nothing: an unknown game (404), a
malformed message or action text, an action out of turn (the tracker's refusal), an oversized
websocket message (refused with its size; far larger ones are cut off by the server's frame
limit, ``WS_MAX_FRAME``). A page that reconnects gets the latest state at once (it resumes),
then patches (``push``).
Off localhost every request needs the access key printed by ``dialtray serve`` (``?key=``, kept
in a cookie); judge actions always need a judge token (``dialtray judge token``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from dialtray.link.messages import Snapshot
from dialtray.store.db import StoreError
from dialtray.ui import calls, svg, views
from dialtray.ui import odds as od
from dialtray.ui.live import CALL_TIMEOUT, LiveTable
from dialtray.ui.push import Client, Hub

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
WS_MAX_MESSAGE = 4096  # bytes a page may send in one message (a decision is a few words)
WS_MAX_FRAME = 65536  # uvicorn's limit: larger frames close the connection (code 1009)
MAX_TEXT = 200  # characters in a decision's text
KEY_COOKIE = "dialtray_key"


class Server:
    """What the routes need: the live table (or none), the store's path, the access key."""

    def __init__(self, db: Path, live: LiveTable | None = None, hub: Hub | None = None,
                 key: str | None = None,
                 snapshot: Callable[[], Snapshot] | None = None) -> None:
        self.db = db
        self.live = live
        self.hub = hub or Hub()
        self.key = key
        self.snapshot = snapshot
        self.event: calls.JudgeCaller | None = None  # at an event (``serve --event``)

    # ---- access -------------------------------------------------------------------------------

    def allowed(self, conn: HTTPConnection) -> bool:
        if self.key is None:
            return True
        given = conn.query_params.get("key") or conn.cookies.get(KEY_COOKIE) or ""
        return hmac.compare_digest(given.encode(), self.key.encode())

    def refuse(self) -> JSONResponse:
        return error(403, "this server is shared on the network: open the address "
                          "`dialtray serve` printed (it carries the access key)")

    # ---- routes -------------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        if not self.allowed(request):
            return self.refuse()
        resp = FileResponse(STATIC / "index.html")
        if self.key is not None:
            resp.set_cookie(KEY_COOKIE, self.key, httponly=True, samesite="strict")
        return resp

    async def games(self, request: Request) -> Response:
        if not self.allowed(request):
            return self.refuse()
        live = self.live.game_id if self.live else None
        return JSONResponse({"games": await asyncio.to_thread(views.games, self.db, live),
                             "live": live})

    async def report(self, request: Request) -> Response:
        if not self.allowed(request):
            return self.refuse()
        gid = _int(request.path_params["game"])
        if gid is None:
            return error(400, f"game: a game number is needed, not "
                              f"{request.path_params['game']!r}")
        try:
            return JSONResponse(await asyncio.to_thread(views.report, self.db, gid))
        except views.NotFound as e:
            return error(404, str(e))

    async def odds(self, request: Request) -> Response:
        if not self.allowed(request):
            return self.refuse()
        q = request.query_params
        dice, target = _int(q.get("dice", "")), _int(q.get("target", ""))
        left = _int(q.get("clicks_left", "")) if q.get("clicks_left") else None
        if dice is None or not 0 <= dice <= 15:
            return error(400, "dice: a number of attack dice 0..15 is needed")
        if target is None or not 1 <= target <= 6:
            return error(400, "target: a target number 1..6 is needed")
        if q.get("clicks_left") and (left is None or not 1 <= left <= 99):
            return error(400, "clicks_left: 1..99 clicks before the target is shot down")
        o = od.calculator(dice, target, q.get("defensive_fate") == "1", left)
        return JSONResponse({**o.to_dict(), "svg": svg.odds_chart(o)})

    async def judge(self, request: Request) -> Response:
        if not self.allowed(request):
            return self.refuse()
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            return error(400, "the request is not JSON")
        if not isinstance(body, dict):
            return error(400, "the request must be a JSON object")
        what = request.path_params["what"]
        token = body.get("token") if isinstance(body.get("token"), str) else None
        gid = _int(str(body.get("game", "")))
        if gid is None:
            return error(400, "game: a game number is needed")
        try:
            if what == "rule":
                return JSONResponse({"ok": True, **await self._rule(gid, token, body)})
            await asyncio.to_thread(views.check_token, self.db, token)
            if what == "verify":
                dock = body.get("dock")
                if dock is not None and _int(str(dock)) is None:
                    return error(400, "dock: a dock number is needed")
                snap = await asyncio.to_thread(self.snapshot) if self.snapshot else None
                return JSONResponse(await asyncio.to_thread(
                    views.verify, self.db, gid, snap, None if dock is None else int(dock)))
        except views.Refused as e:
            return error(403, str(e))
        except views.NotFound as e:
            return error(404, str(e))
        except (ValueError, KeyError) as e:
            return error(400, str(e).strip("'\""))
        except StoreError as e:  # e.g. no action to undo: nothing was stored
            return error(409, str(e))
        except TimeoutError as e:
            return error(504, f"the tray did not answer: {e}")
        except RuntimeError as e:  # the table's thread is not running
            return error(503, str(e))
        return error(404, f"no judge action {what!r} (verify, rule)")

    async def _rule(self, gid: int, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        ruling = str(body.get("ruling", ""))
        args = body.get("args") or {}
        if not isinstance(args, dict):
            raise ValueError("args: a JSON object is needed")
        why = str(body.get("why", ""))[:MAX_TEXT]
        live = self.live
        if live is not None and live.game_id == gid:  # the live tracker applies it at once
            fut = live.call(lambda: live.rule(token, ruling, args, why))
            done: dict[str, Any] = await asyncio.wait_for(asyncio.wrap_future(fut),
                                                          CALL_TIMEOUT)
            return done

        def other() -> dict[str, Any]:
            from dialtray.store.db import GameStore
            with GameStore.open(self.db) as store:
                return {"done": views.rule(store, gid, token, ruling, args, why), "shown": []}
        return await asyncio.to_thread(other)

    # ---- the websocket ------------------------------------------------------------------------

    async def ws(self, ws: WebSocket) -> None:
        await ws.accept()
        origin = ws.headers.get("origin")
        if origin and urlsplit(origin).netloc != ws.headers.get("host"):
            # another site's page in the player's browser must not decide for them
            await ws.send_json({"op": "error", "message": f"refused: a page from {origin} "
                                "may not follow or play this table"})
            await ws.close(4403)
            return
        if not self.allowed(ws):
            await ws.send_json({"op": "error", "message": "access key missing or wrong"})
            await ws.close(4403)
            return
        live = self.live
        gid = _int(ws.query_params.get("game", "")) if ws.query_params.get("game") else \
            (live.game_id if live else None)
        if live is None or gid != live.game_id:
            what = "no game is live on this tray" if live is None else \
                f"unknown game {ws.query_params.get('game')!r}: the live game is {live.game_id}"
            if live is not None and gid is not None:
                known = await asyncio.to_thread(views.games, self.db, live.game_id)
                if any(g["id"] == gid for g in known):
                    what = (f"game {gid} is not live on this tray (the live game is "
                            f"{live.game_id}); its report is in the Report view")
            await ws.send_json({"op": "error", "message": what})
            await ws.close(4404)
            return
        now = time.perf_counter()
        c = Client(ws, {k: (v, now) for k, v in live.latest.items()})
        c.wake.set()
        self.hub.clients.add(c)
        sender = asyncio.create_task(self.hub.sender(c))
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                raw = msg.get("text") if msg.get("text") is not None else msg.get("bytes")
                reply = await self._message(live, c, raw)
                await ws.send_json(reply)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.hub.clients.discard(c)
            sender.cancel()

    async def _message(self, live: LiveTable, c: Client,
                       raw: str | bytes | None) -> dict[str, Any]:
        size = len(raw.encode() if isinstance(raw, str) else raw or b"")
        if size > WS_MAX_MESSAGE:
            return {"op": "error", "message": f"message too large ({size} bytes; at most "
                    f"{WS_MAX_MESSAGE}): nothing was done"}
        try:
            m = json.loads(raw or "")
        except ValueError:
            return {"op": "error", "message": "not a JSON message: nothing was done"}
        if not isinstance(m, dict) or m.get("op") not in ("decide", "ping", "turn", "resync",
                                                             "seats", "object", "eye"):
            return {"op": "error", "message": "unknown request (known: decide, turn, seats, "
                    "object, eye, ping, resync): nothing was done"}
        if m["op"] == "ping":
            return {"op": "pong", "rev": live.rev}
        if m["op"] == "resync":  # the page missed a patch's base: the whole state, in order
            self.hub.resync(c, live.latest["state"])
            return {"op": "resyncing", "rev": live.rev}
        if m["op"] == "turn":
            dock, reader, clicks = m.get("dock"), m.get("reader"), m.get("clicks")
            if not all(type(v) is int for v in (dock, reader, clicks)):
                return {"op": "turned", "ok": False, "message": "dock, reader, clicks: whole "
                        "numbers are needed: nothing was done"}
            done = await asyncio.to_thread(live.turn_virtual, int(str(dock)), int(str(reader)),
                                           int(str(clicks)))
            return {"op": "turned", **done}
        if m["op"] == "eye":  # a dial whose encoder lost track, confirmed by eye
            dock, reader, click, seat = m.get("dock"), m.get("reader"), m.get("click"), \
                m.get("seat")
            if not all(type(v) is int for v in (dock, reader)) or \
                    not (click is None or type(click) is int) or \
                    not (seat is None or isinstance(seat, str)):
                return {"op": "result", "ok": False, "message": "dock, reader: whole numbers; "
                        "click: a whole number or none: nothing was done"}
            return await on_table(live, lambda: live.confirm_eye(
                int(str(dock)), int(str(reader)), None if click is None else int(str(click)),
                seat), "result")
        if m["op"] == "object":  # stop the bookkeeping the table is about to take
            return await on_table(live, live.object, "result")
        if m["op"] == "seats":  # the first screen: who takes each seat
            players = m.get("players")
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                return {"op": "seated", "ok": False, "message": "players: a list of human or "
                        "bot, one for each seat: nothing was done"}
            return await on_table(live, lambda: live.choose(list(players)), "seated")
        text, seat = m.get("text"), m.get("seat")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
            return {"op": "result", "ok": False, "text": text if isinstance(text, str) else "",
                    "message": f"text: a decision in notation words (1..{MAX_TEXT} "
                               "characters) is needed: nothing was done"}
        if seat is not None and not isinstance(seat, str):
            return {"op": "result", "ok": False, "text": text, "message": "seat: a seat name"}
        return await on_table(live, lambda: live.decide(text.strip(), seat), "result",
                              text=text)


async def on_table(live: Any, request: Callable[[], dict[str, Any]], op: str,
                   **said: Any) -> dict[str, Any]:
    """A page's request run on the table's thread (``LiveTable.call``), its answer as message
    ``op`` with ``said`` (a request that does not finish within ``CALL_TIMEOUT``: not ok)."""
    fut = live.call(request)
    try:
        done: dict[str, Any] = await asyncio.wait_for(asyncio.wrap_future(fut), CALL_TIMEOUT)
    except (TimeoutError, RuntimeError) as e:
        return {"op": op, "ok": False, **said, "message": str(e)}
    return {"op": op, **said, **done}


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def make_app(server: Server) -> Starlette:
    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        server.hub.loop = asyncio.get_running_loop()
        yield
        server.hub.loop = None

    return Starlette(routes=[
        Route("/", server.index),
        Route("/api/games", server.games),
        Route("/api/report/{game}", server.report),
        Route("/api/odds", server.odds),
        Route("/api/judge/{what}", server.judge, methods=["POST"]),
        Route("/api/call", functools.partial(calls.route, server), methods=["GET", "POST"]),
        WebSocketRoute("/ws", server.ws),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan)
