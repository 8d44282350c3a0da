"""d10 in the rules core (issue 15): every dice source rolls ``sides``-sided dice, d6 staying the
default; the log records each face's die; exact odds of a TN roll with FS-M01/FS-M02."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import pytest
from dialtray.rules.core.dice import (
    ManualDice,
    PromptDice,
    RecordingDice,
    SeededDice,
    TrayDice,
    roll_sided,
)
from dialtray.rules.core.errors import DiceError, NotationError
from dialtray.rules.core.notation import format_action_line, parse_log, parse_sided_faces
from dialtray.rules.core.odds import tn_all_succeed, tn_success, tn_successes


def test_seeded_d10_covers_every_face_and_d6_sequence_is_unchanged() -> None:
    faces = SeededDice(3).roll(2000, "x", sides=10)
    assert set(faces) == set(range(1, 11))
    assert SeededDice(3).roll(20, "x") == SeededDice(3).roll(20, "x", sides=6)


def test_seeded_refuses_a_die_without_sides() -> None:
    with pytest.raises(DiceError):
        SeededDice(1).roll(1, "x", sides=1)


def test_manual_dice_remember_their_die() -> None:
    d = ManualDice([7, 10], sides=10)
    assert d.roll(2, "to-hit", sides=10) == (7, 10)
    with pytest.raises(DiceError, match="not a face of a six-sided die"):
        ManualDice([7])
    d6 = ManualDice([3])
    with pytest.raises(DiceError, match="d10"):
        d6.roll(1, "to-hit", sides=10)
    assert d6.remaining == 1  # refused: nothing consumed
    mixed = ManualDice([3, 9], sides=[6, 10])
    assert mixed.pending_sides() == (6, 10)
    assert mixed.roll(1, "a") == (3,) and mixed.roll(1, "b", sides=10) == (9,)


def test_prompt_dice_say_which_die_and_check_faces() -> None:
    asked: list[str] = []
    answers = iter([[11], [10]])

    def ask(count: int, purpose: str) -> Sequence[int]:
        asked.append(purpose)
        return next(answers)

    assert PromptDice(ask).roll(1, "to-hit", sides=10) == (10,)
    assert asked == ["to-hit (d10)", "to-hit (d10)"]  # 11 is no d10 face: asked again


class _D6Link:
    def roll_led_dice(self, count: int, purpose: str) -> Sequence[int]:
        return [6] * count


class _SidedLink(_D6Link):
    def roll_led_dice_sided(self, count: int, purpose: str, sides: int) -> Sequence[int]:
        return [sides] * count


def test_tray_dice_roll_d10_only_on_a_link_that_can() -> None:
    assert TrayDice(_SidedLink()).roll(2, "x", sides=10) == (10, 10)
    assert TrayDice(_D6Link()).roll(1, "x") == (6,)
    with pytest.raises(DiceError, match="only d6"):
        TrayDice(_D6Link()).roll(1, "x", sides=10)


def test_recording_dice_keep_the_sides() -> None:
    rec = RecordingDice(SeededDice(1))
    rec.roll(1, "a")
    rec.roll(2, "b", sides=10)
    got = rec.take_sided()
    assert [(p, len(f), n) for p, f, n in got] == [("a", 1, 6), ("b", 2, 10)]
    assert rec.take() == []


def test_roll_sided_refuses_a_d6_only_source() -> None:
    class OnlyD6:
        def roll(self, count: int, purpose: str) -> tuple[int, ...]:
            return (1,) * count

    assert roll_sided(OnlyD6(), 1, "x", 6) == (1,)
    with pytest.raises(DiceError, match="only d6"):
        roll_sided(OnlyD6(), 1, "x", 10)


def test_notation_faces_record_the_sides() -> None:
    assert parse_sided_faces("3 d10: 7 10 d6: 2", "f", 1) == ((3, 7, 10, 2), (6, 10, 10, 6))
    assert parse_sided_faces("d10:1", "f", 1) == ((1,), (10,))
    line = format_action_line("fire", [3, 7, 10, 2], sides=[6, 10, 10, 6])
    assert line == "fire | 3 d10: 7 10 d6: 2"
    assert format_action_line("x", [4, 5]) == "x | 4 5"  # d6 logs are unchanged
    log = parse_log("Game: fasa\n---\nfire | d10: 7 10\nmove | 3\n")
    assert log.body[0].sides == (10, 10) and log.body[1].sides is None
    for bad in ("d10: 11", "7", "d1: 1", "d10: 07", "dx: 1"):
        with pytest.raises(NotationError):
            parse_sided_faces(bad, "f", 4)


def test_tn_odds_count_the_automatic_results() -> None:
    """FS-M01 roll >= TN; FS-M02 a 10 always succeeds, a 1 always fails."""
    assert tn_success(2) == Fraction(9, 10)  # FS-T22: TN 2, only the 1 misses
    assert tn_success(-5) == Fraction(9, 10)
    assert tn_success(11) == tn_success(40) == Fraction(1, 10)
    assert tn_success(7) == Fraction(4, 10)
    assert tn_success(0, automatic=False) == 1
    brute = Counter(f >= 5 for f in range(1, 11))
    assert tn_success(5) == Fraction(brute[True], 10)
    assert tn_all_succeed([4, 5]) == Fraction(7, 10) * Fraction(6, 10)
    dist = tn_successes(2, 6)
    assert sum(dist) == 1 and dist[2] == Fraction(25, 100)
