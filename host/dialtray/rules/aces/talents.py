"""Talents and abilities: colours on the dial -> abilities, through ``data/aces/talents.json``.

AC-M13 "Talents and Abilities": coloured squares keyed to the value printed in them; an ability
works while it shows in the stat slot. AC-M74 (glossary, *optional*): for an optional ability the
controlling player decides each turn whether to use it; dialtray asks for that decision as part of
the action that uses it (``second_wind``, ``attack2``), so not using it is simply not choosing it.

The Talents and Abilities Card is not in the rules (DATA MISSING): the shipped colour map is a
sample. An ability is a *rule hook* when the engine knows its ``kind``; a colour missing from the
map, or an ability whose kind has no hook, is reported (``unknown``), never guessed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from dialtray.rules.aces.figures import DATA_DIR, STATS, Click, Figure
from dialtray.rules.core.catalogue import field_path, load_schema
from dialtray.rules.core.errors import CatalogueError

TALENTS_PATH = DATA_DIR / "talents.json"
TALENTS_SCHEMA = DATA_DIR / "schemas" / "talents.schema.json"

# The ability kinds the engine implements, each a rule hook in ``game``.
HOOKED_KINDS = frozenset({"action", "extra_attacks"})


@dataclass(frozen=True)
class Ability:
    id: str
    name: str
    kind: str
    optional: bool
    params: Mapping[str, Any]

    def param(self, key: str) -> int:
        return int(self.params[key])


@dataclass(frozen=True)
class Talents:
    colours: Mapping[str, Mapping[str, str]]  # stat -> colour -> ability id
    abilities: Mapping[str, Ability]
    sample: bool

    def ability_for(self, stat: str, colour: str) -> Ability | None:
        aid = self.colours.get(stat, {}).get(colour)
        return self.abilities.get(aid) if aid else None

    def active(self, click: Click) -> dict[str, Ability]:
        """The known abilities showing in a stat slot, by id (AC-M13)."""
        out: dict[str, Ability] = {}
        for stat, colour in click.colours.items():
            ab = self.ability_for(stat, colour)
            if ab is not None and ab.kind in HOOKED_KINDS:
                out[ab.id] = ab
        return out

    def unknown(self, figures: Iterable[Figure]) -> list[str]:
        """Every colour on these dials that the map does not resolve to a hooked ability."""
        out: list[str] = []
        for f in figures:
            for k, click in enumerate(f.dial):
                for stat, colour in sorted(click.colours.items()):
                    ab = self.ability_for(stat, colour)
                    if ab is None:
                        out.append(f"{f.id} click {k}: {colour} {stat} is not on the talents map")
                    elif ab.kind not in HOOKED_KINDS:
                        out.append(f"{f.id} click {k}: {ab.name} ({ab.kind}) has no rule hook")
        return out

    def merged(self, other: Talents) -> Talents:
        """This map with ``other``'s abilities and colours added or overriding (a custom
        catalogue's ``talents.json`` over the shipped one)."""
        colours = {stat: dict(table) for stat, table in self.colours.items()}
        for stat, table in other.colours.items():
            colours.setdefault(stat, {}).update(table)
        return Talents(colours, {**self.abilities, **other.abilities}, self.sample or other.sample)


def check_colours(figures: Iterable[Figure], talents: Talents) -> None:
    """Catalogue errors are errors: a colour on a dial that the talents map does not know is a
    ``CatalogueError`` naming the figure's file, the figure and ``dial[k].colours.STAT``. (A
    known ability whose kind has no rule hook is the engine's gap, reported by ``unknown``.)"""
    for f in figures:
        for k, click in enumerate(f.dial):
            for stat, colour in sorted(click.colours.items()):
                if talents.ability_for(stat, colour) is None:
                    known = ", ".join(sorted(talents.colours.get(stat, {}))) or "none"
                    raise CatalogueError(
                        f.source or f.id,
                        f.id,
                        f"dial[{k}].colours.{stat}",
                        f"unknown colour {colour!r} for {stat} (the talents map knows: {known})",
                    )


def parse_talents(doc: Mapping[str, Any], source: str = "talents.json") -> Talents:
    """The colour map as data; every fault is a ``CatalogueError`` naming ``source`` and the
    field (``colours.speed.blue``, ``abilities.flight``)."""
    abilities: dict[str, Ability] = {}
    for aid, a in doc.get("abilities", {}).items():
        if not isinstance(a, dict) or "name" not in a or "kind" not in a:
            raise CatalogueError(
                source, "talents map", f"abilities.{aid}", "needs 'name' and 'kind'"
            )
        params = {k: v for k, v in a.items() if k not in ("name", "kind", "optional", "source")}
        abilities[aid] = Ability(aid, a["name"], a["kind"], bool(a.get("optional", False)), params)
    colours: dict[str, dict[str, str]] = {}
    for stat, table in doc.get("colours", {}).items():
        if stat not in STATS:
            raise CatalogueError(
                source, "talents map", f"colours.{stat}", f"{stat!r} is not a dial stat {STATS}"
            )
        for colour, aid in table.items():
            if aid not in abilities:
                raise CatalogueError(
                    source, "talents map", f"colours.{stat}.{colour}", f"no ability {aid!r}"
                )
        colours[stat] = dict(table)
    return Talents(colours, abilities, bool(doc.get("sample", True)))


def load_talents(path: str | Path = TALENTS_PATH) -> Talents:
    """Load and schema-check a talents colour map; ``CatalogueError`` names file and field.
    The same unchanged file gives the same (read-only) object."""
    p = Path(path)
    st = p.stat()
    return _load_talents(str(p.resolve()), st.st_mtime_ns, st.st_size, str(p))


@lru_cache(maxsize=16)
def _load_talents(path: str, mtime_ns: int, size: int, shown: str) -> Talents:
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CatalogueError(shown, "talents map", "(whole document)", str(exc)) from None
    # the core validator names a document by its id field; the colour map has none
    errors = sorted(
        jsonschema.Draft202012Validator(load_schema(TALENTS_SCHEMA)).iter_errors(doc),
        key=lambda e: list(e.absolute_path),
    )
    if errors:
        err = errors[0]
        field = field_path(list(err.absolute_path))
        raise CatalogueError(shown, "talents map", field, err.message)
    return parse_talents(doc, shown)
