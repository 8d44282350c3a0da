"""`dialtray serve --sim --bots --event mqtt://… --creds …`: the table's screen as a table of an
event, followed on the hub page in a real Chromium. The table plays its assignment (the pairing's
squadrons: the board shows their planes' dials from the live tracker), its records reach the hub
while the game runs, the organiser calls time and the round's timer ends the game (AA-M53 (2)):
the board shows it over and the result reaches the standings; Ctrl-C stops the table cleanly and
the board shows it offline."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from dialtray.hub import devservers, event, rulings
from dialtray.hub.sim import wait_for
from hubhelp import EVENT, forget_table, fresh_db, hub_page

pytest.importorskip("starlette", reason="the hub page needs the `ui` extra (dialtray[ui])")
pytest.importorskip("dialtray.virtual.tray", reason="the virtual tray needs the `sim` extra")

ANN = [{"figure": "sample-militia-fighter"}]
BOB = [{"figure": "sample-pirate-fighter"}, {"figure": "sample-militia-fighter"}]


@pytest.mark.slow(cost=8)
def test_serve_at_an_event_on_the_hub_page(servers: devservers.DevServers, tmp_path: Path,
                                           browser: Any) -> None:
    dsn = fresh_db(servers, "serve_event")
    with psycopg.connect(dsn) as db:
        event.add_player(db, "ann", "Ann", ANN, 200)
        event.add_player(db, "bob", "Bob", BOB, 200)
        creds = rulings.enroll(db, "t01")
        event.pair(db, 30)
    servers.mqtt.add_user("t01", creds["password"])
    forget_table(servers, "t01")  # (another test's table t01 may have left its state)
    (tmp_path / "t01.json").write_text(json.dumps({**creds, "event": EVENT}))
    _, hub, served = hub_page(servers, dsn)
    exe = Path(sys.executable).parent / "dialtray"
    proc = subprocess.Popen(
        [str(exe), "serve", "--sim", "--bots", "--turns", "50", "--port", "0", "--docks", "4",
         "--db", str(tmp_path / "games.sqlite3"), "--event",
         f"mqtt://127.0.0.1:{servers.mqtt.port}/{EVENT}", "--creds",
         str(tmp_path / "t01.json"), "--wait", "30"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pg = psycopg.connect(dsn, autocommit=True)

    def one(sql: str) -> object:
        row = pg.execute(sql).fetchone()
        return None if row is None else row[0]

    try:
        b = browser.new_page()
        b.goto(served.url)
        card = b.locator('[data-table="t01"]')
        card.locator(".dials", has_text="A1 combat").wait_for(timeout=40000)
        text = card.inner_text()  # the pairing's planes: ann's A1, bob's B1 and B2, no more
        assert "B2 speed" in text and "A2" not in text and "B3" not in text, text
        assert "● online" in text
        card.locator(".phase", has_text="phase: turn").wait_for(timeout=30000)
        wait_for(lambda: int(str(one("SELECT COUNT(*) FROM hub_records WHERE table_id = "
                                     "'t01'"))) > 20, 30, "records while the game runs")
        assert one("SELECT game FROM hub_pairings WHERE table_id = 't01'") is not None
        assert proc.poll() is None
        pg.execute("UPDATE hub_rounds SET started = now() - interval '1799 seconds'")
        hub.repush()  # the organiser calls time: 1 s left
        card.locator(".phase", has_text="phase: over: time limit reached").wait_for(
            timeout=30000)
        wait_for(lambda: one("SELECT vp_a FROM hub_pairings WHERE table_id = 't01'")
                 is not None, 20, "the result from the table's end record")
        b.locator("#standings tbody tr").nth(1).wait_for(timeout=10000)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        card.locator("div", has_text="○ offline").first.wait_for(timeout=20000)
        b.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        pg.close()
        served.close()
        hub.stop()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "the round's time is up: the game ends (end time, AA-M53 (2))" in out
    with psycopg.connect(dsn) as db:
        assert {s.player: s.played for s in event.standings(db)} == {"ann": 1, "bob": 1}
