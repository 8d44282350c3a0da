"""Bot hands on the virtual tray: the tracker's bots turn the virtual tray's dials, whose clicks
travel through the real firmware and the link like a person's would."""

from __future__ import annotations

from dialtray.tracker.binding import Slot
from dialtray.virtual.script import Tray

CLICK_MS = 6  # how long a bot's hand takes per click (a person takes ~100 ms)


class VirtualHands:
    """``turn(slot, clicks)`` for ``tracker.runner.play_out``."""

    def __init__(self, tray: Tray, click_ms: int = CLICK_MS) -> None:
        self.tray = tray
        self.click_ms = click_ms
        self.turns = 0

    def turn(self, slot: Slot, clicks: int) -> None:
        if clicks:
            self.turns += 1
            self.tray.turn(slot.dock, slot.dial, clicks, self.click_ms * max(1, abs(clicks)))
