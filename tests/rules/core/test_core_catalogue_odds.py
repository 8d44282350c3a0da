"""Catalogue loading errors (file/figure/field) and exact odds primitives."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from dialtray.rules.core import odds
from dialtray.rules.core.catalogue import FieldError, field_path, load_documents
from dialtray.rules.core.errors import CatalogueError

SCHEMA = {
    "type": "object",
    "required": ["id", "dial"],
    "properties": {
        "id": {"type": "string"},
        "dial": {
            "type": "array",
            "items": {"type": "object", "properties": {"p": {"type": "integer"}}},
        },
    },
}


def test_field_path() -> None:
    assert field_path(["dial", 3, "p"]) == "dial[3].p"
    assert field_path([]) == "(whole document)"


def test_schema_and_semantic_errors_name_file_figure_field(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"id": "fig-a", "dial": [{"p": 1}, {"p": "x"}]}))
    with pytest.raises(CatalogueError) as info:
        load_documents(tmp_path, SCHEMA)
    e = info.value
    assert (Path(e.file).name, e.figure, e.field) == ("a.json", "fig-a", "dial[1].p")
    (tmp_path / "a.json").write_text(json.dumps({"id": "fig-a", "dial": [{"p": 9}]}))

    def semantic(doc: dict[str, object]) -> None:
        raise FieldError("dial[0].p", "too big")

    with pytest.raises(CatalogueError, match=r"a.json: figure fig-a: field dial\[0\].p: too big"):
        load_documents(tmp_path, SCHEMA, semantic=semantic)
    (tmp_path / "b.json").write_text("{ nope")
    with pytest.raises(CatalogueError, match="not valid JSON"):
        load_documents(tmp_path, SCHEMA)


def brute(n: int, target: int) -> dict[tuple[int, int], int]:
    t = odds.effective_target(target)
    out: dict[tuple[int, int], int] = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        six = sum(1 for f in faces if f == 6)
        other = sum(1 for f in faces if t <= f < 6)
        out[(six, other)] = out.get((six, other), 0) + 1
    return out


@pytest.mark.parametrize("n", [0, 1, 2, 4])
@pytest.mark.parametrize("target", [0, 1, 3, 5, 6, 8])
def test_joint_counts_match_brute_force(n: int, target: int) -> None:
    assert odds.joint_counts(n, target) == brute(n, target)
    assert sum(odds.hit_distribution(n, target)) == 1


def test_known_values() -> None:
    assert odds.hit_distribution(1, 5) == [Fraction(2, 3), Fraction(1, 3)]
    assert odds.two_d6_at_least(7) == Fraction(21, 36)
    assert odds.expectation(odds.hit_distribution(6, 5)) == 2
    assert odds.natural_six_distribution(1) == [Fraction(5, 6), Fraction(1, 6)]
