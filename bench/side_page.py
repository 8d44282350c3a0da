"""The ``click → page`` stage of bench_side_by_side (issue 35): the table's page updating after
a sensed click, beside a bare websocket push to a page, both in real Chromium (Playwright,
Debian's ``chromium``).

* real: ``dialtray serve``'s parts on the virtual tray (bench_ui.py's run: the real firmware
  under MicroPython, a pty, the tracker, the store, uvicorn + Starlette, the real page), combat
  dials turned one click at a time; per click and page, the host received the tray's click
  event → the page's DOM shows the new state (``window.dialtray.renders``).
* bare: side_hub.py's bare Starlette server (uvicorn, the same websocket implementation)
  serving a page whose script parses each message and writes it into the DOM; the bench
  stamps the wall time and pushes one message, of the real path's mean size, to every page,
  as often as the clicks came; per message and page, the stamp → the DOM has it.

Both sides time the same way: the server's ``time.time()`` against the page's
``performance.timeOrigin + performance.now()`` once its DOM is written (ms since the epoch).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare push</title>
<pre id="out"></pre>
<script>
"use strict";
const seen = { shown: [] };
window.bare = seen;
const out = document.getElementById("out");
const ws = new WebSocket(`ws://${location.host}/ws`);
ws.onopen = () => { seen.open = true; };
ws.onmessage = (ev) => {
  const m = JSON.parse(ev.data);
  out.textContent = m.pad;
  seen.shown.push([m.sent, performance.timeOrigin + performance.now()]);
};
</script>
"""


def _pcts(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return xs[len(xs) // 2], xs[min(len(xs) - 1, int(0.99 * len(xs)))]


def message(size: int) -> str:
    """A bare message of ``size`` bytes: its send time (stamped now) and padding."""
    head = json.dumps({"sent": time.time(), "pad": ""}, separators=(",", ":"))
    return head.replace('"pad":""', '"pad":"' + "x" * max(0, size - len(head)) + '"')


def real_click_to_page(browser: Any, clicks: int, pages: int
                       ) -> tuple[list[float], int, int]:
    """(sensed → page ms per click and page, mean bytes of a message pushed, renders not
    found) of ``clicks`` clicks on the virtual tray with ``pages`` pages open."""
    import bench_ui
    from dialtray.ui.server import Served

    with tempfile.TemporaryDirectory(prefix="side_page") as tmp, \
            Served(bench_ui.served_options(Path(tmp))) as served:
        opened = bench_ui.open_pages(browser, served.url, pages)
        sent0, bytes0 = served.hub.sent, getattr(served.hub, "bytes", 0)
        turns = bench_ui.turn_clicks(served, bench_ui.combat_slots(served), clicks)
        time.sleep(0.5)
        renders = [pg.evaluate("window.dialtray.renders") for pg in opened]
        sent = served.hub.sent - sent0
        size = (getattr(served.hub, "bytes", 0) - bytes0) / max(1, sent)
        for pg in opened:
            pg.close()
    lat, missed = bench_ui.click_latencies(renders, turns)
    return lat["sensed"], round(size), missed


def bare_push_to_page(browser: Any, n: int, pages: int, size: int, gap_s: float
                      ) -> tuple[list[float], int]:
    """(send → DOM ms per message and page, messages not shown) of ``n`` messages of ``size``
    bytes pushed to ``pages`` pages by the bare Starlette server, one every ``gap_s``."""
    from side_hub import BarePush

    bare = BarePush(BARE_PAGE)
    try:
        opened = []
        for _ in range(pages):
            pg = browser.new_page(viewport={"width": 1280, "height": 900})
            pg.goto(f"http://127.0.0.1:{bare.port}/")
            pg.wait_for_function("window.bare && window.bare.open", timeout=30_000)
            opened.append(pg)
        end = time.monotonic() + 10
        while len(bare.socks) < pages and time.monotonic() < end:
            time.sleep(0.01)
        for _ in range(n):
            text = message(size)  # stamped here, then handed to the server's loop (the real
            # path stamps on the table's thread and hands over the same way)
            asyncio.run_coroutine_threadsafe(bare.send(text), bare.loop).result(10)
            time.sleep(gap_s)
        time.sleep(0.5)
        shown = [pg.evaluate("window.bare.shown") for pg in opened]
        for pg in opened:
            pg.close()
    finally:
        bare.close()
    out = [(dom - sent * 1000) for s in shown for sent, dom in s]
    return out, n * pages - len(out)


def click_to_page(clicks: int, pages: int) -> dict[str, Any]:
    """The stage: real sensed → page against the bare push → DOM, in one Chromium; the ratio is
    bare p99 / real p99. RuntimeError (saying what is missing) without Chromium or Playwright."""
    import bench_ui
    from browsers import chromium_path

    exe = chromium_path()
    if exe is None:
        raise RuntimeError("no Chromium (scripts/install_test_tools.sh installs Debian's)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:
        raise RuntimeError(f"no Playwright ({e})") from e
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=bench_ui.CHROMIUM_ARGS)
        try:
            real, size, missed = real_click_to_page(browser, clicks, pages)
            # as often as the clicks came: the same spacing after each, plus the click's own
            bare, lost = bare_push_to_page(browser, clicks, pages, size,
                                           bench_ui.SPACING_S + 0.003)
        finally:
            browser.close()
    if not real or not bare:
        raise RuntimeError(f"nothing measured ({len(real)} real, {len(bare)} bare figures)")
    r50, r99 = _pcts(real)
    b50, b99 = _pcts(bare)
    return {"clicks": clicks, "pages": pages, "bytes_per_message": size,
            "real_missed": missed, "bare_missed": lost,
            "real_p50_ms": round(r50, 2), "real_p99_ms": round(r99, 2),
            "bare_p50_ms": round(b50, 2), "bare_p99_ms": round(b99, 2),
            "ratio": round(b99 / r99, 3),
            "note": f"{r50:.1f}/{r99:.1f} ms (p50/p99, sensed → DOM, {pages} pages) vs bare "
                    f"Starlette push of {size} B → DOM {b50:.1f}/{b99:.1f}"
                    + (f"; {missed} real, {lost} bare not found" if missed or lost else "")}
