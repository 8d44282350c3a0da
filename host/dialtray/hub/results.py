"""Results from the tables' stored games, checked against the round's pairings (issue 17, 32).

A game's first record (or its ``event`` record, for ``serve``) names the round and each seat's
player; its ``end`` record the winner and VP by seat. A game is taken for a pairing only when
the round is the open one (the latest, not cancelled), the table has a pairing in it, the
players named are the pairing's two and the pairing has no result yet. An ``end`` is taken only
for such a game, while its round is open, when its winner is a seat or player of the pairing (or
none: a draw). Anything else is refused with its reason; the intake quarantines the record for
the organiser (the record itself is kept: it is part of the table's chain).
"""

from __future__ import annotations

import json
from typing import Any


def open_round(db: Any) -> int | None:
    row = db.execute("SELECT MAX(n) FROM hub_rounds WHERE status = 'open'").fetchone()
    return int(row[0]) if row and row[0] is not None else None


def take(db: Any, table: str, game: int, kind: str, rec: dict[str, Any]) -> str | None:
    """Apply one stored record's part in the event; returns why it was refused (None: taken,
    or not an event record at all)."""
    data = rec.get("data") or {}
    if kind in ("game", "event"):
        return _game(db, table, game, data) if "round" in data else None
    if kind == "end":
        return _end(db, table, game, data)
    if kind == "ruling" and isinstance(data.get("call"), int):  # the ruling came back stored
        db.execute("UPDATE hub_rulings SET confirmed = true WHERE table_id = %s AND "
                   "call_id = %s", (table, data["call"]))
    return None


def _players(data: dict[str, Any]) -> dict[str, str]:
    """Seat → player, from a ``players`` object (tableside) or ``seats`` pairs (the store)."""
    players = data.get("players")
    if isinstance(players, dict):
        return {str(s): str(p) for s, p in players.items()}
    seats = data.get("seats")
    if isinstance(seats, list):
        return {str(x[0]): str(x[1]) for x in seats if isinstance(x, list) and len(x) == 2}
    return {}


def _game(db: Any, table: str, game: int, data: dict[str, Any]) -> str | None:
    rnd = data.get("round")
    where = f"game {game} at table {table}"
    if isinstance(rnd, bool) or not isinstance(rnd, int):
        return f"{where}: its round {str(rnd)[:20]!r} is not a round number; result not taken"
    for field, want in (("table", table),):
        if field in data and data[field] != want:
            return f"{where} names table {str(data[field])[:40]!r}; result not taken"
    current = open_round(db)
    if current is None and not _any_round(db):
        return None  # no round was ever paired: the hub only keeps records (nothing to check)
    if current != rnd:
        state = "no round is open" if current is None else f"the open round is {current}"
        return f"{where} names round {rnd}, but {state}: a late or foreign game, not taken"
    row = db.execute("SELECT a, b, game, vp_a FROM hub_pairings WHERE round = %s AND "
                     "table_id = %s", (rnd, table)).fetchone()
    if row is None:
        return f"{where}: table {table} has no pairing in round {rnd}; not taken"
    a, b, held, vp_a = row
    if vp_a is not None:
        return (f"{where}: round {rnd}'s pairing at table {table} already has its result "
                f"(game {held}); not taken")
    named = set(_players(data).values())
    if named and named != {a, b}:
        return (f"{where} names players {', '.join(sorted(named))[:80]}, but round {rnd}'s "
                f"pairing at table {table} is {a} – {b}; not taken")
    db.execute("UPDATE hub_pairings SET game = %s WHERE round = %s AND table_id = %s",
               (game, rnd, table))
    return None


def _end(db: Any, table: str, game: int, data: dict[str, Any]) -> str | None:
    row = db.execute("SELECT round, a, b, vp_a FROM hub_pairings WHERE table_id = %s AND "
                     "game = %s", (table, game)).fetchone()
    where = f"the end of game {game} at table {table}"
    if row is None:
        if _any_round(db) and _first_names_round(db, table, game):
            return f"{where}: the game was not taken for a pairing; its result is not taken"
        return None  # a game outside the event (practice, before the first round)
    rnd, a, b, vp_a = row
    if vp_a is not None:
        return f"{where}: round {rnd}'s pairing already has its result; not taken again"
    if open_round(db) != rnd:
        return f"{where}: round {rnd} is no longer open (a late result); not taken"
    seats = seats_of(db, table, game)
    vp_raw = data.get("vp")
    if not isinstance(vp_raw, dict):
        return f"{where}: no VP by seat; not taken"
    vp: dict[str, int] = {}
    for k, v in vp_raw.items():
        who = seats.get(str(k), str(k))
        if who not in (a, b) or isinstance(v, bool) or not isinstance(v, int) \
                or not 0 <= v <= 100000:
            return (f"{where}: VP {str(k)[:20]!r}: {str(v)[:20]!r} is not a VP count of a "
                    f"player of the pairing {a} – {b}; not taken")
        vp[who] = v
    w = data.get("winner")
    winner = None if w is None else seats.get(str(w), str(w))
    if winner is not None and winner not in (a, b):
        return (f"{where} names winner {str(w)[:40]!r}, not a player of round {rnd}'s pairing "
                f"{a} – {b}; not taken")
    db.execute("UPDATE hub_pairings SET vp_a = %s, vp_b = %s, winner = %s WHERE round = %s AND "
               "a = %s", (vp.get(a, 0), vp.get(b, 0), winner, rnd, a))
    return None


def _any_round(db: Any) -> bool:
    return db.execute("SELECT 1 FROM hub_rounds LIMIT 1").fetchone() is not None


def _first_names_round(db: Any, table: str, game: int) -> bool:
    row = db.execute("SELECT content FROM hub_records WHERE table_id = %s AND game = %s AND "
                     "(n = 1 OR kind = 'event') ORDER BY n DESC LIMIT 1", (table, game)
                     ).fetchone()
    if row is None:
        return False
    return "round" in (json.loads(bytes(row[0])).get("data") or {})


def seats_of(db: Any, table: str, game: int) -> dict[str, str]:
    row = db.execute(  # the game's first record, or the event's record when it has one
        "SELECT content FROM hub_records WHERE table_id = %s AND game = %s AND (n = 1 OR "
        "kind = 'event') ORDER BY n DESC LIMIT 1", (table, game)).fetchone()
    if row is None:
        return {}
    return _players(json.loads(bytes(row[0])).get("data") or {})
