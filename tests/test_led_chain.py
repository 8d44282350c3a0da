"""The Pico backend sends the whole LED frame the firmware draws: the dice's pips and, after
them, the d10 ring (issue 15). The simulated board passes any frame through, so only this check
would catch a real tray whose ring stays dark because hw_rp2 cut the frame short."""

from __future__ import annotations

import importlib
import sys
import types

import pytest
from dialrig import config, dice


def test_hw_rp2_sends_every_dice_and_ring_byte(monkeypatch: pytest.MonkeyPatch) -> None:
    # hw_rp2 runs only on a Pico: stand in for the three MicroPython modules it imports.
    for name in ("machine", "rp2"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    micropython = types.ModuleType("micropython")
    micropython.const = lambda x: x  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    monkeypatch.delitem(sys.modules, "dialrig.hw_rp2", raising=False)
    hw_rp2 = importlib.import_module("dialrig.hw_rp2")
    try:
        frame = dice.DiceDisplay(config.MAX_DICE).buffer
        assert hw_rp2.LED_BYTES == len(frame) == 3 * (
            config.MAX_DICE * config.PIPS_PER_DIE + dice.RING_LEDS)
    finally:
        sys.modules.pop("dialrig.hw_rp2", None)
