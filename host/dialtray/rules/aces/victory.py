"""Victory: "Withdrawing", "Ending the Game" and "Victory!" (AC-M66..M72, AC-A09, AC-A10, AC-A13).

VP total = (eliminated enemy points, scored at once, + 2x each captive held at the end) + (own
characters remaining, unless the player withdrew). Ties: fewest recruited points, then a d6
roll-off among the still-tied players, rerolling ties (AC-A13).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dialtray.rules.aces.state import AcesState
from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.game import Seat

CAPTIVE_MULTIPLIER = 2  # AC-M69 "Captives at the end of the game count for double"


@dataclass(frozen=True)
class Outcome:
    """``outcome()`` (``core.game.GameOutcome``): why the game ended, the winner's seat, how a
    tie was broken ("" if none) and the VP table by seat."""

    termination: str
    winner: Seat
    how: str
    vp: Mapping[Seat, int]

    @property
    def vp_table(self) -> tuple[int, ...]:
        """The VP in seating order."""
        return tuple(self.vp.values())


def seat_of(player: int) -> Seat:
    """The seat id of 0-based player ``player`` ("P1", "P2", ...)."""
    return f"P{player + 1}"


def final_vp(s: AcesState) -> tuple[int, ...]:
    """AC-M71: the VP table if the game ended now."""
    vp = list(s.vp)  # AC-M68 eliminations and AC-M56 fate-KO awards, scored during play
    for c in s.chars.values():
        if not c.on_map:
            continue
        if c.captor is not None:
            # AC-M69 / AC-A09: the captor's player scores double; the owner nothing for it
            vp[s.chars[c.captor].player] += CAPTIVE_MULTIPLIER * c.figure.points
        elif c.player not in s.withdrawn:
            vp[c.player] += c.figure.points  # AC-M70 survivors (AC-M66: not after withdrawing)
    return tuple(vp)


def pick_winner(s: AcesState, vp: tuple[int, ...], dice: DiceSource) -> tuple[int, str]:
    """AC-M72: most VP; tie -> fewest recruited points; still tied -> d6 roll-off (AC-A13)."""
    best = max(vp)
    tied = [p for p, v in enumerate(vp) if v == best]
    if len(tied) == 1:
        return tied[0], ""
    pts = {p: s.recruited_points(p) for p in tied}
    fewest = min(pts.values())
    tied = [p for p in tied if pts[p] == fewest]
    if len(tied) == 1:
        return tied[0], f"(VP tie broken: fewest recruited points, {fewest})"
    rounds: list[str] = []
    while len(tied) > 1:
        faces = dice.roll(len(tied), "VP tie: each tied player rolls a die")
        rounds.append(" ".join(f"P{p + 1}:{f}" for p, f in zip(tied, faces, strict=True)))
        top = max(faces)
        tied = [p for p, f in zip(tied, faces, strict=True) if f == top]
    return tied[0], f"(VP and points tie broken by d6 roll-off: {'; '.join(rounds)})"
