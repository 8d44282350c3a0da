"""What every Air Action rule handler shares: dial values, decks, dice rolls, pilot checks
(AA-M06), and damage with its consequences (AA-M46 removal, AA-M54/M55 VP, AA-M74 XP)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.catalogue import (
    SHOT_DOWN_HOLES,
    Catalogue,
    ColourEffect,
)
from dialtray.rules.airaction.dials import dial_changes_of, dial_settings
from dialtray.rules.airaction.rulebook import (
    DISENGAGE_CARDS,
    XP_SHOT_DOWN,
    Ctx,
    illegal,
)
from dialtray.rules.airaction.state import PlaneState, State
from dialtray.rules.core.dials import Dial, DialChange, DialSetting
from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.events import Event, EventSourcedGame
from dialtray.rules.core.game import Seat, plain


@dataclass(frozen=True)
class Outcome:
    """``outcome()``: why the game ended, who won and the VP table (AA-M53..M58)."""

    termination: str
    winner: str | None
    how: str | None
    vp: Mapping[str, int]
    shot_down: Mapping[str, int]
    build_points: Mapping[str, int]


@dataclass(frozen=True)
class SquadronPlane:
    """One plane of a squadron at setup: ``Plane: P1 A1 FIGURE LEVEL [ACE]``."""

    id: str
    figure: str
    level: str = "rookie"
    ace: str | None = None


class GameBase(EventSourcedGame[State, ac.AAAction]):
    """Queries and helpers every rule handler uses; the game class adds the flow."""

    cat: Catalogue
    dice: DiceSource
    kind = "airaction"

    # -- the core Game protocol (core.game) ---------------------------------------------------
    def seats(self) -> tuple[Seat, ...]:
        """The players' ids from the setup, in seating (clockwise) order."""
        return self.state.players

    def state_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON-able data (``core.game.plain``)."""
        out: dict[str, Any] = plain(self.state)
        return out

    def dial_settings(self, state: State) -> dict[Dial, DialSetting]:
        return dial_settings(state, self.cat)

    def dial_changes_of(self, state: State, event: Event) -> tuple[DialChange, ...]:
        return dial_changes_of(state, self.cat, event)

    def plane(self, pid: str) -> PlaneState:
        return self.state.planes[pid]

    def speed_of(self, pid: str) -> int | None:
        ps = self.state.planes[pid]
        if ps.speed_index is None:
            return None
        return self.cat.figures[ps.figure].speed_dial[ps.speed_index].speed

    def combat_values(self, pid: str) -> dict[str, int]:
        ps = self.state.planes[pid]
        c = self.cat.figures[ps.figure].combat_dial[ps.combat_click]
        return {
            "max_speed": c.max_speed,
            "front_gunnery": c.front_gunnery,
            "rear_gunnery": c.rear_gunnery,
            "piloting": c.piloting,
            "bullet_holes": c.bullet_holes,
        }

    def ace_values(self, pid: str) -> tuple[int, int, bool] | None:
        """(attack, fate, KO) on the Ace dial of the Ace flying ``pid``."""
        ps = self.state.planes[pid]
        if ps.ace is None:
            return None
        c = self.cat.aces[ps.ace].dial[ps.ace_click]
        return c.attack, c.fate, c.ko

    def plane_value(self, pid: str) -> int:
        """Point value of a plane for VP: its level's PV plus its Ace's (AA-M10; decision)."""
        spec = self.state.specs[pid]
        fig = self.cat.figures[spec.figure]
        ace = self.cat.aces[spec.ace].points if spec.ace else 0
        return fig.levels[spec.level].points + ace

    def build_points(self, player: str) -> int:
        return sum(self.plane_value(s.id) for s in self.state.specs.values() if s.owner == player)

    def opponents(self, player: str) -> list[str]:
        return [p for p in self.state.players if p != player]

    def clockwise_from(self, player: str) -> list[str]:
        ps = list(self.state.players)
        i = ps.index(player)
        return ps[i:] + ps[:i]

    def in_play(self, player: str | None = None) -> list[str]:
        return [
            p.id
            for p in self.state.planes.values()
            if p.in_play and (player is None or p.owner == player)
        ]

    def effect_on(self, pid: str, stat: str) -> ColourEffect | None:
        """The known, not-canceled effect of the colour on ``stat`` (AA-M03/M04)."""
        ps = self.state.planes[pid]
        c = self.cat.figures[ps.figure].combat_dial[ps.combat_click]
        eff = self.cat.effect(c.colours.get(stat))
        if eff is None or (eff.optional and stat in ps.canceled):
            return None
        return eff

    def shaken(self, pid: str) -> bool:
        """AA-M53: the Shaken skill shows (via the colour map's ``shaken`` hook)."""
        ps = self.state.planes[pid]
        colours = self.cat.figures[ps.figure].combat_dial[ps.combat_click].colours
        return bool(colours) and any(
            (e := self.effect_on(pid, s)) is not None and e.hook == "shaken" for s in colours
        )

    def ace_can_use_fate(self, pid: str, defensive: bool) -> bool:
        """AA-M61 once per turn; AA-M63 defensive needs fate > 0; AA-A15 not once KO."""
        ps = self.state.planes[pid]
        vals = self.ace_values(pid)
        if vals is None or ps.fate_used or vals[2]:
            return False
        return not defensive or vals[1] > 0

    def can_collide(self, a: str, b: str) -> bool:
        """AA-M32: opposing planes collide; same squadron symbol never (decision D-AA-02)."""
        pa, pb = self.state.planes[a], self.state.planes[b]
        if pa.owner != pb.owner:
            return True
        sa = self.cat.figures[pa.figure].squadron_symbol
        sb = self.cat.figures[pb.figure].squadron_symbol
        return sa is not None and sb is not None and sa != sb

    def deck(self, player: str) -> dict[str, int]:
        """AA-M23: the basic deck of 12 plus two cards per Ace with its own cards."""
        deck = dict(self.cat.basic_deck)
        for spec in self.state.specs.values():
            if spec.owner != player or spec.ace is None:
                continue
            for c in self.cat.figures[spec.figure].ace_navigation_cards:
                deck[c] = deck.get(c, 0) + 1
        return deck

    def available_cards(self, player: str) -> dict[str, int]:
        """AA-M26: the deck minus the cards already placed at the announced speed."""
        avail = self.deck(player)
        for pid, (card, _path) in self.state.plans.items():
            if self.state.planes[pid].owner == player and card in avail:
                avail[card] -= 1
        return {k: v for k, v in avail.items() if v > 0}

    def legal_cards(self, pid: str) -> list[tuple[str, str]]:
        """(card, path) pairs ``pid`` may plan now (AA-M24, AA-M25, AA-M59)."""
        ps = self.state.planes[pid]
        speed = self.speed_of(pid) or 0
        out: list[tuple[str, str]] = []
        for name in self.available_cards(ps.owner):
            card = self.cat.cards[name]
            if card.speed_rating > speed:
                continue
            if ps.owner in self.state.disengaging and name not in DISENGAGE_CARDS:
                continue
            out.extend((name, path) for path in card.paths)
        return out

    def visible_plans(self, viewer: str) -> dict[str, tuple[str, str] | None]:
        """AA-M25/M27: cards lie face down until every active plane has one, then are revealed;
        before that a viewer sees only their own (None = a face-down card)."""
        s = self.state
        revealed = s.phase != "plan"
        return {
            pid: plan if revealed or s.planes[pid].owner == viewer else None
            for pid, plan in s.plans.items()
        }

    def _movers(self) -> list[str]:
        s = self.state
        return [p for p in s.active if s.planes[p].in_play and p in s.move_results]

    def _roll(self, c: Ctx, n: int, purpose: str, who: str) -> tuple[int, ...]:
        faces = self.dice.roll(n, purpose)
        c.emit(ev.Rolled(purpose, who, faces))
        return faces

    def _pilot_check(self, c: Ctx, pid: str, purpose: str) -> tuple[bool, int]:
        """AA-M06 "Pilot Checks": 2d6 >= piloting on the combat dial."""
        faces = self._roll(c, 2, f"pilot check: {purpose}", pid)
        total = sum(faces)
        piloting = self.combat_values(pid)["piloting"]
        ok = total >= piloting
        c.emit(ev.PilotCheck(pid, purpose, total, piloting, ok))
        return ok, total

    def _roll_off(self, c: Ctx, players: Sequence[str], purpose: str, count: int) -> str:
        """Every player rolls ``count`` d6; tied highest reroll (AA-M13, AA-M16, AA-M58)."""
        contenders = list(players)
        while True:
            totals = {p: sum(self._roll(c, count, purpose, p)) for p in contenders}
            best = max(totals.values())
            contenders = [p for p in contenders if totals[p] == best]
            if len(contenders) == 1:
                return contenders[0]

    def _require_phase(self, a: object, phase: str, mech: str, heading: str) -> None:
        if self.state.phase != phase:
            raise illegal(a, f"not now (the game is in the {self.state.phase} step)", mech, heading)

    def _require_plane(self, a: object, pid: str, mech: str, heading: str) -> PlaneState:
        ps = self.state.planes.get(pid)
        if ps is None:
            raise illegal(a, f"no plane {pid!r}", mech, heading)
        if not ps.in_play:
            raise illegal(a, f"{pid} is no longer on the play area", mech, heading)
        return ps

    def _damage(
        self,
        c: Ctx,
        pid: str,
        n: int,
        cause: str,
        shot_by: str | None = None,
        hits: bool = False,
    ) -> None:
        """Clockwise damage clicks. AA-M46: stop at three bullet holes (shot down); AA-M77: in a
        campaign, hits keep clicking until all are assigned or the structural limit line shows.
        The dial never turns past its last click."""
        s = self.state
        ps = s.planes[pid]
        if not ps.in_play or n <= 0:
            return
        dial = self.cat.figures[ps.figure].combat_dial
        click = ps.combat_click
        applied = 0
        for _ in range(n):
            cur = dial[click]
            if cur.bullet_holes >= SHOT_DOWN_HOLES and not (s.campaign and hits):
                break
            if cur.structural_limit or click >= len(dial) - 1:
                break
            click += 1
            applied += 1
        if applied:
            c.emit(ev.DamageClicks(pid, applied, cause))
        if dial[ps.combat_click].bullet_holes < SHOT_DOWN_HOLES:
            return
        # destroyed
        if shot_by is not None:
            shooter = s.planes[shot_by]
            c.emit(ev.PlaneRemoved(pid, "shot down", shot_by))
            c.emit(ev.VPScored(shooter.owner, 2 * self.plane_value(pid), "shot down", pid))
            self._xp(c, shooter.pilot, XP_SHOT_DOWN, f"shot down {pid}")
        else:
            c.emit(ev.PlaneRemoved(pid, f"destroyed ({cause})"))
            self._score_removal(c, pid, cause)
        if s.campaign and ps.pilot not in s.dead:  # AA-M78, AA-A10
            c.emit(ev.BailOutPending(pid))

    def _score_removal(self, c: Ctx, pid: str, cause: str) -> None:
        """AA-M55 with AA-A08: 1x point value, split among the owner's opponents (or to each)."""
        s = self.state
        owner = s.planes[pid].owner
        opps = self.opponents(owner)
        value = self.plane_value(pid)
        share = value if s.removal_vp == "each" or len(opps) == 1 else value // len(opps)
        for p in opps:
            if share:
                c.emit(ev.VPScored(p, share, f"removed: {cause}", pid))

    def _xp(self, c: Ctx, pilot: str, xp: int, reason: str) -> None:
        """AA-M74: experience is recorded in campaign games only; dead pilots earn none."""
        if self.state.campaign and pilot not in self.state.dead:
            c.emit(ev.XPAwarded(pilot, xp, reason))
