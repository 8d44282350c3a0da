"""Checking a hero file against the rules for making a hero, reading an owner's heroes, and a
fresh hero to fill in.

A hero file is one hero (or villain) object, or ``{"heroes": [...]}``, checked against
``data/skyace/hero.schema.json`` and then the text: SA-M07 "Hero creation" (a power and a
frequency for each of the four attack types), SA-A03 (the four frequencies are E, O, R and A
once each, as every printed hero's are), SA-M46 "Attributes" (new heroes start at Level 1 in all
four; SA-A18 at most 10), SA-M48 "Special-ability count" (floor of the sum of the levels / 4, 2.3:
"starting heroes have 1 Special Ability, and once the sum of Attribute Levels ... reaches 8, the
hero gains another"), SA-M49..SA-M53 the five abilities, SA-M02 (a hero's LIFE is 5, or 6 when
Lucky; only a villain has a printed LIFE). Every problem names the file, the hero and the field.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dialtray.rules.core.catalogue import load_schema, validate_document
from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.skyace.cards import ATTACKS, VALUES, parse_power
from dialtray.rules.skyace.heroes import DATA_DIR, MAX_ATTRIBUTE, Hero

SCHEMA = DATA_DIR / "hero.schema.json"
HEADINGS = {"SA-M02": "LIFE and hand size", "SA-M07": "Hero creation", "SA-A03":
            "Frequencies need not be distinct", "SA-M46": "Attributes", "SA-A18":
            "Attribute maximum", "SA-M48": "Special-ability count", "SA-M58": "Hero sheet"}


@dataclass(frozen=True)
class Finding:
    """One broken rule of one hero: the field, what is wrong, the rule."""

    hero: str
    field: str
    message: str
    rule: str

    def text(self) -> str:
        who = "" if self.hero in ("", "-") else f"hero {self.hero}: "
        return (f"{who}field {self.field}: {self.message} (breaks {self.rule} "
                f"\"{HEADINGS.get(self.rule, '')}\")")


def allowed_abilities(levels: list[int]) -> int:
    """SA-M48: floor of the average of the four attribute levels."""
    return sum(levels) // 4


def hero_findings(doc: dict[str, Any]) -> list[Finding]:
    """The text's rules for one schema-valid hero document."""
    ident = str(doc["id"])
    out: list[Finding] = []
    powers = []
    for i, text in enumerate(doc["powers"]):
        try:
            powers.append(parse_power(text))
        except ValueError as exc:
            out.append(Finding(ident, f"powers[{i}]", str(exc), "SA-M07"))
    if out:
        return out
    got = sorted(p.attack for p in powers)
    if got != sorted(ATTACKS):
        out.append(Finding(ident, "powers", f"needs one power for each of H S D C, has "
                           f"{' '.join(got)}", "SA-M07"))
        return out
    freqs = sorted(p.frequency for p in powers)
    if freqs != sorted(VALUES):
        out.append(Finding(ident, "powers", f"frequencies {' '.join(freqs)}: each of E O R A "
                           "once", "SA-A03"))
    levels = [p.level for p in sorted(powers, key=lambda p: ATTACKS.index(p.attack))]
    advanced = any("+" in t for t in doc["powers"])
    for p in powers:
        i = next(k for k, t in enumerate(doc["powers"]) if parse_power(t) == p)
        if p.level > MAX_ATTRIBUTE:
            out.append(Finding(ident, f"powers[{i}]", f"level {p.level} is over "
                               f"{MAX_ATTRIBUTE}", "SA-A18"))
        elif advanced and not doc.get("villain") and p.level < 1:
            out.append(Finding(ident, f"powers[{i}]", f"{p.name} level {p.level}: new heroes "
                               "start at Level 1 in all four attributes", "SA-M46"))
    abilities = list(doc.get("abilities", []))
    if len(set(abilities)) != len(abilities):
        out.append(Finding(ident, "abilities", "an ability given twice", "SA-M48"))
    can = allowed_abilities(levels)
    if len(abilities) > can:
        out.append(Finding(ident, "abilities", f"{len(abilities)} special abilities; "
                           f"attribute levels {'+'.join(map(str, levels))} = {sum(levels)} "
                           f"allow {can} (floor of the sum / 4)", "SA-M48"))
    if "life" in doc and not doc.get("villain"):
        out.append(Finding(ident, "life", "a hero's LIFE is 5 (6 when Lucky); only a villain "
                           "has a printed LIFE", "SA-M02"))
    return out


