"""The rules engines roll on the tray's LED dice through the link (rules.core.dice.TrayDice)."""

from __future__ import annotations

from dialrig import config
from dialtray.link.session import TraySession
from dialtray.rules.core.dice import TrayDice
from dialtray.virtual.tray import VirtualTray


def test_rules_dice_come_from_the_tray_in_batches_of_twelve() -> None:
    with VirtualTray(config.default_config(1), seed=11) as tray, \
            TraySession(tray.port) as session:
        session.wait_synced(15)
        dice = TrayDice(session)
        faces = dice.roll(15, "a shot: 15 attack dice")
        assert len(faces) == 15 and all(1 <= f <= 6 for f in faces)
        again = dice.roll(2, "initiative")
        assert len(again) == 2
        # The tray lit the last batch: 2 dice shown, the rest dark.
        lit = sum(1 for i in range(0, len(tray.leds), 3) if any(tray.leds[i:i + 3]))
        assert 2 <= lit <= 2 * config.PIPS_PER_DIE
