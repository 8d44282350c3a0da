"""The virtual camera films the virtual tray's own dials (``table.camera_game.follow_tray``):
one motion, on the simulated dial's clock, seen by the encoder and the camera alike.

Before, the camera's world was a second world turned beside the tray: a turn moved the filmed
dial at once on the host's clock while the simulated dial waited for its firmware to look
(dialrig.hw_sim), so on a loaded machine a frame showed a dial the encoder had not reached,
and ``demo --camera virtual`` called an honest turn a disagreement. Here the firmware is held
off the CPU (SIGSTOP, as a loaded machine deschedules it) while a dial is turned: the camera
must not see the turn before the encoder does, and when the encoder reports the click the
camera already shows it."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

pytest.importorskip("dialtray.virtual.tray")

from dialrig import config
from dialtray.link.messages import Click, TrayEvent
from dialtray.link.session import TraySession
from dialtray.table.camera_game import follow_tray
from dialtray.virtual.tray import VirtualTray
from dialtray.vision.camera_tray import CameraDial
from dialtray.vision.virtual_camera import DialWorld


def test_the_camera_sees_a_turn_when_the_encoder_does() -> None:
    world = DialWorld({0: {"combat": 3.0, "speed": 0.0}})
    # dock 0's combat dial turns the figure's printed clicks down (up = -1), starting at 3
    dials = {(0, 0): CameraDial(0, 0, "combat", -1, 12), (0, 1): CameraDial(0, 1, "speed", 1, 6)}
    shown_at_click: list[tuple[int, float]] = []
    clicked = threading.Event()
    with VirtualTray(config.default_config(2), seed=4) as vtray:
        follow_tray(world, dials, {0}, vtray)

        def on_event(ev: TrayEvent) -> None:  # (the link thread, as the camera's witness is)
            if type(ev) is Click and (ev.dock, ev.dial) == (0, 0):
                shown_at_click.append((ev.position, world.now_positions(0.0)[0]["combat"]))
                clicked.set()

        with TraySession(vtray.port, name="follow", ack_policy="auto") as session:
            session.wait_synced(30)
            session.subscribe(on_event)
            pid = vtray.pid
            assert pid is not None
            os.kill(pid, signal.SIGSTOP)  # the firmware off the CPU
            try:
                vtray.turn(0, 0, 2, 12)
                time.sleep(0.2)
                # the encoder has not seen the turn: the camera must not either
                assert world.now_positions(0.0)[0] == {"combat": 3.0, "speed": 0.0}
                with pytest.raises(ValueError, match="turn it there"):
                    world.turn(0, "combat", 1)  # (a followed dial turns with the tray only)
            finally:
                os.kill(pid, signal.SIGCONT)
            assert clicked.wait(30), "the encoder never reported the turn"
            end = time.monotonic() + 30
            while shown_at_click[-1][0] != 2:  # (two clicks: one report, or one each)
                assert time.monotonic() < end, shown_at_click
                time.sleep(0.01)
            assert world.now_positions(0.0)[0] == {"combat": 1.0, "speed": 0.0}
    # whenever the encoder reported a click, the camera showed that very click
    assert all(shown == 3.0 - pos for pos, shown in shown_at_click), shown_at_click
