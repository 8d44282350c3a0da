"""Movement (seed 000 "Movement", "Breaking Away", "Capturing"): moves to legal destinations
(AC-M21..M24, AC-M58, AC-M59, AC-M63), breaking away from adjacent enemies (AC-M25, table AC-2),
moving with a captive (AC-M41, AC-M43). Destinations come from ``movement.reach``.
"""

from __future__ import annotations

from collections.abc import Sequence

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.actions import (
    AcesAction,
    BreakAway,
    Move,
)
from dialtray.rules.aces.base import (
    H_BREAK,
    H_CAPTURE,
    H_MOVE,
    AcesBase,
)
from dialtray.rules.aces.legal import MoveSegment
from dialtray.rules.aces.maps import AcesMap, Terrain
from dialtray.rules.aces.movement import Reach
from dialtray.rules.aces.state import CharState
from dialtray.rules.core.events import Emit


class MovementRules(AcesBase):
    """Movement handlers."""

    def _do_break_away(self, a: BreakAway, emit: Emit | None) -> None:
        self._need_phase(a, "choose")
        self._start_or_continue(a, a.label, "breakaway", ())
        c = self.char(a.label)
        if c.is_captive:
            self._illegal(a, f"{a.label} is a captive: only pass or escape", "AC-M40", H_CAPTURE)
        adj = self.adjacent_enemies(c)
        if not adj:
            self._illegal(a, f"{a.label} is not adjacent to an enemy", "AC-M25", H_BREAK)
        if emit is None:
            return
        emit(ev.ActionBegun(a.label, "breakaway"))
        (face,) = self.dice.roll(1, f"{a.label}: break away (4-6)")
        ok = face >= 4  # AC-M25 / table AC-2
        emit(ev.BreakAwayRolled(a.label, face, ok, tuple(e.label for e in adj)))
        if not ok and not self._can_attack(c, close_only=True):
            self._end_action(emit)

    def _do_move(self, a: Move, emit: Emit | None) -> None:
        new = self._start_or_continue(a, a.label, "move", ("broke",))
        c = self.char(a.label)
        if c.is_captive:
            self._illegal(a, f"{a.label} is a captive: only pass or escape", "AC-M40", H_CAPTURE)
        if new and self.adjacent_enemies(c):
            self._illegal(
                a,
                f"{a.label} is adjacent to an enemy: break away first (breakaway {a.label})",
                "AC-M25",
                H_BREAK,
            )
        if not self.map.on_map(a.to):
            self._illegal(a, f"{a.to.name()} is off the map", "AC-M21", H_MOVE)
        r = self.reach_of(c)
        dest = self.map.index(a.to)
        if not r.reaches(dest):
            why, mech = self._why_not_reachable(c, dest, r)
            self._illegal(a, why, mech, H_MOVE)
        if c.captive is not None:
            if a.captive_to is None or not self.map.on_map(a.captive_to):
                self._illegal(
                    a, f"say where the captive {c.captive} goes: 'with SQUARE'", "AC-M43", H_CAPTURE
                )
            assert a.captive_to is not None
            if self.map.index(a.captive_to) not in self._captive_spots(c, dest):
                self._illegal(
                    a,
                    f"{a.captive_to.name()} is not a free square adjacent to {a.to.name()}",
                    "AC-M41",
                    H_CAPTURE,
                )
        elif a.captive_to is not None:
            self._illegal(a, f"{a.label} holds no captive", "AC-M43", H_CAPTURE)
        if emit is None:
            return
        if new:
            emit(ev.ActionBegun(a.label, "move"))
        path = tuple(self.map.square(i).name() for i in r.path(dest))
        emit(ev.Moved(a.label, path))
        if c.captive is not None and a.captive_to is not None:
            emit(ev.CaptiveMoved(c.captive, a.captive_to.name()))
        if not self._can_attack(c, close_only=False):
            self._end_action(emit)

    def _why_not_reachable(self, c: CharState, dest: int, r: Reach) -> tuple[str, str]:
        name = self.map.square(dest).name()
        occ = self.state.by_square()
        if self.map.terrain[dest] is Terrain.BLOCKING:
            return f"{name} is blocking terrain", "AC-M63"
        if dest in occ and occ[dest] != c.label:
            return f"{name} is occupied by {occ[dest]}", "AC-M24"
        return (
            f"{name} cannot be reached within speed {self.speed(c)} without passing an enemy, "
            "blocking terrain, or a square where the move must end (AC-M22, AC-M23, AC-M58)",
            "AC-M21",
        )

    def _legal_moves(self, c: CharState) -> Sequence[AcesAction]:
        """AC-M21: one move per destination but the square it stands on (0 squares is legal
        but the same as not moving); made lazily (``legal.MoveSegment``)."""
        r = self.reach_of(c)
        assert c.square is not None
        if c.captive is None:
            table = self._move_actions.get(c.label)
            if table is None:  # Move values are immutable: one per (character, square), reused
                table = self._move_actions[c.label] = MoveTable(c.label, self.map)
            return MoveSegment(c.label, r, c.square, table)
        out: list[AcesAction] = []
        sq = self.map.square
        for d in r.sorted_destinations:
            if d == c.square:
                continue
            for cap in self._captive_spots(c, d):
                out.append(Move(c.label, sq(d), sq(cap)))
        return out

    def _captive_spots(self, captor: CharState, dest: int) -> list[int]:
        """AC-M41 / AC-M43: the captive ends adjacent to its captor, where the captor's player
        says; it may not share a square with anyone (AC-M24)."""
        taken = {
            sq
            for lab, o in self.state.chars.items()
            if (sq := o.square) is not None and lab not in (captor.label, captor.captive)
        }
        return [n for n in self.map.neighbours[dest] if n not in taken]


class MoveTable(dict[int, Move]):
    """``Move(label, square)`` by square index, each made once when first asked for."""

    def __init__(self, label: str, game_map: AcesMap) -> None:
        super().__init__()
        self.label = label
        self.map = game_map

    def __missing__(self, square: int) -> Move:
        move = self[square] = Move(self.label, self.map.square(square))
        return move
