"""Hands(hold=…): while the round's time is up at an event (issue 17, D-HUB-03), the bots start
no new decision, but still turn the clicks the rules made, so the table's own time-limit
decision (AA-M53 (2) "end time") finds the dials agreeing and is taken. Without the hold a bot
decided again the moment the dials agreed and the time-limit decision kept waiting (the
hub's serve --event test timed out under load)."""

from __future__ import annotations

from dialtray.tracker import OVER
from dialtray.tracker.hands import Hands, Turn, Typed
from paper import bot_move
from test_tracker import shoot_until_damage, table


def test_a_held_bot_decides_nothing_and_the_time_limit_decision_is_taken() -> None:
    t, tray, brain = table()
    tray.snapshot()
    held = [False]
    hands = Hands(t, brain, hold=lambda: held[0])
    for _ in range(40):  # into the game: the bots deploy and play on
        bot_move(tray, hands)
    while not t.ready():  # the clicks of the last decision turned (a bot turns them)
        bot_move(tray, hands)
    held[0] = True  # the round's time is up
    assert hands.next() is None, "a held bot started a decision"
    assert t.ready() and t.decide("end time", tray.now).ok  # AA-M53 (2): the table ends it
    assert t.phase == OVER
    held[0] = False
    assert hands.next() is None  # the game is over


def test_a_held_bot_still_turns_the_clicks_the_rules_made() -> None:
    t, tray, brain = table()
    tray.snapshot()
    held = [False]
    shoot_until_damage(t, tray, brain)  # damage clicks are due on a combat dial
    hands = Hands(t, brain, hold=lambda: held[0])
    held[0] = True
    move = hands.next()
    assert isinstance(move, tuple) and all(isinstance(m, Turn) for m in move), move
    for m in move:
        tray.click_by_click(m.slot, m.clicks)
    tray.settle()
    assert t.ready() and hands.next() is None  # the dials agree; nothing new while held
    held[0] = False
    assert isinstance(hands.next(), Typed)  # let go: the bot decides again
