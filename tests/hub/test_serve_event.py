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
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
from dialtray.hub import devservers, event, rulings
from hubhelp import EVENT, forget_table, fresh_db, hub_page

pytest.importorskip("starlette", reason="the hub page needs the `ui` extra (dialtray[ui])")
pytest.importorskip("dialtray.virtual.tray", reason="the virtual tray needs the `sim` extra")

# The whole journey's deadline, generous for a loaded machine (it takes ~10 s on a quiet one):
# every wait below is for a condition, each with what is left of it; a table that ended early
# fails at once with what it said.
JOURNEY_S = 300.0
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

    end = time.monotonic() + JOURNEY_S

    def until(cond: Callable[[], bool], what: str) -> None:
        """Wait for ``cond`` within the journey's deadline; fail at once if the table ended."""
        while not cond():
            if proc.poll() is not None:
                out, err = proc.communicate()
                pytest.fail(f"waiting for {what}: the table ended ({proc.returncode}):\n"
                            f"{out[-2000:]}\n{err[-2000:]}")
            if time.monotonic() > end:
                pytest.fail(f"{what}: not within {JOURNEY_S:.0f} s")
            time.sleep(0.1)

    def shown(loc: Any, what: str) -> None:
        until(lambda: loc.count() > 0, what)

    try:
        b = browser.new_page()
        b.goto(served.url)
        card = b.locator('[data-table="t01"]')
        shown(card.locator(".dials", has_text="A1 combat"), "the table's dials on the hub page")
        text = card.inner_text()  # the pairing's planes: ann's A1, bob's B1 and B2, no more
        assert "B2 speed" in text and "A2" not in text and "B3" not in text, text
        assert "● online" in text
        shown(card.locator(".phase", has_text="phase: turn"), "the game's turns on the page")
        until(lambda: int(str(one("SELECT COUNT(*) FROM hub_records WHERE table_id = 't01'")))
              > 20, "records while the game runs")
        assert one("SELECT game FROM hub_pairings WHERE table_id = 't01'") is not None
        assert proc.poll() is None
        pg.execute("UPDATE hub_rounds SET started = now() - interval '1799 seconds'")
        hub.repush()  # the organiser calls time: 1 s left
        shown(card.locator(".phase", has_text="phase: over: time limit reached"),
              "the game over at the time limit on the page")
        until(lambda: one("SELECT vp_a FROM hub_pairings WHERE table_id = 't01'") is not None,
              "the result from the table's end record")
        until(lambda: b.locator("#standings tbody tr").count() >= 2,
              "both players in the standings")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=max(30.0, end - time.monotonic()))
        offline = card.locator("div", has_text="○ offline").first
        while offline.count() == 0:
            assert time.monotonic() < end, "the table offline on the page"
            time.sleep(0.1)
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
