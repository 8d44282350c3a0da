"""Every target number of the FASA rules (FS table 19) as a pure function, and the d10 check.

Each roll is one d10 against a TN (FS-M01 "Target-number rolls": success if roll >= TN) with
FS-M02 "Automatic results" (10 always succeeds, 1 always fails). The formulas cite the
mechanic they come from; the worked examples FS-T09..FS-T39 check the numbers.
"""

from __future__ import annotations

from dialtray.rules.core.dice import DiceSource, roll_sided

D10 = 10
SHOCK = 2  # FS-M76 "Shock": +2 to all actions
PUSH_BASE = 8  # FS-M45 "Push TN (general)"


def succeeds(roll: int, tn: int) -> bool:
    """FS-M01 roll >= TN, FS-M02 a 10 always succeeds and a 1 always fails."""
    if roll == D10:
        return True
    if roll == 1:
        return False
    return roll >= tn


def roll_d10(dice: DiceSource, purpose: str, count: int = 1) -> tuple[int, ...]:
    """``count`` d10 from the injected source (every FASA roll is a d10, FS-M01)."""
    return roll_sided(dice, count, purpose, D10)


def shock(shocked: bool) -> int:
    return SHOCK if shocked else 0


def push_tn(over: int, natural_touch: int, shocked: bool = False) -> int:
    """FS-M45/FS-M46/FS-M49/FS-M51: 8 + amount over the rating - Natural Touch (+2 shocked).
    The record sheet's "+ Natural Touch" line is read as minus (FS-A01)."""
    return PUSH_BASE + over - natural_touch + shock(shocked)


def restricted_tn(gs: int, natural_touch: int, shocked: bool = False) -> int:
    """FS-M48 "Second consecutive restricted maneuver": 8 + the maneuver's full G rating."""
    return PUSH_BASE + gs - natural_touch + shock(shocked)


def constitution_tn(constitution: int, shocked: bool = False) -> int:
    """FS-M17 "Shock roll": 10 - current Constitution (+2 if already in shock)."""
    return 10 - constitution + shock(shocked)


def jam_clear_tn(steady_hand: int) -> int:
    """FS-M78 "Clearing jams": 8 - Steady Hand."""
    return 8 - steady_hand


def to_hit_tn(base: int, deflection: int, range_hexes: int, dead_eye: int,
              weapon_modifier: int = 0, shocked: bool = False) -> int:
    """FS-M73 "To-hit": target base + deflection + range - Dead Eye + weapon modifier + shock."""
    return base + deflection + range_hexes - dead_eye + weapon_modifier + shock(shocked)


def seeker_tn(base: int, range_hexes: int, dead_eye: int, target_last_gs: int,
              shocked: bool = False) -> int:
    """FS-M112 "Seeker": no deflection, + the G rating of the target's last maneuver, +1."""
    return base + range_hexes - dead_eye + 1 + target_last_gs + shock(shocked)


def bomb_tn(base: int, bomb_modifier: int, adjacent: bool, dead_eye: int,
            shocked: bool = False) -> int:
    """FS-M114 "Bombs": target base + bomb modifier + 5 (adjacent hex) - Dead Eye + shock."""
    return base + bomb_modifier + (5 if adjacent else 0) - dead_eye + shock(shocked)


def torpedo_tn(object_base: int, hexes_after_deploy: int, straight_hexes: int,
               dead_eye: int) -> int:
    """FS-M115 "Aerial torpedo": base + (5 + 3 per hex after deploy, minimum 1 hex) - 1 per
    hex flown straight before deploying (FS-A15) - Dead Eye."""
    return object_base + 5 + 3 * max(1, hexes_after_deploy) - straight_hexes - dead_eye


def nacelle_tn(range_hexes: int, dead_eye: int, weapon_modifier: int = 0,
               shocked: bool = False) -> int:
    """FS-M118 "Engine nacelles": TN 7 with every standard modifier except deflection."""
    return 7 + range_hexes - dead_eye + weapon_modifier + shock(shocked)


def gas_cell_tn(shocked: bool = False) -> int:
    """FS-M117 "Gas cells" / FS-A07: base 1 (only a natural 1 misses), 3 when shocked."""
    return 1 + shock(shocked)


def avoid_object_tn(object_base: int) -> int:
    """FS-M56 "Non-piloted objects": roll >= 10 - object's base TN to avoid it."""
    return 10 - object_base


def projectile_tn(target_base: int, own_base: int, hexes_straight: int) -> int:
    """FS-M63 "Plane as projectile": target base + own base - hexes moved straight at it."""
    return target_base + own_base - hexes_straight


