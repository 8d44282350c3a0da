"""Properties of the game object: every listed legal action applies, every apply can be undone to
the exact previous state, and the docstring examples of the Aces modules run."""

from __future__ import annotations

import doctest
import importlib

import pytest
from dialtray.rules.aces.bots import RandomBot
from dialtray.rules.aces.scenarios import load_scenario, start_scenario
from dialtray.rules.core.dice import SeededDice
from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60), probe=st.integers(0, 10_000))
def test_property_legal_actions_apply_and_undo_restores(seed: int, steps: int, probe: int) -> None:
    g = start_scenario(load_scenario("kim-vs-tim"), SeededDice(seed), turn_limit=200)
    bot = RandomBot(seed)
    for _ in range(steps):
        if g.state.over:
            return
        g.apply(bot.choose(g))
    if g.state.over:
        return
    before = (g.report(), g.event_count(), g.to_move())
    acts = g.legal_actions()
    assert acts
    for a in acts[probe % len(acts) :: max(1, len(acts) // 8)]:
        g.apply(a)  # never an IllegalActionError for a listed action
        assert g.rebuilt_state() == g.state
        g.undo()
        assert (g.report(), g.event_count(), g.to_move()) == before


@pytest.mark.parametrize("name", ["grid", "actions", "setup", "game"])
def test_docstring_examples(name: str) -> None:
    mod = importlib.import_module(f"dialtray.rules.aces.{name}")
    result = doctest.testmod(mod)
    assert result.failed == 0 and result.attempted > 0
