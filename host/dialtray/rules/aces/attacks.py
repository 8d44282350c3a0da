"""Attacks, common to close and ranged combat (seed 000 "Combat", "Fate"): one attack per action
(AC-M28, AC-A01), targets (AC-M29, AC-M42), the attack roll (AC-M36), offensive fate (AC-M49,
AC-M51, AC-A16), defensive fate (AC-M53..M55), damage and knock-out (AC-M36, AC-M37, AC-M68),
capture results (AC-M39). Which targets are legal is in ``ranged`` and ``close``.
"""

from __future__ import annotations

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.actions import (
    AcesAction,
    Attack,
    DefensiveFate,
)
from dialtray.rules.aces.base import (
    H_CAPTURE,
    H_COMBAT,
    H_FATE,
    H_RANGED,
    AcesBase,
)
from dialtray.rules.aces.combat import (
    after_defensive_fate,
    attack_dice,
    count_hits,
    target_defense,
)
from dialtray.rules.aces.state import CharState
from dialtray.rules.core.events import Emit


class AttackRules(AcesBase):
    """Attack declaration, roll and resolution."""

    def _do_attack(self, a: Attack, emit: Emit | None) -> None:
        new = self._start_or_continue(
            a, a.label, "attack", ("broke", "failed", "moved", "attacked")
        )
        c = self.char(a.label)
        t = self.turn
        if c.is_captive:
            self._illegal(a, f"{a.label} is a captive: only pass or escape", "AC-M40", H_CAPTURE)
        if c.captive is not None:
            self._illegal(
                a, f"{a.label} holds a captive: it may only move or pass", "AC-M44", H_CAPTURE
            )
        if t.attacks_made >= self.attacks_allowed(c):
            self._illegal(a, f"{a.label} already made its attack this action", "AC-M28", H_COMBAT)
        if len(set(a.targets)) != len(a.targets):
            self._illegal(a, "the same figure may not be targeted twice", "AC-M34", H_RANGED)
        targets: list[CharState] = []
        for lab in a.targets:
            e = self.state.chars.get(lab)
            if e is None or not e.on_map:
                self._illegal(a, f"no character {lab!r} on the map", "AC-M29", H_COMBAT)
            assert e is not None
            if e.label == c.label:
                self._illegal(a, "a character may not target itself", "AC-M29", H_COMBAT)
            if e.player == c.player:
                self._illegal(a, f"{lab} is a friendly character", "AC-M29", H_COMBAT)
            if e.is_captive:
                self._illegal(a, f"{lab} is a captive: no one may target it", "AC-M42", H_CAPTURE)
            targets.append(e)
        if a.kind == "ranged":
            hindering = self._check_ranged(a, c, targets)
        else:
            hindering = self._check_close(a, c, targets)
        if a.fate:
            why = self._fate_allowed(c, "offensive")
            if why is not None:
                self._illegal(a, why, "AC-M49", H_FATE)
        if emit is None:
            return
        if new:
            emit(ev.ActionBegun(a.label, "attack"))
        vals = c.values  # AC-A16: the values before this action's fate clicks
        n = attack_dice(vals.attack, a.kind, a.fate, vals.fate)
        defenses = tuple(
            target_defense(e.values.defense, h, a.kind)
            for e, h in zip(targets, hindering, strict=True)
        )
        faces = self.dice.roll(n, f"{a.label}: {a.kind} attack, {n} dice")
        if a.fate:
            emit(ev.FateDeclared(a.label, "offensive"))
        emit(
            ev.AttackRolled(
                a.label, a.kind, a.targets, defenses, faces, vals.fate if a.fate else 0, a.fate
            )
        )
        if len(a.targets) == 1:
            self._after_assignment(emit)
        elif not faces:  # no dice to assign (attack value 0)
            emit(ev.DiceAssigned(()))
            self._after_assignment(emit)

    def _can_attack(self, c: CharState, close_only: bool) -> bool:
        """Whether ``_legal_attacks`` would list anything (an action ends by itself when nothing
        more is possible, D-AC-06), without listing every target combination."""
        if c.is_captive or c.captive is not None:
            return False
        if self.turn.attacks_made >= self.attacks_allowed(c):
            return False
        if self.adjacent_enemies(c):
            return True  # close combat on it (AC-M35)
        if close_only or c.figure.range <= 0 or c.figure.pistols <= 0:
            return False
        return any(self._can_shoot(c, e) for e in self.controlling_enemies(c))

    def _legal_attacks(self, c: CharState, close_only: bool) -> list[AcesAction]:
        t = self.turn
        if c.is_captive or c.captive is not None:
            return []
        if t.attacks_made >= self.attacks_allowed(c):
            return []
        fate_options = [False, True] if self._fate_allowed(c, "offensive") is None else [False]
        out: list[AcesAction] = []
        out.extend(self._legal_close(c, fate_options))
        if close_only:
            return out
        out.extend(self._legal_ranged(c, fate_options))
        return out

    def _after_assignment(self, emit: Emit) -> None:
        """Ask each hit Ace for defensive fate (AC-M53). D-AC-05: the choice is offered to every
        Ace that was hit and may use fate, even when every hit is a natural six and fate would
        prevent nothing (still legal, only pointless: ``fate_would_prevent`` says so)."""
        p = self.turn.pending
        assert p is not None
        awaiting: list[str] = []
        for tg, d in zip(p.targets, p.defenses, strict=True):
            e = self.char(tg)
            hits = count_hits(p.faces_for(tg), d)
            if hits > 0 and self._fate_allowed(e, "defensive") is None:
                awaiting.append(tg)
        if awaiting:
            emit(ev.DefenseAwaited(tuple(awaiting)))
        self._continue_resolution(emit)

    def _do_defensive_fate(self, a: DefensiveFate, emit: Emit | None) -> None:
        self._need_phase(a, "defend")
        p = self.turn.pending
        assert p is not None
        if not p.awaiting or p.awaiting[0] != a.label:
            who = p.awaiting[0] if p.awaiting else "nobody"
            self._illegal(a, f"it is {who}'s decision now", "AC-M53", H_FATE)
        if emit is None:
            return
        if a.use:
            faces = p.faces_for(a.label)
            d = p.defenses[p.targets.index(a.label)]
            prevented = count_hits(faces, d) - after_defensive_fate(faces, d)
            emit(ev.FateDeclared(a.label, "defensive", prevented))
        emit(ev.HitsResolved(a.label, self._final_hits(a.label)))
        self._continue_resolution(emit)

    def fate_would_prevent(self, label: str) -> int:
        """How many hits defensive fate would prevent for ``label`` in the attack waiting for
        its decision (0: legal but pointless, D-AC-05; the UI says so and bots decline)."""
        p = self.turn.pending
        if p is None or label not in p.targets:
            return 0
        d = p.defenses[p.targets.index(label)]
        faces = p.faces_for(label)
        hits, left = count_hits(faces, d), after_defensive_fate(faces, d)
        if len(p.targets) > 1:  # AC-M34: at most one click per target
            hits, left = min(hits, 1), min(left, 1)
        return hits - left

    def _final_hits(self, tg: str) -> int:
        p = self.turn.pending
        assert p is not None
        d = p.defenses[p.targets.index(tg)]
        faces = p.faces_for(tg)
        hits = after_defensive_fate(faces, d) if tg in p.defended else count_hits(faces, d)
        return min(hits, 1) if len(p.targets) > 1 else hits  # AC-M34: at most 1 click each

    def _continue_resolution(self, emit: Emit) -> None:
        p = self.turn.pending
        assert p is not None
        if p.awaiting:
            return  # wait for the next defender's decision
        attacker = self.char(p.attacker)
        for tg in p.targets:
            e = self.char(tg)
            hits = self._final_hits(tg)
            if tg not in p.defended:
                emit(ev.HitsResolved(tg, hits))
            if not e.on_map or hits <= 0:
                continue
            if p.kind == "capture":
                emit(ev.Captured(attacker.label, tg))  # AC-M39: captured, not damaged
                continue
            to = e.click + hits
            emit(ev.Damaged(tg, hits, to))
            if to >= e.figure.ko_click:
                self._eliminate(emit, e, "damage", ((attacker.player, e.figure.points),))
        emit(ev.AttackResolved(attacker.label))
        if not attacker.on_map or not self._can_attack(attacker, close_only=self.turn.break_failed):
            self._end_action(emit)
