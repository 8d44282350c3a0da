"""Checking a record sheet against the rules for making one, and a blank one to fill in.

``check_sheet`` reads a sheet file and names every rule it breaks: the file's form (the schema
and the loadout against the game's tables, ``sheets.load_sheet``) and the rules of the text:
FS-M14 "Skills" (0..10), FS-M15 "Constitution" (base 3), FS-M24 "Creation" (450 XP for the hero,
350 for the wingman, spent by the Skill Cost Table, FS table 4; Constitution raised by FS table 5,
FS-A13; unspent points saved) plus XP earned since (FS-M25, the pilot's ``experience``),
FS-M19 fractional Quick Draw (points short of the next level), FS-M27 "Max Speed" 1..5, FS-M28
"Max Gs" 0..5, FS-M29 "Acceleration" 1..3 and not above max speed, FS-M30 "Deceleration" 2,
FS-M31 "Base to-hit number" 1..10, FS-M32 guns of 30 to 70 caliber, FS-M103 hardpoints.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.fasa.skills import (
    BASE_CONSTITUTION,
    HERO_XP,
    IMPROVE,
    SKILLS,
    WINGMAN_XP,
    creation_cost,
)
from dialtray.rules.fasa.tables import FasaTables, load_tables

# schema fields -> the mechanic that bounds them (a schema error then names its rule)
FIELD_RULES = {"max_speed": ("FS-M27", "Max Speed"), "g_port": ("FS-M28", "Max Gs"),
               "g_starboard": ("FS-M28", "Max Gs"), "acceleration": ("FS-M29", "Acceleration"),
               "deceleration": ("FS-M30", "Deceleration"),
               "base_to_hit": ("FS-M31", "Base to-hit number"),
               "pilot.constitution": ("FS-M15", "Constitution"),
               "pilot.quick_draw_points": ("FS-M19", "Optional fractional Quick Draw"),
               "guns": ("FS-M32", "Guns and ordnance"),
               "hardpoints": ("FS-M103", "Rockets")}
BOUNDS = (("max_speed", 1, 5), ("g_port", 0, 5), ("g_starboard", 0, 5), ("acceleration", 1, 3),
          ("deceleration", 2, 2), ("base_to_hit", 1, 10))


@dataclass(frozen=True)
class Finding:
    """One broken rule: the field at fault, what is wrong, the mechanic and its heading."""

    field: str
    message: str
    rule: str
    heading: str

    def text(self) -> str:
        return f"field {self.field}: {self.message} (breaks {self.rule} \"{self.heading}\")"


def rule_of(field: str) -> tuple[str, str]:
    for key, rule in FIELD_RULES.items():
        if field == key or field.startswith(key + ".") or field.startswith(key + "["):
            return rule
    if field.startswith("pilot."):
        return "FS-M14", "Skills"
    return "FS-M05", "Record sheet"


def xp_spent(pilot: dict[str, Any]) -> int:
    """FS-M24: the Skill Cost Table (FS table 4) for the five skills, FS table 5 for each
    Constitution point over 3 (FS-A13), and fractional Quick Draw points (FS-M19)."""
    skills = sum(creation_cost(int(pilot[s])) for s in SKILLS)
    con = sum(IMPROVE[BASE_CONSTITUTION:int(pilot["constitution"])])
    return skills + con + int(pilot.get("quick_draw_points", 0))


def budget(pilot: dict[str, Any]) -> int:
    """FS-M24: 450 XP for the hero, 350 for the wingman; plus XP earned since (FS-M25)."""
    base = WINGMAN_XP if pilot.get("role") == "wingman" else HERO_XP
    return base + int(pilot.get("experience", 0))


def rules_findings(doc: dict[str, Any]) -> list[Finding]:
    """The text's rules for a sheet that already has the schema's form."""
    out: list[Finding] = []
    for key, low, high in BOUNDS:
        if not low <= doc[key] <= high:
            rule, heading = FIELD_RULES[key]
            span = f"{low}" if low == high else f"{low} to {high}"
            out.append(Finding(key, f"{doc[key]} is not {span}", rule, heading))
    if doc["acceleration"] > doc["max_speed"]:
        out.append(Finding("acceleration", "more than the max speed", "FS-M29", "Acceleration"))
    for i, g in enumerate(doc["guns"]):
        if not 30 <= g["caliber"] <= 70:
            out.append(Finding(f"guns[{i}].caliber", f"{g['caliber']} cal: guns are 30- to "
                               "70-caliber", "FS-M32", "Guns and ordnance"))
    p = doc["pilot"]
    if p["constitution"] < BASE_CONSTITUTION:
        out.append(Finding("pilot.constitution", f"{p['constitution']} is below the base "
                           f"{BASE_CONSTITUTION}", "FS-M15", "Constitution"))
    qd = p["quick_draw"]
    if p.get("quick_draw_points", 0) and (qd >= 10 or p["quick_draw_points"] >= IMPROVE[qd]):
        out.append(Finding("pilot.quick_draw_points", f"{p['quick_draw_points']} points buy "
                           f"the next level ({IMPROVE[qd] if qd < 10 else 'none above 10'})",
                           "FS-M19", "Optional fractional Quick Draw"))
    spent, has = xp_spent(p), budget(p)
    if spent > has:
        role = "wingman" if p.get("role") == "wingman" else "hero"
        base = HERO_XP if role == "hero" else WINGMAN_XP
        earned = f" + {p['experience']} earned (FS-M25) = {has}" if p.get("experience") else ""
        out.append(Finding("pilot", f"skills cost {spent} XP; a {role} has {base}{earned}",
                           "FS-M24", "Creation"))
    return out


def check_sheet(path: str | Path, tables: FasaTables | None = None) -> list[Finding]:
    """Every rule the sheet at ``path`` breaks (empty: a good sheet). Never raises for a bad
    file: an unreadable or malformed one is a finding naming the field."""
    from dialtray.rules.fasa.sheets import load_sheet

    t = tables or load_tables()
    try:
        load_sheet(path, t)
    except CatalogueError as exc:
        rule, heading = rule_of(exc.field)
        return [Finding(exc.field, exc.message, rule, heading)]
    except OSError as exc:
        return [Finding("(file)", f"cannot read: {exc.strerror or exc}", "FS-M05",
                        "Record sheet")]
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    return rules_findings(doc)


def check_sheet_document(doc: Any, file: str, tables: FasaTables | None = None) -> list[Finding]:
    """``check_sheet`` for a document in memory (the fuzz test's and an editor's way in)."""
    from dialtray.rules.core.catalogue import load_schema, validate_document
    from dialtray.rules.fasa.sheets import _semantic
    from dialtray.rules.fasa.tables import DATA

    t = tables or load_tables()
    try:
        validate_document(doc, load_schema(DATA / "sheet.schema.json"), file,
                          semantic=lambda d: _semantic(d, t))
    except CatalogueError as exc:
        rule, heading = rule_of(exc.field)
        return [Finding(exc.field, exc.message, rule, heading)]
    return rules_findings(doc)


def new_sheet(ident: str, name: str, role: str = "hero") -> dict[str, Any]:
    """A sheet that passes every check, to fill in: a front-engine fighter at the middle of
    each range, the pilot's XP spent evenly (FS-M24: 450 hero / 350 wingman)."""
    level = 4 if role == "hero" else 3  # 5 x 70 = 350 of 450; 5 x 40 = 200 of 350
    return {
        "id": ident, "name": name, "sample": False,
        "note": "Made by `dialtray fasa sheet new`: replace every number with your sheet's.",
        "base_to_hit": 6, "layout": "front-engine", "max_speed": 4, "acceleration": 2,
        "deceleration": 2, "g_port": 3, "g_starboard": 3,
        "guns": [{"id": "gun1", "caliber": 50, "ammo": "AP", "bursts": 12},
                 {"id": "gun2", "caliber": 50, "ammo": "AP", "bursts": 12}],
        "hardpoints": [{"id": "rockets_p1", "load": ["AP"]}, {"id": "rockets_s1",
                                                             "load": ["AP"]}],
        "pilot": {"name": name, "role": role, **{s: level for s in SKILLS},
                  "constitution": BASE_CONSTITUTION},
    }
