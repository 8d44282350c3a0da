"""The pilot's campaign log (box item "Pilot's campaign log"): XP, kills, bailouts, skills.

FS-M24 "Creation", FS-M25 "XP awards" (FS table 6, at mission completion, spendable at once,
effective next mission), FS-M26 "Advancement" (FS table 5), FS-M19 fractional Quick Draw,
FS-A13 Constitution, FS-M65's "previous combat bailouts" count. Stored as JSON; a malformed
log is a ``CatalogueError`` naming the file and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.fasa.skills import (
    HERO_XP,
    MAX_LEVEL,
    SKILLS,
    WINGMAN_XP,
    MissionRecord,
    QuickDraw,
    allocate_quick_draw,
    constitution_cost,
    creation_cost,
    improve_cost,
    mission_xp,
)


@dataclass
class PilotLog:
    name: str
    skills: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SKILLS, 0))
    quick_draw_points: int = 0
    constitution: int = 3
    xp: int = 0  # unspent
    kills: float = 0
    combat_bailouts: int = 0
    missions: list[dict[str, Any]] = field(default_factory=list)


def create(name: str, skills: dict[str, int], wingman: bool = False,
           constitution: int = 3) -> PilotLog:
    """FS-M24: spend 450 (hero) or 350 (wingman) XP on FS table 4; the rest is saved."""
    budget = WINGMAN_XP if wingman else HERO_XP
    levels = {s: skills.get(s, 0) for s in SKILLS}
    cost = sum(creation_cost(v) for v in levels.values())
    cost += sum(constitution_cost(c) for c in range(3, constitution))
    if cost > budget:
        raise ValueError(f"{name}: the skills cost {cost} XP, the budget is {budget} (FS-M24)")
    return PilotLog(name, levels, 0, constitution, budget - cost)


def record_mission(log: PilotLog, name: str, r: MissionRecord) -> int:
    """FS-M25: the mission's XP is added at completion; kills and combat bailouts counted."""
    xp = mission_xp(r)
    log.xp += xp
    log.kills += r.kills + (0.5 if r.half_kill else 0)
    log.combat_bailouts += 1 if r.combat_bailout else 0
    log.missions.append({"mission": name, "xp": xp, "kills": r.kills, "half_kill": r.half_kill,
                         "survived": r.survived})
    return xp


def raise_skill(log: PilotLog, skill: str) -> int:
    """FS-M26: one level for FS table 5's price at the current level (FS-T02, FS-T03)."""
    if skill == "constitution":
        cost = constitution_cost(log.constitution)
    else:
        cost = improve_cost(log.skills[skill])
    if cost > log.xp:
        raise ValueError(f"raising {skill} costs {cost} XP, {log.xp} unspent (FS-M26)")
    log.xp -= cost
    if skill == "constitution":
        log.constitution += 1
    else:
        log.skills[skill] += 1
        if skill == "quick_draw":
            log.quick_draw_points = 0
    return cost


def put_into_quick_draw(log: PilotLog, xp: int) -> QuickDraw:
    """FS-M19 (optional): XP into Quick Draw short of a level, written "4/25" (FS-T01)."""
    if not 0 < xp <= log.xp:
        raise ValueError(f"{xp} XP: between 1 and the {log.xp} unspent")
    qd = allocate_quick_draw(QuickDraw(log.skills["quick_draw"], log.quick_draw_points), xp)
    log.xp -= xp
    log.skills["quick_draw"], log.quick_draw_points = qd.level, qd.points
    return qd


def save(log: PilotLog, path: str | Path) -> None:
    Path(path).write_text(json.dumps(log.__dict__, indent=1, sort_keys=True) + "\n")


def load(path: str | Path) -> PilotLog:
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogueError(str(p), "-", "(whole document)", f"not a pilot log: {exc}") from None
    name = str(doc.get("name", "?")) if isinstance(doc, dict) else "?"
    if not isinstance(doc, dict):
        raise CatalogueError(str(p), name, "(whole document)", "not a JSON object")
    skills = doc.get("skills")
    if not isinstance(skills, dict) or set(skills) != set(SKILLS):
        raise CatalogueError(str(p), name, "skills", f"needs exactly {', '.join(SKILLS)}")
    for s, v in skills.items():
        if not isinstance(v, int) or not 0 <= v <= MAX_LEVEL:
            raise CatalogueError(str(p), name, f"skills.{s}", "a level 0..10 (FS-M14)")
    for key in ("xp", "constitution", "combat_bailouts", "quick_draw_points"):
        if not isinstance(doc.get(key), int) or doc[key] < 0:
            raise CatalogueError(str(p), name, key, "a whole number >= 0")
    return PilotLog(name, skills, doc["quick_draw_points"], doc["constitution"], doc["xp"],
                    float(doc.get("kills", 0)), doc["combat_bailouts"], list(doc.get("missions",
                                                                                      [])))
