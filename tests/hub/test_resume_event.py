"""A table at an event whose laptop dies mid-game: `dialtray play --event …` on the virtual tray
(its own pty, outliving the host) is killed with kill -9; `dialtray play --resume --event …`
carries the same stored game on as the same table — the hub gets every record of it once
(those the dead host never sent too), judge calls from both runs name the game, and the round's
clock, sent again when the table comes back, ends the game (AA-M53 (2))."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import psycopg
import pytest
from dialtray.hub import devservers
from dialtray.hub.ingest import Ingest
from dialtray.hub.sim import wait_for
from dialtray.store.db import GameStore
from hubhelp import EVENT, paired_event

pytest.importorskip("dialtray.virtual.tray", reason="the virtual tray needs the `sim` extra")
from dialrig import config
from dialtray.virtual.tray import VirtualTray
from play_process import Player


@pytest.mark.slow  # (about 5 s)
def test_resume_at_an_event(servers: devservers.DevServers, tmp_path: Path) -> None:
    dsn, creds = paired_event(servers, "resume_event")
    cf = tmp_path / "t01.json"
    cf.write_text(json.dumps({**creds, "event": EVENT}))
    hub = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                 servers.hub_password).start()  # type: ignore[attr-defined]
    db_file = tmp_path / "games.sqlite3"
    common = ["--seats", "human,human", "--dice", "seeded", "--plain", "--db", str(db_file),
              "--event", f"mqtt://127.0.0.1:{servers.mqtt.port}/{EVENT}", "--creds", str(cf)]
    pg = psycopg.connect(dsn, autocommit=True)

    def one(sql: str) -> object:
        row = pg.execute(sql).fetchone()
        return None if row is None else row[0]

    second: Player | None = None
    try:
        with VirtualTray(config.default_config(8), seed=5) as tray:
            first = Player(["play", "airaction", "--port", tray.port, *common,
                            "--log", str(tmp_path / "first.log")])
            try:
                first.wait_for("you may type: deploy P")
                wait_for(lambda: one("SELECT game FROM hub_pairings") is not None, 30,
                         "the game at the hub")
                first.type("judge before the crash")
                wait_for(lambda: one("SELECT COUNT(*) FROM hub_calls") == 1, 20, "call 1")
            finally:
                first.proc.send_signal(signal.SIGKILL)  # the laptop dies: no goodbye
                first.proc.wait()
            with GameStore.open(db_file, readonly=True) as st:
                gid = st.latest("running").id  # type: ignore[union-attr]
            second = Player(["play", "--resume", "--port", tray.port, *common,
                             "--log", str(tmp_path / "second.log")])
            second.wait_for(f"resumed stored game {gid}")
            second.type("judge after the crash")
            wait_for(lambda: one("SELECT COUNT(*) FROM hub_calls") == 2, 20, "call 2")
            pg.execute("UPDATE hub_rounds SET started = now() - interval '1799 seconds'")
            hub.repush()  # the organiser calls time: 1 s left
            second.wait_for("the round's time is up: the game ends (end time, AA-M53 (2))")
            assert second.proc.wait(60) == 0, second.text[-2000:]
        with GameStore.open(db_file, readonly=True) as st:
            held = st.game(gid).records
        wait_for(lambda: one(f"SELECT COUNT(*) FROM hub_records WHERE game = {gid}") == held,
                 20, "every record of the game at the hub, once")
        assert one(f"SELECT MAX(n) FROM hub_records WHERE game = {gid}") == held
        assert one("SELECT COUNT(*) FROM hub_quarantine") == 0
        assert [tuple(r) for r in pg.execute("SELECT note, game FROM hub_calls ORDER BY id")] \
            == [("before the crash", gid), ("after the crash", gid)]
        wait_for(lambda: one("SELECT vp_a FROM hub_pairings") is not None, 20,
                 "the result from the resumed game's end record")
        assert "Traceback" not in first.text + second.text
    finally:
        if second is not None and second.proc.poll() is None:
            second.proc.kill()
            second.proc.wait()
        pg.close()
        hub.stop()
