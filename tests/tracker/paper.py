"""A paper tray for the tracker's unit tests: turns become the Click events the link would
deliver, on a clock the test advances. No firmware, no link: the tracker alone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from dialtray.link.messages import Click, DialState, Snapshot
from dialtray.tracker import Result, Tracker
from dialtray.tracker.binding import Slot
from dialtray.tracker.hands import Eye, Hands, Turn, Typed

DETENTS = 12


@dataclass
class PaperTray:
    tracker: Tracker
    now: float = 0.0
    seq: int = 0
    pos: dict[Slot, int] = field(default_factory=dict)

    def snapshot(self, positions: dict[Slot, int] | None = None, reason: str = "connect") -> None:
        for slot in self.tracker.binding.slots():
            self.pos.setdefault(slot, 0)
        self.pos.update(positions or {})
        dials = tuple(DialState(s.dock, s.dial, "as5600", 0, DETENTS, p % DETENTS)
                      for s, p in sorted(self.pos.items()))
        self.tracker.feed(Snapshot(0, 1, self.seq + 1, dials, reason), self.now)

    def turn(self, slot: Slot, clicks: int, recovered: bool = False) -> None:
        self.seq += 1
        self.pos[slot] = self.pos.get(slot, 0) + clicks
        self.tracker.feed(Click(self.seq, slot.dock, slot.dial, self.pos[slot] % DETENTS,
                                clicks, recovered=recovered), self.now)

    def click_by_click(self, slot: Slot, clicks: int) -> None:
        step = 1 if clicks > 0 else -1
        for _ in range(abs(clicks)):
            self.turn(slot, step)

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.tracker.tick(self.now)

    def settle(self) -> None:
        self.wait(self.tracker.timing.judge_s + 0.01)


def bot_move(tray: PaperTray, hands: Hands,
             decide: Callable[[str, float], Result] | None = None,
             pause: float | None = None) -> None:
    """One move of the bots' hands, each decision required to be taken: with nothing to do the
    tray settles; a typed action goes to decide (default: the tray's tracker); turns are made
    click by click, then pause seconds pass if given. For tests that play until a condition."""
    move = hands.next()
    if move is None:
        tray.settle()
    elif isinstance(move, Eye):
        assert tray.tracker.confirm_eye(move.slot, move.click, tray.now, "a bot").ok
    elif isinstance(move, Typed):
        assert (decide or tray.tracker.decide)(move.text, tray.now).ok
    else:
        for turn in move:
            tray.click_by_click(turn.slot, turn.clicks)
        if pause is not None:
            tray.wait(pause)


def run_bots(tray: PaperTray, hands: Hands, max_moves: int = 20000) -> list[str]:
    """Play until the game is over; returns what was typed. Fails loudly if stuck."""
    typed: list[str] = []
    idle = 0
    for _ in range(max_moves):
        if tray.tracker.phase == "over":
            return typed
        move = hands.next()
        if move is None:
            idle += 1
            assert idle < 50, f"stuck: {tray.tracker.waiting_for()}"
            tray.settle()
            continue
        idle = 0
        if isinstance(move, Eye):
            assert tray.tracker.confirm_eye(move.slot, move.click, tray.now, "a bot").ok
            continue
        if isinstance(move, Typed):
            r = tray.tracker.decide(move.text, tray.now)
            assert r.ok != move.too_early, r.message
            if move.too_early:
                continue
            typed.append(move.text)
        else:
            for t in move:
                assert isinstance(t, Turn)
                tray.click_by_click(t.slot, t.clicks)
            tray.wait(0.05)
    raise AssertionError("the game did not end")
