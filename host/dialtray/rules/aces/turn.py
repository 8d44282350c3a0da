"""Turn flow (seed 000 "Turns and Actions", "Fate", "Talents and Abilities"): passing
(AC-M16), ending an action and passing the turn (AC-M18, AC-M38), fate clicks at the end of the
action (AC-M50, AC-A16) and knock-outs by them (AC-M56), removal (AC-M37, AC-M46), an escaped
captive's extra action (AC-M47), Second Wind healing (AC-M13, AC-A17).
"""

from __future__ import annotations

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.actions import (
    EndAction,
    Pass,
    SecondWind,
)
from dialtray.rules.aces.base import (
    H_CAPTURE,
    H_TALENTS,
    H_TURNS,
    AcesBase,
)
from dialtray.rules.aces.combat import (
    split_evenly,
)
from dialtray.rules.aces.state import CharState
from dialtray.rules.core.events import Emit


class TurnRules(AcesBase):
    """Turn flow handlers."""

    def _do_pass(self, a: Pass, emit: Emit | None) -> None:
        self._need_phase(a, "choose")
        if a.label:
            self._start_or_continue(a, a.label, "pass", ())
        elif self.eligible_characters():
            self._illegal(
                a,
                "a player passes only with no character able to act; give one 'pass CHARACTER'",
                "AC-M16",
                H_TURNS,
            )
        if emit is None:
            return
        emit(ev.ActionBegun(a.label, "pass"))
        self._end_action(emit)

    def _do_end_action(self, a: EndAction, emit: Emit | None) -> None:
        self._need_phase(a, "broke", "failed", "moved", "attacked")
        if emit is None:
            return
        self._end_action(emit)

    def _end_action(self, emit: Emit) -> None:
        """AC-M50 / AC-A16: fate clicks at the end of the action, then the turn passes (AC-M38)
        unless an escaped captive may act again (AC-M47)."""
        t = self.turn
        label = t.label or ""
        self._fate_clicks(emit)
        emit(ev.ActionEnded(label))
        if self._check_end(emit):
            return
        extra = t.extra_for
        if extra is not None and self.char(extra).on_map:
            return  # the escaped character may be given another action this turn
        self._end_turn(emit)

    def _end_turn(self, emit: Emit) -> None:
        s = self.state
        t = self.turn
        if s.turn_limit and s.turn_number >= s.turn_limit:
            self._finish(emit, "time limit reached (AC-M67 (2))")
            return
        n = len(s.players)
        for k in range(1, n + 1):
            p = (t.player + k) % n
            if p in s.withdrawn:
                continue
            if any(c.on_map for c in s.team(p)):
                emit(ev.TurnPassed(p))
                return
        self._finish(emit, "nobody left to act")

    def _fate_clicks(self, emit: Emit) -> None:
        t = self.turn
        for label in list(t.fate_clicks):
            c = self.char(label)
            if not c.on_map:
                continue
            to = c.click + 1
            emit(ev.FateClicked(label, to))
            if to >= c.figure.ko_click:
                # AC-M56: knocked out by its own fate click: the opponents score it, split evenly
                opponents = [p for p in range(len(self.state.players)) if p != c.player]
                share = split_evenly(c.figure.points, len(opponents))
                self._eliminate(emit, c, "fate", tuple((p, share) for p in opponents))

    def _eliminate(
        self, emit: Emit, c: CharState, cause: str, awards: tuple[tuple[int, int], ...]
    ) -> None:
        """AC-M37 knocked out and removed; AC-M46 its captive is freed; a captive knocked out by
        its own fate click leaves its captor free of it."""
        captive = c.captive
        emit(ev.Eliminated(c.label, cause, awards))
        if captive is not None:
            emit(ev.Freed(captive, "captor knocked out"))
        if c.captor is not None:
            emit(ev.Freed(c.label, "knocked out"))

    def _do_second_wind(self, a: SecondWind, emit: Emit | None) -> None:
        self._need_phase(a, "choose")
        self._start_or_continue(a, a.label, "secondwind", ())
        c = self.char(a.label)
        if c.is_captive:
            self._illegal(a, f"{a.label} is a captive: only pass or escape", "AC-M40", H_CAPTURE)
        if c.captive is not None:
            self._illegal(a, f"{a.label} holds a captive: only move or pass", "AC-M44", H_CAPTURE)
        ab = self.abilities(c).get("second_wind")
        if ab is None:
            self._illegal(a, f"Second Wind is not showing on {a.label}'s dial", "AC-M13", H_TALENTS)
        assert ab is not None
        heal = min(ab.param("heal_clicks"), c.click - c.figure.starting_click)
        if heal <= 0:
            self._illegal(a, f"{a.label} has no damage to heal (AC-A17)", "AC-M17", H_TURNS)
        if emit is None:
            return
        emit(ev.ActionBegun(a.label, "secondwind"))
        emit(ev.Healed(a.label, heal, c.click - heal))
        self._end_action(emit)
