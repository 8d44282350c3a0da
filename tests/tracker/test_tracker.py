"""The click tracker on a paper tray (events fed by hand): binding, start check, expectations,
every flag kind, dials as input, disputes, and whole bot games of both engines."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from dialtray.link.messages import DialFault
from dialtray.rules.core.dials import Dial
from dialtray.rules.core.dice import ManualDice, SeededDice
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.table.games import new_game
from dialtray.tracker import OVER, PLAY, START, Slot, TableDice, Tracker, auto_bind
from dialtray.tracker import marks as mk
from dialtray.tracker.hands import MISTAKES, Hands, Mistakes
from paper import PaperTray, bot_move, run_bots

A1C, A1S, A2C, B2C = Slot(0, 0), Slot(0, 1), Slot(1, 0), Slot(4, 0)


def table(kind: str = "airaction", seed: int = 1, dice: TableDice | None = None
          ) -> tuple[Tracker, PaperTray, object]:
    d = dice or TableDice(SeededDice(seed))
    s = new_game(kind, d, seed, 4)
    t = Tracker(s.game, auto_bind(s.game.dials(), 8, s.order), d, header=s.header)
    return t, PaperTray(t), s.brain


def to_first_throttle(t: Tracker, tray: PaperTray, brain: object) -> None:
    """Air Action up to the first Set Throttle step (the bots deploy)."""
    tray.snapshot()
    assert t.phase == PLAY
    for _ in range(2):
        assert t.decide(brain.choose(t.game).text(), tray.now).ok  # type: ignore[attr-defined]
    assert t.game.state.phase == "throttle"  # type: ignore[attr-defined]


def shoot_until_damage(t: Tracker, tray: PaperTray, brain: object) -> None:
    """Let bots play (dials turned right) until an action leaves clicks due on a combat dial."""
    hands = Hands(t, brain)
    for _ in range(3000):
        if any(s.exp is not None and s.dial.kind == "combat" for s in t.slots.values()):
            return
        bot_move(tray, hands)
    raise AssertionError("no damage in the game")


# ---- binding ---------------------------------------------------------------------------------

def test_auto_bind_gives_each_plane_a_dock_and_each_ace_dial_its_own() -> None:
    t, _, _ = table()
    b = t.binding
    assert b.slot_of(Dial("A1", "combat")) == Slot(0, 0)
    assert b.slot_of(Dial("A1", "speed")) == Slot(0, 1)
    assert b.slot_of(Dial("B1", "ace")) == Slot(7, 0)
    assert b.label(Slot(4, 0)) == "dock 4 combat dial (B2)"


def test_dock_file_round_trip_and_errors() -> None:
    from dialtray.tracker.binding import BindingError, format_binding, parse_binding

    t, _, _ = table()
    text = format_binding(t.binding)
    again = parse_binding(text, dials=t.game.dials())
    assert again.items() == t.binding.items()
    with pytest.raises(BindingError, match=r"docks.txt:2: dock 0 combat is already given"):
        parse_binding("dock 0: A1\ndock 0: A2\n", "docks.txt")
    with pytest.raises(BindingError, match=r"f:1: expected 'dock N"):
        parse_binding("A1 on dock 0", "f")
    with pytest.raises(BindingError, match=r"f:1: dock 9: the tray has docks 0..7"):
        parse_binding("dock 9: A1", "f", docks=8)


def test_too_few_docks_is_refused_naming_the_dial() -> None:
    from dialtray.tracker.binding import BindingError

    t, _, _ = table()
    with pytest.raises(BindingError, match="has no dial reader"):
        auto_bind(t.game.dials(), 5)


# ---- start check -----------------------------------------------------------------------------

def test_start_check_guides_until_every_combat_dial_is_at_its_start_click() -> None:
    t, tray, _ = table()
    tray.snapshot({A1C: 2, B2C: 11})  # two dials off: A1 two clicks on, B2 one back
    assert t.phase == START
    waits = " | ".join(t.waiting_for())
    assert "dock 0 combat dial (A1): turn 2 clicks counter-clockwise to its start click" in waits
    assert "dock 4 combat dial (B2): turn 1 click clockwise to its start click" in waits
    assert not t.decide("first-player", tray.now).ok  # nothing happens before the check passes
    tray.turn(A1C, -2)
    assert t.phase == START
    tray.turn(B2C, 1)
    assert t.phase == PLAY
    # the table's roll (first player) needs no one: done as soon as the dials agree
    assert [e.action.text() for e in t.game.history] == ["first-player"]


def test_speed_dials_may_rest_anywhere_before_the_first_speed_is_set() -> None:
    t, tray, _ = table()
    tray.snapshot({A1S: 5})
    assert t.phase == PLAY


# ---- expectations and flags ------------------------------------------------------------------

def test_damage_becomes_an_expectation_confirmed_by_the_clicks() -> None:
    t, tray, brain = table()
    tray.snapshot()
    shoot_until_damage(t, tray, brain)
    st = next(s for s in t.slots.values() if s.exp is not None and s.dial.kind == "combat")
    exp = st.exp
    assert exp is not None
    words = t.waiting_for()
    assert any(w.startswith(f"{st.label}: {mk.turn_words(exp.total)} — ") and "AA-M45" in w
               for w in words), words
    assert not t.decide(t.game.legal_actions()[0].text(), tray.now).ok  # the game waits
    before = len(t.confirmed)
    tray.click_by_click(st.slot, exp.total)
    assert len(t.confirmed) == before + 1
    assert t.confirmed[-1].dial == st.dial and "AA-M45" in t.confirmed[-1].text


@pytest.mark.parametrize("kind,turn", [
    (mk.TOO_FEW, lambda n, s: n - s),
    (mk.TOO_MANY, lambda n, s: n + s),
    (mk.WRONG_DIRECTION, lambda n, s: -n),
])
def test_wrong_count_or_direction_is_flagged_after_it_settles_then_put_right(
        kind: str, turn: Callable[[int, int], int]) -> None:
    t, tray, brain = table(seed=2)
    tray.snapshot()
    shoot_until_damage(t, tray, brain)
    st = next(s for s in t.slots.values() if s.exp is not None and s.dial.kind == "combat")
    assert st.exp is not None
    n = st.exp.total
    clicks = turn(n, 1 if n > 0 else -1)
    if clicks == 0:
        pytest.skip("a one-click hit cannot be one short")
    tray.click_by_click(st.slot, clicks)
    assert t.open_flags() == []  # not judged while the hand may still be turning
    tray.settle()
    [flag] = t.open_flags()
    assert flag.kind == kind
    fix = n - clicks
    assert f"turn it {mk.turn_words(fix)}" in flag.text
    assert not t.ready()
    tray.click_by_click(st.slot, fix)
    assert flag.resolved is not None and t.ready()


def test_a_spin_nobody_caused_and_a_wrong_dock() -> None:
    t, tray, brain = table(seed=3)
    tray.snapshot()
    tray.turn(A2C, 1)
    tray.settle()
    [flag] = t.open_flags()
    assert flag.kind == mk.UNEXPECTED and "turn it 1 click counter-clockwise back" in flag.text
    tray.turn(A2C, -1)
    assert t.open_flags() == [] and flag.resolved is not None
    shoot_until_damage(t, tray, brain)
    st = next(s for s in t.slots.values() if s.exp is not None and s.dial.kind == "combat")
    assert st.exp is not None
    other = next(s for s in t.slots.values() if s.dial.kind == "combat" and s.exp is None)
    tray.click_by_click(other.slot, st.exp.total)
    tray.settle()
    [flag] = t.open_flags()
    assert flag.kind == mk.WRONG_DIAL and st.label in flag.text and other.label in flag.text


def test_a_peek_ahead_and_back_is_recorded_for_the_judge_and_does_not_stop_play() -> None:
    t, tray, _ = table()
    tray.snapshot()
    tray.turn(A1C, 1)
    tray.wait(0.1)
    tray.turn(A1C, -1)
    tray.settle()
    assert [f.kind for f in t.flags] == [mk.PEEK]
    assert "AA-M81" in t.notes[-1] and "peek" in t.notes[-1]
    assert t.ready()
    assert any("# judge:" in str(line) and "peek" in str(line) for line in t.lines)


def test_moved_while_the_host_was_away_is_flagged_at_once_from_the_snapshot() -> None:
    t, tray, _ = table()
    tray.snapshot()
    tray.snapshot({A2C: 2}, reason="resync")  # a snapshot asked for directly says so
    tray.wait(0.01)
    [flag] = t.open_flags()
    assert flag.kind == mk.AWAY and "turn it 2 clicks counter-clockwise" in flag.text
    tray.turn(A2C, -2)
    assert t.ready()
    # after a reconnect the session sends the snapshot, then the recovered clicks explaining it
    tray.snapshot({B2C: 1}, reason="tray rebooted")
    tray.pos[B2C] = 0
    tray.turn(B2C, 1, recovered=True)
    tray.wait(0.01)
    [flag] = t.open_flags()
    assert flag.kind == mk.AWAY and "turn it 1 click counter-clockwise" in flag.text


def test_a_sensor_fault_stops_the_game_until_it_clears() -> None:
    t, tray, _ = table()
    tray.snapshot()
    t.feed(DialFault(9, 1, 0, 2), tray.now)
    assert [f.kind for f in t.open_flags()] == [mk.FAULT] and not t.ready()
    t.feed(DialFault(10, 1, 0, 2, cleared=True), tray.now)
    assert t.ready()


# ---- dials as input --------------------------------------------------------------------------

def test_first_speed_and_throttle_are_read_from_the_speed_dial() -> None:
    t, tray, brain = table()
    to_first_throttle(t, tray, brain)
    plane = t.game.to_move()
    seat_planes = [s for s in t.slots.values() if s.dial.kind == "speed"]
    mover = next(iter(t.options())).dial  # the plane whose speed is asked for
    st = t.slot_of(mover)
    assert st is not None and st in seat_planes and plane is not None
    tray.turn(st.slot, -4)  # four counter-clockwise: speed index 4 (AA-M18, set freely)
    assert len(t.game.history) == 4  # nothing read before it settles
    tray.settle()
    last = t.game.history[-1].action.text()
    assert last == f"speed {mover.figure} 5", last
    assert t.dials()[mover].click == 4 and t.ready()


def test_a_throttle_past_the_red_line_is_refused_with_the_rule_and_turned_back() -> None:
    t, tray, brain = table()
    to_first_throttle(t, tray, brain)
    for _ in range(6):  # every plane at its top speed
        mover = t.options()[0].dial
        st = t.slot_of(mover)
        assert st is not None
        top = max(o.to_click for o in t.options() if o.dial == mover)
        tray.turn(st.slot, -top)
        tray.settle()
    hands = Hands(t, brain)
    for _ in range(2000):  # bots play on to the next Set Throttle step
        if t.game.state.phase == "throttle" and t.ready():  # type: ignore[attr-defined]
            break
        bot_move(tray, hands)
    opts = t.options()
    at_top = {o.dial for o in opts} - {o.dial for o in opts if o.delta and o.delta > 0}
    st = t.slot_of(sorted(at_top)[0])
    assert st is not None
    n = len(t.game.history)
    tray.turn(st.slot, -1)  # one more click up: past the red line
    tray.settle()
    assert len(t.game.history) == n
    [flag] = t.open_flags()
    assert flag.kind == mk.REFUSED and "AA-M21" in flag.text and "red line" in flag.text
    tray.turn(st.slot, 1)
    assert t.ready()


# ---- disputes, dice --------------------------------------------------------------------------

@pytest.mark.parametrize("face,allowed", [(3, False), (4, True)])
def test_a_dispute_is_one_die_from_the_games_dice_and_logged(face: int, allowed: bool) -> None:
    dice = ManualDice([])
    t, tray, _ = table(dice=TableDice(SeededDice(5)))
    tray.snapshot()
    t.dice.inner = dice
    dice.feed([face])
    r = t.dispute("B1 rear arc", tray.now)
    assert r.ok is allowed and f"rolled {face}" in r.message and "AA-M84" in r.message
    assert f"dispute B1 rear arc | {face}" in t.log_text()


# ---- whole games -----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["airaction", "aces"])
def test_bot_game_with_every_mistake_caught_put_right_and_replayable(kind: str) -> None:
    t, tray, brain = table(kind, seed=1)
    tray.snapshot()
    hands = Hands(t, brain, Mistakes())
    run_bots(tray, hands)
    assert t.phase == OVER and t.game.outcome() is not None
    kinds = Counter(f.kind for f in t.flags)
    expected = set(MISTAKES) if kind == "airaction" else set(MISTAKES) - {mk.REFUSED}
    assert expected <= set(kinds), kinds
    assert all(f.resolved is not None for f in t.flags)
    # every click the rules made was confirmed: the dials ended where the rules say
    for st in t.slots.values():
        assert st.offset == 0 and st.exp is None
    changes = sum(len(t.game.dial_changes(i)) for i in range(len(t.game.history)))
    assert len(t.confirmed) >= changes * 0.5 and t.confirmed
    log = t.log_text()
    assert "# click dock" in log
    g = replay_log(parse_log(log, f"{kind}.log"))
    assert g is not None


def test_clicks_already_in_the_first_snapshot_are_not_counted_twice() -> None:
    from dialtray.link.messages import Click, DialState, Snapshot

    t, _, _ = table()
    dials = tuple(DialState(s.dock, s.dial, "as5600", 0, 12, 1 if s == A2C else 0)
                  for s in t.binding.slots())
    t.feed(Snapshot(0, 1, 8, dials), 0.0)  # the snapshot already shows seq 7's click
    t.feed(Click(7, A2C.dock, A2C.dial, 1, 1), 0.0)
    assert t.phase == START and t.slots[A2C].offset == 1
    t.feed(Click(8, A2C.dock, A2C.dial, 0, -1), 0.0)
    assert t.phase == PLAY


def test_typed_dice_are_asked_for_when_the_engine_rolls_and_logged() -> None:
    """PromptDice: real dice rolled at the table, faces typed in (a bad entry is asked again)."""
    import random

    from dialtray.rules.core.dice import PromptDice

    rng = random.Random(4)
    asked: list[str] = []

    def ask(count: int, purpose: str) -> list[int]:
        asked.append(purpose)
        if len(asked) == 2:
            return [9] * count  # a typo: not a die face
        return [rng.randint(1, 6) for _ in range(count)]

    t, tray, brain = table(dice=TableDice(PromptDice(ask)))
    tray.snapshot()
    run_bots(tray, Hands(t, brain))
    assert t.game.outcome() is not None and len(asked) > 10
    assert asked[1] == asked[2]  # the typo was asked for again
    replay_log(parse_log(t.log_text(), "typed.log"))


def test_healing_is_clicks_due_counter_clockwise_confirmed_like_damage() -> None:
    """Aces Second Wind (AC-M13, AC-A17) heals: the combat dial goes back counter-clockwise."""
    t, tray, brain = table("aces", seed=1)
    tray.snapshot()
    hands = Hands(t, brain)
    heal = None
    for _ in range(2000):
        if t.ready():
            heal = next((a.text() for a in t.game.legal_actions()
                         if a.text().startswith("secondwind")), None)
            if heal:
                break
        bot_move(tray, hands)
    assert heal is not None, "no Second Wind in this seeded game"
    assert t.decide(heal, tray.now).ok
    st = next(s for s in t.slots.values() if s.exp is not None)
    assert st.exp is not None and st.exp.total < 0
    assert "counter-clockwise" in " ".join(t.waiting_for()) and "AC-" in st.exp.cause_text()
    tray.click_by_click(st.slot, st.exp.total)
    assert t.confirmed[-1].clicks < 0 and t.ready()


def test_dice_that_cannot_be_rolled_leave_no_trace_and_are_rolled_again() -> None:
    """The tray's dice may fail (a pulled cable): the decision is not taken, the game state is
    unchanged, the tray says what it waits for, and the same decision works once dice roll."""
    dice = ManualDice([])
    t, tray, _ = table(dice=TableDice(dice))
    tray.snapshot()  # the start check passes: the table's first-player roll has no dice yet
    assert len(t.game.history) == 0
    assert any("could not be rolled" in w for w in t.waiting_for())
    dice.feed([6, 6, 1, 1])
    tray.wait(0.1)  # the table tries again at the next tick
    assert [e.action.text() for e in t.game.history] == ["first-player"]
    for text in ("deploy P1", "deploy P2"):
        assert t.decide(text, tray.now).ok
    # initiative needs dice again, and there are none: it waits, nothing half-done
    assert [e.action.text() for e in t.game.history][-1] == "deploy P2"
    assert any("initiative could not be rolled" in w for w in t.waiting_for())
    r = t.dispute("A1 rear arc", tray.now)
    assert not r.ok and r.retry and len(t.game.history) == 3
    dice.feed([5, 2, 3, 1])
    tray.wait(0.1)
    assert t.game.history[-1].action.text() == "initiative"
    dice.feed([4])
    r = t.dispute("A1 rear arc", tray.now)
    assert r.ok and "rolled 4" in r.message
