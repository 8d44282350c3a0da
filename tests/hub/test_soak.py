"""Issue 32 acceptance, the soak: 32 scripted tables play through the real Mosquitto to the hub — a
real `dialtray hub run` process — on the real PostgreSQL (about 45 s of wall, ~18 s of CPU with the
servers: it mostly waits) while PostgreSQL is restarted 3 times, the broker killed 3 times and the
hub process killed 3 times (SIGKILL: no goodbye to the broker or the database; a new `dialtray hub
run` started), one table sends 200 poison messages and another client makes 5 takeover attempts
with the hub's and tables' client ids; tables call the judge during every outage; table 0's network
is cut for 30 s (issue 17's acceptance, which this soak now carries).

The faults follow one another as fast as the hub recovers: after each, the soak waits until the
hub has stored every record the tables had committed when it ended (the catch-up, a condition),
then keeps a calm of ``CALM_S`` where latency is measured. The tables play on (at least
``RECORDS`` each) until the faults and the cut are over, so every fault comes in mid-game.

Asserted: 0 records lost or duplicated (every table's records in PostgreSQL once and byte for byte
as the table stored them, every chain whole, the heads at the tables' counts), every judge call
delivered once, the poison quarantined, nothing honest quarantined, every table shown online, every
honest table's p99 from commit to stored under ``P99_BOUND_S`` outside the outages (a fault's window
is from ``BEFORE_S`` before it to ``SETTLE_S`` after it is over: the catch-up), and the hub
process' peak RSS (VmHWM of each of its 4 lives) under ``HUB_RSS_MB``. The acceptance's 500 ms is
printed, met or not: quiet, the worst table's p99 is 250-350 ms; a loaded 2-core machine can miss
it by one scheduling stall, and the brief keeps rates out of tests (bench_hub --faults has them).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import secrets
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import psycopg
import pytest
from dialtray.hub import devservers, topics
from dialtray.hub.sim import Relay, ScriptedTable, wait_for
from dialtray.hub.table import Broker
from dialtray.store.chain import Row, check_chain
from hubhelp import EVENT, fresh_db

TABLES, RECORDS, PACE = 32, 380, 0.25  # at least RECORDS each: they play on through the faults
DOWN_S = 0.5  # each fault's outage (a restart adds its own start-up)
CATCH_UP_S = 60  # the bound on a fault's catch-up (reconnects, then the backlog): waited for
AFTER_S = 0.5  # a record committed this soon after the catch-up may still queue behind it
CALM_S = 1.5  # after the catch-up, before the next fault: the latency is measured here
BEFORE_S = 1.0  # a record committed this long before a fault may be caught in flight
SETTLE_S = 3.5  # the cut table's catch-up after its cable is back (its window only)
HUB_RSS_MB = 150  # the stated bound: the hub process' peak resident memory (page served too)
P99_S = 0.5  # the acceptance's figure: printed (a rate of a shared machine, not asserted) ...
P99_BOUND_S = 2.0  # ... this is asserted: a record left for a poll or a re-send (3 s) fails it
CUT_S = 30.0  # table 0's network cut (issue 17's acceptance: a 30 s cut mid-round)


def rogue(servers: devservers.DevServers, user: str, pw: str, cid: str) -> mqtt.Client:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=cid, protocol=mqtt.MQTTv5)
    c.username_pw_set(user, pw)
    c.connect("127.0.0.1", servers.mqtt.port)
    c.loop_start()
    return c


class HubProcess:
    """`dialtray hub run` as an organiser starts it, its output in a file; ``kill()`` is
    SIGKILL and notes the life's peak RSS (VmHWM)."""

    def __init__(self, servers: devservers.DevServers, dsn: str, out: Path) -> None:
        self.argv = [str(Path(sys.executable).parent / "dialtray"), "hub", "--db", dsn,
                     "--event", EVENT, "run", "--broker", f"127.0.0.1:{servers.mqtt.port}",
                     "--web-port", "0"]
        self.env = {**os.environ, "DIALTRAY_HUB_PASSWORD": servers.hub_password}  # type: ignore[attr-defined]
        self.out = out
        self.peaks: list[float] = []
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Returns when the hub says it runs (its intake started, its page served)."""
        lives = len(self.peaks) + 1
        with self.out.open("ab") as f:
            self.proc = subprocess.Popen(self.argv, env=self.env, stdin=subprocess.DEVNULL,
                                         stdout=f, stderr=subprocess.STDOUT)
        wait_for(lambda: self.out.read_bytes().count(b"Ctrl-C stops") >= lives
                 or self.proc.poll() is not None, 60, "the hub process started")  # type: ignore[union-attr]
        assert self.proc.poll() is None, self.out.read_text()[-2000:]

    def peak_mb(self) -> float:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def kill(self) -> None:
        assert self.proc is not None and self.proc.poll() is None, self.out.read_text()[-2000:]
        self.peaks.append(self.peak_mb())
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.peaks.append(self.peak_mb())
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def committed(table: ScriptedTable) -> int:
    """The records the table has committed so far (read from its SQLite file, as the link
    reads it: the table's own connection belongs to its script's thread)."""
    with contextlib.closing(sqlite3.connect(table.path, timeout=30)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM records").fetchone()[0])


def caught_up(dsn: str, marks: dict[str, int]) -> bool:
    """Whether the hub has stored, for each table of ``marks``, at least that many records
    (its head: the chain stored whole from the first record)."""
    with contextlib.suppress(psycopg.Error), psycopg.connect(dsn, connect_timeout=2) as db:
        heads = dict(db.execute("SELECT table_id, n FROM hub_heads").fetchall())
        return all(heads.get(t, 0) >= n for t, n in marks.items())
    return False


def count(dsn: str, sql: str) -> int:
    with contextlib.suppress(psycopg.Error), psycopg.connect(dsn, connect_timeout=2) as db:
        row = db.execute(sql).fetchone()
        return int(row[0]) if row else 0
    return -1


@pytest.mark.slow(cost=45)  # ~45 s, mostly waiting (tests/conftest.py: dealt out first)
def test_soak(servers: devservers.DevServers, tmp_path: Path) -> None:
    dsn = fresh_db(servers, "soak")
    mq, pg = servers.mqtt, servers.pg
    hub = HubProcess(servers, dsn, tmp_path / "hub.out")
    hub.start()
    tables = []
    relay = Relay(mq.port)  # table 0 reaches the broker through it: its cable can be pulled
    played = threading.Event()  # set once the faults are over: the tables finish their games
    for i in range(TABLES):
        tid, pw = f"soak-{i:02d}", secrets.token_urlsafe(9)
        mq.users[tid] = pw
        subprocess.run([mq.passwd_exe, "-b", str(mq.passwd), tid, pw], check=True,
                       capture_output=True)
        port = relay.port if i == 0 else mq.port
        tables.append(ScriptedTable(tmp_path, EVENT, tid, Broker("127.0.0.1", port, tid, pw),
                                    (f"p{2 * i}", f"p{2 * i + 1}"), 1, RECORDS, seed=i,
                                    pace=PACE, until=played))
    for user in ("soak-poison", "soak-rogue"):
        mq.users[user] = secrets.token_urlsafe(9)
        subprocess.run([mq.passwd_exe, "-b", str(mq.passwd), user, mq.users[user]], check=True,
                       capture_output=True)
    mq.reload()
    outages: list[tuple[float, float]] = []
    cut: tuple[float, float] = (0.0, 0.0)
    calls = 0
    poison_sent = 0
    poison = None
    try:
        for t in tables:
            t.start()
        began = time.time()
        wait_for(lambda: count(dsn, "SELECT COUNT(*) FROM hub_records") > TABLES * 3, 60,
                 "records reach the hub")
        outages.append((began - 60, time.time() + 1.0))  # the hub's start is not calm either
        poison = rogue(servers, "soak-poison", mq.users["soak-poison"], "soak-poison")
        for k in range(9):
            t0 = time.time()
            what = ("pg", "broker", "hub")[k % 3]
            if what == "pg":
                pg.down()
            elif what == "broker":
                mq.kill()
            else:
                hub.kill()
            if k == 1:  # table 0's cable pulled for CUT_S, through the next faults
                relay.cut(CUT_S)
                cut = (t0 - BEFORE_S, t0 + CUT_S + SETTLE_S)
            t = tables[k % TABLES]
            with contextlib.suppress(Exception):  # a judge call while it is down
                t.link.call_judge(t.gid or None, f"called during outage {k} ({what})")
                calls += 1
            time.sleep(DOWN_S)
            if what == "pg":
                pg.up()
            elif what == "broker":
                mq.start()
            else:
                hub.start()
            # The catch-up: the hub has every record each table had committed when the fault
            # ended (the cut table's once its cable is back). A record committed just before
            # the fault or during the catch-up is not "outside".
            marks = {t.table: committed(t) for t in tables
                     if t is not tables[0] or time.time() > cut[1] - SETTLE_S}
            wait_for(lambda: poison.is_connected(), 20, "the poison table back")
            for j in range(23 if k < 8 else 16):  # 200 poison messages in all
                poison.publish(topics.table_topic(EVENT, "soak-poison", "rec"),
                               b'{"game":1,"n":' + str(j).encode() + b',"kind":"x"}\n[' * 40,
                               qos=1)
                poison_sent += 1
            if k < 5:  # takeover attempts with the hub's and a table's client ids
                r = rogue(servers, "soak-rogue", mq.users["soak-rogue"],
                          ("hub", f"{EVENT}-hub", f"{EVENT}-soak-01", "soak-02", "hub")[k])
                time.sleep(0.3)
                r.disconnect()
                r.loop_stop()
            wait_for(functools.partial(caught_up, dsn, marks), CATCH_UP_S,
                     f"the hub caught up after fault {k} ({what})")
            outages.append((t0 - BEFORE_S, time.time() + AFTER_S))
            time.sleep(max(0.0, outages[-1][1] + CALM_S + BEFORE_S - time.time()))
        assert poison_sent == 200
        time.sleep(max(0.0, cut[1] - SETTLE_S - time.time()))  # the cable back mid-game
        played.set()
        for t in tables:
            assert t.done.wait(180), f"{t.table} did not finish"
            assert t.error is None, f"{t.table}: {t.error!r}"
        total = sum(t.expected() for t in tables)
        wait_for(lambda: all(t.link.outstanding() == 0 for t in tables), 120,
                 "every table's outbox emptied")
        wait_for(lambda: all(t.link.calls_waiting() == 0 for t in tables), 60,
                 "every judge call acknowledged")
        def away() -> dict[str, str | None]:  # (presence is the broker's: it settles)
            with psycopg.connect(dsn) as db:
                shown: dict[str, str] = dict(db.execute("SELECT id, presence FROM hub_tables")
                                             .fetchall())
            return {t.table: shown.get(t.table) for t in tables if shown.get(t.table) != "online"}

        with contextlib.suppress(TimeoutError):
            wait_for(lambda: not away(), 20, "every table shown online")
        assert not away(), f"tables not shown online at the end: {away()}"
        with psycopg.connect(dsn) as db:
            assert db.execute("SELECT COUNT(*) FROM hub_records").fetchone() == (total,)
            for t in tables:
                assert db.execute("SELECT n FROM hub_heads WHERE table_id = %s AND game = %s",
                                  (t.table, t.gid)).fetchone() == (t.expected(),)
            assert db.execute("SELECT COUNT(*) FROM hub_calls").fetchone() == (calls,)
            assert db.execute("SELECT COUNT(*) FROM hub_quarantine WHERE table_id = "
                              "'soak-poison'").fetchone()[0] >= 1  # type: ignore[index]
            assert db.execute("SELECT COUNT(*) FROM hub_quarantine WHERE table_id <> "
                              "'soak-poison'").fetchone() == (0,)  # nothing honest refused
            for t in tables:  # byte for byte what each table stored, every chain whole
                got = [Row(r[0], r[1], bytes(r[2]), r[3], r[4]) for r in db.execute(
                    "SELECT n, kind, content, sha, prev FROM hub_records WHERE table_id = %s "
                    "AND game = %s ORDER BY n", (t.table, t.gid))]
                # the hub keeps the chain, not the table's keyed MACs (the key stays there)
                assert got == [dataclasses.replace(r, mac=None) for r in t.store.rows(t.gid)]
                head = t.store.game(t.gid)
                assert check_chain(t.gid, got, head.records, head.head)[1] is None, t.table
            rows = db.execute(
                "SELECT table_id, (convert_from(content, 'UTF8')::jsonb ->> 'at')::float, "
                "EXTRACT(EPOCH FROM received) - (convert_from(content, 'UTF8')::jsonb ->> "
                "'at')::float FROM hub_records").fetchall()
        hub.stop()
        if os.environ.get("SOAK_DEBUG"):
            with open(os.environ["SOAK_DEBUG"], "w") as f:
                f.write(repr(outages) + "\n")
                for row in sorted(rows, key=lambda x: x[1]):
                    f.write(f"{row[0]} {row[1]:.3f} {row[2]:.3f}\n")
        by_table: dict[str, list[float]] = {}
        for tid, at, x in rows:  # outside the outages (and their catch-up)
            if not any(a <= at <= b for a, b in outages) and not (
                    tid == tables[0].table and cut[0] <= at <= cut[1]):
                by_table.setdefault(tid, []).append(float(x))
        assert len(by_table) == TABLES, "every table has records outside the outages"
        p99 = {t: sorted(xs)[int(0.99 * (len(xs) - 1))] for t, xs in by_table.items()}
        lat = sorted(x for xs in by_table.values() for x in xs)
        worst = max((v, t) for t, v in p99.items())
        print(f"\nsoak: {total} records, {calls} judge calls, 9 faults; honest p99 outside "
              f"outages {lat[int(0.99 * (len(lat) - 1))] * 1000:.0f} ms (p50 "
              f"{lat[len(lat) // 2] * 1000:.0f} ms) over {len(lat)} records (the worst table's: "
              f"{worst[1]}, {worst[0] * 1000:.0f} ms; acceptance < {P99_S * 1000:.0f}: "
              f"{'met' if worst[0] < P99_S else 'NOT met'}); hub process peak RSS per life "
              f"{', '.join(f'{m:.0f}' for m in hub.peaks)} MB")
        assert worst[0] < P99_BOUND_S, f"table {worst[1]}: p99 {worst[0] * 1000:.0f} ms outside " \
            "outages"
        assert len(hub.peaks) == 4 and max(hub.peaks) < HUB_RSS_MB, hub.peaks
        assert tables[0].link.stats.connects >= 2  # the cut table came back
    finally:
        for t in tables:
            t.close()
        if poison is not None:
            with contextlib.suppress(Exception):
                poison.disconnect()
                poison.loop_stop()
        hub.stop()
        relay.close()
