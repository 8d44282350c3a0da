"""Capture and escape (seed 000 "Capturing", "Escaping"): a captive's only actions are pass
or escape (AC-M40); escape is an opposed roll, strictly more hits frees it (AC-M47), with fate
(AC-M48). Captured results (AC-M39) come from ``attacks``; moving with a captive from ``move``.
"""

from __future__ import annotations

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.actions import (
    Escape,
)
from dialtray.rules.aces.base import (
    H_FATE,
    H_TURNS,
    AcesBase,
)
from dialtray.rules.aces.combat import (
    attack_dice,
    count_hits,
)
from dialtray.rules.core.events import Emit


class CaptureRules(AcesBase):
    """Escape handler."""

    def _do_escape(self, a: Escape, emit: Emit | None) -> None:
        self._need_phase(a, "choose")
        self._start_or_continue(a, a.label, "escape", ())
        c = self.char(a.label)
        if c.captor is None:
            self._illegal(a, f"{a.label} is not a captive", "AC-M17", H_TURNS)
        if a.fate:
            why = self._fate_allowed(c, "escape")
            if why is not None:
                self._illegal(a, why, "AC-M48", H_FATE)
        if emit is None:
            return
        assert c.captor is not None
        captor = self.char(c.captor)
        emit(ev.ActionBegun(a.label, "escape"))
        mine = attack_dice(c.values.attack, "escape", a.fate, c.values.fate)
        theirs = captor.values.attack
        my_faces = self.dice.roll(mine, f"{a.label}: escape roll, {mine} dice")
        their_faces = self.dice.roll(theirs, f"{captor.label}: hold the captive, {theirs} dice")
        my_hits = count_hits(my_faces, captor.values.defense)
        their_hits = count_hits(their_faces, c.values.defense)
        escaped = my_hits > their_hits  # AC-M47: strictly more hits
        if a.fate:
            emit(ev.FateDeclared(a.label, "escape"))
        emit(
            ev.EscapeRolled(
                a.label, captor.label, my_faces, their_faces, my_hits, their_hits, escaped
            )
        )
        if escaped:
            emit(ev.Freed(a.label, "escape"))
        self._end_action(emit)
