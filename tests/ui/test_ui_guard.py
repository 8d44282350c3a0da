"""`dialtray serve` against every other web page in the player's browser (issue 31, defects 7-9):
a spoofed Host (DNS rebinding), cross-site writes, oversized and deeply nested requests, a lone
surrogate on the websocket. Real server (the virtual tray's game), real sockets, real Chromium.
Every refused request must leave the store exactly as it was."""

from __future__ import annotations

import http.client
import http.server
import json
import socket
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from browsers import chromium_path
from dialtray.ui.guard import MAX_BODY, MAX_DEPTH, json_depth
from dialtray.ui.server import Served
from websockets.sync.client import connect


def records(served: Served) -> int:
    """The records a request could cause: rulings, refused rulings, decisions and refused
    decisions (the tray's own events, and the tracker's notes on them, go on being stored)."""
    return len(written(served))


def written(served: Served) -> list[tuple[str, str]]:
    """Those records themselves (kind, body): what a failure prints."""
    with sqlite3.connect(served.opts.db) as c:
        return [(str(k), str(b)[:300]) for k, b in c.execute(
            "SELECT kind, content FROM records WHERE kind IN ('judge', 'judge-refused', "
            "'action', 'refused') ORDER BY game_id, n")]


def raw(served: Served, method: str, path: str, body: bytes = b"",
        headers: dict[str, str] | None = None) -> tuple[int, str]:
    c = http.client.HTTPConnection("127.0.0.1", served.port, timeout=20)
    try:
        c.request(method, path, body=body or None, headers=headers or {})
        r = c.getresponse()
        return r.status, r.read().decode()
    finally:
        c.close()


def wait_live(served: Served) -> None:
    import time

    def settled() -> bool:  # playing, and nothing the table takes by itself is due
        gt = served.live.game_table
        if served.tracker.phase != "play" or gt is None:
            return False
        v = gt.view()
        return not v.pending and v.mover != "table" and stored()

    def stored() -> bool:
        """Every action the game took is in the store: the table commits after it plays, and
        a first-player roll committed after a test counted the records was taken for one its
        request caused."""
        with sqlite3.connect(served.opts.db) as c:
            n = c.execute("SELECT count(*) FROM records WHERE game_id = ? AND kind = 'action'",
                          (served.live.game_id,)).fetchone()[0]
        return int(n) == len(served.tracker.game.history)

    end = time.monotonic() + 60
    while not settled() and time.monotonic() < end:
        time.sleep(0.02)


def test_json_depth_scans_without_recursion() -> None:
    assert json_depth('{"a": [1, {"b": "[[[["}]}') == 3
    assert json_depth("[" * 100_000) == 100_000


def test_a_spoofed_host_is_refused_and_reads_nothing(table: Served) -> None:
    wait_live(table)
    before = records(table)
    for path in ("/api/games", f"/api/report/{table.live.game_id}", "/"):
        code, body = raw(table, "GET", path, headers={"Host": f"evil.example:{table.port}"})
        assert code == 421 and "evil.example" in body and '"games"' not in body, (path, body)
    code, body = raw(table, "POST", "/api/judge/rule", json.dumps(
        {"game": table.live.game_id, "ruling": "vp", "args": {"seat": "A", "points": 3}}).encode(),
        {"Host": "evil.example", "Content-Type": "application/json"})
    assert code == 421
    sock = socket.create_connection(("127.0.0.1", table.port), timeout=20)
    with connect(f"ws://evil.example:{table.port}/ws", sock=sock) as ws:  # Host: evil.example
        m = json.loads(ws.recv(timeout=20))
        assert m["op"] == "error" and "evil.example" in m["message"]
    # the names it does answer to
    for host in (f"127.0.0.1:{table.port}", f"localhost:{table.port}"):
        assert raw(table, "GET", "/api/games", headers={"Host": host})[0] == 200
    assert records(table) == before, written(table)[before:]


def test_cross_site_writes_are_refused_before_anything_is_recorded(table: Served) -> None:
    wait_live(table)
    before = records(table)
    body = json.dumps({"game": table.live.game_id, "ruling": "vp",
                       "args": {"seat": "A", "points": 3}}).encode()
    for _ in range(5):  # today each one appended a judge-refused record
        code, text = raw(table, "POST", "/api/judge/rule", body,
                         {"Content-Type": "text/plain",
                          "Origin": f"http://127.0.0.1:{table.port + 1}"})
        assert code == 403 and "refused" in text
    code, text = raw(table, "POST", "/api/judge/rule", body,
                     {"Content-Type": "text/plain", "Sec-Fetch-Site": "same-site"})
    assert code == 403
    assert records(table) == before
    # sizes and depths: refused with a 4xx in words, never read past the limit, never a 500
    code, text = raw(table, "POST", "/api/judge/rule", b"x" * (MAX_BODY + 1))
    assert code == 413 and "too large" in text
    code, text = raw(table, "POST", "/api/judge/verify",
                     b'{"game": 1, "token": ' + b"[" * 5000 + b"]" * 5000 + b"}")
    assert code == 400 and "nested too deeply" in text
    code, text = raw(table, "POST", "/api/judge/rule",
                     b'{"game": 1, "ruling": "vp", "why": "\\ud800"}')
    assert code == 400 and "lone surrogate" in text
    assert records(table) == before


