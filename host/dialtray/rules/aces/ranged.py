"""Ranged combat (seed 000 "Ranged Combat"): range and line of fire (AC-M30..M32, AC-M60..M64),
no ranged attack when adjacent to an enemy (AC-M30) or at a captor (AC-M45), several targets up
to the pistols value with one die assigned to each (AC-M34, AC-A02).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, permutations

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.actions import (
    AcesAction,
    Assign,
    Attack,
)
from dialtray.rules.aces.base import (
    H_BREAK,
    H_RANGED,
    AcesBase,
)
from dialtray.rules.aces.grid import chebyshev
from dialtray.rules.aces.state import CharState
from dialtray.rules.core.events import Emit


class RangedRules(AcesBase):
    """Ranged combat: target legality and dice assignment."""

    def _check_ranged(self, a: Attack, c: CharState, targets: list[CharState]) -> list[int]:
        """AC-M30..M34, AC-M45, AC-A15: may ``c`` shoot at ``targets``? The hindering modifier
        of each line of fire (AC-M60)."""
        hindering: list[int] = []
        if c.figure.range <= 0:
            self._illegal(a, f"{a.label}'s range is 0", "AC-M30", H_RANGED)
        if self.turn.break_failed:
            self._illegal(
                a, "after a failed break away only close combat is possible", "AC-A15", H_BREAK
            )
        if self.adjacent_enemies(c):
            self._illegal(a, f"{a.label} is adjacent to an enemy", "AC-M30", H_RANGED)
        if len(a.targets) > c.figure.pistols:
            self._illegal(
                a,
                f"{a.label} has {c.figure.pistols} pistol(s): at most that many targets",
                "AC-M34",
                H_RANGED,
            )
        for e in targets:
            why = self._ranged_reason(c, e)
            if why is not None:
                mech = (
                    "AC-M45"
                    if "holds a captive" in why
                    else ("AC-M32" if "range" in why else "AC-M31")
                )
                self._illegal(a, why, mech, H_RANGED)
            hindering.append(self.line_of_fire(c.label, e.label).hindering)
        return hindering

    def _can_shoot(self, c: CharState, e: CharState) -> bool:
        """``_ranged_reason(c, e) is None``, without wording the reasons (legal-action lists
        ask it for every pair)."""
        if e.is_captive or e.captive is not None:
            return False
        a, b = c.square, e.square
        assert a is not None and b is not None
        w = self.map.width
        if max(abs(a % w - b % w), abs(a // w - b // w)) > c.figure.range:  # AC-M32
            return False
        return self.line_of_fire(c.label, e.label).clear

    def _ranged_reason(self, c: CharState, e: CharState) -> str | None:
        if e.is_captive:
            return f"{e.label} is a captive: no one may target it (AC-M42)"
        if e.captive is not None:
            return f"{e.label} holds a captive: no ranged attack on it (AC-M45)"
        assert c.square is not None and e.square is not None
        dist = chebyshev(self.map.square(c.square), self.map.square(e.square))
        if dist > c.figure.range:
            return f"{e.label} is {dist} squares away; range is {c.figure.range} (AC-M32)"
        lof = self.line_of_fire(c.label, e.label)
        if not lof.clear:
            return lof.reason
        return None

    def _legal_ranged(self, c: CharState, fate_options: list[bool]) -> list[AcesAction]:
        """AC-M30: not when adjacent to an enemy; AC-M34 up to ``pistols`` targets."""
        out: list[AcesAction] = []
        if c.figure.range <= 0 or self.adjacent_enemies(c):
            return out
        targets = [e.label for e in self.controlling_enemies(c) if self._can_shoot(c, e)]
        for k in range(1, min(c.figure.pistols, len(targets)) + 1):
            for combo in combinations(targets, k):
                for f in fate_options:
                    out.append(Attack(c.label, "ranged", combo, f))
        return out

    def _legal_assignments(self) -> list[AcesAction]:
        p = self.turn.pending
        assert p is not None
        n = len(p.faces)
        out: list[AcesAction] = []
        k = min(n, len(p.targets))
        for chosen in combinations(p.targets, k):
            for dice_idx in _injections(n, k):
                out.append(
                    Assign(tuple((tg, d + 1) for tg, d in zip(chosen, dice_idx, strict=True)))
                )
        return out

    def _do_assign(self, a: Assign, emit: Emit | None) -> None:
        self._need_phase(a, "assign")
        p = self.turn.pending
        assert p is not None
        need = min(len(p.faces), len(p.targets))
        tgts = [tg for tg, _ in a.pairs]
        dice = [d for _, d in a.pairs]
        if len(set(tgts)) != len(tgts) or any(tg not in p.targets for tg in tgts):
            self._illegal(
                a, f"assign one die to each of {', '.join(p.targets)}", "AC-M34", H_RANGED
            )
        if len(set(dice)) != len(dice) or any(not 1 <= d <= len(p.faces) for d in dice):
            self._illegal(
                a, f"each die (1..{len(p.faces)}) goes to one target only", "AC-M34", H_RANGED
            )
        if len(a.pairs) != need:
            self._illegal(a, f"assign exactly {need} dice (AC-A02)", "AC-M34", H_RANGED)
        if emit is None:
            return
        emit(ev.DiceAssigned(a.pairs))
        self._after_assignment(emit)


def _injections(n: int, k: int) -> Iterable[tuple[int, ...]]:
    """Ordered choices of k different die indexes out of n."""
    return permutations(range(n), k)
