"""The virtual camera films the emulated Pico's own dials (``Rp2040Tray.seen``,
``table.camera_game.follow_tray``): one motion, on the chip's clock, for the encoder and the
camera, as with the unix-port tray (``tests/vision/test_camera_follows_tray.py``).

Before, the ``--rp2040`` tray's camera turned a second world beside the chip on the host's
clock (``filmed_hand``): the chip runs at a fraction of real time, so a frame showed a turn the
firmware had not read yet. Here the firmware's CPU is stalled (``Rp2040Tray.hang``: timers and
the magnets go on, nothing reads them) while a dial turns: the camera must not see the turn
before the firmware does, and whenever the encoder reports a click the camera shows it."""

from __future__ import annotations

import threading
import time

import pytest
from dialtray.link.messages import Click, TrayEvent
from dialtray.link.session import TraySession
from dialtray.table.camera_game import follow_tray
from dialtray.virtual.rp2040.tray import Rp2040Tray
from dialtray.vision.camera_tray import CameraDial
from dialtray.vision.virtual_camera import DialWorld
from picohelp import SYNC_S, bench_config, wait_until

pytestmark = pytest.mark.slow(cost=6)  # (one chip boot)


def test_the_camera_sees_an_emulated_dial_turn_when_its_firmware_does() -> None:
    world = DialWorld({0: {"combat": 3.0, "speed": 0.0}})
    # dock 0's combat dial turns the figure's printed clicks down (up = -1), starting at 3
    dials = {(0, 0): CameraDial(0, 0, "combat", -1, 12), (0, 1): CameraDial(0, 1, "speed", 1, 6)}
    shown_at_click: list[tuple[int, float]] = []
    clicked = threading.Event()
    with Rp2040Tray(bench_config()) as tray, TraySession(tray.port, name="follow") as session:
        session.wait_synced(SYNC_S)
        follow_tray(world, dials, {0}, tray)

        def on_event(ev: TrayEvent) -> None:  # (the link thread, as the camera's witness is)
            if type(ev) is Click and (ev.dock, ev.dial) == (0, 0):
                shown_at_click.append((ev.position, world.now_positions(0.0)[0]["combat"]))
                clicked.set()

        session.subscribe(on_event)
        tray.hang(400)  # the firmware off its CPU for 400 ms of chip time; then the turn
        tray.turn(0, 0, 2, 12)
        time.sleep(0.05)  # (at most 50 ms of chip time: the chip never runs ahead of the wall)
        # the firmware has not read the turn: the camera must not show it either
        assert world.now_positions(0.0)[0] == {"combat": 3.0, "speed": 0.0}
        assert clicked.wait(SYNC_S), "the encoder never reported the turn"
        wait_until(lambda: shown_at_click[-1][0] == 2, SYNC_S,
                   f"the encoder to report click 2 ({shown_at_click})")
        assert world.now_positions(0.0)[0] == {"combat": 1.0, "speed": 0.0}
        assert tray.seen(0, "combat") == tray.detent(0, "combat") == 2
    # whenever the encoder reported a click, the camera showed that very click
    assert all(shown == 3.0 - pos for pos, shown in shown_at_click), shown_at_click
