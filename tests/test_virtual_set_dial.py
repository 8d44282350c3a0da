"""Issue 8, defect 4: the host's set_dial refuses two dials on one sensor, naming both dials.

Against the real firmware in the virtual tray: the device answers ACK_IN_USE with the dial that
already reads the sensor, the session turns it into a CommandFailed a person can act on, and
the tray's configuration is unchanged (a click on the dial still arrives as that dial's).
"""

from __future__ import annotations

import time

import pytest
from dialrig import config
from dialtray.link.messages import Click
from dialtray.link.session import CommandFailed, TraySession
from dialtray.virtual.tray import VirtualTray

WAIT_S = 60.0


def dial_settings(**changes: int | str) -> dict[str, int | str]:
    settings: dict[str, int | str] = dict(config.default_dial(0, 0))
    settings.update(changes)
    return settings


def test_set_dial_onto_another_dials_sensor_is_refused_naming_both() -> None:
    """Defect 4: dock 1 speed onto dock 0 combat's AS5600 (mux 0x70 channel 0)."""
    with VirtualTray(config.default_config(2), seed=4, report=lambda n: None) as tray, \
            TraySession(tray.port) as session:
        session.wait_synced(WAIT_S)
        with pytest.raises(CommandFailed) as refused:
            session.set_dial(1, 1, dial_settings(mux=0x70, channel=0))
        message = str(refused.value)
        assert "dock 1 speed" in message and "dock 0 combat" in message
        assert "mux 0x70 channel 0" in message
        # A free channel is fine; the refused change left dock 1 speed where it was.
        session.set_dial(1, 0, dial_settings(mux=0x71, channel=5))
        tray.turn(1, "speed", 2)
        deadline = time.monotonic() + WAIT_S
        while True:
            clicks = [e for e in list(session.events.queue) if isinstance(e, Click)]
            if clicks:
                break
            assert time.monotonic() < deadline, "no click from dock 1 speed"
            time.sleep(0.02)
        assert (clicks[0].dock, clicks[0].dial) == (1, 1)


def test_a_quadrature_decoder_in_use_is_refused_naming_both() -> None:
    """Defect 4: the same for incremental encoders (one PIO decoder each)."""
    cfg = config.quadrature_config(2)
    used = cfg["docks"][0][1]["quad"]
    with VirtualTray(cfg, seed=4, report=lambda n: None) as tray, \
            TraySession(tray.port) as session:
        session.wait_synced(WAIT_S)
        settings = dict(cfg["docks"][1][0])
        settings["quad"] = used
        with pytest.raises(CommandFailed) as refused:
            session.set_dial(1, 0, settings)
        message = str(refused.value)
        assert "dock 1 combat" in message and "dock 0 speed" in message
        assert f"quadrature decoder {used}" in message
