"""The Air Action figure catalogue: one schema-validated JSON file per figure (AA-M01, AA-M02).

Data files live in ``host/dialtray/data/airaction`` (README there): ``figures/*.json`` (planes,
``figure.schema.json``), ``aces/*.json`` (Ace figures as pilots, ``ace.schema.json``),
``skills_equipment.json`` (colour -> rule hook) and ``navigation_cards.json`` (approximate card
geometry). No stat lives in the engine's code: everything a rule reads comes from here.

AA-M01 "Pilot and Plane": max speed, front/rear gunnery and piloting per combat-dial click;
silhouette and the two ranges fixed on the base. AA-M02: the speed dial, stored in throttle-up
(counter-clockwise) order so that the red line (AA-M21) is after the last position.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from dialtray.rules.core.catalogue import (
    Document,
    FieldError,
    load_document,
    load_documents,
    load_schema,
    validate_document,
)
from dialtray.rules.core.errors import CatalogueError

DATA_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "airaction"
LEVELS = ("rookie", "veteran", "ace", "double_ace", "legend")
STATS = ("max_speed", "front_gunnery", "rear_gunnery", "piloting")
HOOKS = (
    "shaken",
    "movement_damage",
    "movement_speed_change",
    "gunnery_modifier",
    "target_silhouette_modifier",
    "no_effect",
)
SHOT_DOWN_HOLES = 3  # AA-M46 "three bullet hole symbols"


@dataclass(frozen=True)
class CombatClick:
    max_speed: int
    front_gunnery: int
    rear_gunnery: int
    piloting: int
    bullet_holes: int
    bail_out: int | None
    structural_limit: bool
    colours: Mapping[str, str] = field(default_factory=dict)

    def gunnery(self, weapon: str) -> int:
        return self.front_gunnery if weapon == "front" else self.rear_gunnery


@dataclass(frozen=True)
class SpeedPosition:
    speed: int
    effect: str | None


@dataclass(frozen=True)
class Level:
    name: str
    multiplier: int | None
    points: int
    start_click: int


@dataclass(frozen=True)
class Figure:
    id: str
    pilot: str
    plane: str
    sample: bool
    collector_number: str
    squadron_symbol: str | None
    silhouette: int
    front_range: int
    rear_range: int
    ace: str | None
    ace_navigation_cards: tuple[str, ...]
    levels: Mapping[str, Level]
    combat_dial: tuple[CombatClick, ...]
    speed_dial: tuple[SpeedPosition, ...]
    file: str = ""

    def level(self, name: str) -> Level:
        return self.levels[name]

    def last_click(self) -> int:
        return len(self.combat_dial) - 1

    def speed_index(self, speed: int) -> int | None:
        for i, p in enumerate(self.speed_dial):
            if p.speed == speed:
                return i
        return None


@dataclass(frozen=True)
class AceClick:
    attack: int
    fate: int
    ko: bool


@dataclass(frozen=True)
class AceFigure:
    id: str
    name: str
    sample: bool
    points: int
    start_click: int
    dial: tuple[AceClick, ...]
    file: str = ""


@dataclass(frozen=True)
class ColourEffect:
    colour: str
    name: str
    hook: str
    optional: bool
    amount: int = 0
    clicks: int = 0


@dataclass(frozen=True)
class NavCard:
    name: str
    speed_rating: int
    paths: Mapping[str, tuple[tuple[float, float, float], ...]]

    def highest(self, path: str) -> int:
        return len(self.paths[path])


def _figure_semantics(doc: Document) -> None:
    dial = doc["combat_dial"]
    for lname, lv in doc["levels"].items():
        start = lv["start_click"]
        if start >= len(dial):
            raise FieldError(f"levels.{lname}.start_click", f"{start} is past the dial's end")
        if not any(c["bullet_holes"] == SHOT_DOWN_HOLES for c in dial[start:]):
            raise FieldError("combat_dial", "no click with 3 bullet holes after the start")
        if dial[start]["bullet_holes"] == SHOT_DOWN_HOLES:
            raise FieldError(f"levels.{lname}.start_click", "starts on a shot-down click")
    for i, c in enumerate(dial):
        if c["bullet_holes"] == SHOT_DOWN_HOLES and c.get("bail_out") is None:
            raise FieldError(f"combat_dial[{i}].bail_out", "a 3-bullet-hole click needs one")
        if c.get("structural_limit") and c["bullet_holes"] != SHOT_DOWN_HOLES:
            raise FieldError(
                f"combat_dial[{i}].structural_limit", "the limit line follows the bullet holes"
            )
    reds = [i for i, p in enumerate(doc["speed_dial"]) if p.get("red_line")]
    if len(reds) != 1:
        raise FieldError("speed_dial", f"exactly one position needs red_line, found {len(reds)}")
    if len(doc.get("ace_navigation_cards", [])) not in (0, 2):
        raise FieldError("ace_navigation_cards", "an Ace adds exactly two cards (AA-M23)")


def _ace_semantics(doc: Document) -> None:
    if doc["start_click"] >= len(doc["dial"]):
        raise FieldError("start_click", "past the dial's end")


def figure_from_doc(doc: Document, file: str = "") -> Figure:
    speed = list(doc["speed_dial"])
    red = next(i for i, p in enumerate(speed) if p.get("red_line"))
    speed = speed[red + 1 :] + speed[: red + 1]  # rotate: the red line follows the last position
    return Figure(
        id=doc["id"],
        pilot=doc["pilot"],
        plane=doc["plane"],
        sample=doc["sample"],
        collector_number=doc["collector_number"],
        squadron_symbol=doc.get("squadron_symbol"),
        silhouette=doc["silhouette"],
        front_range=doc["front_range"],
        rear_range=doc["rear_range"],
        ace=doc.get("ace"),
        ace_navigation_cards=tuple(doc.get("ace_navigation_cards", ())),
        levels={
            k: Level(k, v["multiplier"], v["points"], v["start_click"])
            for k, v in doc["levels"].items()
        },
        combat_dial=tuple(
            CombatClick(
                c["max_speed"],
                c["front_gunnery"],
                c["rear_gunnery"],
                c["piloting"],
                c["bullet_holes"],
                c.get("bail_out"),
                c.get("structural_limit", False),
                dict(c.get("colours", {})),
            )
            for c in doc["combat_dial"]
        ),
        speed_dial=tuple(SpeedPosition(p["speed"], p.get("effect")) for p in speed),
        file=file,
    )


def ace_from_doc(doc: Document, file: str = "") -> AceFigure:
    return AceFigure(
        id=doc["id"],
        name=doc["name"],
        sample=doc["sample"],
        points=doc["points"],
        start_click=doc["start_click"],
        dial=tuple(AceClick(c["attack"], c["fate"], c.get("ko", False)) for c in doc["dial"]),
        file=file,
    )


@dataclass
class Catalogue:
    """Figures, Ace figures, the colour map and the navigation cards, by name."""

    figures: dict[str, Figure]
    aces: dict[str, AceFigure]
    colours: dict[str, ColourEffect]
    cards: dict[str, NavCard]
    basic_deck: dict[str, int]
    cards_approximate: bool = True
    colours_sample: bool = True
    marker_width: float = 1.5

    def figure(self, fid: str) -> Figure:
        return self.figures[fid]

    def effect(self, colour: str | None) -> ColourEffect | None:
        return None if colour is None else self.colours.get(colour)

    @classmethod
    def load(cls, data_dir: str | Path | None = None) -> Catalogue:
        d = Path(data_dir) if data_dir is not None else DATA_DIR
        fschema = load_schema(DATA_DIR / "figure.schema.json")
        aschema = load_schema(DATA_DIR / "ace.schema.json")
        figs = {
            k: figure_from_doc(doc, str(p))
            for k, (p, doc) in load_documents(
                d / "figures", fschema, "id", _figure_semantics
            ).items()
        }
        aces = {
            k: ace_from_doc(doc, str(p))
            for k, (p, doc) in load_documents(d / "aces", aschema, "id", _ace_semantics).items()
        }
        colours, sample = load_colours(d / "skills_equipment.json")
        cards, deck, approx, width = load_cards(d / "navigation_cards.json")
        cat = cls(figs, aces, colours, cards, deck, approx, sample, width)
        cat.check_references()
        return cat

    def check_references(self) -> None:
        for f in self.figures.values():
            if f.ace is not None and f.ace not in self.aces:
                raise CatalogueError(f.file, f.id, "ace", f"unknown Ace figure {f.ace!r}")
            for i, c in enumerate(f.ace_navigation_cards):
                if c not in self.cards:
                    raise CatalogueError(
                        f.file, f.id, f"ace_navigation_cards[{i}]", f"no navigation card {c!r}"
                    )
        for name in self.basic_deck:
            if name not in self.cards:
                raise CatalogueError("navigation_cards.json", name, "basic_deck", "unknown card")

    def overlay(self, data_dir: str | Path) -> Catalogue:
        """A new catalogue: this one with a custom directory's files **added or overriding**
        (a log's ``Catalogue: DIR``). The directory may hold any of ``figures/*.json``,
        ``aces/*.json``, ``skills_equipment.json`` (colours added/overridden) and
        ``navigation_cards.json`` (cards added/overridden; its ``basic_deck`` and
        ``marker_width``, when given, replace the built-in ones)."""
        d = Path(data_dir)
        if not d.is_dir():
            raise CatalogueError(str(d), "-", "(directory)", "no such directory")
        parts = ("figures", "aces", "skills_equipment.json", "navigation_cards.json")
        if not any((d / p).exists() for p in parts):
            raise CatalogueError(str(d), "-", "(directory)", f"holds none of {', '.join(parts)}")
        figs, aces = dict(self.figures), dict(self.aces)
        if (d / "figures").is_dir():
            fschema = load_schema(DATA_DIR / "figure.schema.json")
            docs = load_documents(d / "figures", fschema, "id", _figure_semantics)
            figs.update({k: figure_from_doc(doc, str(p)) for k, (p, doc) in docs.items()})
        if (d / "aces").is_dir():
            aschema = load_schema(DATA_DIR / "ace.schema.json")
            adocs = load_documents(d / "aces", aschema, "id", _ace_semantics)
            aces.update({k: ace_from_doc(doc, str(p)) for k, (p, doc) in adocs.items()})
        colours, colours_sample = dict(self.colours), self.colours_sample
        if (d / "skills_equipment.json").exists():
            extra, sample = load_colours(d / "skills_equipment.json")
            colours.update(extra)
            colours_sample = colours_sample or sample
        cards, deck = dict(self.cards), dict(self.basic_deck)
        approx, width = self.cards_approximate, self.marker_width
        if (d / "navigation_cards.json").exists():
            more, more_deck, more_approx, more_width = load_cards(
                d / "navigation_cards.json", partial=True
            )
            cards.update(more)
            deck = more_deck or deck
            width = more_width or width
            approx = approx or more_approx
        cat = Catalogue(figs, aces, colours, cards, deck, approx, colours_sample, width)
        cat.check_references()
        return cat

    def add_figure_file(self, path: str | Path) -> Figure:
        """Load one more figure file (validated like the rest)."""
        schema = load_schema(DATA_DIR / "figure.schema.json")
        doc = load_document(path, schema, "id", _figure_semantics)
        fig = figure_from_doc(doc, str(path))
        self.figures[fig.id] = fig
        self.check_references()
        return fig


def _read_json(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CatalogueError(str(path), "-", "(whole document)", f"not valid JSON: {exc}") from None
    except UnicodeDecodeError as exc:
        raise CatalogueError(str(path), "-", "(whole document)", f"not UTF-8: {exc}") from None
    if not isinstance(doc, dict):
        raise CatalogueError(str(path), "-", "(whole document)", "must be a JSON object")
    return doc


def load_colours(path: Path) -> tuple[dict[str, ColourEffect], bool]:
    """The Skills & Equipment colour map: colour -> rule hook (AA-M03); schema-checked
    (``skills_equipment.schema.json``), the file and field named on error (issue 31)."""
    doc = _read_json(path)
    schema = load_schema(DATA_DIR / "skills_equipment.schema.json")
    try:
        validate_document(doc, schema, str(path), id_field="-")
    except CatalogueError as exc:  # colours.<colour>.<field>: named as the colour's field
        parts = exc.field.split(".")
        if parts[0] == "colours" and len(parts) >= 3:
            raise CatalogueError(str(path), parts[1], ".".join(parts[2:]), exc.message) from None
        raise
    out: dict[str, ColourEffect] = {}
    for colour, e in doc.get("colours", {}).items():
        hook = e.get("hook") if isinstance(e, dict) else None
        if hook not in HOOKS:
            raise CatalogueError(
                str(path), colour, "hook", f"unknown hook {hook!r} (known: {HOOKS})"
            )
        for key in ("amount", "clicks"):
            v = e.get(key, 0)
            if not isinstance(v, int) or isinstance(v, bool):
                raise CatalogueError(str(path), colour, key, f"{v!r} is not an integer")
        out[colour] = ColourEffect(
            colour,
            str(e.get("name", colour)),
            hook,
            bool(e.get("optional", False)),
            e.get("amount", 0),
            e.get("clicks", 0),
        )
    return out, bool(doc.get("sample", True))


def load_cards(
    path: Path, partial: bool = False
) -> tuple[dict[str, NavCard], dict[str, int], bool, float]:
    """Navigation cards (approximate geometry) and the basic deck (AA-M23). ``partial`` (a
    custom catalogue's file): ``basic_deck`` and ``marker_width`` may be left out ({} and 0).
    Schema-checked (``navigation_cards.schema.json``): a card's error names the card."""
    doc = _read_json(path)
    try:
        validate_document(doc, load_schema(DATA_DIR / "navigation_cards.schema.json"), str(path),
                          id_field="-")
    except CatalogueError as exc:
        m = re.match(r"cards\[(\d+)\]", exc.field)
        if m is None:
            raise
        card = doc["cards"][int(m.group(1))]
        name = str(card.get("name", "?")) if isinstance(card, dict) else "?"
        raise CatalogueError(str(path), name, exc.field, exc.message) from None
    cards: dict[str, NavCard] = {}
    for i, c in enumerate(doc.get("cards", [])):
        name = str(c.get("name", "?")) if isinstance(c, dict) else "?"
        try:
            if not c.get("paths"):
                raise ValueError("a card needs at least one path")
            cards[name] = NavCard(
                name,
                int(c["speed_rating"]),
                {
                    k: tuple((float(p[0]), float(p[1]), float(p[2])) for p in v)
                    for k, v in c["paths"].items()
                },
            )
        except (AttributeError, KeyError, TypeError, ValueError, IndexError) as exc:
            raise CatalogueError(str(path), name, f"cards[{i}]", f"malformed card: {exc}") from None
    if partial:
        doc = {"basic_deck": {}, "marker_width": 0.0, **doc}
    try:
        deck = {str(k): int(v) for k, v in doc["basic_deck"].items()}
        width = float(doc["marker_width"])
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise CatalogueError(
            str(path), "-", "basic_deck/marker_width", f"malformed: {exc}"
        ) from None
    return cards, deck, bool(doc.get("approximate", True)), width


@lru_cache(maxsize=1)
def builtin() -> Catalogue:
    """The catalogue shipped in ``data/airaction`` (sample figures, marked as such)."""
    return Catalogue.load()
