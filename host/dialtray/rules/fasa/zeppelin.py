"""Zeppelins (FS-M116..FS-M122): gas cells, engine nacelles, turrets, main guns, gunners.

Zeppelins do not move (FS-M116); the SAMPLE maps place them as map objects (gas cells,
nacelles, gun posts, a landing hook). This module is the arithmetic the engine and a referee
use: gas-cell points and the fall, the nacelle and cell TNs (``tn``), stray shots (in play:
``stray``), turret reach and arcs, main-gun flak, gunner shock; landings are ``landing``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dialtray.rules.fasa.hexmap import Hex, distance, in_arc, step
from dialtray.rules.fasa.tn import constitution_tn

CELLS, CELL_POINTS, FALLS_AT = 5, 60, 120  # FS-M117
NACELLE_TN = 7  # FS-M118 / FS table 8
MAIN_GUNS_PER_SIDE, MAIN_GUN_RANGE = 3, 8  # FS-M121
GUNNER_CONSTITUTION = 2 + 3  # FS-M122: 2, +3 for the protection around them
TURRET_ROWS = {"nacelle": 3, "bow": 4, "stern": 4}  # FS-M120


@dataclass
class Zeppelin:
    """A zeppelin's gas cells (FS-M117); ``military`` picks the second "Zep. Dmg." number."""

    name: str
    hydrogen: bool = False
    military: bool = False
    cells: list[int] = field(default_factory=lambda: [CELL_POINTS] * CELLS)
    shocked_guns: set[str] = field(default_factory=set)

    @property
    def total(self) -> int:
        return sum(self.cells)

    @property
    def falling(self) -> bool:
        """FS-M117 / FS-T38: air-worthy until the cells total 120 or less."""
        return self.total <= FALLS_AT

    def shredded(self, cell: int) -> bool:
        """A cell at 0 is shredded: planes may fly and fire through it."""
        return self.cells[cell] == 0

    def hit_cell(self, cell: int, points: int) -> int:
        """Template points off one cell (never below 0); the points it took."""
        took = min(points, self.cells[cell])
        self.cells[cell] -= took
        return took

    def magnesium(self) -> str:
        """FS-M117: magnesium burns nothing in helium, destroys a hydrogen zeppelin."""
        if self.hydrogen:
            self.cells = [0] * CELLS
            return "destroyed"
        return "no burn"


def zep_damage(commercial: int, military: int, is_military: bool) -> int:
    """The template's "Zep. Dmg." pair (DATA MISSING): first number against a commercial
    zeppelin, the one after the slash against a military one (FS-M117)."""
    return military if is_military else commercial


def stray_shot_continues(attacker: Hex, facing: int, target: Hex, zeppelin: Hex) -> bool:
    """FS-M119: a miss at a target between a zeppelin-facing attacker and the zeppelin goes on
    down the same hexrow."""
    from dialtray.rules.fasa.hexmap import straight_ahead

    to_target = straight_ahead(attacker, facing, target)
    to_zep = straight_ahead(attacker, facing, zeppelin)
    return to_target is not None and to_zep is not None and to_target < to_zep


def turret_range(plane_gun_range: int) -> int:
    """FS-M120 / FS-T35: a zeppelin turret reaches 2 hexes further than the plane version."""
    return plane_gun_range + 2


def turret_covers(turret: Hex, facing: int, kind: str, target: Hex, reach: int) -> bool:
    """FS-M120: a turret set after movement covers 3 (nacelle) or 4 (bow, stern) hexrows
    around its facing: +-1 or +-1.5 hexsides (SAMPLE geometry, D-FS-05)."""
    half = 1.0 if TURRET_ROWS[kind] == 3 else 1.5
    return distance(turret, target) <= reach and in_arc(turret, facing, target, half)


def main_gun_burst(target: Hex) -> dict[Hex, int]:
    """FS-M121: a main-gun round auto-hits its hex and explodes at the end of the next
    Movement Phase: 2 hits in the hex, 1 in the rest of its mega-hex."""
    out = {target: 2}
    for f in range(6):
        out[step(target, f)] = 1
    return out


def gunner_shock_tn(already_shocked: bool = False) -> int:
    """FS-M122 / FS-T39: the gunner's Constitution 5 gives a shock TN of 10 - 5 = 5."""
    return constitution_tn(GUNNER_CONSTITUTION, already_shocked)
