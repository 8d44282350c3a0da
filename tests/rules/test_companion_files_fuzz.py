"""Fuzz: 10 000 mutated FASA record sheets, tables, maps and Sky Ace hero files (issue 34).

Each mutation (a key dropped, a value of the wrong type or out of range, a list emptied or
doubled, a string garbled) of a shipped file is checked in process, as `dialtray fasa sheet
check`, a log's `Tables:` header and `dialtray skyace hero check` check one: the answer is a
list of findings or a ``CatalogueError``, each naming the file and the field, never any other
exception. Validation only (no game is played), in slices so the suite can spread them.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.fasa.creation import check_sheet_document
from dialtray.rules.fasa.hexmap import load_map
from dialtray.rules.fasa.tables import SHIPPED, check_documents
from dialtray.rules.skyace.creation import check_documents as check_heroes

DATA = SHIPPED.parent.parent
SHEETS = [json.loads(p.read_text()) for p in sorted((DATA / "fasa" / "sheets").glob("*.json"))]
HEROES = json.loads((DATA / "skyace" / "heroes.json").read_text())["heroes"]
TABLES = {p.stem: json.loads(p.read_text()) for p in sorted(SHIPPED.glob("*.json"))}
MAPS = {p.stem: json.loads(p.read_text()) for p in sorted((DATA / "fasa" / "maps").glob("*.json"))}
TABLES["template"]["arrowheads"] = TABLES["template"]["arrowheads"][:40]  # a small template
TABLES["layouts"]["layouts"] = {"front-engine": TABLES["layouts"]["layouts"]["front-engine"]}
ODD: list[Any] = [None, -1, 0, 11, 10**9, 2.5, "", "x" * 300, "Zap (QQ+1)", [], {}, True,
                  "nose", "AP", [0, 0], {"up_to": 10, "table": "nose"}]
SLICES = 4
COUNTS = {"sheet": 3500, "table": 2500, "map": 1000, "hero": 3000}  # 10 000 files


def _paths(doc: Any, at: tuple[Any, ...] = (), out: list[tuple[Any, ...]] | None = None
           ) -> list[tuple[Any, ...]]:
    """Every node's path, parents before children, in document order (one list, appended to:
    not a list per node concatenated into its parent's)."""
    if out is None:
        out = []
    out.append(at)
    if isinstance(doc, dict):
        for k, v in doc.items():
            _paths(v, (*at, k), out)
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            _paths(v, (*at, i), out)
    return out


def _copy(doc: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars): what ``copy.deepcopy`` gives for a
    parsed file, without its memo of shared objects (a parsed file shares none)."""
    if isinstance(doc, dict):
        return {k: _copy(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_copy(v) for v in doc]
    return doc


def mutate(doc: Any, rng: random.Random) -> Any:
    """One to three random edits of a deep copy of ``doc``."""
    doc = _copy(doc)
    for _ in range(rng.randint(1, 3)):
        paths = _paths(doc)
        at = rng.choice(paths)
        if not at:
            if rng.random() < 0.1:
                return rng.choice(ODD)
            continue
        parent = doc
        for k in at[:-1]:
            parent = parent[k]
        key, op = at[-1], rng.random()
        if op < 0.25 and isinstance(parent, dict):
            del parent[key]
        elif op < 0.35 and isinstance(parent, list):
            parent.pop(key)
        elif op < 0.45 and isinstance(parent, list):
            parent.append(_copy(parent[key]))
        elif op < 0.6 and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] += rng.choice((-11, -1, 1, 2, 7, 100))
        elif op < 0.7 and isinstance(parent[key], str) and parent[key]:
            s = parent[key]
            i = rng.randrange(len(s))
            parent[key] = s[:i] + rng.choice("()+-XQ9 é\x00") + s[i + 1:]
        elif op < 0.75 and isinstance(parent, dict):
            parent[rng.choice(("extra", "_note", "A", "9", "gun9"))] = rng.choice(ODD)
        else:
            parent[key] = _copy(rng.choice(ODD))
    return doc


def _named(exc: CatalogueError, file: str) -> None:
    assert exc.file.endswith(file) and exc.field and exc.message, exc


def _one(kind: str, rng: random.Random, box: Path) -> None:
    if kind == "sheet":
        doc = mutate(rng.choice(SHEETS), rng)
        for f in check_sheet_document(doc, "my-sheet.json"):
            assert f.field and f.message and f.rule.startswith("FS-M"), f
        return
    if kind == "hero":
        doc = mutate(rng.choice(HEROES), rng)
        for f in check_heroes([doc], "my-heroes.json"):
            assert f.field and f.message and f.rule.startswith("SA-"), f
        return
    if kind == "map":  # a map is read from the owner's maps/ folder, as a game reads it
        doc = mutate(MAPS[rng.choice(sorted(MAPS))], rng)
        (box / "my-map.json").write_text(json.dumps(doc), encoding="utf-8")
        try:
            load_map("my-map", box)
        except CatalogueError as exc:
            _named(exc, "my-map.json")
        return
    name = rng.choice(sorted(TABLES))
    try:
        check_documents({name: mutate(TABLES[name], rng)}, "box")
    except CatalogueError as exc:
        _named(exc, f"{name}.json")


@pytest.mark.slow(cost=2)
@pytest.mark.parametrize("part", range(SLICES))
def test_mutated_sheets_tables_and_heroes_fail_with_a_named_field(part: int,
                                                                 tmp_path: Path) -> None:
    rng = random.Random(3400 + part)
    for kind, count in COUNTS.items():
        for _ in range(count // SLICES):
            _one(kind, rng, tmp_path)


def test_the_shipped_files_pass_their_own_checks() -> None:
    """The unmutated files are good (so a finding in the fuzz is the mutation's)."""
    assert all(check_sheet_document(s, "s.json") == [] for s in SHEETS)
    assert check_heroes(HEROES, "heroes.json") == []
    check_documents(TABLES, "box")


def test_a_mutation_is_caught_with_its_field() -> None:
    """A sheet with a string for max speed, a hero with two powers of one type, and a hit
    location side with a table that is not one name the field."""
    s = copy.deepcopy(SHEETS[0])
    s["max_speed"] = "fast"
    (f,) = check_sheet_document(s, "s.json")
    assert f.field == "max_speed" and f.rule == "FS-M27"
    h = copy.deepcopy(HEROES[3])
    h["powers"][1] = "Kick (HE+1)"
    assert {f.rule for f in check_heroes([h], "h.json")} == {"SA-M07"}
    t = copy.deepcopy(TABLES["hit_location"])
    t["sides"]["B"][0]["table"] = "wing"
    with pytest.raises(CatalogueError) as info:
        check_documents({"hit_location": t}, "box")
    assert info.value.field == "sides.B[0].table"