def projectile_hits(own_base: int) -> int:
    """FS-M64 "Projectile damage": 14 - the plane's base TN, in flak hits."""
    return 14 - own_base


def collision_hits(other_base: int) -> int:
    """FS-M58 "Optional collision damage": 14 - the other object's base TN, in flak hits."""
    return 14 - other_base


def lift_tn(object_base: int, speed: int, natural_touch: int, shocked: bool = False) -> int:
    """FS-M109 "Lifting an object": base + 2 x speed - Natural Touch (+2 shocked)."""
    return object_base + 2 * speed - natural_touch + shock(shocked)


def drill_tn(range_hexes: int) -> int:
    """FS-M113 "Drill rocket": it keeps drilling on a roll >= 10 - range of the attack."""
    return 10 - range_hexes


BAILOUT_BASE = {"fuel": 20, "collision": 18, "cored": 16, "wing": 14, "engine": 12,
                "zeppelin-landing": 14}
"""FS table 9 "Combat Bailout Table" situations (FS-M65); FS table 12 row 5+: "bail out
using a base target number of 14"."""


def bailout_tn(situation: str, sixth_sense: int, quick_draw: int, shocked: bool = False,
               previous_bailouts: int = 0, memento: bool = False, cargo: bool = False) -> int:
    """FS-M65 "Combat bailout": situation base + modifiers - Sixth Sense - Quick Draw. Previous
    combat bailouts make it easier, -1 each, at most -4 (FS-A03, as written)."""
    return (BAILOUT_BASE[situation] + shock(shocked) - min(4, previous_bailouts)
            + (1 if memento else 0) + (3 if cargo else 0) - sixth_sense - quick_draw)


def landing_tn(natural_touch: int, gear_damaged: bool = False, rudders_damaged: int = 0,
               off_runway: bool = False, flaps_damaged: bool = False, wounds: int = 0,
               zeppelin: bool = False) -> int:
    """FS-M66 "Landing TN": 4 + FS table 10 modifiers - Natural Touch. FS-A05: one rudder +2,
    both +3 (not stacked); "not on a runway" only on the ground."""
    mods = (3 if gear_damaged else 0) + {0: 0, 1: 2}.get(rudders_damaged, 3)
    mods += (2 if off_runway and not zeppelin else 0) + (1 if flaps_damaged else 0) + wounds
    return 4 + mods - natural_touch


def landing_needs_roll(tn: int, natural_touch: int, damaged: bool) -> bool:
    """FS-M66: TN <= 0 lands with no roll, unless Natural Touch <= 3 or the plane is damaged."""
    return tn > 0 or natural_touch <= 3 or damaged


GROUND_LANDING = {0: "lands safely",
                  1: "noses down: nose weapons destroyed, engine damaged",
                  3: "grinds in: wings and wing components destroyed, pilot -1 Constitution",
                  5: "flips: plane destroyed, pilot -2 Constitution"}
ZEPPELIN_LANDING = {0: "lands safely",
                    1: "slams the landing structure: nose, nose weapons and engine destroyed",
                    3: "crashes inside: both wings and wing weapons destroyed, pilot -1 Con",
                    5: "crashes into the zeppelin: plane destroyed, a helium cell ripped open, "
                       "bail out at base 14"}


def landing_mishap(tn: int, roll: int, zeppelin: bool = False) -> tuple[int, str]:
    """FS-M67 "Failed landing": index TN - roll (FS-A04: at least 0) on FS table 11/12."""
    index = max(0, tn - roll)
    table = ZEPPELIN_LANDING if zeppelin else GROUND_LANDING
    row = max(k for k in table if k <= index)
    return index, table[row]


def tailing_number(tailer_sixth_sense: int, target_sixth_sense: int, target_smoking: bool,
                   target_shocked: bool) -> int:
    """FS-M60 "Tailing Number": tailer SS - target SS + 2 (smoking) + 2 (shocked)."""
    return (tailer_sixth_sense - target_sixth_sense + (2 if target_smoking else 0)
            + (2 if target_shocked else 0))


def tailing_reveal(number: int, maneuver: str, direction: str, speed: int) -> str:
    """FS-M61 "Information revealed": <0 the direction, 0..2 direction and speed, >=3 the
    destination hex (speed, direction, hexrow) but never the final facing."""
    if number < 0:
        return direction
    if number < 3:
        return f"{direction} speed {speed}"
    return maneuver[:-1] if maneuver and maneuver[-1] in "ABCDEF" else maneuver
