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
            "SELECT round, a, b, vp_a, vp_b, winner FROM hub_pairings WHERE b IS NULL OR "
            "vp_a IS NOT NULL ORDER BY round, a"):
        out.append(swiss.Result(rnd, a, b, vp_a or 0, vp_b or 0, winner))
    return out


def pair(db: Any, minutes: int) -> tuple[int, list[tuple[str, str | None, str | None]]]:
    """Pair the next round and assign tables t01, t02 … in standings order."""
    rnd = int(db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM hub_rounds").fetchone()[0])
    open_games = db.execute("SELECT COUNT(*) FROM hub_pairings WHERE b IS NOT NULL AND "
                            "vp_a IS NULL").fetchone()[0]
    if open_games:
        raise ValueError(f"round {rnd - 1} still has {open_games} game(s) without a result")
    pairs = swiss.pair_round(players(db), results(db), rnd)
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
