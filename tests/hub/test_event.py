"""The event as the organiser meets it, through `dialtray hub …` on the real PostgreSQL and
Mosquitto: players entered (squads checked), a round paired, the pairing pushed to the tables,
the games played at scripted tables and taken in by the hub, results taken from the stored games'
`end` records, standings and the export."""

from __future__ import annotations

import csv
import io
import json
import secrets
from pathlib import Path

import pytest
from dialtray import cli
from dialtray.hub import devservers
from dialtray.hub.ingest import Ingest
from dialtray.hub.sim import ScriptedTable, wait_for
from dialtray.hub.table import Broker
from hubhelp import EVENT, fresh_db

SQUAD = [{"figure": "sample-militia-fighter"}, {"figure": "sample-pirate-fighter"}]


def hub(dsn: str, *argv: str) -> int:
    return cli.main(["hub", "--db", dsn, "--event", EVENT, *argv])


def test_round_paired_played_and_standings_exported(
        servers: devservers.DevServers, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    dsn = fresh_db(servers, "event_cli")
    assert hub(dsn, "pair") == 1  # no player yet: no empty round 1 opened
    assert "0 player(s) entered: a round needs two at least" in capsys.readouterr().err
    squad = tmp_path / "squad.json"
    squad.write_text(json.dumps(SQUAD))
    for p in ("ann", "bob", "cat", "dan", "eve"):
        assert hub(dsn, "player", p, "--squad", str(squad), "--limit", "200") == 0
    over = tmp_path / "over.json"
    over.write_text(json.dumps([*SQUAD, {"figure": "sample-loyle-crawford"},
                                 {"figure": "sample-charlie-steele"}]))
    assert hub(dsn, "player", "zed", "--squad", str(over), "--limit", "100") == 2
    assert "AA-M08" in capsys.readouterr().err
    assert hub(dsn, "pair", "--minutes", "60") == 0
    out = capsys.readouterr().out
    assert "round 1 (60 minutes)" in out and " bye  eve – (bye)" in out
    assert hub(dsn, "pair") == 1  # round 1 has games without a result
    assert "still has 2 game(s) without a result" in capsys.readouterr().err

    ingest = Ingest(dsn, EVENT, "127.0.0.1", servers.mqtt.port,
                    servers.hub_password).start()  # type: ignore[attr-defined]
    pairs = {"t01": ("ann", "bob"), "t02": ("cat", "dan")}
    tables = []
    try:
        for tid, players in pairs.items():
            pw = secrets.token_urlsafe(9)
            servers.mqtt.add_user(tid, pw)
            tables.append(ScriptedTable(tmp_path, EVENT, tid,
                                        Broker("127.0.0.1", servers.mqtt.port, tid, pw),
                                        players, 1, 30, seed=len(tables) + 3, pace=0.01))
        for t in tables:
            t.link.start()
        wait_for(lambda: all(t.link.stats.pairings for t in tables), 30,
                 "the round's pairings pushed to the tables")
        for t in tables:
            got = t.link.stats.pairings[0]
            assert got["round"] == 1 and [a for _, a in got["seats"]] == list(pairs[t.table])
            assert got["squads"][pairs[t.table][0]] == SQUAD
            t.thread.start()
        for t in tables:
            assert t.done.wait(30)
        wait_for(lambda: ingest.stats.stored >= sum(t.expected() for t in tables), 30,
                 "both games at the hub")
    finally:
        for t in tables:
            t.close()
        ingest.stop()
    capsys.readouterr()
    assert hub(dsn, "export", "--format", "csv") == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    pts = {r["player"]: int(r["points"]) for r in rows}
    vps = {r["player"]: int(r["vp"]) for r in rows}
    for t in tables:  # the results come from each table's stored `end` record
        a, b = pairs[t.table]
        assert (vps[a], vps[b]) == (t.vp["A"], t.vp["B"])
        want = (1, 1) if t.vp["A"] == t.vp["B"] else \
            (3, 0) if t.vp["A"] > t.vp["B"] else (0, 3)
        assert (pts[a], pts[b]) == want
    assert pts["eve"] == 3  # the bye
    assert hub(dsn, "export", "--format", "json") == 0
    doc = json.loads(capsys.readouterr().out)
    assert {p["table"] for p in doc["pairings"]} == {"t01", "t02", None}
    assert hub(dsn, "pair") == 0  # round 2 now pairs
    assert "round 2" in capsys.readouterr().out
