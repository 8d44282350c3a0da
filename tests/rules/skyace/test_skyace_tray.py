"""A Sky Ace duel on the virtual tray (real firmware under MicroPython on a pty): the cards are
drawn with the tray's dice (``TrayDice``), and every LIFE change appears on the LED dice.

The firmware does not report its display state over the serial protocol; what it shows is read
where the hardware would show it: the LED frame the simulated board writes (``tray.leds``, the
same bytes the WS2812 chain would get). Each push is also acknowledged by the firmware
(``show_dice`` raises if the ACK does not come)."""

from __future__ import annotations

import time

from dialrig import config
from dialtray.link.session import TraySession
from dialtray.rules.core.dice import TrayDice
from dialtray.rules.core.game import state_json
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.skyace import SkyAceGame
from dialtray.rules.skyace import events as ev
from dialtray.rules.skyace.bots import Bot, GreedyBot, RandomBot
from dialtray.rules.skyace.notation import LogWriter
from dialtray.tracker.skyace_life import GOLD, GREEN, OFF, LifeDisplay, life_dice
from dialtray.virtual.tray import VirtualTray

PER_DIE = 3 * config.PIPS_PER_DIE


def shown(leds: bytes, n: int) -> list[tuple[int, str]]:
    """(lit pips, colour) of the first ``n`` LED dice."""
    out = []
    for d in range(n):
        die = leds[d * PER_DIE:(d + 1) * PER_DIE]
        pips = [die[p:p + 3] for p in range(0, PER_DIE, 3) if any(die[p:p + 3])]
        if not pips:
            out.append((0, "off"))
            continue
        g, r, _ = pips[0]
        out.append((len(pips), "gold" if g and r else "green" if g else "red"))
    return out


def expect(faces: list[int], colours: list[int]) -> list[tuple[int, str]]:
    names = {GREEN: "green", GOLD: "gold", OFF: "off"}
    return [(0 if c == OFF else f, names[c]) for f, c in zip(faces, colours, strict=True)]


def wait_for(tray: VirtualTray, want: list[tuple[int, str]], timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if shown(tray.leds, len(want)) == want:
            return
        time.sleep(0.02)
    raise AssertionError(f"LED dice show {shown(tray.leds, len(want))}, want {want}")


def test_sa_m02_duel_life_changes_appear_on_the_led_dice() -> None:
    """SA-M02 / SA-M29: each hero's LIFE counter is an LED die; after every damage event the
    host pushes the counters and the firmware's LED frame shows them (green pips = LIFE; a
    knocked-out hero's die dark). The duel's cards came from the tray's dice, and its log
    replays exactly."""
    with VirtualTray(config.default_config(1), seed=7) as tray, \
            TraySession(tray.port) as session:
        session.wait_synced(30)
        g = SkyAceGame.duel(TrayDice(session), turn_limit=30)
        w = LogWriter(g)
        display = LifeDisplay(session)
        assert display.update(g.dials())
        wait_for(tray, [(5, "green"), (5, "green")])
        bots: dict[str, Bot] = {"P1": GreedyBot(1), "P2": GreedyBot(2), "table": RandomBot(3)}
        changes = 0
        while g.outcome() is None:
            seat = g.to_move()
            assert seat is not None
            w.apply(bots[seat].choose(g))
            events = g.history[-1].events
            if any(isinstance(e, ev.LifeChanged) for e in events):
                changes += 1
                assert display.update(g.dials())
                faces, colours = life_dice(g.dials())
                assert faces == [max(1, p.life) for p in g.state.pawns.values()]
                wait_for(tray, expect(faces, colours))
        assert changes >= 1 and display.pushes == changes + 1
        again = replay_log(parse_log(w.text(), "tray-duel.log")).game
        assert isinstance(again, SkyAceGame) and state_json(again) == state_json(g)
