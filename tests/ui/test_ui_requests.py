"""Bad requests meet a clear error and change nothing; the network needs the access key; the
CLI starts without the web framework and `dialtray serve` runs as a program.

Real server (uvicorn on a loopback port) and a real websocket client; no browser needed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from dialtray.cli import main
from dialtray.commands._common import sim_missing
from dialtray.store import judge as jg
from dialtray.store.db import GameStore
from dialtray.ui.app import WS_MAX_MESSAGE
from dialtray.ui.server import Served
from uikit import apply, serve
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

BIN = Path(sys.executable).parent


def ws_url(served: Served, query: str = "") -> str:
    return f"ws://127.0.0.1:{served.port}/ws{query}"


def http(served: Served, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
    data = None if body is None else (body if isinstance(body, bytes) else
                                      json.dumps(body).encode())
    req = urllib.request.Request(f"http://127.0.0.1:{served.port}{path}", data=data,
                                 method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def first_state(ws: Any) -> dict[str, Any]:
    """The first state a page gets, with the game's message that comes before it."""
    game = json.loads(ws.recv(timeout=20))
    assert game["op"] == "game", game
    m: dict[str, Any] = json.loads(ws.recv(timeout=20))
    assert m["op"] == "state" and m["game_rev"] == game["game_rev"]
    return {**m, "game": game["game"]}


def reply(ws: Any) -> dict[str, Any]:
    """The next message that is not a push (state, patch or game)."""
    while True:
        m: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if m["op"] not in ("state", "patch", "game"):
            return m


def test_bad_websocket_requests_get_clear_errors_and_change_nothing(table: Served) -> None:
    t = table.tracker
    deadline = time.monotonic() + 60  # the start check passes once the tray's snapshot is in
    while not json.loads(table.live.latest["game"])["game"]["legal"] and \
            time.monotonic() < deadline:  # and the page is told the decisions it allows
        time.sleep(0.02)
    assert t.phase == "play", t.waiting_for()
    with connect(ws_url(table, "?game=999")) as ws:
        m = json.loads(ws.recv(timeout=20))
        assert m["op"] == "error" and "unknown game '999'" in m["message"]
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=20)
    with connect(ws_url(table, f"?game={table.live.game_id}")) as ws:
        state = first_state(ws)
        history, lines = len(t.game.history), len(t.lines)
        assert state["game"]["history"] == history
        ws.send("{not json")
        assert "not a JSON message" in reply(ws)["message"]
        ws.send(json.dumps({"op": "explode"}))
        assert "unknown request" in reply(ws)["message"]
        ws.send(json.dumps({"op": "decide", "text": "shoot the moon"}))
        r = reply(ws)
        assert r["ok"] is False and r["message"], r
        to_move = t.game.to_move()
        other = next(s for s in t.game.seats() if s != to_move)
        legal = state["game"]["legal"][0]
        ws.send(json.dumps({"op": "decide", "text": legal, "seat": other}))
        r = reply(ws)
        assert r["ok"] is False and f"{to_move} decides now, not {other}" in r["message"], r
        ws.send(json.dumps({"op": "decide", "text": legal, "seat": "P9"}))
        assert "unknown seat 'P9'" in reply(ws)["message"]
        ws.send(json.dumps({"op": "decide", "text": legal, "pad": "x" * WS_MAX_MESSAGE}))
        r = reply(ws)
        assert "message too large" in r["message"] and "nothing was done" in r["message"]
        assert len(t.game.history) == history  # nothing changed
        assert [x for x in t.lines[lines:] if isinstance(x, str)] == []
        ws.send(json.dumps({"op": "eye", "dock": "0", "reader": 0}))
        assert "dock, reader: whole numbers" in reply(ws)["message"]
        ws.send(json.dumps({"op": "eye", "dock": 0, "reader": 0}))  # an AS5600: refused
        r = reply(ws)
        assert r["ok"] is False and r["message"] == (
            "dock 0 combat dial (A1): its sensor reads it (it has not lost track): only a dial "
            "whose encoder lost track is confirmed by eye"), r
        assert not t.eyes
        ws.send(json.dumps({"op": "ping"}))
        assert reply(ws)["op"] == "pong"
    with connect(ws_url(table)) as ws:  # far past the frame limit: the server cuts it off
        first_state(ws)
        ws.send("x" * 200_000)
        with pytest.raises(ConnectionClosed) as e:
            while True:
                ws.recv(timeout=20)
        assert e.value.rcvd is not None and e.value.rcvd.code == 1009
    with connect(ws_url(table), origin="http://elsewhere.example") as ws:
        m = json.loads(ws.recv(timeout=20))
        assert m["op"] == "error" and "http://elsewhere.example" in m["message"]
    with connect(ws_url(table)) as ws:  # and the next page is served as before
        assert first_state(ws)["game"]["history"] == len(t.game.history)


