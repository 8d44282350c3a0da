"""The hub's fixtures: a real Mosquitto and a real PostgreSQL (Debian's packages, installed by
scripts/install_test_tools.sh), started once per test session on random loopback ports in a
temporary directory, migrated, and stopped at the end. Tests skip, saying why, only where the
servers or the `hub` extra cannot be had; on CI both are installed.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


def chromium() -> str | None:
    for p in (os.environ.get("DIALTRAY_CHROMIUM"), shutil.which("chromium"),
              shutil.which("chromium-browser"), "/usr/bin/chromium"):
        if p and Path(p).is_file():
            return p
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium for the hub's page tests (Debian's, driven by Playwright, as tests/ui)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright is not installed (part of the test extra)")
    exe = chromium()
    if exe is None:
        pytest.skip("no Chromium: run scripts/install_test_tools.sh (Debian's `chromium`)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        yield b
        b.close()
