"""``camera_game.unreported``: when a disagreeing read of a virtual tray's dial waits for the
report its firmware has on its way (``CameraWitness.unreported``; the witness's side is
test_camera_mistakes.py's test_a_report_later_than_supersede_s_is_awaited_...). A fake tray
and listener: the arithmetic only, on a clock of the test's own."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from dialtray.table.camera_game import unreported
from dialtray.vision.camera_tray import CameraDial


class Tray:
    def __init__(self) -> None:
        self.at: dict[tuple[int, int], float] = {(0, 0): 2.0, (0, 1): 0.0}

    def seen(self, dock: int, dial: int) -> float:
        return self.at[(dock, dial)]


def test_a_report_is_awaited_while_the_firmware_saw_the_dial_elsewhere_and_not_for_ever() -> None:
    tray, now = Tray(), [0.0]
    listener: Any = SimpleNamespace(pos={(0, 0): 0, (0, 1): 0})
    dials = {(0, 0): CameraDial(0, 0, "combat", 1, 12), (0, 1): CameraDial(0, 1, "speed", 1, 12)}
    waiting = unreported(tray, listener, dials, most_s=30.0, clock=lambda: now[0])
    # the combat dial started at 2 (no report owed for where the game starts)
    assert not waiting((0, "combat")) and not waiting((0, "speed"))
    assert not waiting((5, "speed"))  # no such dial filmed
    tray.at[(0, 1)] = 0.5  # mid-turn, as the firmware last saw it
    assert waiting((0, "speed"))
    tray.at[(0, 1)] = 1.0
    now[0] = 29.0
    assert waiting((0, "speed"))
    listener.pos[(0, 1)] = 1  # the click arrives
    assert not waiting((0, "speed"))
    tray.at[(0, 1)] = 2.0  # the next click seen, its report never sent: waited for 30 s
    now[0] = 40.0
    assert waiting((0, "speed"))
    now[0] = 70.0
    assert not waiting((0, "speed")), "a report never sent is a disagreement in the end"
