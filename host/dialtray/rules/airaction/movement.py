"""Navigation and movement (seed 002 "Navigation", "Movement", "Obstacles"; AA-M23..M31, AA-M50,
AA-M52)."""

from __future__ import annotations

from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.base import GameBase
from dialtray.rules.airaction.rulebook import (
    DISENGAGE_CARDS,
    H_DISENGAGE,
    H_FEAT_TABLE,
    H_INIT,
    H_MOVE,
    H_NAV,
    H_OBST,
    H_THROTTLE,
    Ctx,
    illegal,
)
from dialtray.rules.core.dice import choose_uniform


class MovementRules(GameBase):
    """Cards, reveal, movement speed effects, redlining, movement outcomes, obstacles."""

    def _planner(self) -> str | None:
        s = self.state
        assert s.aggressor is not None
        for p in self.clockwise_from(s.aggressor):  # AA-M17 "places navigation cards ... first"
            if any(
                q not in s.plans and s.planes[q].in_play and s.planes[q].owner == p
                for q in s.active
            ):
                return p
        return None

    def _r_plan(self, c: Ctx, a: ac.Plan) -> None:
        """AA-M23..M26 "Navigation"; AA-M69 / AA-A14 random card after a Timely Distraction."""
        self._require_phase(a, "plan", "AA-M25", H_NAV)
        s = self.state
        ps = self._require_plane(a, a.plane, "AA-M25", H_NAV)
        if a.plane not in s.active:
            raise illegal(a, f"{a.plane} is not an active plane", "AA-M22", H_THROTTLE)
        if a.plane in s.plans:
            raise illegal(a, f"{a.plane} already has its card", "AA-M26", H_NAV)
        if ps.owner != self._planner():
            raise illegal(
                a, f"{self._planner()} places cards now (aggressor first)", "AA-M17", H_INIT
            )
        legal = self.legal_cards(a.plane)
        if a.card == "none":
            if legal:
                raise illegal(a, "a legal card is still available", "AA-M26", H_NAV)
            c.emit(ev.CardPlanned(a.plane, "none", "", False))
            return
        if ps.random_card_next:
            if a.card != "random":
                raise illegal(
                    a,
                    "after a Timely Distraction the card is chosen at random",
                    "AA-M69",
                    H_FEAT_TABLE,
                )
            if not legal:
                raise illegal(a, "no legal card left: plan none", "AA-M26", H_NAV)
            idx, faces = choose_uniform(self.dice, len(legal), f"random card for {a.plane}")
            pick, path = legal[idx]
            c.emit(ev.Rolled(f"random card for {a.plane}", a.plane, faces))
            c.emit(ev.CardPlanned(a.plane, pick, path, True))
            return
        if a.card == "random":
            raise illegal(a, "only after a Timely Distraction", "AA-M69", H_FEAT_TABLE)
        if a.card not in self.cat.cards:
            raise illegal(a, f"no navigation card {a.card!r}", "AA-M23", H_NAV)
        if a.card not in self.available_cards(ps.owner):
            raise illegal(
                a, f"no {a.card} left in {ps.owner}'s deck at this speed", "AA-M26", H_NAV
            )
        card = self.cat.cards[a.card]
        speed = self.speed_of(a.plane) or 0
        if card.speed_rating > speed:
            raise illegal(
                a,
                f"speed {speed} is below the card's speed rating {card.speed_rating}",
                "AA-M24",
                H_NAV,
            )
        if a.path not in card.paths:
            raise illegal(a, f"{a.card} has paths {sorted(card.paths)}", "AA-M25", H_NAV)
        if ps.owner in s.disengaging and a.card not in DISENGAGE_CARDS:
            raise illegal(a, "disengaging planes fly only Cruise or Glide", "AA-M59", H_DISENGAGE)
        c.emit(ev.CardPlanned(a.plane, a.card, a.path, False))

    def _r_reveal_and_prepare(self, c: Ctx) -> None:
        """AA-M27 reveal, aggressor first; AA-M28 movement speed effects; AA-M29 redlining."""
        s = self.state
        assert s.aggressor is not None
        order = {p: i for i, p in enumerate(self.clockwise_from(s.aggressor))}
        for pid in sorted(s.active, key=lambda p: (order[s.planes[p].owner], p)):
            if not s.planes[pid].in_play:
                continue
            self._movement_speed_effect(c, pid)
            if not s.planes[pid].in_play:
                continue
            self._redline(c, pid)
        c.emit(ev.PhaseChanged("move"))

    def _movement_speed_effect(self, c: Ctx, pid: str) -> None:
        """AA-M28: the speed-effect colour showing on the speed dial, through the colour map."""
        ps = self.state.planes[pid]
        fig = self.cat.figures[ps.figure]
        assert ps.speed_index is not None
        colour = fig.speed_dial[ps.speed_index].effect
        if colour is None:
            return
        eff = self.cat.effect(colour)
        if eff is None:
            c.emit(ev.UnknownEffect(pid, "speed dial", colour))
            return
        if eff.hook == "movement_damage":
            c.emit(ev.EffectApplied(pid, colour, eff.hook, f"{eff.clicks} damage click(s)"))
            self._damage(c, pid, eff.clicks, f"speed effect {colour}")
        elif eff.hook == "movement_speed_change":
            new = max(0, min(len(fig.speed_dial) - 1, ps.speed_index + eff.amount))
            c.emit(ev.EffectApplied(pid, colour, eff.hook, f"speed {eff.amount:+d} click(s)"))
            if new != ps.speed_index:
                c.emit(
                    ev.SpeedChanged(
                        pid, ps.speed_index, new, fig.speed_dial[new].speed, "speed effect"
                    )
                )

    def _redline(self, c: Ctx, pid: str) -> None:
        """AA-M29: speed > max speed -> pilot check; failure: 1 click and speed := max speed."""
        speed = self.speed_of(pid) or 0
        if speed <= self.combat_values(pid)["max_speed"]:
            return
        ok, _ = self._pilot_check(c, pid, "redlining")
        if ok:
            return
        self._damage(c, pid, 1, "failed redline check")
        ps = self.state.planes[pid]
        if not ps.in_play:
            return
        fig = self.cat.figures[ps.figure]
        max_speed = self.combat_values(pid)["max_speed"]
        fits = [i for i, p in enumerate(fig.speed_dial) if p.speed <= max_speed]
        new = max(fits) if fits else 0
        assert ps.speed_index is not None
        if new != ps.speed_index:
            c.emit(ev.SpeedChanged(pid, ps.speed_index, new, fig.speed_dial[new].speed, "redline"))

    def _r_move(self, c: Ctx, a: ac.ReportMove) -> None:
        """AA-M30 move; AA-M31 leaving the area; AA-M52 obstacle collision (AA-M50 optional)."""
        s = self.state
        self._require_phase(a, "move", "AA-M30", H_MOVE)
        ps = self._require_plane(a, a.plane, "AA-M30", H_MOVE)
        if a.plane not in s.active:
            raise illegal(a, f"{a.plane} is not an active plane", "AA-M22", H_THROTTLE)
        if a.plane in s.move_results:
            raise illegal(a, f"{a.plane} has already moved", "AA-M30", H_MOVE)
        if a.result not in ac.MOVE_RESULTS:
            raise illegal(a, "moved, left or obstacle", "AA-M30", H_MOVE)
        if a.result == "obstacle" and not s.obstacles:
            raise illegal(a, "obstacles are not in use in this game", "AA-M50", H_OBST)
        c.emit(ev.MoveReported(a.plane, a.result))
        if a.result == "left":
            if ps.owner in s.disengaging:  # AA-A07: disengaging planes score nobody anything
                c.emit(ev.PlaneRemoved(a.plane, "flew off the play area (disengaging)"))
            else:
                c.emit(ev.PlaneRemoved(a.plane, "left the play area"))
                self._score_removal(c, a.plane, "left the play area")
        elif a.result == "obstacle":
            ok, _ = self._pilot_check(c, a.plane, "obstacle collision")
            clicks = 1 if ok else (self.speed_of(a.plane) or 0)
            self._damage(c, a.plane, clicks, "obstacle collision")
            if s.planes[a.plane].in_play:
                fig = self.cat.figures[ps.figure]
                assert ps.speed_index is not None
                new = max(0, ps.speed_index - 1)
                if new != ps.speed_index:
                    c.emit(
                        ev.SpeedChanged(
                            a.plane, ps.speed_index, new, fig.speed_dial[new].speed, "obstacle"
                        )
                    )