def test_bad_http_requests_get_clear_errors(table: Served) -> None:
    assert http(table, "/api/report/999") == (404, {"error": "unknown game 999 (see "
                                                             "`dialtray games`)"})
    code, body = http(table, "/api/report/abc")
    assert code == 400 and "game number" in body["error"]
    code, body = http(table, "/api/odds?dice=99&target=4")
    assert code == 400 and "dice" in body["error"]
    code, body = http(table, "/api/odds?dice=3&target=0")
    assert code == 400 and "target" in body["error"]
    code, body = http(table, "/api/judge/verify", b"{oops")
    assert code == 400 and "not JSON" in body["error"]
    code, body = http(table, "/api/judge/rule", {"game": table.live.game_id, "ruling": "vp",
                                                 "args": {"seat": "P1", "points": 1}})
    assert code == 403 and "no judge token given" in body["error"]
    code, body = http(table, "/api/judge/verify", {"game": 999, "token": "x"})
    assert code == 403  # the token is checked first: nothing about the game is told
    code, body = http(table, "/api/games")
    assert code == 200 and body["live"] == table.live.game_id
    with GameStore.open(table.opts.db) as store:
        token = jg.new_token(store, "requests")
    t, gid = table.tracker, table.live.game_id

    def judged() -> int:
        with GameStore.open(table.opts.db, readonly=True) as store:
            return sum(1 for r in store.rows(gid) if r.kind == "judge")

    history, rulings = len(t.game.history), judged()
    for args, why in (({"figure": "Z9", "dial": "combat", "click": 3}, "args.figure/dial"),
                      ({"figure": "A1", "dial": "combat", "click": "3"}, "args.click"),
                      ({"figure": "A1", "dial": "combat", "click": 300}, "args.click"),
                      ({"figure": "A1", "dial": "combat", "click": 3, "x": 1}, "args.x")):
        code, body = http(table, "/api/judge/rule", {"game": gid, "token": token,
                                                     "ruling": "set-dial", "args": args})
        assert code == 400 and body["error"].startswith(why), body
    code, body = http(table, "/api/judge/rule", {"game": gid, "token": token,
                                                 "ruling": "explode"})
    assert code == 400 and "unknown ruling 'explode'" in body["error"], body
    if not t.game.history:  # nothing to take back: said, nothing stored
        code, body = http(table, "/api/judge/rule", {"game": gid, "token": token,
                                                     "ruling": "undo"})
        assert code == 409 and "no action to undo" in body["error"], body
    assert len(t.game.history) == history and judged() == rulings


def test_a_ruling_on_the_live_game_is_applied_by_its_tracker(table: Served) -> None:
    """A judge's set-dial on the live game (HTTP, with the token): stored like the CLI's,
    applied by the live tracker at once (the dock is flagged until the dial shows the ruled
    click) and pushed to every page; refused without the token (recorded, shown)."""
    t, gid = table.tracker, table.live.game_id
    with GameStore.open(table.opts.db) as store:
        token = jg.new_token(store, "live")
    st = [s for s in t.slots.values() if s.dial.kind == "combat"][-1]
    n = st.slot.dock
    click = t.dials()[st.dial].click
    assert click is not None
    with connect(ws_url(table)) as ws:
        first = first_state(ws)
        args = {"figure": st.dial.figure, "dial": "combat", "click": click + 1}
        code, body = http(table, "/api/judge/rule", {"game": gid, "ruling": "set-dial",
                                                     "args": args})
        assert code == 403 and "no judge token given" in body["error"], body
        code, body = http(table, "/api/judge/rule", {"game": gid, "token": token,
                                                     "ruling": "set-dial", "args": args})
        assert code == 200 and body["ok"], body
        assert body["shown"] and f"must show click {click + 1}" in body["shown"][-1], body
        m = first
        while True:  # pushed: the ruling and the flag on its dock
            pushed = json.loads(ws.recv(timeout=20))
            if pushed["op"] not in ("state", "patch"):
                continue
            m = apply(m, pushed)
            dock = next(d for d in m["docks"] if d["dock"] == n)
            flag = dock["readers"][0]["flag"]
            if flag and "the judge ruled it must show click" in flag["text"]:
                break
        assert any(r.startswith("a ruling was refused") for r in m["rulings"]), m["rulings"]
        assert f"must show click {click + 1}" in m["rulings"][-1]
    with GameStore.open(table.opts.db, readonly=True) as store:
        kinds = [(r.kind, json.loads(r.content)["data"].get("ruling")) for r in store.rows(gid)
                 if r.kind.startswith("judge")]
    assert kinds[-2:] == [("judge-refused", "set-dial"), ("judge", "set-dial")], kinds
    table.tray.turn(n, st.slot.dial, -st.offset)  # put it where the judge said
    deadline = time.monotonic() + 20
    while (st.flag is not None or st.offset) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert st.flag is None and st.offset == 0, t.waiting_for()
    # `dialtray judge` from another connection while the game is served: applied and shown too
    assert main(["judge", "vp", str(gid), "P1", "1", "--token", token, "--db",
                 str(table.opts.db)]) == 0
    deadline = time.monotonic() + 20
    while not any("judge's VP for P1 now" in r for r in table.live.rulings) and \
            time.monotonic() < deadline:
        time.sleep(0.02)
    assert "judge's VP for P1 now +1" in table.live.rulings[-1], table.live.rulings
    code, body = http(table, "/api/judge/rule", {"game": gid, "token": token,  # and back
                                                 "ruling": "set-dial", "args": {**args,
                                                                                "click": click}})
    assert code == 200, body
    table.tray.turn(n, st.slot.dial, -st.offset)
    deadline = time.monotonic() + 20
    while (st.flag is not None or st.offset) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert st.flag is None and st.offset == 0, t.waiting_for()


