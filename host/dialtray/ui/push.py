"""Pushing the live game to the pages: one serialisation per change, shared by every page, and
as a *patch* (what changed since the previous state) rather than the whole state.

A click changes two fields of one reader; the whole state (every dock's dial window, the
layout, the log) is ~20-30 KB, a click's patch ~200 bytes. Each page is sent the patches in
order; a page that falls behind (more than ``MAX_PATCHES`` queued) or has just connected is
sent the latest whole state instead, so a slow page skips states, never falls behind, and never
applies a patch to the wrong base (a patch names its ``base`` rev; the page asks for the whole
state — ``resync`` — when its rev is not that base).
"""

from __future__ import annotations

import asyncio
import collections
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

MAX_PATCHES = 16  # queued for one page; past this it is sent the full state instead
TAILS = ("log", "notes", "rulings")  # the last lines of something that only grows


def diff(prev: dict[str, Any] | None, body: dict[str, Any]) -> dict[str, Any] | None:
    """What changed from ``prev`` to ``body`` (two page states): ``set`` (top-level keys with
    their new values) and ``docks``: per dock that changed, its readers' changed fields
    (``{"dock": 2, "changes": [[0, {"sensed": 5, "turn": -1}]]}``: a click changes two small
    fields, not the dial window's picture) or, when its readers are not the same readers, the
    whole dock (``readers``). None when the docks are not the same docks in the same order (the
    page takes the whole state then). A tail of lines (``TAILS``: the log, the judge's notes)
    that moved on is sent as its new lines and its length: ``tails: {"log": [add, n]}``."""
    if prev is None:
        return None
    old_docks, new_docks = prev.get("docks", []), body.get("docks", [])
    if [d["dock"] for d in old_docks] != [d["dock"] for d in new_docks]:
        return None
    docks: list[dict[str, Any]] = []
    for d, o in zip(new_docks, old_docks, strict=True):
        if d == o:
            continue
        new_r, old_r = d["readers"], o["readers"]
        if set(d) != {"dock", "readers"} or len(new_r) != len(old_r) or \
                any(set(n) != set(r) for n, r in zip(new_r, old_r, strict=True)):
            docks.append(d)
            continue
        changes = [[i, {k: v for k, v in n.items() if r[k] != v}]
                   for i, (n, r) in enumerate(zip(new_r, old_r, strict=True)) if n != r]
        docks.append({"dock": d["dock"], "changes": changes})
    sets = {k: v for k, v in body.items() if k != "docks" and prev.get(k, k) != v}
    out: dict[str, Any] = {"set": sets, "docks": docks}
    for key in TAILS:  # a tail of lines that moved on: only its new lines, and its length
        if key in sets and isinstance(sets[key], list):
            add = appended(prev.get(key) or [], sets[key])
            if add is not None:
                del sets[key]
                out.setdefault("tails", {})[key] = [add, len(body[key])]
    return out


def appended(old: list[str], new: list[str]) -> list[str] | None:
    """The fewest lines ``add`` with ``(old + add)[-len(new):] == new``: a tail that moved on
    is sent as its new lines; one that did not is all of ``new`` (the same as sending it whole).
    None for an empty ``new`` (sent whole: a slice of length 0 would be all of it)."""
    if not new:
        return None
    for m in range(1, len(new) + 1):
        add = new[len(new) - m:]
        if (old + add)[-len(new):] == new:
            return add
    return None


@dataclass(eq=False)
class Client:
    ws: WebSocket
    pending: dict[str, tuple[str, float]] = field(default_factory=dict)  # latest of each kind
    patches: list[tuple[str, float]] = field(default_factory=list)  # in order, after pending
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Hub:
    """The pages following the live game. The table's thread hands each new message to
    ``publish`` (serialised once, for every page); the web server's event loop writes it to
    each page's socket."""

    def __init__(self) -> None:
        self.clients: set[Client] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.sent = 0
        self.bytes = 0
        self.write_ms: collections.deque[float] = collections.deque(maxlen=10_000)
        """Published → handed to the socket, per message and page (for the bench)."""

    def publish(self, kind: str, text: str, full: str | None = None) -> None:  # any thread
        """``kind`` "game" or "state" (``text`` the whole message), or "patch" (``full``: the
        whole state it leads to, for a page that cannot take the patch)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._fan_out, kind, text, full, time.perf_counter())

    def _fan_out(self, kind: str, text: str, full: str | None, at: float) -> None:
        for c in self.clients:
            if kind == "patch" and full is not None:
                if "state" in c.pending or len(c.patches) >= MAX_PATCHES:
                    c.patches.clear()  # a full state goes out instead: the newest
                    c.pending["state"] = (full, at)
                else:
                    c.patches.append((text, at))
            else:
                if kind == "state":
                    c.patches.clear()
                c.pending[kind] = (text, at)
            c.wake.set()

    def resync(self, c: Client, full: str) -> None:  # the event loop
        """The page asks for the whole state (its rev is not a patch's base)."""
        c.patches.clear()
        c.pending["state"] = (full, time.perf_counter())
        c.wake.set()

    async def sender(self, c: Client) -> None:
        while True:
            await c.wake.wait()
            c.wake.clear()
            while c.pending or c.patches:
                for kind in ("game", "state"):  # a state may name the game message before it
                    item = c.pending.pop(kind, None)
                    if item is not None:
                        await self._send(c, item)
                if c.patches and "game" not in c.pending:
                    item = c.patches.pop(0)
                    await self._send(c, item)

    async def _send(self, c: Client, item: tuple[str, float]) -> None:
        await c.ws.send_text(item[0])
        self.sent += 1
        self.bytes += len(item[0])
        self.write_ms.append((time.perf_counter() - item[1]) * 1000)


__all__ = ["MAX_PATCHES", "TAILS", "Client", "Hub", "appended", "diff"]
