"""Host commands end to end on the virtual tray: diagnostics, per-dial config, dice display."""

from __future__ import annotations

import queue
import time

from dialrig import config, proto
from dialtray.link.messages import Click, Diag, TrayEvent
from dialtray.link.session import CommandFailed, TraySession
from dialtray.virtual.tray import VirtualTray


def _next(session: TraySession, kind: type, timeout: float = 5.0) -> TrayEvent:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            ev = session.events.get(timeout=0.05)
        except queue.Empty:
            continue
        if isinstance(ev, kind):
            return ev
    raise AssertionError(f"no {kind.__name__} within {timeout} s")


def test_diagnostics_mode_streams_raw_sensor_readings() -> None:
    with VirtualTray(config.default_config(2), seed=1) as tray, \
            TraySession(tray.port) as session:
        session.wait_synced(15)
        tray.turn(1, "combat", 3)  # dock 1 combat = dial 2: 3 of 12 detents = 1024 raw
        time.sleep(0.2)
        session.diagnostics(True, period_ms=20)
        diag = _next(session, Diag)
        assert isinstance(diag, Diag) and len(diag.raw) == 4
        assert abs(diag.raw[2] - 1024) <= 2 and abs(diag.raw[0]) <= 2
        session.diagnostics(False)
        time.sleep(0.2)
        while not session.events.empty():
            session.events.get()
        time.sleep(0.3)
        assert not any(isinstance(e, Diag) for e in list(session.events.queue))


def test_a_dial_reconfigured_at_run_time_counts_the_other_way() -> None:
    with VirtualTray(config.default_config(1), seed=1) as tray, \
            TraySession(tray.port) as session:
        session.wait_synced(15)
        reversed_dial = dict(config.default_dial(0, 1), direction=-1)
        session.set_dial(0, 1, reversed_dial)
        time.sleep(0.1)
        tray.turn(0, "speed", 1)
        click = _next(session, Click)
        assert isinstance(click, Click) and click.delta == -1
        bad = dict(reversed_dial, detents=99)
        try:
            session.set_dial(0, 1, bad)
            raise AssertionError("99 detents accepted")
        except CommandFailed as e:
            assert "bad arguments" in str(e)


def test_dice_shown_with_hit_miss_and_six_colours() -> None:
    with VirtualTray(config.default_config(1), seed=1) as tray, \
            TraySession(tray.port) as session:
        session.wait_synced(15)
        session.show_dice([6, 3, 5], [proto.COLOUR_SIX, proto.COLOUR_MISS, proto.COLOUR_HIT])
        time.sleep(0.2)
        per_die = config.PIPS_PER_DIE * 3
        dice = [tray.leds[i * per_die:(i + 1) * per_die] for i in range(4)]
        lit = [[dice[d][p:p + 3] for p in range(0, per_die, 3) if any(dice[d][p:p + 3])]
               for d in range(4)]
        assert [len(pips) for pips in lit] == [6, 3, 5, 0]  # pips per face; die 4 dark
        g, r, b = lit[1][0]
        assert r > 0 and g == 0 and b == 0  # a miss is red
        g, r, b = lit[2][0]
        assert g > 0 and r == 0  # a hit is green
        g, r, b = lit[0][0]
        assert r > 0 and g > 0 and r > g  # a natural six is gold
