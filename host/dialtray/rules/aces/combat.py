"""Pure combat arithmetic of "Resolving an Attack", "Capturing", "Escaping" and "Fate".

No state, no dice: the engine (``game``) rolls and calls these; ``odds`` uses the same functions,
so the exact odds and the game can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

CAP = 6  # "If a target's defense value would be greater than 6, its defense value is considered 6"
CAPTURE_PENALTY = 2  # AC-M39 "your character's attack value is reduced by 2"
NATURAL_SIX = 6  # AC-M54


def attack_dice(attack: int, kind: str, fate: bool, fate_value: int) -> int:
    """AC-M36 dice = attack value; AC-M39 capture rolls two fewer (AC-A08: never below 0);
    AC-M51 offensive fate adds the fate value (AC-M52: 0 adds none)."""
    base = attack - CAPTURE_PENALTY if kind == "capture" else attack
    return max(0, base) + (fate_value if fate else 0)


def target_defense(defense: int, hindering: int, kind: str) -> int:
    """AC-M36 / AC-M60 / AC-M62 / AC-A11: hindering +1 (ranged only) first, then the cap at 6."""
    d = defense + (hindering if kind == "ranged" else 0)
    return min(CAP, max(1, d))


def count_hits(faces: Sequence[int], defense: int) -> int:
    """AC-M36: each die greater than or equal to the (capped) defense is a hit."""
    d = min(CAP, defense)
    return sum(1 for f in faces if f >= d)


def after_defensive_fate(faces: Sequence[int], defense: int) -> int:
    """AC-M53 / AC-M54 / AC-M55: fate prevents every hit except natural sixes."""
    return sum(1 for f in faces if f == NATURAL_SIX and f >= min(CAP, defense))


def split_evenly(points: int, players: int) -> int:
    """AC-M56 / AC-A10: each opposing player's share of a fate-KO, remainder dropped."""
    return points // players if players > 0 else 0


def halved_speed(speed: int) -> int:
    """AC-M59: speed halved, rounding up."""
    return (speed + 1) // 2
