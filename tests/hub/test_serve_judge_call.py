"""The table screen's "Call the judge" button at an event (issue 17 "Judge calls": a table calls
the judge by the web button; issue 13: large touch targets, never colour alone), with the real
Mosquitto and PostgreSQL, the hub's intake and a real Chromium. The table is
``dialtray serve --sim --event`` as its players start it (its assignment from the hub; no bots,
no game played: a few seconds): the call with its note reaches the hub's judge queue through
the table's ``call`` topic (the path of play's ``judge NOTE``), the page shows it pending and
refuses a second one while it is, the hub's ruling reaches the table and the page says so, and a
new call may then be made. Bad requests get a clear error and send nothing (HTTP level, the same
served page). Without an event: tests/ui/test_ui_judge_call.py."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psycopg
import pytest
from dialtray.hub import devservers, event, rulings
from dialtray.hub.ingest import Ingest
from dialtray.hub.sim import wait_for
from dialtray.hub.tableside import EventAddress, EventTable
from dialtray.store.db import GameStore
from hubhelp import EVENT, forget_table, fresh_db

pytest.importorskip("starlette", reason="the table's page needs the `ui` extra (dialtray[ui])")
pytest.importorskip("dialtray.virtual.tray", reason="the virtual tray needs the `sim` extra")
sys.path.insert(0, str(Path(__file__).parents[1] / "ui"))  # the UI tests' helpers (uikit)
from dialtray.hub.web import HubPage
from dialtray.ui.calls import DEFAULT_NOTE, MAX_BODY, MAX_NOTE
from uikit import shot

TABLE = "t01"  # (the hub assigns the round's first pairing to t01)
NOTE = "we disagree on a line of fire"
ANN = [{"figure": "sample-militia-fighter"}]
BOB = [{"figure": "sample-pirate-fighter"}]


def post(url: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    req = urllib.request.Request(url, data=body, method="POST",
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_judge_call_button_reaches_the_hub_queue(servers: devservers.DevServers,
                                                 tmp_path: Path, browser: Any) -> None:
    dsn = fresh_db(servers, "serve_call")
    with psycopg.connect(dsn) as db:
        event.add_player(db, "ann", "Ann", ANN, 200)
        event.add_player(db, "bob", "Bob", BOB, 200)
        creds = rulings.enroll(db, TABLE)
        event.pair(db, 30)
    servers.mqtt.add_user(TABLE, creds["password"])
    forget_table(servers, TABLE)
    (tmp_path / "t.json").write_text(json.dumps({**creds, "event": EVENT}))
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    db_file = tmp_path / "games.sqlite3"
    exe = Path(sys.executable).parent / "dialtray"
    proc = subprocess.Popen(  # the table as its players start it (no bots: nothing moves)
        [str(exe), "serve", "--sim", "--port", "0", "--docks", "4", "--db", str(db_file),
         "--event", f"mqtt://127.0.0.1:{servers.mqtt.port}/{EVENT}", "--creds",
         str(tmp_path / "t.json"), "--wait", "30"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pg = psycopg.connect(dsn, autocommit=True)

    def queue() -> list[tuple[Any, ...]]:
        return pg.execute("SELECT id, table_id, game, note, status FROM hub_calls ORDER BY id"
                          ).fetchall()

    try:
        assert proc.stdout is not None
        said = []
        for line in proc.stdout:  # (the page's address is printed once the table is served)
            said.append(line)
            if line.startswith("open "):
                break
        page_url = said[-1].split()[1] if said else ""
        assert page_url.startswith("http://127.0.0.1:"), said
        gid = int(next(m[1] for m in map(re.compile(r"game (\d+) stored in ").match, said)
                       if m))
        # bad requests first: a clear error each, nothing sent (the hub's queue, in order,
        # shows only the page's two calls at the end)
        url = page_url + "api/call"
        for body, code, words in [
                (b"{not json", 400, "not JSON"), (b"[1, 2]", 400, "JSON object"),
                (json.dumps({"note": 7}).encode(), 400, "note: a text"),
                (json.dumps({"note": "x", "table": "t2"}).encode(), 400, "unknown field"),
                (json.dumps({"note": "x" * (MAX_NOTE + 1)}).encode(), 400,
                 f"at most {MAX_NOTE} characters"),
                (b'{"note": "' + b"y" * MAX_BODY + b'"}', 413, "too large")]:
            got, reply = post(url, body)
            assert (got, reply["ok"]) == (code, False), (body[:40], got, reply)
            assert words in reply["error"] and "nothing was sent" in reply["error"], reply
        got, reply = post(url, b'{"note": "x"}', {"Origin": "http://evil.example"})
        assert got == 403 and "a page from http://evil.example" in reply["error"], reply
        b = browser.new_page(viewport={"width": 1000, "height": 800})
        b.goto(page_url)
        btn = b.locator("#call-button")
        btn.wait_for(state="visible", timeout=10000)
        box = btn.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
        assert "Call the judge" in btn.inner_text()
        status = b.locator("#call-status")
        status.filter(has_text=f"Table {TABLE} at event {EVENT}").wait_for(timeout=10000)
        b.fill("#call-note", NOTE)
        btn.click()
        status.filter(has_text="pending").wait_for(timeout=10000)
        assert NOTE in status.inner_text() and "◷" in status.inner_text()  # words and a sign
        wait_for(lambda: len(queue()) == 1, 20, "the call in the hub's judge queue")
        call_id, table, game, note, state = queue()[0]
        assert (table, game, note, state) == (TABLE, gid, NOTE, "open")
        btn.click()  # a second call while the first waits for the judge: refused, not sent
        status.filter(has_text="already pending").wait_for(timeout=10000)
        assert status.get_attribute("data-state") == "refused"
        assert "pending" in btn.inner_text()  # the button says it too
        shot(b, "judge-call-pending")

        HubPage(dsn, "k", hub)._rule(call_id, "note", {}, "the judge is on the way")
        status.filter(has_text="The judge answered").wait_for(timeout=20000)
        assert "the judge is on the way" in status.inner_text()
        with sqlite3.connect(db_file) as conn:  # stored with the table's game too
            assert conn.execute("SELECT COUNT(*) FROM records WHERE game_id = ? AND kind = "
                                "'ruling'", (gid,)).fetchone()[0] == 1
        shot(b, "judge-call-answered")
        btn.click()  # answered: the table may call again (no note: a default one)
        status.filter(has_text="pending").wait_for(timeout=10000)
        wait_for(lambda: len(queue()) == 2, 20, "the second call in the hub's queue")
        # (a table's calls reach the hub in order: none was sent before, between or after)
        assert [r[3] for r in queue()] == [NOTE, DEFAULT_NOTE]
        assert [r[4] for r in queue()] == ["ruled", "open"]
        b.close()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        pg.close()
        hub.stop()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert f"judge called ({NOTE})" in out  # (the table's own console says it as well)
    assert [r[3] for r in queue_of(dsn)] == [NOTE, DEFAULT_NOTE]


def queue_of(dsn: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(dsn) as db:
        return db.execute("SELECT id, table_id, game, note FROM hub_calls ORDER BY id"
                          ).fetchall()


def test_one_pending_call_from_the_screen_until_a_ruling(tmp_path: Path) -> None:
    """The table's side without a network (the link made, never started): the screen's call
    (``once``) is refused while one is pending; the roll button held still calls (the players'
    way when the screen is away); a new ruling answers the pending call, a ruling sent again
    (already stored) answers nothing."""
    from dialtray.hub.tableside import HOLD_NOTE

    db_file = tmp_path / "g.sqlite3"
    with GameStore.open(db_file) as st:
        gid = st.new_game("airaction")
    ev = EventTable(db_file, EventAddress("127.0.0.1", 1, EVENT),
                    {"table": "t9", "password": "pw", "ruling_key": b"k" * 16, "event": EVENT})
    ev.gid = gid
    assert ev.call_status()["pending"] is None
    assert ev.call_judge("first", once=True)
    assert not ev.call_judge("second", once=True)
    assert ev.calls == ["first"] and ev.call_status()["pending"]["note"] == "first"
    ev.call_judge(HOLD_NOTE)
    assert ev.calls == ["first", HOLD_NOTE]
    ruling = {"call": 1, "game": gid, "ruling": "note", "args": {}, "why": "on my way"}
    ev._ruling(ruling)
    got = ev.call_status()
    assert got["pending"] is None and got["answered"]["why"] == "on my way"
    assert ev.call_judge("third", once=True)
    ev._ruling(ruling)  # the same ruling again (the hub resends what it has not seen stored)
    assert ev.call_status()["pending"]["note"] == "third"
