"""Collisions with other planes (seed 002 "Collisions with Other Planes", "Fate"; AA-M32..M35,
AA-M64, AA-A04)."""

from __future__ import annotations

from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.base import GameBase
from dialtray.rules.airaction.rulebook import (
    CRITICAL_FAILURE,
    H_COLL,
    H_FATE,
    Ctx,
    illegal,
)


class CollisionRules(GameBase):
    """Final-marker overlaps, collision checks, the serious-collision loop, collision fate."""

    def _r_overlap(self, c: Ctx, a: ac.ReportOverlap) -> None:
        """AA-M32: final markers overlap (collisions only between planes that can collide)."""
        s = self.state
        self._require_phase(a, "overlaps", "AA-M32", H_COLL)
        self._require_plane(a, a.a, "AA-M32", H_COLL)
        self._require_plane(a, a.b, "AA-M32", H_COLL)
        if a.a == a.b:
            raise illegal(a, "a plane cannot overlap itself", "AA-M32", H_COLL)
        movers = self._movers()
        if a.a not in movers and a.b not in movers:
            raise illegal(a, "neither plane has just completed a maneuver", "AA-M32", H_COLL)
        if not self.can_collide(a.a, a.b):
            raise illegal(a, "planes sharing a squadron symbol cannot collide", "AA-M32", H_COLL)
        if frozenset((a.a, a.b)) in {frozenset(x) for x in s.overlaps}:
            raise illegal(a, "already reported", "AA-M32", H_COLL)
        c.emit(ev.OverlapReported(a.a, a.b))

    def _r_overlaps_done(self, c: Ctx, a: ac.OverlapsDone) -> None:
        self._require_phase(a, "overlaps", "AA-M32", H_COLL)
        c.emit(ev.PhaseChanged("collisions"))

    def _collision_groups(self) -> list[tuple[str, ...]]:
        """AA-M32 "only once during a single maneuver": each plane is in one collision at most,
        the connected group of planes whose final markers overlap (decision D-AA-03)."""
        s = self.state
        adj: dict[str, set[str]] = {}
        for x, y in s.overlaps:
            if s.planes[x].in_play and s.planes[y].in_play:
                adj.setdefault(x, set()).add(y)
                adj.setdefault(y, set()).add(x)
        seen: set[str] = set()
        groups: list[tuple[str, ...]] = []
        for start in sorted(adj):
            if start in seen or start in s.collided:
                continue
            stack, comp = [start], set()
            while stack:
                n = stack.pop()
                if n in comp:
                    continue
                comp.add(n)
                stack.extend(adj[n] - comp)
            seen |= comp
            groups.append(tuple(sorted(comp)))
        return groups

    def _start_collision(self, c: Ctx, group: tuple[str, ...]) -> None:
        """AA-M33: a pilot check for every plane in the collision; AA-M64 fate offer."""
        totals = tuple(self._pilot_check(c, p, "collision")[1] for p in group)
        critical = CRITICAL_FAILURE in totals
        offers = (
            tuple(p for p in group if self.ace_can_use_fate(p, defensive=True)) if critical else ()
        )
        c.emit(ev.CollisionStarted(group, totals, offers))

    def _r_collision_fate(self, c: Ctx, a: ac.CollisionFate) -> None:
        """AA-M64 "Fate": an Ace in a serious collision may use fate to avoid its damage."""
        s = self.state
        col = s.collision
        if s.phase != "collisions" or col is None or a.plane not in col.offers:
            raise illegal(a, "no serious collision offers this Ace fate now", "AA-M64", H_FATE)
        if a.plane in col.fate:
            raise illegal(a, "already decided", "AA-M64", H_FATE)
        c.emit(ev.CollisionFateDecided(a.plane, a.use))

    def _finish_collision(self, c: Ctx) -> None:
        """AA-M33/M34 with AA-A04: failed checks click first; then, on a critical failure, the
        serious-collision loop until at most one plane is left. AA-M64 fate avoids it."""
        s = self.state
        col = s.collision
        assert col is not None
        group = col.planes
        avoiders = [p for p in group if col.fate.get(p)]
        for p in avoiders:
            c.emit(ev.FateClick(p, "collision"))
        critical = CRITICAL_FAILURE in col.totals
        if avoiders and len(group) == 2:  # "the collision is completely avoided"
            c.emit(ev.CollisionEnded(group, group))
            return
        failed = False
        for p, total in zip(group, col.totals, strict=True):
            if total < self.combat_values(p)["piloting"]:
                failed = True
                if p not in avoiders and s.planes[p].in_play:
                    self._damage(c, p, 1, "failed collision check")
        if critical:
            looping = [p for p in group if p not in avoiders and s.planes[p].in_play]
            while len(looping) > 1:
                for p in looping:
                    self._damage(c, p, 1, "serious collision")
                looping = [p for p in looping if s.planes[p].in_play]
        if critical:
            self._collision_survival_xp(c, group)
        clean = () if (failed or critical) else group
        c.emit(ev.CollisionEnded(group, clean))

    def _collision_survival_xp(self, c: Ctx, group: tuple[str, ...]) -> None:
        """AA-M75 "surviving serious collisions" earns XP, but the text gives no amount: the
        game setting ``collision_survival_xp`` (log header ``CollisionXP:``, default 0, D-AA-17)
        is paid to every pilot still in play after a serious collision it was not spared by a
        "completely avoided" two-plane fate (that collision never happened)."""
        setup = self.setup_events[0]
        xp = setup.collision_survival_xp if isinstance(setup, ev.GameSetup) else 0
        if xp <= 0:
            return
        for p in group:
            if self.state.planes[p].in_play:
                self._xp(c, self.state.planes[p].pilot, xp, "survived a serious collision")
