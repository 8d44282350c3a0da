"""A trial ("what would this action do to the dials?") never hangs on rejection sampling.

``core.dice.choose_uniform`` rerolls a group of dice whose value falls in the uneven remainder;
a trial that showed 6 on every die for ever would reroll for ever whenever the number of choices
does not divide 6**n (Air Action's random card, AA-M14 "Random Maneuver", among 5 cards).
"""

from __future__ import annotations

from dialtray.rules.core.dice import SeededDice, choose_uniform
from dialtray.tracker.dice import TableDice


def test_a_random_choice_inside_a_trial_ends_and_records_nothing() -> None:
    dice = TableDice(SeededDice(7))
    with dice.trial():
        for k in (2, 3, 5, 7, 11, 35, 37):
            index, faces = choose_uniform(dice, k, f"random card among {k}")
            assert 0 <= index < k and faces
    assert dice.take() == [], "a trial's rolls are never recorded"


def test_outside_a_trial_the_real_source_rolls_again() -> None:
    dice = TableDice(SeededDice(7))
    with dice.trial():
        assert dice.roll(2, "check") == (6, 6)
        assert dice.roll(2, "check") == (1, 1)
    with dice.trial():
        assert dice.roll(2, "check") == (6, 6), "each trial starts afresh"
    faces = dice.roll(3, "shot")
    assert len(faces) == 3 and [r.faces for r in dice.take()] == [faces]
