"""The hub's processes that run in the foreground until Ctrl-C, as `dialtray hub …` starts them:
the hub itself (every table's records taken in, the organiser's page served), a table's side
(its store's records sent to the event), and the development servers (Mosquitto and
PostgreSQL on loopback). ``commands.hub`` parses and checks the arguments and calls these;
each failure the user can act on is a ``dialtray.errors.UserError`` (one line, no traceback).

The `hub` extra (psycopg, paho-mqtt, networkx) is imported only inside these functions.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from dialtray.errors import UserError

STATUS_EVERY_S = 5.0  # how often a running hub or table prints its counts


def _say(line: str) -> None:
    print(line, flush=True)


def run_hub(dsn: str, event: str, broker: tuple[str, int], password: str, web_host: str,
            web_port: int, token: str | None = None,
            say: Callable[[str], None] = _say) -> int:
    """Take in every table's records (``ingest.Ingest``) and serve the hub page
    (``web.ServedHub``, the organiser's ``token`` in its address: a fresh one when None) until
    Ctrl-C, printing the hub's status every few seconds."""
    import psycopg

    from dialtray.hub.ingest import Ingest
    from dialtray.hub.pgschema import SchemaError
    from dialtray.hub.web import HubPage, ServedHub

    host, port = broker
    try:
        hub = Ingest(dsn, event, host, port, password).start()
    except SchemaError as e:
        raise UserError(str(e)) from e
    except psycopg.Error as e:
        raise UserError(f"cannot reach the hub's database: {str(e).strip()}") from e
    page = HubPage(dsn, token or secrets.token_urlsafe(12), hub)
    hub.on_change = page.changed
    try:
        served = ServedHub(page, web_host, web_port)
    except OSError as e:
        hub.stop()
        raise UserError(f"cannot serve the hub page on {web_host}:{web_port}: "
                        f"{e.strerror or e}") from e
    say(f"hub: event {event!r}, broker {host}:{port}; the page (organiser's token in it): "
        f"{served.url}  Ctrl-C stops")
    try:
        while True:
            time.sleep(STATUS_EVERY_S)
            say(hub.status())
    except KeyboardInterrupt:
        pass
    finally:
        served.close()
        hub.stop()
    return 0


def run_table(store: Path, event: str, creds: dict[str, str], broker: tuple[str, int],
              call: str | None = None, say: Callable[[str], None] = _say) -> int:
    """A table's side: every record of the game database ``store`` sent to the event's broker
    (``table.TableLink``, with the credentials ``dialtray hub enroll`` made), rulings from the
    hub stored into the game; ``call``: call the judge with this note once connected. Prints
    the counts every few seconds until Ctrl-C."""
    from dialtray.hub.table import Broker, TableLink, install_trigger, ruling_storer
    from dialtray.store.db import GameStore

    tid, key = creds["table"], bytes.fromhex(creds["ruling_key"])
    host, port = broker
    queued = install_trigger(store)
    link = TableLink(store, event, tid, Broker(host, port, tid, creds["password"]), key,
                     ruling_storer(store, say)).start()
    say(f"table {tid}: {queued} record(s) to send to {host}:{port}; Ctrl-C stops")
    try:
        if call:
            link.connected.wait(30)
            latest = GameStore.open(store, readonly=True)
            row = latest.latest()
            latest.close()
            link.call_judge(row.id if row else None, call)
        while True:
            time.sleep(STATUS_EVERY_S)
            say(f"published {link.stats.published}, confirmed {link.stats.confirmed}, "
                f"waiting {link.outstanding()}")
    except KeyboardInterrupt:
        pass
    finally:
        link.stop()
    return 0


def run_dev_servers(event: str, say: Callable[[str], None] = _say) -> int:
    """Mosquitto and PostgreSQL on loopback ports for one event (``devservers``), the hub's
    broker user and schema made, and the guide to the next steps printed; until Ctrl-C."""
    from dialtray.hub import devservers, pgschema

    why = devservers.missing()
    if why:
        raise UserError(why)
    with devservers.DevServers(event) as s:
        pw = os.urandom(9).hex()
        s.mqtt.add_user("hub", pw)
        pgschema.migrate(s.pg.admin_dsn)
        say(s.guide(event, pw))
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            say("stopping …")
    return 0


def add_broker_user(passwd: Path, table: str, password: str) -> None:
    """The table's broker login added to Mosquitto's password file (``mosquitto_passwd -b``);
    the broker reads it when reloaded."""
    try:
        subprocess.run(["mosquitto_passwd", "-b", str(passwd), table, password], check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise UserError(f"mosquitto_passwd could not add {table} to {passwd}: {e}") from e
