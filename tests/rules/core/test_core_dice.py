"""Dice sources of the shared core (every roll injectable: physical, seeded, tray LEDs)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from dialtray.rules.core.dice import (
    DiceSource,
    ManualDice,
    RecordingDice,
    SeededDice,
    TrayDice,
    choose_uniform,
)
from dialtray.rules.core.errors import DiceError


def test_seeded_dice_reproducible_and_in_range() -> None:
    a = SeededDice(42).roll(200, "t")
    assert a == SeededDice(42).roll(200, "t")
    assert set(a) <= {1, 2, 3, 4, 5, 6}
    assert a != SeededDice(43).roll(200, "t")


def test_manual_dice_in_order_and_exhaustion() -> None:
    d = ManualDice([1, 6])
    d.feed([3])
    assert d.roll(2, "x") == (1, 6)
    with pytest.raises(DiceError, match="needs 2 dice, only 1"):
        d.roll(2, "shot")
    assert d.remaining == 1  # a refused roll consumes nothing


@pytest.mark.parametrize("bad", [0, 7, -1])
def test_manual_dice_rejects_non_faces(bad: int) -> None:
    with pytest.raises(DiceError):
        ManualDice([bad])


class FakeTray:
    def __init__(self, reply: Sequence[int]) -> None:
        self.reply = reply
        self.asked: list[tuple[int, str]] = []

    def roll_led_dice(self, count: int, purpose: str) -> Sequence[int]:
        self.asked.append((count, purpose))
        return self.reply


def test_tray_dice_validates_link_reply() -> None:
    tray = FakeTray([2, 5])
    assert TrayDice(tray).roll(2, "initiative") == (2, 5)
    assert tray.asked == [(2, "initiative")]
    with pytest.raises(DiceError):
        TrayDice(FakeTray([2])).roll(2, "x")
    with pytest.raises(DiceError):
        TrayDice(FakeTray([2, 9])).roll(2, "x")


def test_all_sources_satisfy_protocol() -> None:
    for src in (SeededDice(1), ManualDice(), TrayDice(FakeTray([])), RecordingDice(SeededDice(1))):
        assert isinstance(src, DiceSource)


def test_recording_dice_records() -> None:
    r = RecordingDice(ManualDice([4, 5, 6]))
    r.roll(2, "a")
    r.roll(1, "b")
    assert r.take() == [("a", (4, 5)), ("b", (6,))]
    assert r.take() == []


def test_choose_uniform_is_uniform_over_all_face_sequences() -> None:
    # k=4 with one d6: faces 1-4 map to 0-3, 5 and 6 are rejected and rerolled.
    assert choose_uniform(ManualDice([5, 6, 2]), 4, "c") == (1, (5, 6, 2))
    # k=7 needs two dice (36 outcomes, 35 usable = 5 per choice): exact uniformity.
    seen: Counter[int] = Counter()
    for a in range(1, 7):
        for b in range(1, 7):
            if (a - 1) * 6 + (b - 1) >= 35:
                continue
            idx, _ = choose_uniform(ManualDice([a, b]), 7, "c")
            seen[idx] += 1
    assert seen == Counter({i: 5 for i in range(7)})
    assert choose_uniform(ManualDice([]), 1, "c") == (0, ())


def test_prompt_dice_asks_and_validates() -> None:
    from dialtray.rules.core.dice import PromptDice

    replies = iter([[7, 1], [1], [3, 4]])
    asked: list[tuple[int, str]] = []

    def ask(count: int, purpose: str) -> list[int]:
        asked.append((count, purpose))
        return next(replies)

    assert PromptDice(ask).roll(2, "pilot check") == (3, 4)
    assert asked == [(2, "pilot check")] * 3
    with pytest.raises(DiceError):
        PromptDice(lambda n, p: [9], attempts=2).roll(1, "x")
