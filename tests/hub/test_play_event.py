"""`dialtray play airaction --sim --event mqtt://… --creds …` as a table at an event would run it,
with the real Mosquitto and PostgreSQL and the hub's intake: the table waits for its assignment,
plays the pairing's two squadrons (loaded from the hub) on the virtual tray, sends every record
while the game runs, goes on playing while its network is cut (the hub sees it offline, then gets
everything once it is back), publishes its live state, calls the judge when the roll button is
held 3.5 s (typed into play's sim console: the virtual tray's firmware reports press and
release), and when the organiser calls time (1 s left, pushed again to the table) the round's
timer (AA-M53 (2), the event's time limit) ends the game with `end time`. Afterwards every record
of the game is at the hub once, the result is in the standings, the table's presence says
`offline`."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from dialtray.hub import devservers, event, rulings
from dialtray.hub.ingest import Ingest
from dialtray.hub.sim import Relay, wait_for
from dialtray.store.db import GameStore
from hubhelp import EVENT, forget_table, fresh_db

pytest.importorskip("dialtray.virtual.tray", reason="the virtual tray needs the `sim` extra")

ANN = [{"figure": "sample-militia-fighter"}, {"figure": "sample-pirate-fighter"}]
BOB = [{"figure": "sample-pirate-fighter"}]
ROUND_S = 1  # the round's clock once the test has seen the game run: it must end the game


def test_play_at_an_event(servers: devservers.DevServers, tmp_path: Path) -> None:
    dsn = fresh_db(servers, "play_event")
    with psycopg.connect(dsn) as db:
        event.add_player(db, "ann", "Ann", ANN, 200)
        event.add_player(db, "bob", "Bob", BOB, 200)
        creds = rulings.enroll(db, "t01")
        assert event.pair(db, 30)[1] == [("ann", "bob", "t01")]
    servers.mqtt.add_user("t01", creds["password"])
    forget_table(servers, "t01")  # (another test's table t01 may have left its state)
    (tmp_path / "t01.json").write_text(json.dumps({**creds, "event": EVENT}))
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    games = tmp_path / "games.sqlite3"
    relay = Relay(servers.mqtt.port)  # the table's network, to be cut
    exe = Path(sys.executable).parent / "dialtray"
    proc = subprocess.Popen(
        [str(exe), "play", "airaction", "--sim", "--seats", "bot,bot", "--dice", "seeded",
         "--turns", "99", "--plain", "--db", str(games), "--log", str(tmp_path / "g.log"),
         "--event", f"mqtt://127.0.0.1:{relay.port}", "--creds",
         str(tmp_path / "t01.json"), "--wait", "30"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pg = psycopg.connect(dsn, autocommit=True)

    def one(sql: str) -> object:
        row = pg.execute(sql).fetchone()
        return None if row is None else row[0]

    def stored() -> int:  # at the table
        with sqlite3.connect(games) as c:
            return int(c.execute("SELECT COUNT(*) FROM records").fetchone()[0])

    def presence() -> object:
        return one("SELECT presence FROM hub_tables WHERE id = 't01'")

    try:
        wait_for(lambda: one("SELECT game FROM hub_pairings WHERE table_id = 't01'") is not None,
                 40, "the table's game started from its assignment (its first record at the hub)")
        assert proc.poll() is None  # … while the game runs
        assert proc.stdin is not None
        proc.stdin.write("press 3500\n")  # the virtual tray's roll button, held 3.5 s
        proc.stdin.flush()
        wait_for(lambda: one("SELECT COUNT(*) FROM hub_calls WHERE table_id = 't01'") == 1, 20,
                 "the judge call made by holding the roll button")
        proc.stdin.write("judge B2 says it was out of range\n")  # typed at the prompt
        proc.stdin.flush()
        wait_for(lambda: one("SELECT COUNT(*) FROM hub_calls WHERE table_id = 't01'") == 2, 20,
                 "the judge call typed at the prompt")
        wait_for(lambda: one("SELECT state->>'phase' FROM hub_tables WHERE id = 't01'")
                 is not None, 10, "the table's live state")
        relay.cut(3600)  # the table's cable pulled: the broker's Last Will says offline …
        wait_for(lambda: presence() == "offline", 20, "the table offline (its Last Will)")
        # the judge rules meanwhile: this message is lost, the hub sends it again once the
        # table is back
        call = int(str(one("SELECT MIN(id) FROM hub_calls")))
        body, sig = rulings.make_ruling(pg, rulings.ruling_key(pg, "t01"), call, "note", {},
                                        "judge: play on")
        hub.send("t01", "ruling", {"body": body, "sig": sig})
        before = stored()
        wait_for(lambda: stored() >= before + 10, 30, "the game going on without the network")
        assert proc.poll() is None
        relay.down_until = 0  # … and back
        wait_for(lambda: presence() == "online", 30, "the table online again")
        pg.execute("UPDATE hub_rounds SET started = now() - make_interval(secs => %s)",
                   (30 * 60 - ROUND_S,))  # the organiser calls time: 1 s left on the clock
        hub.repush()
        out, err = proc.communicate(timeout=60)
    finally:
        relay.close()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    try:
        assert proc.returncode == 0, err
        assert "Traceback" not in err
        assert "round 1: ann – bob" in out
        assert "the round's time is up: the game ends (end time, AA-M53 (2))" in out
        with GameStore.open(games, readonly=True) as st:
            gid = st.latest().id  # type: ignore[union-attr]
            first = json.loads(st.conn.execute(
                "SELECT content FROM records WHERE game_id = ? AND n = 1", (gid,)
            ).fetchone()[0])["data"]
            end = json.loads(st.conn.execute(
                "SELECT content FROM records WHERE game_id = ? AND kind = 'end'", (gid,)
            ).fetchone()[0])["data"]
            held = st.conn.execute("SELECT COUNT(*), MAX(n) FROM records WHERE game_id = ?",
                                   (gid,)).fetchone()
            assert st.conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = "
                                   "'hub_outbox_fill'").fetchone() == (0,)  # (games after
            # the event stay home: the outbox trigger goes with the table's link)
            ruled = [json.loads(c)["data"]["why"] for (c,) in st.conn.execute(
                "SELECT content FROM records WHERE game_id = ? AND kind = 'ruling'", (gid,))]
            button = [json.loads(c)["data"]["type"] for (c,) in st.conn.execute(
                "SELECT content FROM records WHERE game_id = ? AND kind = 'device' AND "
                "CAST(content AS TEXT) LIKE '%\"Button%'", (gid,))]
        # the pairing's squadrons were played: ann's two planes (A1, A2), bob's one (B1)
        assert first["players"] == {"P1": "ann", "P2": "bob"} and first["round"] == 1
        assert first["event"] == EVENT
        assert sorted({f[0] for f in first["figures"]}) == ["A1", "A2", "B1"]
        assert [v for k, v in first["header"] if k == "Plane"] == [
            "P1 A1 sample-militia-fighter rookie", "P1 A2 sample-pirate-fighter rookie",
            "P2 B1 sample-pirate-fighter rookie"]
        assert end["termination"] == "time limit reached"  # the round's clock, not the bots
        assert button == ["ButtonPressed", "ButtonReleased"]  # the firmware reports both
        assert ruled == ["judge: play on"]  # the signed ruling stored at the table …
        assert "the judge ruled: note {} (judge: play on)" in out  # … and shown to the players
        wait_for(lambda: one(f"SELECT COUNT(*) FROM hub_records WHERE table_id = 't01' AND "
                             f"game = {gid}") == held[0], 20, "every record at the hub")
        assert one(f"SELECT MAX(n) FROM hub_records WHERE table_id = 't01' AND game = {gid}") \
            == held[1]
        assert one("SELECT COUNT(*) FROM hub_quarantine") == 0
        assert one(f"SELECT COUNT(*) FROM hub_records WHERE table_id = 't01' AND game = {gid} "
                   "AND kind = 'ruling'") == 1  # … and back at the hub in the game's chain
        wait_for(lambda: one("SELECT vp_a FROM hub_pairings WHERE table_id = 't01'") is not None,
                 10, "the result taken from the game's end record")
        assert [tuple(r) for r in pg.execute("SELECT note, game FROM hub_calls ORDER BY id")] == [
            ("the roll button was held 3 s at the table", gid),
            ("B2 says it was out of range", gid)]
        wait_for(lambda: one("SELECT presence FROM hub_tables WHERE id = 't01'") == "offline",
                 10, "the table said goodbye")
        st_rows = {s.player: s for s in event.standings(pg)}
        assert st_rows["ann"].played == 1 and st_rows["bob"].played == 1
    finally:
        pg.close()
        hub.stop()
