"""The hub page in a real Chromium (Debian's, driven by Playwright, as tests/ui does): the
organiser's token is required; a table's live state (phase, dials, flags), the standings and the
judge queue appear; the judge's click on a call sends a signed ruling that reaches the table."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psycopg
import pytest
from dialtray.hub import devservers, event, rulings
from dialtray.hub.sim import ScriptedTable, wait_for
from dialtray.hub.table import Broker
from dialtray.hub.tableside import EventAddress, EventTable
from dialtray.link.messages import Click
from dialtray.store.db import GameStore
from hubhelp import EVENT, agree, forget_table, fresh_db, hub_page, tracker

pytest.importorskip("starlette", reason="the hub page needs the `ui` extra (dialtray[ui])")


def test_hub_page_live_tables_standings_and_a_ruling(
        servers: devservers.DevServers, tmp_path: Path, browser: Any) -> None:
    dsn = fresh_db(servers, "hub_page")
    with psycopg.connect(dsn) as db:
        for p in ("ann", "bob"):
            event.add_player(db, p, p, [{"figure": "sample-militia-fighter"}], 200)
        creds = rulings.enroll(db, "pg-t1")
        event.pair(db, 90)  # round 1: ann – bob, 90 minutes on the clock
    page, ingest, served = hub_page(servers, dsn)
    servers.mqtt.add_user("pg-t1", creds["password"])
    t = ScriptedTable(tmp_path, EVENT, "pg-t1",
                      Broker("127.0.0.1", servers.mqtt.port, "pg-t1", creds["password"]),
                      ("ann", "bob"), 1, 400, seed=1, pace=0.05,
                      ruling_key=bytes.fromhex(creds["ruling_key"])).start()
    try:
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(f"http://127.0.0.1:{served.port}/api/state")
        assert e.value.code == 403
        wait_for(lambda: t.gid > 0 and t.link.connected.is_set(), 20, "the table plays")
        t.link.publish_state({"phase": "movement", "dials": {"A1": 3}, "flags": ["too-many"],
                              "click": 1})
        t.link.call_judge(t.gid, "disputed collision")
        pg = browser.new_page()
        pg.goto(served.url)
        card = pg.locator('[data-table="pg-t1"]')
        card.locator(".phase", has_text="phase: movement").wait_for(timeout=20000)
        assert "too-many" in card.locator(".flags").inner_text()
        pg.locator("#standings tbody tr").nth(1).wait_for(timeout=10000)
        assert re.fullmatch(r"round 1: (89|90):\d\d left", pg.locator("#round").inner_text())
        call = pg.locator("#calls li", has_text="disputed collision")
        call.wait_for(timeout=10000)
        assert call.locator(".call-state").inner_text().strip() == "[movement; ⚑ too-many]"
        # (the judge sees the calling table's phase and flags in the queue)
        # the queue is updated in place: a state push does not replace the button a judge is
        # pressing (rebuilt, a press and release could land on two buttons: no click)
        button = call.locator("button").element_handle()
        at = pg.evaluate("document.body.dataset.at")
        pg.wait_for_function("at => document.body.dataset.at !== at", arg=at, timeout=10000)
        assert button.evaluate("b => b.isConnected"), "a state push replaced the Rule button"
        call.locator("button").click()
        wait_for(lambda: len(t.link.stats.rulings) == 1, 20, "the ruling reaches the table")
        assert t.link.stats.rulings[0]["why"] == "judge: play on"
        pg.locator("#no-calls").wait_for(state="visible", timeout=10000)
        state = json.loads(urllib.request.urlopen(
            f"http://127.0.0.1:{served.port}/api/state?key={page.token}").read())
        assert state["calls"][0]["status"] == "ruled"
        call_id = state["calls"][0]["id"]
        for body, words in (  # issue 32: one ruling per call; no NUL or NaN reaches JSONB
                ({"call": call_id, "ruling": "note", "why": "again"}, "already ruled"),
                ({"call": call_id, "ruling": "note", "why": "a\u0000b"}, "NUL"),
                ({"call": call_id, "ruling": "vp", "args": {"vp": float("nan")}}, "finite")):
            req = urllib.request.Request(
                f"http://127.0.0.1:{served.port}/api/rule?key={page.token}",
                json.dumps(body).encode(), {"content-type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(req)
            assert refused.value.code == 400
            assert words in json.loads(refused.value.read())["error"]
        pg.close()
    finally:
        t.close()
        served.close()
        ingest.stop()


def test_a_live_tracker_on_the_board(servers: devservers.DevServers, tmp_path: Path,
                                     browser: Any) -> None:
    """A table's live state as `play`/`serve --event` publish it (the real tracker's view, via
    `EventTable.step`, retained, through the broker) on the hub page's board: the pairing-free
    table at its start click, then a dial spun that nobody caused, flagged (AA-M81)."""
    dsn = fresh_db(servers, "hub_board")
    with psycopg.connect(dsn) as db:
        creds = rulings.enroll(db, "bd-t1")
    servers.mqtt.add_user("bd-t1", creds["password"])
    forget_table(servers, "bd-t1")
    _, ingest, served = hub_page(servers, dsn)
    GameStore.open(tmp_path / "g.sqlite3").close()
    ev = EventTable(tmp_path / "g.sqlite3", EventAddress("127.0.0.1", servers.mqtt.port, EVENT),
                    {**creds, "ruling_key": bytes.fromhex(creds["ruling_key"])}).start()
    t = tracker("airaction")
    agree(t, 0.0)
    said: list[str] = []
    try:
        wait_for(ev.link.connected.is_set, 20, "the table connected")
        ev.step(t, said.append)
        pg = browser.new_page()
        pg.goto(served.url)
        card = pg.locator('[data-table="bd-t1"]')
        card.locator(".dials", has_text="A1 combat 0").wait_for(timeout=20000)
        assert card.locator(".phase").inner_text() == "phase: turn 0 deploy"
        slot = next(s for s, d in t.binding.items() if d.figure == "B2" and d.kind == "combat")
        t.feed(Click(1, slot.dock, slot.dial, 2, 2), 1.0)  # spun two clicks, nobody caused it
        t.tick(1.0 + t.timing.judge_s + 0.1)

        def sent_again() -> bool:
            ev.step(t, said.append)  # (the game's loop: at most every 0.1 s, when changed)
            return ev.states == 2

        wait_for(sent_again, 5, "the state sent again")
        flags = card.locator(".flags")
        flags.wait_for(timeout=20000)
        assert "B2" in flags.inner_text()
        assert "to turn: B2 combat -2" in card.inner_text()
        pg.close()
    finally:
        ev.stop(0)
        served.close()
        ingest.stop()


def test_one_snapshot_per_change_for_every_open_page(servers: devservers.DevServers) -> None:
    """Issue 35: a change is read from PostgreSQL once (on the page's one connection) and the
    same text goes to every open page; before, each page opened a connection and read its
    own snapshot."""
    from dialtray.hub.web import HubPage, ServedHub
    from websockets.sync.client import connect

    dsn = fresh_db(servers, "hub_page_shared")
    page = HubPage(dsn, "k")
    served = ServedHub(page)
    socks = []
    try:
        for _ in range(6):
            socks.append(connect(f"ws://127.0.0.1:{served.port}/ws?key=k", legacy=True))
        first = [json.loads(ws.recv(timeout=10)) for ws in socks]
        assert all(f["op"] == "state" and f["db"] is None for f in first)
        with psycopg.connect(dsn) as db:
            event.add_player(db, "ann", "Ann", [{"figure": "sample-militia-fighter"}], 200)
        before = page.reads
        page.changed()
        got = [json.loads(ws.recv(timeout=10)) for ws in socks]
        assert all([s["player"] for s in g["standings"]] == ["ann"] for g in got)
        assert len({json.dumps(g) for g in got}) == 1  # one snapshot, the same for all
        assert page.reads - before < len(socks), page.reads - before  # (1 unless it aged)
    finally:
        for ws in socks:
            ws.close()
        served.close()
