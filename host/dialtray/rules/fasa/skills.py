"""Pilots: skills, character creation, advancement, Quick Draw order and mission XP.

FS-M14 "Skills" (0..10), FS-M15 "Constitution" (base 3), FS-M16 "Gunners", FS-M19 "Optional
fractional Quick Draw", FS-M24 "Creation" (450/350 XP, FS table 4), FS-M25 "XP awards" (FS table
6), FS-M26 "Advancement" (FS table 5), FS-M10 "Half kill".
"""

from __future__ import annotations

from dataclasses import dataclass

SKILLS = ("quick_draw", "dead_eye", "steady_hand", "natural_touch", "sixth_sense")
MAX_LEVEL = 10
BASE_CONSTITUTION = 3
IMPROVE = (10, 10, 20, 30, 40, 50, 60, 70, 80, 90)  # FS table 5, from level 0..9
HERO_XP, WINGMAN_XP = 450, 350  # FS-M24


def improve_cost(level: int) -> int:
    """FS-M26: raising a skill by one costs FS table 5 at the *current* level; 10 is the top."""
    if not 0 <= level < MAX_LEVEL:
        raise ValueError(f"a skill at level {level} cannot be raised (FS-M26: 0..9)")
    return IMPROVE[level]


def creation_cost(level: int) -> int:
    """FS table 4 "Skill Cost Table": the cumulative cost of reaching ``level`` from 0."""
    if not 0 <= level <= MAX_LEVEL:
        raise ValueError(f"skill level {level} is not 0..10 (FS-M14)")
    return sum(IMPROVE[:level])


def constitution_cost(current: int) -> int:
    """FS-A13: Constitution is raised at the FS table 5 value of its current level (max 10)."""
    return improve_cost(current)


def gunner_skill(pilot_level: int) -> int:
    """FS-M16: a gunner's Quick Draw, Dead Eye, Steady Hand are one below the pilot's; FS-A12
    floors them at 0."""
    return max(0, pilot_level - 1)


@dataclass(frozen=True, order=True)
class QuickDraw:
    """FS-M19 "4/25": the level, then the fractional XP; compared in that order."""

    level: int
    points: int = 0

    def text(self) -> str:
        return f"{self.level}/{self.points}" if self.points else str(self.level)


def allocate_quick_draw(qd: QuickDraw, xp: int) -> QuickDraw:
    """FS-M19/FS-T01: XP put into Quick Draw short of the next level stays fractional; enough
    for the level raises it."""
    points = qd.points + xp
    level = qd.level
    while level < MAX_LEVEL and points >= improve_cost(level):
        points -= improve_cost(level)
        level += 1
    return QuickDraw(level, points)


def kill_xp(nth: int) -> int:
    """FS table 6: 20, 40, 60 for the first three kills of the engagement, 80 for each more."""
    return {1: 20, 2: 40, 3: 60}.get(nth, 80) if nth >= 1 else 0


@dataclass(frozen=True)
class MissionRecord:
    """What one pilot did in a mission, for FS table 6 (FS-M25)."""

    survived: bool = True
    inflicted_damage: bool = False
    kills: int = 0
    half_kill: bool = False  # FS-M10: counts as the last kill, half its XP
    landed: bool = False
    memento: bool = False  # FS-A22: combat bailout only
    cargo: bool = False
    planned_bailout: bool = False  # FS-M11/FS-A16
    combat_bailout: bool = False  # counts for FS-M65's later bailouts
    fled: bool = False  # FS-M09


def mission_xp(r: MissionRecord) -> int:
    """FS-M25 "XP awards" by FS table 6 (FS-T03, FS-T37)."""
    xp = 20 if r.survived and r.inflicted_damage else 0
    xp += sum(kill_xp(n) for n in range(1, r.kills + 1))
    if r.half_kill:
        xp += kill_xp(r.kills + 1) // 2
    xp += 10 if r.landed else 0
    if not r.planned_bailout:
        xp += (5 if r.memento else 0) + (10 if r.cargo else 0)
    xp -= 20 if r.planned_bailout else 0
    xp -= 20 if r.fled else 0
    return xp


def spend(levels: dict[str, int], raises: list[str], xp: int) -> tuple[dict[str, int], int]:
    """FS-M25/FS-M26: raise each named skill by one, in order, paying FS table 5; the XP left."""
    out = dict(levels)
    for skill in raises:
        cost = improve_cost(out[skill])
        if cost > xp:
            raise ValueError(f"raising {skill} from {out[skill]} costs {cost}, {xp} XP left "
                             "(FS-M26)")
        xp -= cost
        out[skill] += 1
    return out, xp