def test_patches_rebuild_the_state_a_new_page_gets(table: Served) -> None:
    """After its first whole state a page is pushed patches (the readers' fields and the keys
    that changed), each serialised once for every page; applied in order they give exactly the
    state a page opened now gets. A page that asks (``resync``) gets the whole state again."""
    t = table.tracker
    st = next(s for s in t.slots.values() if s.slot.dock == 1 and s.dial.kind == "combat")
    with connect(ws_url(table)) as ws:
        m = first_state(ws)
        sizes: list[tuple[int, int]] = []  # (patch, whole state) in bytes
        table.tray.turn(1, st.slot.dial, 1)  # flagged once judged, then put right
        deadline = time.monotonic() + 20
        while st.flag is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert st.flag is not None
        table.tray.turn(1, st.slot.dial, -1)
        while (st.flag is not None or st.offset) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert st.flag is None and st.offset == 0
        time.sleep(0.2)  # the table publishes the last change
        while m["rev"] < table.live.rev:
            raw = ws.recv(timeout=20)
            pushed = json.loads(raw)
            if pushed["op"] == "patch":
                sizes.append((len(raw), len(table.live.latest["state"])))
            if pushed["op"] in ("state", "patch"):
                m = apply(m, pushed)
        whole = json.loads(table.live.latest["state"])
        assert m["rev"] == whole["rev"]
        assert {k: v for k, v in m.items() if k != "game"} == whole
        assert len(sizes) >= 3, sizes  # moved, flagged, put right: patches, not whole states
        assert all(p < w / 10 for p, w in sizes), sizes
        ws.send(json.dumps({"op": "resync"}))
        again: dict[str, Any] = {}
        while again.get("op") != "state":
            again = json.loads(ws.recv(timeout=20))
        assert again["rev"] >= whole["rev"] and again["docks"]


def test_off_localhost_every_request_needs_the_access_key(tmp_path: Path) -> None:
    # bound to every interface, reached through the loopback only
    s = serve(tmp_path, host="0.0.0.0")
    try:
        assert s.key and f"?key={s.key}" in s.url
        code, body = http(s, "/api/games")
        assert code == 403 and "access key" in body["error"]
        code, _ = http(s, f"/api/games?key={s.key}")
        assert code == 200
        with connect(ws_url(s)) as ws:
            m = json.loads(ws.recv(timeout=20))
            assert m["op"] == "error" and "access key" in m["message"]
        with connect(ws_url(s, f"?key={s.key}")) as ws:
            assert first_state(ws)["game_id"] == s.live.game_id
    finally:
        s.close()


def test_the_cli_starts_without_the_web_framework() -> None:
    code = ("import sys\nfrom dialtray import cli\ncli.build_parser()\n"
            "print([m for m in ('starlette', 'uvicorn', 'websockets', 'dialtray.ui.app') "
            "if m in sys.modules])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "[]", r.stdout


def test_dialtray_serve_runs_as_a_program_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    if sim_missing():
        pytest.skip(str(sim_missing()))
    p = subprocess.Popen([str(BIN / "dialtray"), "--data-dir", str(tmp_path), "serve", "--sim",
                          "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert p.stdout is not None
        url = ""
        for line in p.stdout:
            if line.startswith("open http://127.0.0.1:"):
                url = line.split()[1]
                break
        assert url, p.stderr.read() if p.stderr else ""
        with urllib.request.urlopen(url, timeout=20) as r:
            page = r.read()
        assert b"dialtray" in page
        # the page names its own icon: the browser asks no /favicon.ico (a 404 in its console)
        assert b'<link rel="icon" href="data:image/svg+xml,' in page
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        assert "stopping" in out, out
        # what became of the game, and how to carry it on (before: nothing said)
        assert ("game 1 is not over: it stays stored (dialtray play --resume 1 --sim carries "
                "it on at a terminal, dialtray games --close 1 --reason TEXT closes it)") in out
        assert p.returncode == 0, err
        assert "Traceback" not in err, err
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_serve_without_the_ui_extra_says_how_to_get_it(tmp_path: Path) -> None:
    code = ("import sys\nfor m in ('starlette', 'uvicorn', 'websockets'):\n"
            "    sys.modules[m] = None\nfrom dialtray import cli\n"
            f"raise SystemExit(cli.main(['--data-dir', {str(tmp_path)!r}, 'serve', '--sim']))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    assert "pip install 'dialtray[ui]'" in r.stderr and "Traceback" not in r.stderr, r.stderr
