"""The docstring examples of the shared core and the Air Action engine stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "dialtray.rules.core.dice",
    "dialtray.rules.core.errors",
    "dialtray.rules.core.dials",
    "dialtray.rules.core.game",
    "dialtray.rules.airaction.game",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
