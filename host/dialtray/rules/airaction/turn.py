"""Setup and the start of each turn: first player, deployment, initiative, Set Throttle and
disengaging (seed 002 "Hit the Skies!", "Determine Initiative", "Set Throttle", "Disengaging";
AA-M12..M22, AA-M59)."""

from __future__ import annotations

from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.base import GameBase
from dialtray.rules.airaction.rulebook import (
    CHECKED_THROTTLE,
    H_DISENGAGE,
    H_INIT,
    H_SKIES,
    H_THROTTLE,
    Ctx,
    illegal,
)
from dialtray.rules.airaction.state import PlaneState


class TurnRules(GameBase):
    """First player, deployment, initiative, Set Throttle, disengaging."""

    def _next_deployer(self) -> str | None:
        s = self.state
        if s.first_player is None:
            return None
        for p in self.clockwise_from(s.first_player):
            if p not in s.deployed:
                return p
        return None

    def _throttle_player(self) -> str | None:
        s = self.state
        if s.aggressor is None:
            return None
        for p in self.clockwise_from(s.aggressor):  # AA-M17, AA-A17
            if any(not s.planes[q].throttle_done for q in self.in_play(p)):
                return p
        return None

    def _r_first_player(self, c: Ctx, a: ac.FirstPlayerRoll) -> None:
        """AA-M13 "Hit the Skies!": 2d6 each, reroll ties, highest is first player."""
        self._require_phase(a, "first-player", "AA-M13", H_SKIES)
        c.emit(ev.FirstPlayerChosen(self._roll_off(c, self.state.players, "first player", 2)))

    def _r_deploy(self, c: Ctx, a: ac.Deploy) -> None:
        """AA-M14: first player places first, then the player to the left, and so on."""
        self._require_phase(a, "deploy", "AA-M14", H_SKIES)
        nxt = self._next_deployer()
        if a.player != nxt:
            raise illegal(a, f"{nxt} deploys next", "AA-M14", H_SKIES)
        c.emit(ev.Deployed(a.player))
        if self._next_deployer() is None:
            c.emit(ev.TurnStarted(1))

    def _r_initiative(self, c: Ctx, a: ac.RollInitiative) -> None:
        """AA-M16 "Determine Initiative": 2d6 each, reroll ties, highest is the aggressor."""
        self._require_phase(a, "initiative", "AA-M16", H_INIT)
        contenders = [p for p in self.state.players if self.in_play(p)]
        c.emit(ev.AggressorChosen(self._roll_off(c, contenders, "initiative", 2)))
        self._report_unknown_colours(c)

    def _report_unknown_colours(self, c: Ctx) -> None:
        """AA-M03: colours not in the Skills & Equipment map are reported, never guessed."""
        for pid in self.in_play():
            ps = self.state.planes[pid]
            click = self.cat.figures[ps.figure].combat_dial[ps.combat_click]
            for stat, colour in click.colours.items():
                if self.cat.effect(colour) is None:
                    c.emit(ev.UnknownEffect(pid, f"combat dial {stat}", colour))

    def _check_throttle_turn(self, a: ac.SetSpeed | ac.Throttle) -> PlaneState:
        self._require_phase(a, "throttle", "AA-M17", H_THROTTLE)
        ps = self._require_plane(a, a.plane, "AA-M17", H_THROTTLE)
        if ps.owner != self._throttle_player():
            raise illegal(
                a, f"{self._throttle_player()} sets speeds now (aggressor first)", "AA-M17", H_INIT
            )
        if ps.throttle_done:
            raise illegal(a, f"{a.plane}'s speed is already set this turn", "AA-M19", H_THROTTLE)
        return ps

    def _r_set_speed(self, c: Ctx, a: ac.SetSpeed) -> None:
        """AA-M18: at the start of the game, any value on the speed dial (AA-A20: even above
        max speed; the redline check applies at movement)."""
        ps = self._check_throttle_turn(a)
        if ps.speed_index is not None:
            raise illegal(
                a, "only at the start of the game; use throttle +/-1 or 2", "AA-M18", H_THROTTLE
            )
        idx = self.cat.figures[ps.figure].speed_index(a.speed)
        if idx is None:
            raise illegal(a, f"{a.speed} is not on {a.plane}'s speed dial", "AA-M18", H_THROTTLE)
        c.emit(ev.SpeedChanged(a.plane, None, idx, a.speed, "starting speed"))
        c.emit(ev.ThrottleDone(a.plane))

    def _r_throttle(self, c: Ctx, a: ac.Throttle) -> None:
        """AA-M19 (one click safely), AA-M20 (two with a pilot check; failure: no change and 1
        damage click), AA-M21 / AA-A18 (never past the red line, not even a check)."""
        ps = self._check_throttle_turn(a)
        if ps.speed_index is None:
            raise illegal(a, "set a starting speed first (speed PLANE N)", "AA-M18", H_THROTTLE)
        if abs(a.clicks) > CHECKED_THROTTLE:
            raise illegal(a, "at most two clicks in a turn", "AA-M20", H_THROTTLE)
        dial = self.cat.figures[ps.figure].speed_dial
        new = ps.speed_index + a.clicks
        if not 0 <= new < len(dial):
            raise illegal(
                a, "you may not turn the speed dial past the red line", "AA-M21", H_THROTTLE
            )
        if abs(a.clicks) == CHECKED_THROTTLE:
            ok, _ = self._pilot_check(c, a.plane, "two-click throttle")
            if not ok:
                self._damage(c, a.plane, 1, "failed two-click throttle check")
                c.emit(ev.ThrottleDone(a.plane))
                return
        if a.clicks:
            c.emit(ev.SpeedChanged(a.plane, ps.speed_index, new, dial[new].speed, "throttle"))
        c.emit(ev.ThrottleDone(a.plane))

    def _r_disengage(self, c: Ctx, a: ac.Disengage) -> None:
        """AA-M59 "Disengaging": announced during your turn (your Set Throttle step)."""
        self._require_phase(a, "throttle", "AA-M59", H_DISENGAGE)
        if a.player != self._throttle_player():
            raise illegal(a, "announce it during your own throttle step", "AA-M59", H_DISENGAGE)
        if a.player in self.state.disengaging:
            raise illegal(a, "already disengaging", "AA-M59", H_DISENGAGE)
        c.emit(ev.Disengaged(a.player))
