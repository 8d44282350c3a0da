"""Bailing out, etiquette, the end of the game and victory (seed 002 "Bailing Out", "Heroic Acts",
"Crimson Skies Etiquette", "Ending the Game", "Victory!"; AA-M04, AA-M53..M58, AA-M78..M84)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.base import GameBase, Outcome
from dialtray.rules.airaction.catalogue import (
    STATS,
)
from dialtray.rules.airaction.rulebook import (
    BAIL_MODIFIER,
    DISPUTE_ALLOWED_FROM,
    H_BAIL,
    H_HEROIC,
    H_PILOT,
    HEROIC,
    XP_BAIL_OUT,
    XP_SURVIVE_WIN,
    Ctx,
    illegal,
)
from dialtray.rules.core.events import Event

REPORT_WIDTH = 80  # a terminal's columns: the end-of-game table must not wrap mid-row
FIGURE_MAX = 27  # the figure column's widest: the row's fixed columns then take 79


class EndRules(GameBase):
    """Bail outs, heroic acts, disputes, optional-skill cancels, the end and the VP table."""

    def _r_bail_out(self, c: Ctx, a: ac.BailOut) -> None:
        """AA-M78..M80 "Bailing Out" / "Heroic Acts"."""
        s = self.state
        if not s.bailouts or s.bailouts[0] != a.plane:
            raise illegal(a, "this pilot has no bail out to make now", "AA-M78", H_BAIL)
        if a.act not in HEROIC:
            raise illegal(a, f"heroic act must be one of {list(HEROIC)}", "AA-M80", H_HEROIC)
        ps = s.planes[a.plane]
        value = self.cat.figures[ps.figure].combat_dial[ps.combat_click].bail_out
        if value is None:
            raise illegal(a, "this click has no bail out value", "AA-M76", H_BAIL)
        extra, act_xp = HEROIC[a.act]
        needed = value + extra
        level = s.planes[a.plane].level
        total = sum(self._roll(c, 2, "bail out", a.plane)) + BAIL_MODIFIER[level]
        ok = total >= needed
        c.emit(ev.BailedOut(a.plane, ps.pilot, a.act, total, needed, ok))
        if ok:
            self._xp(c, ps.pilot, XP_BAIL_OUT + act_xp, f"bailed out ({a.act})")

    def _r_dispute(self, c: Ctx, a: ac.Dispute) -> None:
        """AA-M84 Etiquette 4: 1d6, 1-3 not allowed, 4-6 allowed."""
        face = self._roll(c, 1, "dispute", "table")[0]
        c.emit(ev.DisputeRolled(a.about, face, face >= DISPUTE_ALLOWED_FROM))

    def dispute_allowed(self, events: Iterable[Event]) -> bool | None:
        for e in events:
            if isinstance(e, ev.DisputeRolled):
                return e.allowed
        return None

    def _r_cancel(self, c: Ctx, a: ac.CancelOptional) -> None:
        """AA-M04: cancel an optional skill/equipment until the end of the turn (AA-A11)."""
        self._require_plane(a, a.plane, "AA-M04", H_PILOT)
        if a.stat not in STATS:
            raise illegal(a, f"stat must be one of {STATS}", "AA-M04", H_PILOT)
        ps = self.state.planes[a.plane]
        colour = self.cat.figures[ps.figure].combat_dial[ps.combat_click].colours.get(a.stat)
        eff = self.cat.effect(colour)
        if eff is None or not eff.optional:
            raise illegal(a, "no optional skill or equipment shows there", "AA-M04", H_PILOT)
        if a.stat in ps.canceled:
            raise illegal(a, "already canceled this turn", "AA-M04", H_PILOT)
        c.emit(ev.OptionalCanceled(a.plane, a.stat))

    def _r_end_by_agreement(self, c: Ctx, a: ac.EndGame) -> None:
        """AA-M53 conditions 2 (time limit) and 3 (all players agree)."""
        if self.state.bailouts:
            raise illegal(a, "finish the bail out first", "AA-M78", H_BAIL)
        why = "time limit reached" if a.reason == "time" else "all players agreed"
        self._end(c, why)

    def _pilots_on_table(self, player: str) -> list[str]:
        return [p for p in self.in_play(player) if not self.shaken(p)]

    def _check_end(self, c: Ctx) -> bool:
        """AA-M53 condition 1; AA-M59 disengaged players' last plane gone."""
        s = self.state
        if s.phase in ("first-player", "deploy"):
            return False
        for p in sorted(s.disengaging):
            if not self.in_play(p):
                self._end(c, f"{p} has disengaged")
                return True
        with_pilots = {q.owner for q in s.planes.values() if q.in_play and not self.shaken(q.id)}
        if len(with_pilots) <= 1:
            self._end(c, "only one player still has pilots on the play area")
            return True
        return False

    def _end(self, c: Ctx, reason: str) -> None:
        """AA-M56 survivors, AA-M58 tie-breaks (d6 roll-off), AA-M74 survive-and-win XP."""
        s = self.state
        c.emit(ev.GameEnded(reason))
        for p in s.players:
            if p in s.disengaging:
                continue  # AA-M59: no points for planes remaining
            mine = self.in_play(p)
            if mine and all(self.shaken(q) for q in mine):
                continue  # AA-M56: all Shaken, add no points
            for q in mine:
                c.emit(ev.VPScored(p, self.plane_value(q), "remaining on the play area", q))
        winner, how = self._winner(c)
        c.emit(ev.WinnerDecided(winner, how))
        for q in self.in_play(winner):
            self._xp(c, s.planes[q].pilot, XP_SURVIVE_WIN, "remained on the play area and won")

    def _winner(self, c: Ctx) -> tuple[str, str]:
        """AA-M58: most VP; then most planes shot down; then fewest build points; then a d6."""
        s = self.state
        tied = list(s.players)
        keys: list[tuple[str, dict[str, int]]] = [
            ("most victory points", dict(s.vp)),
            ("most planes shot down", dict(s.shot_down)),
            ("fewest build points", {p: -self.build_points(p) for p in s.players}),
        ]
        for how, key in keys:
            best = max(key[p] for p in tied)
            tied = [p for p in tied if key[p] == best]
            if len(tied) == 1:
                return tied[0], how
        return self._roll_off(c, tied, "tie-break", 1), "d6 roll-off"

    def outcome(self) -> Outcome | None:
        s = self.state
        if not s.ended:
            return None
        return Outcome(
            s.ended,
            s.winner,
            s.win_how,
            dict(s.vp),
            dict(s.shot_down),
            {p: self.build_points(p) for p in s.players},
        )

    def report(self) -> str:
        """Final dials and the VP table (what ``dialtray replay`` prints)."""
        s = self.state
        lines = [
            f"Crimson Skies: Air Action — turn {s.turn}, {s.ended or 'in progress: ' + s.phase}"
        ]
        lines.extend(self._plane_rows())
        lines.append("player  VP  shot-down  build")
        for p in s.players:
            lines.append(f"{p:<7} {s.vp[p]:>3} {s.shot_down[p]:>10} {self.build_points(p):>6}")
        if s.winner:
            lines.append(f"winner: {s.winner} ({s.win_how})")
        if s.campaign:
            lines.append("XP: " + ", ".join(f"{k} {v}" for k, v in sorted(s.xp.items())))
            if s.dead:
                lines.append("perished: " + ", ".join(sorted(s.dead)))
        return "\n".join(lines)

    def _plane_rows(self) -> list[str]:
        """The planes' table in :data:`REPORT_WIDTH` columns: the figure column as wide as the
        longest figure (a longer one is cut with "…"), a removal's reason on a line of its own
        under the row, since a terminal of 80 columns would wrap the rows mid-column."""
        s = self.state
        widest = max((len(ps.figure) for ps in s.planes.values()), default=6)
        fig_w = max(6, min(widest, FIGURE_MAX))
        head = (f"{'plane':<5} {'owner':<5} {'figure':<{fig_w}} {'click':>5} {'holes':>5} "
                f"{'speed':>5} {'ace(att/fate)':<13} status")
        rows = [head]
        for ps in s.planes.values():
            cv = self.combat_values(ps.id)
            ace = self.ace_values(ps.id)
            ace_txt = f"c{ps.ace_click} {ace[0]}/{ace[1]}{' KO' if ace[2] else ''}" if ace else "-"
            speed = self.speed_of(ps.id)
            sp = "-" if speed is None else str(speed)
            fig = ps.figure if len(ps.figure) <= fig_w else ps.figure[:fig_w - 1] + "…"
            rows.append(f"{ps.id:<5} {ps.owner:<5} {fig:<{fig_w}} {ps.combat_click:>5} "
                        f"{cv['bullet_holes']:>5} {sp:>5} {ace_txt:<13} "
                        f"{'in play' if ps.in_play else 'removed'}")
            if not ps.in_play:
                rows.extend(textwrap.wrap(f"{ps.id} removed: {ps.removed}", REPORT_WIDTH,
                                          initial_indent=" " * 6, subsequent_indent=" " * 8))
        return rows
