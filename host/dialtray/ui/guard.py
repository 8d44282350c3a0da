"""What stands between `dialtray serve` and every other web page the player's browser has open
(issue 31). An ASGI wrapper around the Starlette app; the app's own routes are unchanged.

* **Host allow-list** (DNS rebinding): a request must name the server as ``localhost``, an IP
  address (the bound one, or any: an IP literal cannot be rebound), or the bound host name —
  never a name like ``evil.example`` that an attacker's DNS points at 127.0.0.1. 421 otherwise.
* **Origin check**: every state-changing request (any method but GET/HEAD/OPTIONS) and every
  websocket must come from this server's own page: an ``Origin`` header naming another origin
  (another port counts), or ``Sec-Fetch-Site: cross-site/same-site`` on an API or websocket
  request, is refused (403) *before* the app sees it — so a refused request leaves no record.
* **Sizes and depths**: a request body over ``MAX_BODY`` is refused (413) without being read
  past the limit; a JSON body or websocket message nested deeper than ``MAX_DEPTH``, or holding
  a lone surrogate (UTF-16 half, no character), is answered with a clear error and never
  reaches a handler. A websocket message the guard refuses is answered on the socket, which
  stays open.
* **Every handler error is an answer**: an exception a handler lets out on bad input becomes a
  400 in words; anything else a 500 in words (logged), never a dropped connection.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 64 * 1024  # bytes in a request body (a ruling or a decision is a few hundred)
MAX_DEPTH = 16  # nesting of a JSON body or message (the deepest genuine one is 3)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def json_depth(text: str) -> int:
    """How deeply ``text`` nests JSON arrays/objects (strings skipped), without parsing it —
    so a 100 000-deep message costs a scan, not a RecursionError."""
    depth = top = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            top = max(top, depth)
        elif ch in "]}":
            depth -= 1
    return top


def has_lone_surrogate(obj: Any) -> bool:
    """Does any string in a parsed JSON value hold a lone surrogate (``"\\ud800"``)?"""
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def check_json(raw: bytes | str) -> str | None:
    """Why a JSON body/message may not reach a handler, or None (also None for non-JSON: the
    handler answers that itself)."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if json_depth(text) > MAX_DEPTH:
        return f"the JSON is nested too deeply (more than {MAX_DEPTH} levels): nothing was done"
    try:
        obj = json.loads(text)
    except ValueError:
        return None
    if has_lone_surrogate(obj):
        return ("the JSON holds a lone surrogate (\\ud800-\\udfff without its pair: not a "
                "character): nothing was done")
    return None


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def split_host(value: str) -> tuple[str, int | None]:
    """``Host`` header → (host, port); IPv6 in brackets."""
    v = value.strip().lower()
    if v.startswith("["):
        host, _, rest = v[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = v.rpartition(":") if v.count(":") == 1 else (v, "", "")
    return host, (int(port) if port.isdigit() else None)


class Guard:
    """``Guard(app, bound_host, port)`` — an ASGI app."""

    def __init__(self, app: ASGIApp, bound_host: str = "127.0.0.1", port: int | None = None,
                 extra_hosts: tuple[str, ...] = ()) -> None:
        self.app = app
        self.port = port
        self.names = {"localhost", bound_host.lower().strip("[]"), *map(str.lower, extra_hosts)}

    # ---- the checks -----------------------------------------------------------------------------

    def host_ok(self, value: str) -> bool:
        host, port = split_host(value)
        if self.port is not None and port is not None and port != self.port:
            return False
        if host in self.names:
            return True
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return False
        return True  # an IP literal: no DNS to rebind

    def origin_refusal(self, scope: Scope, h: dict[str, str]) -> str | None:
        path = scope.get("path", "")
        guarded = scope["type"] == "websocket" or scope.get("method", "GET") not in SAFE_METHODS
        api = scope["type"] == "websocket" or path.startswith("/api/")
        origin = h.get("origin")
        if origin is not None and (guarded or api) and (
                origin == "null" or split_host(origin.split("://", 1)[-1]) !=
                split_host(h.get("host", ""))):
            return f"refused: a page from {origin} may not use this table's server"
        site = h.get("sec-fetch-site")
        if api and site in ("cross-site", "same-site"):
            return f"refused: a request from another site ({site}) may not use this server"
        return None

    # ---- ASGI -----------------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        h = _headers(scope)
        if not self.host_ok(h.get("host", "")):
            await self._refuse(scope, receive, send, 421,
                               f"refused: this server does not answer to the name "
                               f"{h.get('host', '')!r} (open it as localhost or by its address)")
            return
        why = self.origin_refusal(scope, h)
        if why is not None:
            await self._refuse(scope, receive, send, 403, why)
            return
        if scope["type"] == "websocket":
            await self.app(scope, self._ws_receive(receive, send), send)
            return
        await self._http(scope, receive, send, h)

    async def _http(self, scope: Scope, receive: Receive, send: Send,
                    h: dict[str, str]) -> None:
        length = h.get("content-length", "")
        if length.isdigit() and int(length) > MAX_BODY:
            await _json(send, 413, f"the request is too large ({length} bytes; at most "
                                   f"{MAX_BODY}): nothing was done")
            return
        body = b""
        more = True
        while more:
            m = await receive()
            if m["type"] == "http.disconnect":
                return
            body += m.get("body", b"")
            more = bool(m.get("more_body"))
            if len(body) > MAX_BODY:
                await _json(send, 413, f"the request is too large (over {MAX_BODY} bytes): "
                                       "nothing was done")
                return
        if body and scope.get("method") not in SAFE_METHODS:
            why = check_json(body)
            if why is not None:
                await _json(send, 400, why)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        started = False

        async def tracked(m: Message) -> None:
            nonlocal started
            if m["type"] == "http.response.start":
                started = True
            await send(m)

        try:
            await self.app(scope, replay, tracked)
        except (ValueError, KeyError, TypeError, RecursionError, UnicodeError) as e:
            log.info("bad request %s: %r", scope.get("path"), e)
            if not started:
                await _json(send, 400, f"bad request: {type(e).__name__}: "
                                       f"{str(e)[:200]}: nothing was done")
        except Exception:
            log.exception("unexpected error answering %s", scope.get("path"))
            if not started:
                await _json(send, 500, "the server failed on this request (a bug; see its "
                                       "log): nothing was done")

    def _ws_receive(self, receive: Receive, send: Send) -> Receive:
        """The app's receive, minus the messages the guard answers itself."""
        async def guarded() -> Message:
            while True:
                m = await receive()
                if m["type"] != "websocket.receive":
                    return m
                raw = m.get("text") if m.get("text") is not None else m.get("bytes")
                why = check_json(raw or b"")
                if why is None:
                    return m
                await send({"type": "websocket.send",
                            "text": json.dumps({"op": "error", "message": why})})
        return guarded

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, status: int,
                      message: str) -> None:
        log.info("refused %s %s: %s", scope["type"], scope.get("path"), message)
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            # accepted only to say why, in words the page can show; then closed
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send",
                        "text": json.dumps({"op": "error", "message": message})})
            await send({"type": "websocket.close", "code": 4403})
            return
        await _json(send, status, message)


async def _json(send: Send, status: int, message: str) -> None:
    body = json.dumps({"ok": False, "error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
