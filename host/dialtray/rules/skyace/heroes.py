"""Hero sheets: powers with frequencies, attributes, special abilities (SA-M07, SA-M46..SA-M54,
SA-M58), loaded from ``dialtray/data/skyace/heroes.json``.

A hero answers the two questions combat asks: which card value scores for an attack type
(``frequency``) and how many extra successes the related attribute gives (``attribute``).

>>> h = hero("sky-ace-2.1")
>>> h.frequency("S"), h.attribute("S"), ability_count(h)
('R', 1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from dialtray.rules.core.catalogue import load_document, load_schema
from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.skyace.cards import ATTACKS, VALUES, Power, matches, parse_power

ABILITIES = ("lucky", "powerful", "quick", "regenerative", "unbreakable")
"""SA-M49..SA-M53 (2.3 SPECIAL ABILITIES)."""
ATTRIBUTE_NAMES = {"H": "Health", "S": "Sense", "D": "Deftness", "C": "Courage"}
"""SA-M46 "Attributes": each attribute adds to the attack type of its letter."""
START_LIFE = 5  # SA-M02 "LIFE and hand size"
LUCKY_LIFE = 6  # SA-M49 "Lucky"
MAX_ATTRIBUTE = 10  # SA-A18: "a Level 10 attribute could greatly change a battle's outcome"
DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "skyace"
FILE = "heroes.json"


@dataclass(frozen=True)
class Hero:
    """A hero (or villain) sheet, SA-M58 "Hero sheet": name, one power per attack type H S D C
    with its frequency and attribute level, special abilities; ``life`` overrides the start LIFE
    (villains: the mission says it)."""

    id: str
    name: str
    powers: tuple[Power, ...]
    abilities: tuple[str, ...] = ()
    life: int | None = None
    villain: bool = False

    def power(self, attack: str) -> Power:
        return next(p for p in self.powers if p.attack == attack)

    def frequency(self, attack: str) -> str:
        return self.power(attack).frequency

    def attribute(self, attack: str) -> int:
        """SA-M46: the level of the attribute related to ``attack`` (Health for H, ...)."""
        return self.power(attack).level

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    def start_life(self) -> int:
        """SA-M02: 5; SA-M49 Lucky: 6; a villain's printed LIFE (Thugs: 3)."""
        if self.life is not None:
            return self.life
        return LUCKY_LIFE if self.has("lucky") else START_LIFE

    def sheet(self) -> str:
        """SA-M58 "Hero sheet": the form's fields as text."""
        lines = [f"HERO NAME: {self.name}"]
        for a in ATTACKS:
            p = self.power(a)
            lines.append(f"({a}) ATTACK POWER AND (FREQUENCY): {p.name} ({a}{p.frequency})")
        lines.append("Attribute Levels: " + " ".join(f"({a}) {self.attribute(a)}" for a in ATTACKS))
        lines.append("SPECIAL ABILITIES: " + (", ".join(self.abilities) or "none"))
        return "\n".join(lines)


def check_hero(h: Hero, permutation: bool = True) -> None:
    """One power per attack type; SA-A03: the four frequencies a permutation of E O R A (the
    printed heroes all are) unless ``permutation`` is False; levels 0..10 (SA-A18)."""
    got = sorted(p.attack for p in h.powers)
    if got != sorted(ATTACKS):
        raise ValueError(f"{h.id}: needs one power for each of H S D C, has {''.join(got)}")
    if permutation and sorted(p.frequency for p in h.powers) != sorted(VALUES):
        raise ValueError(f"{h.id}: frequencies must use each of E O R A once (SA-A03)")
    for p in h.powers:
        if not 0 <= p.level <= MAX_ATTRIBUTE:
            raise ValueError(f"{h.id}: {p.name} level {p.level} is not 0..{MAX_ATTRIBUTE} (SA-A18)")
    for a in h.abilities:
        if a not in ABILITIES:
            known = ", ".join(ABILITIES)
            raise ValueError(f"{h.id}: unknown special ability {a!r} (known: {known})")


def _read(doc: dict[str, Any], name: str) -> Hero:
    ident = str(doc.get("id", "?"))
    try:
        powers = tuple(parse_power(str(t)) for t in doc["powers"])
        h = Hero(ident, str(doc["name"]), powers, tuple(str(a) for a in doc.get("abilities", [])),
                 doc.get("life"), bool(doc.get("villain", False)))
        check_hero(h)
    except KeyError as exc:
        raise CatalogueError(name, ident, str(exc.args[0]), "missing") from None
    except ValueError as exc:
        raise CatalogueError(name, ident, "powers", str(exc)) from None
    return h


@cache
def catalogue() -> dict[str, Hero]:
    """Every hero and villain of the shipped data, by id."""
    doc = load_document(DATA_DIR / FILE, load_schema(DATA_DIR / "heroes.schema.json"), "-")
    return {h.id: h for h in (_read(d, FILE) for d in doc["heroes"])}


def hero(ident: str) -> Hero:
    found = catalogue().get(ident)
    if found is None:
        raise KeyError(f"unknown hero {ident!r} (known: {', '.join(sorted(catalogue()))})")
    return found


def ability_count(h: Hero) -> int:
    """SA-M48 "Special-ability count": floor of the average of the four attribute levels."""
    return sum(h.attribute(a) for a in ATTACKS) // 4


def advance(h: Hero, attack: str) -> Hero:
    """SA-M47 "Hero advancement": +1 to one attribute of the player's choice (cap SA-A18)."""
    if attack not in ATTACKS:
        raise ValueError(f"{attack!r} is not an attribute letter (H S D C)")
    p = h.power(attack)
    if p.level >= MAX_ATTRIBUTE:
        raise ValueError(f"{h.id}: {ATTRIBUTE_NAMES[attack]} is already {MAX_ATTRIBUTE} (SA-A18)")
    powers = tuple(Power(q.name, q.attack, q.frequency, q.level + 1) if q is p else q
                   for q in h.powers)
    return Hero(h.id, h.name, powers, h.abilities, h.life, h.villain)


def task_succeeds(h: Hero, attack: str, drawn: list[str]) -> bool:
    """SA-M54 "Attribute tasks": draw as many cards as the attribute's level; the task succeeds
    if one matches the frequency of the related attack type. ``drawn`` must hold exactly that
    many cards (SA-A17: they come from the draw pile and are discarded afterwards)."""
    if len(drawn) != h.attribute(attack):
        raise ValueError(f"a {ATTRIBUTE_NAMES[attack]} task draws {h.attribute(attack)} cards, "
                         f"got {len(drawn)}")
    return any(matches(c, h.frequency(attack)) for c in drawn)