def test_the_websocket_answers_bad_messages_and_stays_open(table: Served) -> None:
    wait_live(table)
    before = records(table)
    with connect(f"ws://127.0.0.1:{table.port}/ws") as ws:
        def reply() -> dict[str, Any]:
            while True:
                m: dict[str, Any] = json.loads(ws.recv(timeout=20))
                if m["op"] not in ("state", "patch", "game"):
                    return m
        ws.send('{"op": "decide", "text": "\\ud800 fly"}')
        m = reply()
        assert m["op"] == "error" and "lone surrogate" in m["message"]
        ws.send('{"op": "decide", "text": ' + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5)
                + "}")
        assert "nested too deeply" in reply()["message"]
        ws.send(json.dumps({"op": "ping"}))
        assert reply()["op"] == "pong"  # the socket stayed open
    assert records(table) == before


# ---- a real browser on a second origin ----------------------------------------------------------

EVIL_PAGE = """<!doctype html><title>elsewhere</title><script>
window.results = {};
async function attack(target) {
  const r = window.results;
  try { const x = await fetch(target + '/api/games'); r.read = await x.text(); }
  catch (e) { r.read = 'blocked: ' + e; }
  try { const x = await fetch(target + '/api/report/1'); r.report = await x.text(); }
  catch (e) { r.report = 'blocked: ' + e; }
  try { await fetch(target + '/api/judge/rule', {method: 'POST', mode: 'no-cors',
          headers: {'Content-Type': 'text/plain'},
          body: JSON.stringify({game: 1, ruling: 'vp', args: {seat: 'A', points: 30}})});
        r.post = 'sent'; }
  catch (e) { r.post = 'blocked: ' + e; }
  r.ws = await new Promise(done => {
    const got = [];
    const ws = new WebSocket(target.replace('http', 'ws') + '/ws');
    ws.onmessage = m => { got.push(m.data);
      ws.send(JSON.stringify({op: 'decide', text: 'pass'})); };
    ws.onclose = () => done(got);
    setTimeout(() => done(got), 5000);
  });
  r.done = true;
}
</script>"""


@pytest.fixture
def evil_origin() -> Iterator[str]:
    """A page on another port of 127.0.0.1: another origin, the same site."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = EVIL_PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a: object) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()


def run_attack(page: Any, target: str) -> dict[str, Any]:
    page.evaluate(f"attack({json.dumps(target)})")
    page.wait_for_function("window.results.done === true", timeout=30_000)
    out: dict[str, Any] = page.evaluate("window.results")
    return out


def test_a_page_on_another_origin_can_neither_read_nor_change_anything(
        table: Served, browser: Any, evil_origin: str) -> None:
    wait_live(table)
    before, history = records(table), len(table.tracker.game.history)
    page = browser.new_page()
    try:
        page.goto(evil_origin + "/")
        r = run_attack(page, f"http://127.0.0.1:{table.port}")
    finally:
        page.close()
    assert r["read"].startswith("blocked") and r["report"].startswith("blocked"), r
    assert all('"state"' not in m and '"game"' not in m for m in r["ws"]), r["ws"]
    assert any("refused" in m for m in r["ws"]), r["ws"]
    assert records(table) == before and len(table.tracker.game.history) == history


def test_a_rebound_name_can_neither_read_nor_change_anything(
        table: Served, browser: Any) -> None:
    """DNS rebinding: evil.example resolves to 127.0.0.1 (Chromium's host resolver rules), so
    the attacker's page and the table's server share an origin; the Host name gives it away."""
    wait_live(table)
    before = records(table)
    other = browser.browser_type.launch(
        executable_path=chromium_path(),
        args=["--no-sandbox", "--disable-dev-shm-usage",
              "--host-resolver-rules=MAP evil.example 127.0.0.1"])
    try:
        page = other.new_page()
        target = f"http://evil.example:{table.port}"
        resp = page.goto(target + "/")
        assert resp is not None and resp.status == 421
        # the attacker's script, run in a page of that origin
        page.add_script_tag(content=EVIL_PAGE.split("<script>")[1].split("</script>")[0])
        r = run_attack(page, target)
    finally:
        other.close()
    assert '"games"' not in r["read"] and "evil.example" in r["read"], r
    assert "refused" in r["report"], r
    assert all('"state"' not in m for m in r["ws"]), r["ws"]
    assert records(table) == before