def spare_abilities(doc: dict[str, Any]) -> int:
    """How many more special abilities SA-M48 lets this (valid) hero choose."""
    levels = [parse_power(t).level for t in doc["powers"]]
    return max(0, allowed_abilities(levels) - len(doc.get("abilities", [])))


def read_documents(path: str | Path) -> list[dict[str, Any]]:
    """The hero documents of a file (one object, or ``{"heroes": [...]}``);
    ``CatalogueError`` naming the file if it is not JSON of either shape."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CatalogueError(str(p), "-", "(file)", f"cannot read: {exc.strerror or exc}") \
            from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CatalogueError(str(p), "-", "(whole document)", f"not valid JSON: {exc}") \
            from None
    docs: list[dict[str, Any]]
    if isinstance(data, dict) and isinstance(data.get("heroes"), list):
        docs = list(data["heroes"])
    elif isinstance(data, dict):
        docs = [data]
    else:
        raise CatalogueError(str(p), "-", "(whole document)", "a hero object or "
                             "{\"heroes\": [...]}")
    if not docs:
        raise CatalogueError(str(p), "-", "heroes", "no hero in the file")
    return docs


def check_file(path: str | Path) -> list[Finding]:
    """Every rule the heroes of ``path`` break (empty: all good). Never raises."""
    try:
        docs = read_documents(path)
    except CatalogueError as exc:
        return [Finding("-", exc.field, exc.message, "SA-M58")]
    return check_documents(docs, str(path))


def check_documents(docs: list[Any], file: str) -> list[Finding]:
    """``check_file`` for hero documents in memory."""
    out: list[Finding] = []
    schema = load_schema(SCHEMA)
    seen: set[str] = set()
    for i, doc in enumerate(docs):
        prefix = f"heroes[{i}]." if len(docs) > 1 else ""
        try:
            validate_document(doc, schema, file)
        except CatalogueError as exc:
            out.append(Finding(exc.figure, prefix + exc.field, exc.message, "SA-M58"))
            continue
        if doc["id"] in seen:
            out.append(Finding(doc["id"], prefix + "id", "given twice", "SA-M58"))
        seen.add(doc["id"])
        out += [Finding(f.hero, prefix + f.field, f.message, f.rule) for f in hero_findings(doc)]
    return out


def load_heroes(path: str | Path) -> tuple[Hero, ...]:
    """An owner's heroes for a game; ``CatalogueError(file, hero, field, message)`` naming the
    first broken rule."""
    bad = check_file(path)
    if bad:
        f = bad[0]
        raise CatalogueError(str(path), f.hero, f.field, f"{f.message} ({f.rule})")
    return tuple(hero_of(d) for d in read_documents(path))


def load_hero_files(paths: Sequence[str | Path]) -> tuple[tuple[Hero, ...], tuple[str, ...]]:
    """The owner's heroes from several files, as ``SkyAceGame.duel``/``mission`` take them
    (``own``, ``hero_files``: the files are named in the log's ``Hero-file:`` lines, so a
    replay reads them again). The first broken rule is a ``CatalogueError`` naming the file,
    the hero and the field; an unreadable file names the file."""
    own: list[Hero] = []
    for path in paths:
        own += load_heroes(path)
    return tuple(own), tuple(str(p) for p in paths)


def hero_of(doc: dict[str, Any]) -> Hero:
    return Hero(str(doc["id"]), str(doc["name"]),
                tuple(parse_power(t) for t in doc["powers"]),
                tuple(str(a) for a in doc.get("abilities", [])), doc.get("life"),
                bool(doc.get("villain", False)))


def new_hero(ident: str, name: str) -> dict[str, Any]:
    """A starting hero (2.0 advanced game) that passes every check: one power per attack
    type, the frequencies E O R A once each, every attribute at Level 1 (SA-M46) and the one
    special ability that allows (SA-M48)."""
    return {"id": ident, "name": name, "origin": "",
            "note": "Made by `dialtray skyace hero new`: name the powers, choose who gets "
                    "which frequency and the one special ability.",
            "powers": ["Punch (HE+1)", "Sneak (SO+1)", "Blast (DR+1)", "Leap (CA+1)"],
            "abilities": ["unbreakable"]}
