"""The Aces game object (python-chess style): ``legal_actions()``, ``apply()``, ``undo()``,
``outcome()``. Pure and event-sourced on ``core.events.EventSourcedGame``: every die comes from the
injected ``DiceSource``; an illegal action raises ``IllegalActionError`` naming the mechanic and the
rule heading, and leaves the state unchanged.

This module holds only the legal-action lists and the dispatch; the rules are grouped by concern,
MegaMek style, in handler classes the game combines, each citing the rule ids it implements:
``turn`` (turn flow, fate clicks, Second Wind), ``move`` (movement, breaking away),
``attacks`` (declaring, rolling and resolving an attack, fate), ``ranged`` and ``close`` (which
targets are legal), ``capture`` (escape), ``ending`` (withdrawal, end, victory), on top of
``base`` (queries, the ``Game`` protocol members) and ``state`` (the state and its fold).

Example::

    >>> from dialtray.rules.aces.scenarios import load_scenario, start_scenario
    >>> from dialtray.rules.core.dice import SeededDice
    >>> g = start_scenario(load_scenario("kim-vs-tim"), SeededDice(1))
    >>> g.apply(g.parse_action("pass vigilante"))  # doctest: +ELLIPSIS
    (...)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dialtray.rules.aces.actions import (
    AcesAction,
    Assign,
    Attack,
    BreakAway,
    DefensiveFate,
    EndAction,
    EndGame,
    Escape,
    Move,
    Pass,
    SecondWind,
    Withdraw,
)
from dialtray.rules.aces.attacks import AttackRules
from dialtray.rules.aces.base import (
    H_DECK,
    H_END,
    H_RECRUIT,
    state_dict,
)
from dialtray.rules.aces.capture import CaptureRules
from dialtray.rules.aces.close import CloseCombatRules
from dialtray.rules.aces.ending import EndRules
from dialtray.rules.aces.legal import LegalActions
from dialtray.rules.aces.move import MovementRules
from dialtray.rules.aces.ranged import RangedRules
from dialtray.rules.aces.turn import TurnRules
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Emit, Event

__all__ = ["H_DECK", "H_RECRUIT", "AcesGame", "state_dict"]


class AcesGame(
    TurnRules, MovementRules, AttackRules, RangedRules, CloseCombatRules, CaptureRules, EndRules
):
    """One game of Crimson Skies: Aces on one map."""

    def legal_actions(self) -> LegalActions:
        """Everything that may be applied now (python-chess's ``legal_moves``), as a read-only
        sequence; long move lists are made lazily (``legal.LegalActions``). In the choose
        phase ``withdraw`` and ``endgame`` come last."""
        s = self.state
        if s.over or s.turn is None:
            return LegalActions(())
        t = s.turn
        if t.phase == "assign":
            return LegalActions([self._legal_assignments()])
        if t.phase == "defend":
            p = t.pending
            assert p is not None
            if p.awaiting:
                who = p.awaiting[0]
                return LegalActions([[DefensiveFate(who, True), DefensiveFate(who, False)]])
            return LegalActions(())
        parts: list[Sequence[AcesAction]] = []
        if t.phase == "choose":
            labels = self.eligible_characters()
            for lab in labels:
                parts.extend(self._legal_for(lab, "choose"))
            tail: list[AcesAction] = [] if labels else [Pass("")]
            if t.extra_for is None and t.label is None:
                tail += [Withdraw(), EndGame("agreed"), EndGame("time")]
            parts.append(tail)
            return LegalActions(parts)
        assert t.label is not None
        parts.extend(self._legal_for(t.label, t.phase))
        parts.append([EndAction()])
        return LegalActions(parts)

    def _legal_for(self, label: str, phase: str) -> list[Sequence[AcesAction]]:
        c = self.char(label)
        first: list[AcesAction] = []
        parts: list[Sequence[AcesAction]] = [first]
        if phase == "choose":
            first.append(Pass(label))
            if c.is_captive:
                first.append(Escape(label))
                if self._fate_allowed(c, "escape") is None:
                    first.append(Escape(label, True))
                return parts
            if (
                "second_wind" in self.abilities(c)
                and c.captive is None
                and c.click > c.figure.starting_click
            ):
                first.append(SecondWind(label))
            if self.adjacent_enemies(c):
                first.append(BreakAway(label))
            else:
                parts.append(self._legal_moves(c))
        elif phase == "broke":
            parts.append(self._legal_moves(c))
        if phase in ("choose", "broke", "failed", "moved", "attacked"):
            parts.append(self._legal_attacks(c, close_only=self.turn.break_failed))
        return parts

    def apply(self, action: Any) -> tuple[Event, ...]:
        """Apply one action; the events it caused. ``IllegalActionError`` leaves no trace."""
        if self.state.over:
            raise IllegalActionError(action.text(), "the game is over", "AC-M67", H_END)
        handlers: dict[type, Callable[[Any, Emit | None], None]] = {
            Pass: self._do_pass,
            BreakAway: self._do_break_away,
            Move: self._do_move,
            Attack: self._do_attack,
            Assign: self._do_assign,
            DefensiveFate: self._do_defensive_fate,
            Escape: self._do_escape,
            SecondWind: self._do_second_wind,
            EndAction: self._do_end_action,
            Withdraw: self._do_withdraw,
            EndGame: self._do_end_game,
        }
        handler = handlers.get(type(action))
        if handler is None:
            raise TypeError(f"not an Aces action: {action!r}")
        # Every handler checks the whole action before its first event or die (it can also be
        # called with emit=None to check only): a refusal leaves no event and no die used.
        return self._transaction(action, lambda emit: handler(action, emit))

    def push_text(self, text: str) -> tuple[Event, ...]:
        """Parse and apply one action's notation."""
        return self.apply(self.parse_action(text))

    def __repr__(self) -> str:
        s = self.state
        if s.turn is None:
            return "<AcesGame (setting up)>"
        return (
            f"<AcesGame {s.map_name} turn {s.turn_number} P{s.turn.player + 1} "
            f"phase {s.turn.phase}{' over' if s.over else ''}>"
        )
