"""What the WS2812 chain shows, read back from the bytes its data pin carried.

The chain is the dice's pips (``dialrig.dice``: 7 LEDs a die, in pip order), then the d10 ring.
A die's face is the set of its lit pips, looked up in ``dice.FACE_PIPS``; its colour is the
(R, G, B) of its brightest lit pip (the wire carries G, R, B).
"""

from __future__ import annotations

from dataclasses import dataclass

from dialrig import config, dice

PIPS = config.PIPS_PER_DIE


@dataclass(frozen=True)
class DieLook:
    face: int | None  # 1..6; 0: dark; None: lit pips that make no face (a broken chain, noise)
    rgb: tuple[int, int, int]


def dice_faces(grb: bytes, n_dice: int) -> list[DieLook]:
    """Each of the first ``n_dice`` dice as the LEDs show it."""
    out = []
    for d in range(n_dice):
        mask = 0
        best = (0, 0, 0)
        for p in range(PIPS):
            i = 3 * (d * PIPS + p)
            g, r, b = grb[i:i + 3] if i + 3 <= len(grb) else (0, 0, 0)
            if r or g or b:
                mask |= 1 << p
                if r + g + b > sum(best):
                    best = (r, g, b)
        face = dice.FACE_PIPS.find(bytes((mask,)))
        out.append(DieLook(face if face >= 0 else None, best))
    return out
