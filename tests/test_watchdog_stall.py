"""The firmware's supervisor on the unix-port tray: a task that stops for good while the others
run on (C_STALL, the firmware's watchdog test) stops the watchdog's feeding, and the watchdog
resets the board; each supervised task counts (issue 29). The same journey runs on the emulated
RP2040 in tests/rp2040/test_emulated_tray.py."""

from __future__ import annotations

import time

import pytest
from dialrig import config, proto
from dialtray.link.session import TraySession
from dialtray.virtual.tray import VirtualTray


@pytest.mark.parametrize("task", [proto.STALL_SAMPLER, proto.STALL_HEARTBEAT])
def test_a_stalled_task_trips_the_watchdog_while_the_link_runs_on(task: int) -> None:
    cfg = config.default_config(2)
    cfg["watchdog_ms"] = 800
    with VirtualTray(cfg, seed=1) as tray, TraySession(tray.port) as session:
        session.wait_synced(15)
        first_boot = session.boot_id
        session.request(proto.C_STALL, proto.STALL_FMT, task)
        assert session.stats(3).frames_ok > 0  # the link still answers
        deadline = time.monotonic() + 15
        while "watchdog" not in tray.resets:
            assert time.monotonic() < deadline, "the watchdog never bit"
            time.sleep(0.05)
        deadline = time.monotonic() + 15
        while not (session.synced.is_set() and session.boot_id != first_boot):
            assert time.monotonic() < deadline, "the host never resynchronised"
            time.sleep(0.05)
        assert tray.boots == 2


def test_a_stall_of_no_task_is_refused() -> None:
    with VirtualTray(config.default_config(2), seed=1) as tray, \
            TraySession(tray.port) as session:
        session.wait_synced(15)
        with pytest.raises(Exception, match="bad arguments"):
            session.request(proto.C_STALL, proto.STALL_FMT, 3)
        assert session.stats(3).bad_args == 1
