"""Dials restored from their sensors after a refused replay (tracker.restored), on a paper tray:
the snapshot and its recovered clicks made by the link's own ``reconcile``, as the session
delivers them when the tray's ring log no longer holds what the host missed."""

from __future__ import annotations

from collections import Counter

from dialtray.link.messages import REPLAY_LOST, DialState, Snapshot
from dialtray.link.reconcile import DialMemory, reconcile
from dialtray.rules.core.dice import SeededDice
from dialtray.table.games import new_game
from dialtray.tracker import PLAY, Slot, TableDice, Tracker, auto_bind
from dialtray.tracker import marks as mk
from dialtray.tracker.hands import Hands
from dialtray.tracker.rulings import apply_ruling
from dialtray.tracker.state import SlotState
from paper import DETENTS, PaperTray, bot_move

A1C, B2C = Slot(0, 0), Slot(4, 0)


def table(seed: int = 1) -> tuple[Tracker, PaperTray, object]:
    d = TableDice(SeededDice(seed))
    s = new_game("airaction", d, seed, 4)
    t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), d, header=s.header)
    tray = PaperTray(t)
    tray.snapshot()
    assert t.phase == PLAY
    return t, tray, s.brain


def away(tray: PaperTray, turned: dict[Slot, int], missed: int = 40) -> None:
    """The host away while ``turned`` (clicks per dial) happened and the ring overflowed: the
    link's snapshot and recovered clicks (``reconcile``), fed as the session delivers them."""
    memory = {(s.dock, s.dial): DialMemory("as5600", DETENTS, p % DETENTS)
              for s, p in tray.pos.items()}
    for slot, n in turned.items():
        tray.pos[slot] += n
    dials = tuple(DialState(s.dock, s.dial, "as5600", 0, DETENTS, p % DETENTS)
                  for s, p in sorted(tray.pos.items()))
    snap = Snapshot(0, 1, tray.seq + missed + 1, dials, REPLAY_LOST, missed)
    for ev in reconcile(memory, snap, False, Counter()):
        tray.tracker.feed(ev, tray.now)
    tray.wait(0.01)


def test_a_restored_dial_is_flagged_with_what_confirms_it_and_the_gap_noted() -> None:
    t, tray, _ = table()
    away(tray, {A1C: 8})  # 8 clockwise: read as 4 counter-clockwise
    [flag] = t.open_flags()
    assert flag.kind == mk.CHECK and flag.label == "dock 0 combat dial (A1)"
    assert flag.text.endswith("so it was read from the sensor: turn it 4 clicks clockwise to "
                              "click 0")
    assert t.notes[-1].startswith("the host was away longer than the tray's ring log lasts: "
                                  "40 of the tray's events could not be replayed")
    assert not t.ready() and not t.decide("pass", tray.now).ok
    tray.turn(A1C, 4)
    assert flag.resolved is not None and t.ready()


def test_nothing_moved_is_noted_for_the_judge_and_flags_nothing() -> None:
    t, tray, _ = table()
    away(tray, {A1C: 12})  # a whole turn: an absolute sensor reads the same click
    assert not t.open_flags() and t.ready()
    assert t.notes[-1].endswith("every dial reads where the host last saw it")


def test_a_restored_speed_dial_turned_to_check_it_is_not_read_as_a_throttle() -> None:
    t, tray, brain = table()
    for _ in range(2):  # the bots deploy: the first throttle asks for a speed dial
        assert t.decide(brain.choose(t.game).text(), tray.now).ok  # type: ignore[attr-defined]
    mover = next(iter(t.options())).dial
    st = t.slot_of(mover)
    assert st is not None and st.free
    away(tray, {st.slot: 2})  # turned while the host was away: flagged to be turned back
    assert st.flag is not None and st.flag.kind == mk.CHECK
    away(tray, {st.slot: -2})  # away again: back where it was, still to be checked
    assert st.flag is not None and st.flag.kind == mk.CHECK and st.offset == 0
    assert st.flag.text.endswith("the rules have not set it yet: turn it one click and back")
    history = len(t.game.history)
    tray.turn(st.slot, -1)  # the check's click (up a speed), left to rest: no decision
    tray.settle()
    assert len(t.game.history) == history and st.flag.kind == mk.CHECK
    tray.turn(st.slot, 1)
    assert st.flag is None and t.flags[-1].resolution == \
        "checked: turned to where the rules put it"
    tray.turn(st.slot, -4)  # now the dial decides, as ever (AA-M18)
    tray.settle()
    assert t.game.history[-1].action.text() == f"speed {mover.figure} 5"


def test_a_judges_set_dial_ruling_clears_a_check() -> None:
    t, tray, _ = table()
    away(tray, {B2C: 3})
    st = t.slots[B2C]
    assert st.flag is not None and st.flag.kind == mk.CHECK
    apply_ruling(t, {"ruling": "set-dial", "text": "B2 combat dial must show click 3",
                     "args": {"figure": "B2", "dial": "combat", "click": 3}}, tray.now)
    tray.wait(0.01)
    assert t.flags[-1].resolution == "the judge ruled" and not st.restored
    assert t.ready()


def test_bots_check_a_restored_dial_and_play_on() -> None:
    t, tray, brain = table()
    tray.turn(B2C, 1)  # a click nobody caused, flagged ...
    tray.settle()
    away(tray, {B2C: -1})  # ... and put back while the host was away
    st = t.slots[B2C]
    assert st.flag is not None and st.flag.kind == mk.CHECK and st.offset == 0
    hands = Hands(t, brain)
    for _ in range(4):
        if t.ready():
            break
        bot_move(tray, hands)
    assert t.ready() and not [f for f in t.flags if f.kind == mk.PEEK]
    before = len(t.game.history)
    bot_move(tray, hands)  # and the game goes on
    assert len(t.game.history) == before + 1


def damage_due(t: Tracker, tray: PaperTray, brain: object) -> SlotState:
    """Bots play (dials turned right) until an action leaves clicks due on a combat dial."""
    hands = Hands(t, brain)
    for _ in range(3000):
        due = [s for s in t.slots.values() if s.exp is not None and s.dial.kind == "combat"]
        if due:
            return due[0]
        bot_move(tray, hands)
    raise AssertionError("no damage in the game")


def test_damage_turned_while_the_host_was_away_is_confirmed_and_still_checked() -> None:
    t, tray, brain = table()
    st = damage_due(t, tray, brain)
    assert st.exp is not None
    due, confirmed = st.exp.total, len(t.confirmed)
    away(tray, {st.slot: due})  # the players turned the damage with the cable out
    assert len(t.confirmed) == confirmed + 1 and t.confirmed[-1].seq == 0
    assert st.flag is not None and st.flag.kind == mk.CHECK
    assert "where the rules put it: if it shows click" in st.flag.text


def test_damage_turned_the_wrong_way_while_the_host_was_away_says_what_was_due() -> None:
    t, tray, brain = table()
    st = damage_due(t, tray, brain)
    assert st.exp is not None
    due = st.exp.total
    assert abs(due) <= 2  # (turned back 2 × due from where it should be: under half a turn)
    click = t.dials()[st.dial].click
    away(tray, {st.slot: -due})
    assert st.flag is not None and st.flag.kind == mk.CHECK
    assert f"({mk.turn_words(due)} {'was' if abs(due) == 1 else 'were'} due: " in st.flag.text
    assert st.flag.text.endswith(f"turn it {mk.turn_words(2 * due)} to click {click}")
    tray.turn(st.slot, 2 * due)
    assert st.flag is None and st.exp is None and t.ready()
