"""The hub's fixtures: a real Mosquitto and a real PostgreSQL (Debian's packages, installed by
scripts/install_test_tools.sh), started once per test session on random loopback ports in a
temporary directory, migrated, and stopped at the end. Tests skip, saying why, only where the
servers or the `hub` extra cannot be had; on CI both are installed.
"""

from __future__ import annotations

import secrets
import signal
import sys
from collections.abc import Iterator

import pytest

pytest.importorskip("psycopg", reason="the hub needs the `hub` extra (dialtray[hub])")
pytest.importorskip("paho.mqtt", reason="the hub needs the `hub` extra (dialtray[hub])")
pytest.importorskip("networkx", reason="the hub needs the `hub` extra (dialtray[hub])")

from dialtray.hub import devservers, pgschema
from hubhelp import EVENT


@pytest.fixture(scope="session")
def servers() -> Iterator[devservers.DevServers]:
    why = devservers.missing()
    if why:
        pytest.skip(f"no local broker/database: {why}")
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:  # killed (a timeout): still stop
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the servers (atexit)
    s = devservers.DevServers(EVENT).start()
    try:
        s.hub_password = secrets.token_urlsafe(12)  # type: ignore[attr-defined]
        s.mqtt.add_user("hub", s.hub_password)  # type: ignore[attr-defined]
        pgschema.migrate(s.pg.admin_dsn)
        yield s
    finally:
        s.stop()
