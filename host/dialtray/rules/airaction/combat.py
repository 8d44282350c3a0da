"""Combat and fate on shots (seed 002 "Combat", "Fate"; AA-M36..M46, AA-M61..M65)."""

from __future__ import annotations

from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.base import GameBase
from dialtray.rules.airaction.rulebook import (
    H_COMBAT,
    H_DISENGAGE,
    H_FATE,
    Ctx,
    illegal,
)
from dialtray.rules.airaction.state import PendingShot


class CombatRules(GameBase):
    """Combat and fate on shots (seed 002 "Combat", "Fate"; AA-M36..M46, AA-M61..M65)."""

    def _shot_options(self, pid: str) -> list[str]:
        s = self.state
        ps = s.planes[pid]
        if not ps.in_play or ps.passed or pid not in s.active or ps.owner in s.disengaging:
            return []
        c = self.cat.figures[ps.figure].combat_dial[ps.combat_click]
        return [w for w in ("front", "rear") if c.gunnery(w) > 0 and w not in ps.weapons_used]

    def gunnery_modifiers(self, pid: str, weapon: str) -> tuple[int, int, list[str]]:
        """AA-M41: (gunnery dice modifier, target silhouette modifier, unknown colours) from the
        shooter's speed-dial effect and its skills on the gunnery value."""
        ps = self.state.planes[pid]
        fig = self.cat.figures[ps.figure]
        dice_mod = sil_mod = 0
        unknown: list[str] = []
        colours: list[tuple[str, str]] = []
        if ps.speed_index is not None and fig.speed_dial[ps.speed_index].effect:
            colours.append(("speed dial", fig.speed_dial[ps.speed_index].effect or ""))
        stat = f"{weapon}_gunnery"
        click = fig.combat_dial[ps.combat_click]
        if stat in click.colours:
            colours.append((stat, click.colours[stat]))
        for where, colour in colours:
            eff = self.cat.effect(colour)
            if eff is None:
                unknown.append(f"{where}:{colour}")
                continue
            if where == stat and eff.optional and stat in ps.canceled:
                continue
            if eff.hook == "gunnery_modifier":
                dice_mod += eff.amount
            elif eff.hook == "target_silhouette_modifier":
                sil_mod += eff.amount
        return dice_mod, sil_mod, unknown

    def shot_numbers(self, a: ac.Shoot) -> tuple[int, int]:
        """(dice, target number) for a shot: AA-M42 dice, AA-M43/M44 with AA-A13 order."""
        c = self.combat_values(a.plane)
        dice_mod, sil_mod, _ = self.gunnery_modifiers(a.plane, a.weapon)
        dice = max(0, c[f"{a.weapon}_gunnery"] + dice_mod)
        if a.rear_arc:
            dice += 1  # AA-M39
        if a.fate:
            vals = self.ace_values(a.plane)
            assert vals is not None
            dice += vals[1]  # AA-M62 (AA-M65: fate 0 adds nothing)
        sil = self.cat.figures[self.state.planes[a.target].figure].silhouette + sil_mod
        if a.point_blank:
            sil -= 1  # AA-M43
        return dice, min(6, sil)  # AA-M44

    def _r_shoot(self, c: Ctx, a: ac.Shoot) -> None:
        """AA-M36..M45 "Combat"."""
        s = self.state
        self._require_phase(a, "combat", "AA-M40", H_COMBAT)  # shots come after moves
        if s.shot is not None:
            raise illegal(a, "a shot is still being resolved", "AA-M40", H_COMBAT)
        ps = self._require_plane(a, a.plane, "AA-M40", H_COMBAT)
        if ps.owner != s.shooter:
            raise illegal(a, f"it is {s.shooter}'s shot (clockwise)", "AA-M40", H_COMBAT)
        if ps.owner in s.disengaging:
            raise illegal(a, "disengaging pilots may not shoot", "AA-M59", H_DISENGAGE)
        if a.plane not in s.active:
            raise illegal(a, f"{a.plane} is not an active plane", "AA-M40", H_COMBAT)
        if ps.passed:
            raise illegal(a, f"{a.plane} has passed", "AA-M40", H_COMBAT)
        if a.weapon in ps.weapons_used:
            raise illegal(a, f"{a.plane} already fired its {a.weapon} weapon", "AA-M36", H_COMBAT)
        if self.combat_values(a.plane)[f"{a.weapon}_gunnery"] <= 0:
            mech = "AA-M38" if a.weapon == "rear" else "AA-M36"
            raise illegal(a, f"{a.weapon} gunnery is 0", mech, H_COMBAT)
        tp = self._require_plane(a, a.target, "AA-M37", H_COMBAT)
        if tp.owner == ps.owner:
            raise illegal(a, "the target must be an opposing plane", "AA-M37", H_COMBAT)
        if a.fate and not self.ace_can_use_fate(a.plane, defensive=False):
            raise illegal(a, "no Ace with fate available (once per turn)", "AA-M61", H_FATE)
        dice, tn = self.shot_numbers(a)
        for u in self.gunnery_modifiers(a.plane, a.weapon)[2]:
            where, _, colour = u.partition(":")
            c.emit(ev.UnknownEffect(a.plane, where, colour))
        faces = self.dice.roll(dice, f"shot {a.plane} at {a.target}")
        c.emit(ev.ShotRolled(a.plane, a.weapon, a.target, dice, tn, faces, a.fate))
        hits = sum(1 for f in faces if f >= tn)
        if hits > 0 and self.ace_can_use_fate(a.target, defensive=True):
            # AA-M63: the hit Ace may now declare defensive fate; D-AA-12: even when only
            # natural sixes hit (legal, pointless: ``fate_would_prevent`` is 0, bots decline)
            return
        self._resolve_shot(c, prevent=False)

    def fate_would_prevent(self, plane: str) -> int:
        """Hits defensive fate would prevent on the shot waiting for ``plane``'s decision: every
        hit but the natural sixes (AA-M63); 0 = legal but pointless (D-AA-12)."""
        shot = self.state.shot
        if shot is None or shot.target != plane:
            return 0
        hits = sum(1 for f in shot.faces if f >= shot.target_number)
        return hits - min(hits, sum(1 for f in shot.faces if f == 6))

    def _r_defensive_fate(self, c: Ctx, a: ac.DefensiveFate) -> None:
        """AA-M63: declared after the roll; prevents every hit but natural sixes."""
        s = self.state
        if s.shot is None or s.shot.target != a.plane:
            raise illegal(a, "no shot at this Ace's plane waits for fate", "AA-M63", H_FATE)
        self._resolve_shot(c, prevent=a.use)

    def _resolve_shot(self, c: Ctx, prevent: bool) -> None:
        s = self.state
        shot: PendingShot | None = s.shot
        assert shot is not None
        hits = sum(1 for f in shot.faces if f >= shot.target_number)
        sixes = sum(1 for f in shot.faces if f == 6)
        landed = min(hits, sixes) if prevent else hits
        c.emit(ev.ShotResolved(shot.plane, shot.target, landed, hits - landed))
        owner = s.planes[shot.plane].owner
        self._damage(c, shot.target, landed, "hits", shot_by=shot.plane, hits=True)
        # AA-M61: fate clicks at the end of the action
        if shot.offensive_fate:
            c.emit(ev.FateClick(shot.plane, "offensive"))
        if prevent:
            c.emit(ev.FateClick(shot.target, "defensive"))
        self._next_shooter(c, after=owner)

    def _r_pass(self, c: Ctx, a: ac.PassShot) -> None:
        """AA-M40: "until every active plane has fired or passed"."""
        s = self.state
        self._require_phase(a, "combat", "AA-M40", H_COMBAT)
        ps = self._require_plane(a, a.plane, "AA-M40", H_COMBAT)
        if s.shot is not None or ps.owner != s.shooter or not self._shot_options(a.plane):
            raise illegal(a, f"{a.plane} has no shot opportunity now", "AA-M40", H_COMBAT)
        c.emit(ev.ShotPassed(a.plane))
        self._next_shooter(c, after=ps.owner)

    def _next_shooter(self, c: Ctx, after: str | None) -> None:
        """AA-M40: aggressor first, then one plane at a time clockwise among players."""
        s = self.state
        assert s.aggressor is not None
        if after is None:
            order = self.clockwise_from(s.aggressor)
        else:
            order = self.clockwise_from(after)
            order = order[1:] + order[:1]
        for p in order:
            if any(self._shot_options(q) for q in s.active if s.planes[q].owner == p):
                c.emit(ev.ShooterTurn(p))
                return
        c.emit(ev.PhaseChanged("announce"))
