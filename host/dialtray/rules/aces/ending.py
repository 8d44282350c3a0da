"""Withdrawing, the end of the game and victory (seed 000 "Withdrawing", "Ending the Game",
"Victory!"): withdrawal (AC-M66, AC-A12), the three ends (AC-M67), the VP table and winner
(AC-M68..M72 in ``victory``), the report ``dialtray replay`` prints.
"""

from __future__ import annotations

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.actions import (
    EndGame,
    Withdraw,
)
from dialtray.rules.aces.base import (
    H_END,
    H_WITHDRAW,
    AcesBase,
)
from dialtray.rules.aces.victory import Outcome, final_vp, pick_winner, seat_of
from dialtray.rules.core.events import Emit


class EndRules(AcesBase):
    """Withdrawal, end and victory."""

    def _do_withdraw(self, a: Withdraw, emit: Emit | None) -> None:
        t = self.turn
        if t.phase != "choose" or t.label is not None or t.extra_for is not None or t.acted:
            self._illegal(
                a, "withdraw at the start of your turn, instead of an action", "AC-M66", H_WITHDRAW
            )
        if emit is None:
            return
        s = self.state
        mine = [c for c in s.team(t.player) if c.on_map]
        for c in mine:
            if c.captive is not None:
                emit(ev.Freed(c.captive, "captor withdrew"))
        # AC-A12: the withdrawing team leaves the map at once (its captives held by enemies stay)
        emit(ev.Withdrew(t.player, tuple(c.label for c in mine if not c.is_captive)))
        if not self._check_end(emit):
            self._end_turn(emit)

    def _do_end_game(self, a: EndGame, emit: Emit | None) -> None:
        t = self.turn
        if t.phase != "choose" or t.label is not None or t.extra_for is not None:
            self._illegal(a, "only between actions", "AC-M67", H_END)
        if emit is None:
            return
        why = (
            "all players agree (AC-M67 (3))" if a.reason == "agreed" else "time limit (AC-M67 (2))"
        )
        self._finish(emit, why)

    def _check_end(self, emit: Emit) -> bool:
        """AC-M67 (1): the game ends when only one player still has characters on the map
        (AC-A09: a captive does not count, unless the game is set up otherwise)."""
        s = self.state
        if s.over:
            return True
        active = {
            c.player
            for c in s.chars.values()
            if c.on_map
            and c.player not in s.withdrawn
            and (s.captives_count_on_map or not c.is_captive)
        }
        if len(active) <= 1:
            self._finish(emit, "only one player still has characters on the map (AC-M67 (1))")
            return True
        return False

    def _finish(self, emit: Emit, reason: str) -> None:
        s = self.state
        vp = final_vp(s)
        winner, how = pick_winner(s, vp, self.dice)
        emit(ev.GameEnded(reason, vp, winner, how))

    def outcome(self) -> Outcome | None:
        """None while the game runs; else the reason, VP table and winner (python-chess style)."""
        s = self.state
        if not s.over:
            return None
        vp = {seat_of(p): v for p, v in enumerate(s.final_vp)}
        return Outcome(s.end_reason, seat_of(s.winner), s.tiebreak, vp)

    def victory_points(self) -> tuple[int, ...]:
        """The VP table if the game ended now (AC-M71)."""
        return final_vp(self.state)

    def report(self) -> str:
        s = self.state
        lines = [f"Crimson Skies: Aces on {s.map_name} - turn {s.turn_number}"]
        for c in s.chars.values():
            where = (
                self.map.square(c.square).name()
                if c.square is not None
                else ("KO" if c.knocked_out else "off the map")
            )
            v = c.values
            extra = ""
            if c.captor:
                extra = f", captive of {c.captor}"
            if c.captive:
                extra = f", holds {c.captive}"
            lines.append(
                f"  P{c.player + 1} {c.label:<18} {where:<5} click {c.click}/{c.figure.ko_click} "
                f"spd {v.speed} att {v.attack} def {v.defense} fate {v.fate}{extra}"
            )
        vp = s.final_vp if s.over else final_vp(s)
        for i, name in enumerate(s.players):
            lines.append(f"  VP P{i + 1} {name}: {vp[i]}")
        if s.over:
            won = f"winner P{s.winner + 1} {s.tiebreak}".rstrip()
            lines.append(f"  game over: {s.end_reason}; {won}")
        unknown = self.talents.unknown(c.figure for c in s.chars.values())
        lines.extend(f"  unknown talent: {u}" for u in unknown)
        return "\n".join(lines)
