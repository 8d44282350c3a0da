"""Every FASA (FS-M, FS-T) and Sky Ace (SA-M, SA-T) id of the rules inventory is named by a
test that checks something (issue 34 acceptance: "Every FS-M and SA-M mechanic named in a test
that checks it as the text states it").

The inventory's ids ship with dialtray (``data/rules_inventory.json``, built from
rules-inventory.md); ``dialtray coverage`` lists the ones no test names. This test is stricter
than a name: the test function naming the id must hold an ``assert`` (or a refusal check,
``pytest.raises`` / ``refused``), so a docstring alone never counts. Whether it checks the
behaviour *as the text states it* is for a reader: docs/rules-decisions.md ("FASA 1998 and Sky
Ace by the whole book", issue 34) gives the issue's list bullet by bullet with its tests.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from dialtray.rules.inventory import PACKAGED_INVENTORY, ids_in, load_inventory, select

TESTS = Path(__file__).resolve().parent  # tests/rules: where the rules engines are checked
CHECKS = ("raises", "refused")


def _checks(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The function asserts something, or checks a refusal."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Assert):
            return True
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in CHECKS:
                return True
    return False


@pytest.fixture(scope="module")
def checked() -> dict[str, list[str]]:
    """id -> the checking test functions that name it (in their name or docstring)."""
    found: dict[str, list[str]] = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                    and node.name.startswith("test") and _checks(node):
                for ident in ids_in(node.name + " " + (ast.get_docstring(node) or "")):
                    found.setdefault(ident, []).append(f"{path.name}::{node.name}")
    return found


@pytest.mark.parametrize("prefix", ["FS", "SA"])
def test_every_mechanic_and_worked_example_is_named_by_a_checking_test(
        prefix: str, checked: dict[str, list[str]]) -> None:
    entries = select(load_inventory(PACKAGED_INVENTORY), prefix, "MT")
    assert len(entries) > 50, "the shipped inventory lost the game's ids"
    missing = [f"{e.id} {e.title}" for e in entries if e.id not in checked]
    assert not missing, "no checking test names: " + "; ".join(missing)


def test_a_docstring_alone_does_not_count() -> None:
    """The rule above is not name-dropping: a test that names an id but checks nothing is not
    counted."""
    tree = ast.parse('def test_x():\n    """FS-M01 only named."""\n    print(1)\n'
                     'def test_y():\n    """FS-M02."""\n    assert 1 + 1 == 2\n')
    fns = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert [_checks(f) for f in fns] == [False, True]
