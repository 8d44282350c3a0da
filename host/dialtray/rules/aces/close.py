"""Close combat (seed 000 "Close Combat", "Capturing"): one adjacent target, walls between
squares prevent it (AC-M35, AC-M65); capture attempts, never on a character holding a captive
(AC-M39, AC-M45); no hindering modifier (AC-M62).
"""

from __future__ import annotations

from dialtray.rules.aces.actions import (
    AcesAction,
    Attack,
)
from dialtray.rules.aces.base import (
    H_CAPTURE,
    H_CLOSE,
    AcesBase,
)
from dialtray.rules.aces.state import CharState


class CloseCombatRules(AcesBase):
    """Close combat and capture attempts: target legality."""

    def _check_close(self, a: Attack, c: CharState, targets: list[CharState]) -> list[int]:
        """AC-M35 one adjacent target; AC-M45 no capture attempt on a captor; AC-M62 no
        hindering modifier in close combat."""
        hindering: list[int] = []
        if len(targets) != 1:
            self._illegal(a, "close combat has one target", "AC-M35", H_CLOSE)
        e = targets[0]
        if e.is_captive or not self.adjacent(c, e):
            self._illegal(
                a,
                f"{e.label} is not adjacent to {a.label} (blocking terrain "
                "between figures also prevents it)",
                "AC-M35",
                H_CLOSE,
            )
        if a.kind == "capture" and e.captive is not None:
            self._illegal(
                a,
                f"{e.label} holds a captive: it may not be the target of a capture attempt",
                "AC-M45",
                H_CAPTURE,
            )
        hindering.append(0)  # AC-M62: no hindering modifier in close combat
        return hindering

    def _legal_close(self, c: CharState, fate_options: list[bool]) -> list[AcesAction]:
        """AC-M35 close combat and AC-M39 capture attempts on each adjacent enemy."""
        out: list[AcesAction] = []
        for e in self.adjacent_enemies(c):
            for f in fate_options:
                out.append(Attack(c.label, "close", (e.label,), f))
                if e.captive is None:
                    out.append(Attack(c.label, "capture", (e.label,), f))
        return out
