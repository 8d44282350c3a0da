"""End to end on the virtual tray (the real firmware under MicroPython, a real pty, pyserial):
whole bot games of both rule sets where every click the rules make is turned by a bot's hand on
a virtual dial, travels through the firmware and the link, and is confirmed by the tracker; the
hands make every mistake kind on purpose and each is flagged, then put right. Dice are the
tray's own LED dice. The log of each game replays.

Each test waits on conditions (events, counts) with generous limits; timings are in bench/.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from dialrig import config
from dialtray.link.session import TraySession
from dialtray.rules.core.dials import SET
from dialtray.rules.core.dice import TrayDice
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.table.games import new_game
from dialtray.tracker import PLAY, TableDice, Timing, Tracker, auto_bind
from dialtray.tracker import marks as mk
from dialtray.tracker.hands import MISTAKES, Hands, Mistakes
from dialtray.tracker.runner import TrackedTray, play_out
from dialtray.virtual.hands import VirtualHands
from dialtray.virtual.tray import VirtualTray

TIMING = Timing(judge_s=0.25, grace_s=0.5)


@dataclass
class Rig:
    tray: VirtualTray
    session: TraySession
    table: TrackedTray
    tracker: Tracker
    brain: object


@pytest.fixture(params=["airaction", "aces"])
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    with VirtualTray(config.default_config(8), seed=11) as tray:
        session = TraySession(tray.port, name="e2e")
        dice = TableDice(TrayDice(session))
        s = new_game(request.param, dice, 3, 6)  # 6 turns: room for every mistake
        t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), dice, header=s.header,
                    timing=TIMING)
        table = TrackedTray(t, session)  # subscribed before start: sees the first snapshot
        with session:
            session.wait_synced(60)
            session.set_timing(5, 2)  # a quicker settle window: bots turn fast
            table.wait_until(lambda: t.phase == PLAY, 30, "the start check")
            yield Rig(tray, session, table, t, s.brain)


@pytest.mark.slow
def test_bot_game_every_click_confirmed_every_mistake_flagged_and_put_right(rig: Rig) -> None:
    t = rig.tracker
    hands = Hands(t, rig.brain, Mistakes())
    play_out(rig.table, hands, VirtualHands(rig.tray).turn, timeout=240, step_timeout=30)
    assert t.game.outcome() is not None
    kinds = Counter(f.kind for f in t.flags)
    wanted = set(MISTAKES) if t.game.kind == "airaction" else set(MISTAKES) - {mk.REFUSED}
    assert wanted <= set(kinds), f"mistakes made {hands.mistakes.made}, flags {kinds}"
    assert all(f.resolved is not None for f in t.flags), [f.text for f in t.flags]
    # every click the rules made (damage, fate, healing, throttle) was turned and confirmed
    due: Counter[str] = Counter()
    for i in range(len(t.game.history)):
        for ch in t.game.dial_changes(i):
            if ch.direction != SET:
                due[ch.dial] += ch.clicks
    done: Counter[str] = Counter()
    for c in t.confirmed:
        if not c.free:
            done[c.dial.kind] += abs(c.clicks)
    assert done == due, (done, due)
    assert due["combat"] > 0
    if t.game.kind == "airaction":
        assert due["speed"] > 0
    for st in t.slots.values():  # and the dials end where the rules say
        setting = t.dials()[st.dial]
        if setting.click is not None:
            assert rig.tray.detent(st.slot.dock, st.slot.dial) % 12 == \
                (setting.click * st.up) % 12, st.label
    replay_log(parse_log(t.log_text(), "game.log"))


def test_a_dial_turned_while_the_tray_was_off_is_flagged_from_the_snapshot(rig: Rig) -> None:
    t, tray = rig.tracker, rig.tray
    st = next(s for s in t.slots.values() if s.dial.kind == "combat")
    tray.power_off()
    tray.turn(st.slot.dock, st.slot.dial, 2)  # nobody is listening
    tray.power_on()
    rig.table.wait_until(lambda: st.flag is not None, 30, "the away flag")
    assert st.flag is not None and st.flag.kind == mk.AWAY
    assert "turn it 2 clicks counter-clockwise" in st.flag.text
    assert not t.ready()
    tray.turn(st.slot.dock, st.slot.dial, -2)
    rig.table.wait_until(t.ready, 30, "the dial put right")
    assert t.flags[-1].resolved is not None


@pytest.mark.slow
def test_a_game_goes_on_through_a_cable_pulled_again_and_again(rig: Rig) -> None:
    """The cable is pulled every ~1.4 s for 0.4 s while the bots play: clicks made meanwhile are
    replayed from the tray's ring, dice that cannot be rolled are rolled again, and every click
    the rules made is still confirmed."""
    import threading

    stop = threading.Event()

    def puller() -> None:
        while not stop.wait(0.2):
            rig.tray.unplug()
            stop.wait(0.4)
            rig.tray.replug()
            stop.wait(0.8)

    t = rig.tracker
    th = threading.Thread(target=puller, daemon=True)
    th.start()
    try:
        play_out(rig.table, Hands(t, rig.brain), VirtualHands(rig.tray).turn, timeout=300,
                 step_timeout=30)
    finally:
        stop.set()
        th.join()
    assert t.game.outcome() is not None
    assert rig.session.counters["connects"] > 1
    for st in t.slots.values():
        assert st.offset == 0 and st.exp is None, st.label
    assert not [f for f in t.flags if f.resolved is None]
    replay_log(parse_log(t.log_text(), "game.log"))
