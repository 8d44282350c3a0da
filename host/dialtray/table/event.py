"""``--event URL --creds FILE`` for ``play`` and ``serve``: the table plays its game as one table
of a tournament (issue 17, ``dialtray.hub.tableside``); the arguments themselves are parsed by
``commands._args.add_event_arguments``. Every stored record goes to the event's
broker while the game runs (the game never waits for it), the table's live state and presence
reach the hub page, the roll button held 3 s calls the judge, the hub's table assignment sets the
game up with the pairing's squadrons, and the round timer ends the game when it runs out.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dialtray.table.errors import TableError
from dialtray.table.games import AirActionBrain, Setup, new_game
from dialtray.tracker import TableDice

HUB_EXTRA = "playing at an event needs the `hub` extra: pip install 'dialtray[hub]'"


def open_event(event: str | None, creds_file: Path | None, db: Path) -> Any:
    """The started ``EventTable`` for ``--event URL --creds FILE`` (None without it), storing
    into the game database ``db``; bad arguments exit 2."""
    if event is None:
        if creds_file is not None:
            raise TableError("argument --creds: only with --event", 2)
        return None
    if creds_file is None:
        raise TableError("argument --creds: --event needs the table's credentials file "
                         "(`dialtray hub enroll TABLE` prints it)", 2)
    from dialtray.hub.tableside import EventError, parse_url

    try:
        address = parse_url(event)
    except EventError as e:
        raise TableError(f"argument --event: {e}", 2) from e
    if importlib.util.find_spec("paho") is None:
        raise TableError(HUB_EXTRA)
    from dialtray.hub.tableside import EventTable, load_creds
    from dialtray.store.db import GameStore, StoreError

    try:
        creds = load_creds(creds_file)
        GameStore.open(db).close()  # created (and migrated) before the trigger goes in
        table = EventTable(db, address, creds)
    except EventError as e:
        raise TableError(f"argument --creds: {e}", 2) from e
    except StoreError as e:
        raise TableError(str(e), 2) from e
    print(f"event {table.event!r} at {address.host}:{address.port}: table {table.table} "
          "(records go to the hub as they are stored; the game never waits for it)",
          flush=True)
    try:
        return table.start()
    except EventError as e:
        raise TableError(str(e)) from e


def stop_event(ev: Any) -> None:
    """The table leaves the event (a few seconds at most to hand the last records over)."""
    if ev is not None:
        left = ev.stop()
        print(f"event: {left} record(s) wait to be sent" + (
            " (they go at the next --event or `dialtray hub table`)" if left else ""),
            flush=True)


def wait_assignment(ev: Any, wait_s: float) -> dict[str, Any]:
    """The table's assignment from the hub, or a one-line error when none comes in time."""
    print(f"waiting up to {wait_s:g} s for table {ev.table}'s assignment from the hub …",
          flush=True)
    body: dict[str, Any] | None = ev.wait_assignment(wait_s)
    if body is None:
        reached = ev.reached_broker()  # (asked before stop(), which closes the link)
        ev.stop(0)
        why = "the event's broker is not reachable" if not reached else \
            ("the broker is reachable, but no assignment came from the hub (is `dialtray hub "
             "run` running and the round paired? `dialtray hub pair`)")
        raise TableError(f"no table assignment within {wait_s:g} s: {why}")
    a, b = (name for _seat, name in body["seats"])
    left = body.get("left_s")
    print(f"round {body.get('round')}: {a} – {b}" + (
        f", {left / 60:.0f} minutes left on the round's clock" if left is not None else ""),
        flush=True)
    return body


def squadrons_of(body: dict[str, Any]) -> tuple[dict[str, list[Any]], dict[str, str]]:
    """The pairing's two squadrons as Air Action seats P1/P2 (planes A1…, B1…), and the seats'
    players."""
    from dialtray.rules.airaction.base import SquadronPlane

    squads: dict[str, list[Any]] = {}
    players: dict[str, str] = {}
    for (seat, letter), (_s, player) in zip((("P1", "A"), ("P2", "B")), body["seats"],
                                           strict=True):
        planes = body["squads"].get(player) or []
        if not planes:
            raise TableError(f"the assignment has no squadron for {player!r}: enter it at the "
                             "hub (`dialtray hub player`)")
        squads[seat] = [SquadronPlane(f"{letter}{i}", str(p["figure"]),
                                      str(p.get("level") or "rookie"), p.get("ace"))
                        for i, p in enumerate(planes, 1)]
        players[seat] = str(player)
    return squads, players


def paired_setup(kind: str, body: dict[str, Any], dice: TableDice, seed: int,
                 turns: int) -> Setup:
    """The game of the table's assignment. Air Action: the two players' squadrons from the hub
    (checked there against the event's limit, AA-M08..M10). Aces: the hub's squadrons are Air
    Action's, so the built-in scenario is played by the two players (said when it starts)."""
    if kind != "airaction":
        return new_game(kind, dice, seed, turns)
    from dialtray.rules.airaction import AirActionGame
    from dialtray.rules.airaction.catalogue import builtin
    from dialtray.rules.airaction.notation import header_of

    squads, players = squadrons_of(body)
    cat = builtin()
    try:
        totals = [sum(cat.figures[p.figure].levels[p.level].points
                      + (cat.aces[p.ace].points if p.ace else 0) for p in planes)
                  for planes in squads.values()]
        aces = any(p.ace for planes in squads.values() for p in planes)
        build = max(300 if aces else 200, 100 * math.ceil(max(totals) / 100))
        g = AirActionGame.new(squads, build_total=build, names=players, dice=dice)
    except (KeyError, ValueError) as e:  # (the hub checked them against this catalogue)
        raise TableError(f"the assignment's squadrons do not fit this computer's catalogue: "
                         f"{e} (is dialtray the same version as the hub's?)") from e
    header = header_of(g.setup_events[0])  # type: ignore[arg-type]
    owners = {p.id: seat for seat, planes in squads.items() for p in planes}
    return Setup(g, header, AirActionBrain(g, seed, turns),
                 [p.id for planes in squads.values() for p in planes],
                 lambda d: owners.get(d.figure))


def record_extra(ev: Any, body: dict[str, Any] | None, seats: Sequence[str]
                 ) -> dict[str, Any]:
    """What the game's first record says for the hub: the event, round and seats' players."""
    if body is None:
        return {"event": ev.event, "table": ev.table}
    names = [str(name) for _s, name in body["seats"]]
    return {"event": ev.event, "table": ev.table, "round": body.get("round"),
            "players": dict(zip(seats, names, strict=False))}
