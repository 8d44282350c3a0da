"""`dialtray hub …`: the tournament hub (issue 17) — PostgreSQL and an MQTT broker.

This module parses and checks the arguments; what runs until Ctrl-C (the hub, a table's side,
the development servers) is ``dialtray.hub.run``'s, the event's data ``dialtray.hub.event``'s.
The `hub` extra (psycopg, paho-mqtt, networkx) is imported only when a hub command runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
from pathlib import Path
from typing import Any

from dialtray.commands._args import int_range
from dialtray.commands._common import CommandError

HUB_EXTRA = "the tournament hub is an optional part of dialtray: pip install 'dialtray[hub]'"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "hub", help="the tournament hub: every table of an event, on PostgreSQL and MQTT",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run an event's hub: tables publish every stored record to an MQTT broker "
                    "(Mosquitto); the hub keeps them in PostgreSQL exactly once, checking each "
                    "record's hash chain. Pair rounds, follow standings, export. The database "
                    "is named by --db or DIALTRAY_HUB_DB, the hub's broker password by "
                    "DIALTRAY_HUB_PASSWORD.",
        epilog="examples:\n"
               "  dialtray hub servers                      local Mosquitto + PostgreSQL (dev)\n"
               "  dialtray hub migrate --admin postgresql://owner@db/hub\n"
               "  dialtray hub enroll t01 --passwd /etc/mosquitto/passwd > t01.json\n"
               "  dialtray hub --event spring run --broker mqtt.local:1883\n"
               "  dialtray hub table --store games.sqlite3 --creds t01.json --broker hub:1883\n"
               "  dialtray hub player ann --squad ann.json --limit 300\n"
               "      (ann.json: [{\"figure\": \"sample-militia-fighter\"}, "
               "{\"figure\": \"sample-pirate-fighter\"}])\n"
               "  dialtray hub pair --minutes 90\n"
               "  dialtray hub standings\n"
               "  dialtray hub cancel-round                  withdraw a round paired by "
               "mistake\n"
               "  dialtray hub export --format csv > standings.csv")
    p.add_argument("--db", default=os.environ.get("DIALTRAY_HUB_DB"),
                   help="the hub's PostgreSQL DSN (default: $DIALTRAY_HUB_DB)")
    p.add_argument("--event", default="event", help="the event's name in topics")
    verbs = p.add_subparsers(dest="hub_verb", metavar="VERB", required=True)
    v = verbs.add_parser(
        "servers", help="start a local Mosquitto and PostgreSQL for one event (development)",
        description="Start Mosquitto and PostgreSQL on loopback ports, set up for the event "
                    "(broker users and ACL, the hub's schema and role), and print every path "
                    "and command the next steps need.")
    v.add_argument("--event", default=argparse.SUPPRESS,
                   help="the event's name in topics (letters, digits, - and _)")
    v.set_defaults(func=servers)
    v = verbs.add_parser("migrate", help="create or upgrade the hub's schema (as the owner)")
    v.add_argument("--admin", required=True, help="the database owner's DSN")
    v.set_defaults(func=migrate)
    v = verbs.add_parser("run", help="take in every table's records until Ctrl-C")
    v.add_argument("--broker", default="127.0.0.1:1883", help="HOST:PORT of the broker")
    v.add_argument("--web-port", type=int_range(0, 65535), default=8766,
                   help="the hub page's port (0: any free one; default %(default)s)")
    v.add_argument("--web-host", default="127.0.0.1", help="the hub page's address")
    v.set_defaults(func=run)
    v = verbs.add_parser("enroll", help="make a table's broker credentials and ruling key")
    v.add_argument("table", help="the table's id (letters, digits, - and _)")
    v.add_argument("--passwd", type=Path, required=True,
                   help="Mosquitto's password file (mosquitto_passwd writes it)")
    v.set_defaults(func=enroll)
    v = verbs.add_parser("table", help="a table's side: send its store's records to the event "
                         "(runs beside play/serve)")
    v.add_argument("--store", type=Path, required=True,
                   help="the table's game database (games.sqlite3 in the data directory)")
    v.add_argument("--creds", type=Path, required=True,
                   help="the table's credentials from `dialtray hub enroll`")
    v.add_argument("--broker", default="127.0.0.1:1883", help="HOST:PORT of the broker")
    v.add_argument("--call", metavar="NOTE", help="call the judge with this note, then go on")
    v.set_defaults(func=table)
    v = verbs.add_parser("player", help="enter a player and squadron (checked: AA-M08..M10)")
    v.add_argument("player", help="the player's id")
    v.add_argument("--name", default="", help="the player's name")
    v.add_argument("--squad", type=Path, required=True,
                   help='a JSON file: [{"figure": ID, "level": "rookie", "ace": ID|null}, …]')
    v.add_argument("--limit", type=int_range(100, 10000), default=200,
                   help="the event's build total (a multiple of 100; default %(default)s)")
    v.set_defaults(func=player)
    v = verbs.add_parser("pair", help="pair the next round (Swiss, no rematches)")
    v.add_argument("--minutes", type=int_range(1, 600), default=90,
                   help="the round's time limit in minutes, 1..600")
    v.add_argument("--allow-rematch", action="store_true",
                   help="when no pairing without a rematch is left: allow rematches")
    v.add_argument("--manual", metavar="A:B,C:D,E:bye",
                   help="the organiser's own pairing (seat A first; every player once)")
    v.set_defaults(func=pair)
    v = verbs.add_parser("cancel-round", help="withdraw the open round (paired by mistake)")
    v.set_defaults(func=cancel_round)
    v = verbs.add_parser("standings", help="print the standings")
    v.set_defaults(func=lambda a: export(a, "table"))
    v = verbs.add_parser("export", help="standings and pairings as CSV or JSON")
    v.add_argument("--format", choices=("csv", "json"), default="csv")
    v.set_defaults(func=lambda a: export(a, a.format))


def _need() -> None:
    if not all(importlib.util.find_spec(m) is not None for m in ("psycopg", "paho", "networkx")):
        raise CommandError(HUB_EXTRA)


def _db(args: argparse.Namespace) -> Any:
    _need()
    if not args.db:
        raise CommandError("argument --db: the hub's PostgreSQL DSN is needed (or set "
                           "DIALTRAY_HUB_DB)", 2)
    import psycopg

    try:
        return psycopg.connect(args.db)
    except psycopg.Error as e:
        raise CommandError(f"cannot reach the hub's database: {str(e).strip()}") from e


def servers(args: argparse.Namespace) -> int:
    _need()
    if not args.event.replace("-", "").replace("_", "").isalnum():
        raise CommandError(f"argument --event: letters, digits, - and _ only, not "
                           f"{args.event!r}", 2)
    from dialtray.hub.run import run_dev_servers

    return run_dev_servers(args.event)


def migrate(args: argparse.Namespace) -> int:
    _need()
    import psycopg

    from dialtray.hub import pgschema

    try:
        done = pgschema.migrate(args.admin)
    except (psycopg.Error, pgschema.SchemaError) as e:
        raise CommandError(f"cannot migrate the hub's database: {str(e).strip()}") from e
    print(f"applied migrations {done}" if done else "the schema is up to date")
    return 0


def run(args: argparse.Namespace) -> int:
    from dialtray.commands.serve import ui_missing

    why = ui_missing()
    if why is not None:
        raise CommandError(f"the hub page needs the web UI: {why}")
    db = _db(args)
    db.close()
    broker = _broker(args.broker)
    pw = os.environ.get("DIALTRAY_HUB_PASSWORD")
    if not pw:
        raise CommandError("the hub's broker password is needed in DIALTRAY_HUB_PASSWORD", 2)
    from dialtray.hub.run import run_hub

    return run_hub(args.db, args.event, broker, pw, args.web_host, args.web_port,
                   os.environ.get("DIALTRAY_HUB_TOKEN"))


def enroll(args: argparse.Namespace) -> int:
    if not args.table.replace("-", "").replace("_", "").isalnum():
        raise CommandError(f"argument table: letters, digits, - and _ only, not "
                           f"{args.table!r}", 2)
    _need()
    from dialtray.hub import rulings

    why = rulings.reserved(args.table)
    if why:
        raise CommandError(f"argument table: {why}", 2)
    db = _db(args)
    with db:
        creds = rulings.enroll(db, args.table)
    from dialtray.hub.run import add_broker_user

    add_broker_user(args.passwd, args.table, creds["password"])
    print(json.dumps({**creds, "event": args.event}, indent=1))
    print(f"(give this to the table; then reload the broker so it reads {args.passwd}: "
          "`systemctl reload mosquitto` or `kill -HUP` its pid — `dialtray hub servers` prints "
          f"it. The ACL lets this table publish only under dialtray/{args.event}/t/"
          f"{args.table}/ and read dialtray/{args.event}/cmd/{args.table}/)",
          file=__import__("sys").stderr)
    return 0


def _broker(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise CommandError(f"argument --broker: HOST:PORT, not {text!r}", 2)
    return host, int(port)


def table(args: argparse.Namespace) -> int:
    broker = _broker(args.broker)
    try:
        creds = json.loads(args.creds.read_text())
        for field in ("table", "password", "ruling_key"):
            if not isinstance(creds[field], str):
                raise TypeError(f"{field} is not a string")
        bytes.fromhex(creds["ruling_key"])
    except OSError as e:
        raise CommandError(f"argument --creds: {args.creds}: {e.strerror or e}", 2) from e
    except (ValueError, KeyError, TypeError) as e:
        raise CommandError(f"argument --creds: {args.creds}: not the JSON `dialtray hub "
                           f"enroll` prints ({e})", 2) from e
    if not args.store.is_file():
        raise CommandError(f"argument --store: no game database {args.store}", 2)
    _need()
    from dialtray.hub.run import run_table

    return run_table(args.store, args.event, creds, broker, args.call)


def player(args: argparse.Namespace) -> int:
    try:
        squad = json.loads(args.squad.read_text())
    except OSError as e:
        raise CommandError(f"argument --squad: {args.squad}: {e.strerror or e}", 2) from e
    except ValueError as e:
        raise CommandError(f"argument --squad: {args.squad}: not JSON ({e})", 2) from e
    if not isinstance(squad, list) or not all(isinstance(p, dict) for p in squad):
        raise CommandError(f"argument --squad: {args.squad}: a JSON list of planes is needed", 2)
    db = _db(args)
    from dialtray.hub import event
    from dialtray.hub.squads import SquadError

    with db:
        try:
            total = event.add_player(db, args.player, args.name or args.player, squad,
                                     args.limit)
        except SquadError as e:
            raise CommandError(f"{args.squad}: {e}", 2) from e
    print(f"{args.player}: squadron of {total} points entered (limit {args.limit})")
    return 0


def _manual(text: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for part in text.split(","):
        a, sep, b = part.strip().partition(":")
        if not sep or not a or not b:
            raise CommandError(f"argument --manual: A:B pairs separated by commas (A:bye for "
                               f"the bye), not {part!r}", 2)
        out.append((a, None if b == "bye" else b))
    return out


def cancel_round(args: argparse.Namespace) -> int:
    db = _db(args)
    from dialtray.hub import event

    with db:
        try:
            rnd = event.cancel(db)
        except ValueError as e:
            raise CommandError(str(e)) from e
    print(f"round {rnd} cancelled: its tables are told; pair again with `dialtray hub pair`")
    return 0


def pair(args: argparse.Namespace) -> int:
    manual = _manual(args.manual) if args.manual else None
    db = _db(args)
    from dialtray.hub import event, swiss

    with db:
        try:
            rnd, pairs = event.pair(db, args.minutes, allow_rematch=args.allow_rematch,
                                    manual=manual)
        except (ValueError, swiss.PairingError) as e:
            raise CommandError(str(e)) from e
    print(f"round {rnd} ({args.minutes} minutes):")
    for a, b, table in pairs:
        print(f"  {table or 'bye':>4}  {a} – {b or '(bye)'}")
    return 0


def export(args: argparse.Namespace, fmt: str) -> int:
    db = _db(args)
    from dialtray.hub import event

    with db:
        if fmt == "table":
            for i, s in enumerate(event.standings(db), 1):
                print(f"{i:3} {s.player:<16} {s.points:3} pts  VP {s.vp:4}  SoS {s.sos:4}")
        else:
            print(event.export(db, fmt), end="")
    return 0
