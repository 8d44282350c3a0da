"""Figure data: Aces and character tokens, loaded from schema-validated JSON files.

AC-M02 point values and AC-M11 dial values are printed on each figure; the rules give none except
the few named in rules-inventory §3.6, so every shipped figure is marked ``sample`` and each file's
``sources`` says which values come from the rules text. No stat appears in the engine's code.

Dial model (AC-M11, AC-M37, AC-M73): ``dial[k]`` is the stat slot after ``k`` clockwise clicks
from the dial's first click; the green triangle (AC-M08) is at ``starting_click``; one click past
the last entry shows the KO symbols. A character token has one click (AC-M12), so any click of
damage knocks it out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dialtray.rules.core.catalogue import FieldError, load_documents, load_schema

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "aces"
FIGURES_DIR = DATA_DIR / "figures"
SCHEMA_PATH = DATA_DIR / "schemas" / "figure.schema.json"

STATS = ("speed", "attack", "defense", "fate")


@dataclass(frozen=True)
class Click:
    """One position of the combat dial: the four values in the stat slot and their colours."""

    speed: int
    attack: int
    defense: int
    fate: int
    colours: Mapping[str, str] = field(default_factory=dict)

    def stat(self, name: str) -> int:
        return int(getattr(self, name))


@dataclass(frozen=True)
class Figure:
    id: str
    name: str
    kind: str  # "ace" or "token"
    points: int
    range: int  # printed on the base, never changes (AC-M11)
    pistols: int  # maximum number of different targets of one ranged attack (AC-M34)
    starting_click: int
    dial: tuple[Click, ...]
    sample: bool = True
    source: str = ""

    @property
    def is_ace(self) -> bool:
        return self.kind == "ace"

    @property
    def ko_click(self) -> int:
        """The click at which the KO symbols show (AC-M37)."""
        return len(self.dial)

    def click(self, k: int) -> Click:
        return self.dial[k]


def semantic_check(doc: dict[str, Any]) -> None:
    """Checks beyond the schema: the starting click is on the dial; a token has one click."""
    if doc["starting_click"] >= len(doc["dial"]):
        raise FieldError("starting_click", f"{doc['starting_click']} is past the last click")
    if doc["kind"] == "token" and len(doc["dial"]) != 1:
        raise FieldError("dial", "a character token has exactly one click (AC-M12)")


def figure_from_document(doc: Mapping[str, Any], source: str = "") -> Figure:
    return Figure(
        id=doc["id"],
        name=doc["name"],
        kind=doc["kind"],
        points=doc["points"],
        range=doc["range"],
        pistols=doc["pistols"],
        starting_click=doc["starting_click"],
        dial=tuple(
            Click(c["speed"], c["attack"], c["defense"], c["fate"], dict(c.get("colours", {})))
            for c in doc["dial"]
        ),
        sample=doc["sample"],
        source=source,
    )


def load_catalogue(directory: str | Path = FIGURES_DIR) -> dict[str, Figure]:
    """Every figure file in ``directory`` by id; ``CatalogueError`` names file, figure, field,
    including a dial colour the shipped talents map does not know (``dial[k].colours.STAT``).
    To lay custom figures over the shipped ones use ``aces.catalogue``."""
    from dialtray.rules.aces.talents import check_colours, load_talents  # talents imports us

    schema = load_schema(SCHEMA_PATH)
    docs = load_documents(directory, schema, "id", semantic_check)
    out = {fid: figure_from_document(doc, str(path)) for fid, (path, doc) in docs.items()}
    check_colours(out.values(), load_talents())
    return out


_default: dict[str, Figure] | None = None


def default_catalogue() -> dict[str, Figure]:
    global _default
    if _default is None:
        _default = load_catalogue()
    return _default
