"""The table screen's "Call the judge" button at an event (issues 13 and 17): ``GET /api/call``
says whether this table is at an event and whether a call is pending; ``POST /api/call`` with
``{"note": "…"}`` (optional, at most ``MAX_NOTE`` characters) makes the call through the same
path as play's ``judge NOTE`` (``EventTable.call_judge``: the table's ``call`` topic, the hub's
judge queue). One call at a time: a second one while the first waits for the judge's answer is
refused (409), and so is every malformed request (400/413), saying why; none of them sends
anything.

A module of its own so that ``app`` only routes to it; the event side is reached through the
small ``JudgeCaller`` protocol (``dialtray.hub.tableside.EventTable`` is one), so the UI never
imports the hub (its extra may be missing).
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

if TYPE_CHECKING:
    from dialtray.ui.app import Server

MAX_NOTE = 200  # characters (the hub keeps 200)
MAX_BODY = 2048  # bytes of a call's request
DEFAULT_NOTE = "a player calls the judge from the table's screen"
NOT_AT_EVENT = ("this table is not at an event: `dialtray serve --event URL --creds FILE` "
                "connects it to the hub's judge queue")


class JudgeCaller(Protocol):
    """The event's side of the button (``EventTable``)."""

    def call_judge(self, note: str, *, once: bool = False) -> bool: ...

    def call_status(self) -> dict[str, Any]: ...


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "ok": False}, status_code=status)


async def route(server: Server, request: Request) -> Response:
    return await (call if request.method == "POST" else status)(server, request)


async def status(server: Server, request: Request) -> Response:
    if not server.allowed(request):
        return server.refuse()
    ev = server.event
    if ev is None:
        return JSONResponse({"at_event": False, "message": NOT_AT_EVENT})
    return JSONResponse({"at_event": True, **await asyncio.to_thread(ev.call_status)})


async def call(server: Server, request: Request) -> Response:
    if not server.allowed(request):
        return server.refuse()
    origin = request.headers.get("origin")
    if origin and urlsplit(origin).netloc != request.headers.get("host"):
        return _error(403, f"refused: a page from {origin} may not call the judge for this "
                           "table; nothing was sent")
    ev = server.event
    if ev is None:
        return _error(409, NOT_AT_EVENT)
    raw = await _body(request)
    if raw is None:
        return _error(413, f"the request is too large (at most {MAX_BODY} bytes): nothing "
                           "was sent")
    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        return _error(400, "the request is not JSON: nothing was sent")
    if not isinstance(body, dict):
        return _error(400, 'the request must be a JSON object ({"note": "…"}): nothing was '
                           "sent")
    extra = sorted(set(body) - {"note"})
    if extra:
        return _error(400, f"unknown field(s) {', '.join(map(repr, extra))} (only note): "
                           "nothing was sent")
    note = body.get("note", "")
    if note is None:
        note = ""
    if not isinstance(note, str):
        return _error(400, "note: a text is needed: nothing was sent")
    note = " ".join(note.split())  # (one line at the hub's queue)
    if len(note) > MAX_NOTE:
        return _error(400, f"note: at most {MAX_NOTE} characters ({len(note)} given): nothing "
                           "was sent")
    made = await asyncio.to_thread(ev.call_judge, note or DEFAULT_NOTE, once=True)
    st = await asyncio.to_thread(ev.call_status)
    if not made:
        p = st.get("pending") or {}
        return JSONResponse({"ok": False, "at_event": True, **st,
                             "error": "a judge call from this table is already pending "
                                      f"({p.get('note', '')!r}): the judge answers it at the "
                                      "hub; nothing was sent"}, status_code=409)
    return JSONResponse({"ok": True, "at_event": True, **st})


async def _body(request: Request) -> bytes | None:
    """The request's body, or None when it is larger than ``MAX_BODY`` (read no further)."""
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > MAX_BODY:
        return None
    out = bytearray()
    async for chunk in request.stream():
        out += chunk
        if len(out) > MAX_BODY:
            return None
    return bytes(out)
