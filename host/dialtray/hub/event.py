"""The event in PostgreSQL: players and squads, rounds and pairings, results taken from the
tables' stored games (``hub_pairings`` filled by the intake from each game's ``game`` and ``end``
records), standings and the export (CSV, JSON)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from dialtray.hub import swiss
from dialtray.hub.squads import squad_total


def add_player(db: Any, pid: str, name: str, squad: list[dict[str, Any]], limit: int) -> int:
    from dialtray.rules.airaction.catalogue import builtin

    total = squad_total(builtin(), squad, limit)
    db.execute("INSERT INTO hub_players VALUES (%s, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET "
               "name = excluded.name, squad = excluded.squad, points = excluded.points",
               (pid, name, json.dumps(squad), total))
    return total


def players(db: Any) -> list[str]:
    return [r[0] for r in db.execute("SELECT id FROM hub_players ORDER BY id")]


def results(db: Any) -> list[swiss.Result]:
    """Finished pairings (a game's ``end`` record arrived) and byes."""
    out = []
    for rnd, a, b, vp_a, vp_b, winner in db.execute(
            "SELECT p.round, p.a, p.b, p.vp_a, p.vp_b, p.winner FROM hub_pairings p JOIN "
            "hub_rounds r ON r.n = p.round WHERE r.status = 'open' AND (p.b IS NULL OR "
            "p.vp_a IS NOT NULL) ORDER BY p.round, p.a"):
        out.append(swiss.Result(rnd, a, b, vp_a or 0, vp_b or 0, winner))
    return out


def pair(db: Any, minutes: int, *, allow_rematch: bool = False,
         manual: list[tuple[str, str | None]] | None = None
         ) -> tuple[int, list[tuple[str, str | None, str | None]]]:
    """Pair the next round (Swiss, or the organiser's ``manual`` pairs: seat A first) and
    assign tables t01, t02 … in standings order. Round numbers are never reused (a cancelled
    round keeps its number)."""
    rnd = int(db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM hub_rounds").fetchone()[0])
    open_games = db.execute("SELECT COUNT(*) FROM hub_pairings p JOIN hub_rounds r ON r.n = "
                            "p.round WHERE r.status = 'open' AND p.b IS NOT NULL AND "
                            "p.vp_a IS NULL").fetchone()[0]
    if open_games:
        raise ValueError(f"the open round still has {open_games} game(s) without a result "
                         "(`dialtray hub cancel-round` withdraws a round paired by mistake)")
    entered = players(db)
    if len(entered) < 2:  # else an empty round is opened (and a bye for a lone player)
        raise ValueError(f"{len(entered)} player(s) entered: a round needs two at least "
                         "(`dialtray hub player ID --squad FILE` enters one)")
    if manual is not None:
        pairs = swiss.check_manual(entered, manual)
    else:
        pairs = swiss.pair_round(entered, results(db), rnd, allow_rematch=allow_rematch)
    db.execute("INSERT INTO hub_rounds (n, minutes) VALUES (%s, %s)", (rnd, minutes))
    out: list[tuple[str, str | None, str | None]] = []
    t = 0
    for a, b in pairs:
        table = None
        if b is not None:
            t += 1
            table = f"t{t:02d}"
        db.execute("INSERT INTO hub_pairings (round, table_id, a, b) VALUES (%s, %s, %s, %s)",
                   (rnd, table, a, b))
        out.append((a, b, table))
    return rnd, out


def cancel(db: Any) -> int:
    """Withdraw the open round (paired by mistake): refused once any of its games has a
    result. Its tables are told (the intake), its games' results are no longer taken."""
    row = db.execute("SELECT MAX(n) FROM hub_rounds WHERE status = 'open'").fetchone()
    if row is None or row[0] is None:
        raise ValueError("no round is open")
    rnd = int(row[0])
    done = db.execute("SELECT COUNT(*) FROM hub_pairings WHERE round = %s AND b IS NOT NULL "
                      "AND vp_a IS NOT NULL", (rnd,)).fetchone()[0]
    if done:
        raise ValueError(f"round {rnd} already has {done} result(s): it cannot be cancelled")
    db.execute("UPDATE hub_rounds SET status = 'cancelled' WHERE n = %s", (rnd,))
    return rnd


def standings(db: Any) -> list[swiss.Standing]:
    return swiss.standings(players(db), results(db))


def export(db: Any, fmt: str) -> str:
    rows = standings(db)
    pairings = [dict(zip(("round", "table", "a", "b", "game", "vp_a", "vp_b", "winner"), r,
                         strict=True)) for r in db.execute(
        "SELECT round, table_id, a, b, game, vp_a, vp_b, winner FROM hub_pairings "
        "ORDER BY round, a")]
    if fmt == "json":
        return json.dumps({"standings": [s.__dict__ for s in rows], "pairings": pairings},
                          indent=1)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["rank", "player", "points", "vp", "sos", "played", "byes"])
    for i, s in enumerate(rows, 1):
        w.writerow([i, s.player, s.points, s.vp, s.sos, s.played, s.byes])
    return buf.getvalue()
