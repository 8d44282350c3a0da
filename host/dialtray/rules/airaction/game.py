"""The Crimson Skies: Air Action game: one object holding squadrons, dials and the phase.

Source of truth: seed ``002_03410e1f12aa59ba.txt``; ids AA-Mnn / AA-Ann are those of
``rules-inventory.md`` §4, decisions in ``docs/rules-decisions.md``.

python-chess in spirit: ``legal_actions()`` lists what may happen next, ``apply(action)`` returns
the events it caused (every roll, check, click, removal and VP), ``undo()`` takes it back and
``outcome()`` says who won and why. This module holds the turn flow (``_advance``), who decides
(``to_move``) and the legal-action lists; the rules themselves are grouped by concern, MegaMek
style, in handler classes the game combines: ``turn`` (setup, initiative, throttle), ``movement``
(navigation, speed effects, redlining, moves, obstacles), ``collisions``, ``feats``, ``combat``,
``ending`` (bail outs, etiquette, end and victory), on top of ``base`` (shared queries, dice,
damage, VP, XP) and ``rulebook`` (the rules' numbers and headings).

Geometry is supplied as facts (physical-table mode): the table reports whether a plane left the
area or hit an obstacle, which final markers overlap, and a ``shoot`` asserts the target is in
range, whether the shooter sits in the target's rear arc and whether it is within one marker.
``dialtray.rules.airaction.table`` computes the same facts from an approximate 2D model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product

from dialtray.rules.airaction import actions as ac
from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.base import GameBase, Outcome, SquadronPlane
from dialtray.rules.airaction.catalogue import (
    Catalogue,
    builtin,
)
from dialtray.rules.airaction.collisions import CollisionRules
from dialtray.rules.airaction.combat import CombatRules
from dialtray.rules.airaction.ending import EndRules
from dialtray.rules.airaction.feats import FeatRules
from dialtray.rules.airaction.movement import MovementRules
from dialtray.rules.airaction.rulebook import (
    BAIL_MODIFIER,
    BUILD_STEP,
    CHECKED_THROTTLE,
    H_ACES,
    H_BAIL,
    H_CAMPAIGN,
    H_END,
    H_PILOT,
    H_SKIES,
    H_SQUAD,
    H_VICTORY,
    HEROIC,
    MAX_COUNTDOWN,
    MIN_ACE_BUILD,
    Ctx,
    illegal,
)
from dialtray.rules.airaction.state import State, apply_event
from dialtray.rules.airaction.turn import TurnRules
from dialtray.rules.core.dice import DiceSource, SeededDice
from dialtray.rules.core.events import Emit, Event

__all__ = [
    "BAIL_MODIFIER",
    "HEROIC",
    "AirActionGame",
    "GameBase",
    "Outcome",
    "SquadronPlane",
    "validate_setup",
]


class AirActionGame(TurnRules, MovementRules, CollisionRules, FeatRules, CombatRules, EndRules):
    """A game of Crimson Skies: Air Action.

    >>> g = AirActionGame.new({"P1": [SquadronPlane("A1", "sample-militia-fighter")],
    ...                        "P2": [SquadronPlane("B1", "sample-pirate-fighter")]},
    ...                       dice=SeededDice(1))
    >>> [a.text() for a in g.legal_actions()]
    ['first-player']
    """

    def __init__(
        self,
        setup: ev.GameSetup,
        dice: DiceSource,
        catalogue: Catalogue | None = None,
    ) -> None:
        self.cat = catalogue if catalogue is not None else builtin()
        self.dice = dice
        self._shoot_values: dict[tuple[str, str, str, bool, bool, bool], ac.Shoot] = {}
        validate_setup(setup, self.cat)
        super().__init__([setup])

    @classmethod
    def new(
        cls,
        squadrons: Mapping[str, Sequence[SquadronPlane]],
        *,
        build_total: int = 200,
        campaign: bool = False,
        obstacles: bool = False,
        removal_vp: str = "split",
        strict_build_total: bool = False,
        collision_survival_xp: int = 0,
        names: Mapping[str, str] | None = None,
        dice: DiceSource | None = None,
        catalogue: Catalogue | None = None,
    ) -> AirActionGame:
        players = tuple(squadrons)
        specs = tuple(
            ev.PlaneSpec(p.id, owner, p.figure, p.level, p.ace)
            for owner, planes in squadrons.items()
            for p in planes
        )
        setup = ev.GameSetup(
            players,
            tuple((names or {}).get(p, p) for p in players),
            build_total,
            campaign,
            obstacles,
            removal_vp,
            specs,
            strict_build_total,
            collision_survival_xp,
        )
        return cls(setup, dice if dice is not None else SeededDice(), catalogue)

    def initial_state(self) -> State:
        return State()

    def apply_event(self, state: State, event: Event) -> None:
        apply_event(state, event, self.cat)

    def __repr__(self) -> str:
        s = self.state
        planes = " ".join(
            f"{p.id}[c{p.combat_click} s{self.speed_of(p.id)}]"
            for p in s.planes.values()
            if p.in_play
        )
        return f"<AirActionGame turn {s.turn} {s.phase} to_move={self.to_move()} {planes}>"

    def parse_action(self, text: str) -> ac.AAAction:
        return ac.parse_action(text)

    def to_move(self) -> str | None:
        """The player who decides next, ``"table"`` for rolls and facts, None when over."""
        s = self.state
        if s.ended:
            return None
        if s.bailouts:
            return s.planes[s.bailouts[0]].owner
        if s.phase == "deploy":
            return self._next_deployer()
        if s.phase == "throttle":
            return self._throttle_player()
        if s.phase == "plan":
            return self._planner()
        if s.phase == "collisions" and s.collision is not None:
            left = [p for p in s.collision.offers if p not in s.collision.fate]
            return s.planes[left[0]].owner if left else "table"
        if s.phase == "feats":
            if s.feat is not None:
                return s.planes[s.feat.plane].owner
            return s.planes[s.feat_offers[0]].owner if s.feat_offers else "table"
        if s.phase == "combat":
            if s.shot is not None:
                return s.planes[s.shot.target].owner
            return s.shooter
        return "table"

    def legal_actions(self) -> list[ac.AAAction]:
        """Every action that settles the current decision (meta actions such as ``dispute``,
        ``cancel`` and ``end`` are accepted at any time and not listed)."""
        s = self.state
        if s.ended:
            return []
        if s.bailouts:
            return [ac.BailOut(s.bailouts[0], a) for a in HEROIC]
        ph = s.phase
        if ph == "first-player":
            return [ac.FirstPlayerRoll()]
        if ph == "deploy":
            nxt = self._next_deployer()
            return [ac.Deploy(nxt)] if nxt else []
        if ph == "initiative":
            return [ac.RollInitiative()]
        if ph == "throttle":
            return self._legal_throttle()
        if ph == "plan":
            return self._legal_plans()
        if ph == "move":
            results = ("moved", "left", "obstacle") if s.obstacles else ("moved", "left")
            return [
                ac.ReportMove(p, r)
                for p in s.active
                if s.planes[p].in_play and p not in s.move_results
                for r in results
            ]
        if ph == "overlaps":
            done = {frozenset(x) for x in s.overlaps}
            movers = self._movers()
            pairs = [
                ac.ReportOverlap(a, b)
                for a in movers
                for b in self.in_play()
                if a != b
                and self.can_collide(a, b)
                and frozenset((a, b)) not in done
                and not (b in movers and b < a)
            ]
            return [*pairs, ac.OverlapsDone()]
        if ph == "collisions" and s.collision is not None:
            fate_opts: list[ac.AAAction] = [
                ac.CollisionFate(p, use)
                for p in s.collision.offers
                if p not in s.collision.fate
                for use in (True, False)
            ]
            return fate_opts[:2]
        if ph == "feats":
            if s.feat is not None:
                return [ac.FeatChoice(s.feat.plane, c) for c in s.feat.choices]
            if s.feat_offers:
                p = s.feat_offers[0]
                feats: list[ac.AAAction] = [ac.DaringFeat(p, t) for t in self._feat_targets(p)]
                return [*feats, ac.DaringFeat(p)]
            return []
        if ph == "combat":
            return self._legal_combat()
        return []

    def _legal_throttle(self) -> list[ac.AAAction]:
        s = self.state
        player = self._throttle_player()
        if player is None:
            return []
        out: list[ac.AAAction] = []
        for pid in self.in_play(player):
            ps = s.planes[pid]
            if ps.throttle_done:
                continue
            fig = self.cat.figures[ps.figure]
            if ps.speed_index is None:
                for sp in sorted({p.speed for p in fig.speed_dial}):
                    out.append(ac.SetSpeed(pid, sp))
            else:
                for d in range(-CHECKED_THROTTLE, CHECKED_THROTTLE + 1):
                    if 0 <= ps.speed_index + d < len(fig.speed_dial):
                        out.append(ac.Throttle(pid, d))
        if player not in s.disengaging:
            out.append(ac.Disengage(player))
        return out

    def _legal_plans(self) -> list[ac.AAAction]:
        s = self.state
        player = self._planner()
        out: list[ac.AAAction] = []
        for pid in s.active:
            ps = s.planes[pid]
            if ps.owner != player or pid in s.plans or not ps.in_play:
                continue
            legal = self.legal_cards(pid)
            if not legal:
                out.append(ac.Plan(pid, "none"))
            elif ps.random_card_next:
                out.append(ac.Plan(pid, "random"))
            else:
                out.extend(ac.Plan(pid, c, p) for c, p in legal)
        return out

    def _legal_combat(self) -> list[ac.AAAction]:
        s = self.state
        if s.shot is not None:
            return [ac.DefensiveFate(s.shot.target, u) for u in (True, False)]
        if s.shooter is None:
            return []
        out: list[ac.AAAction] = []
        targets = [t for t in self.in_play() if s.planes[t].owner != s.shooter]
        for pid in s.active:
            if s.planes[pid].owner != s.shooter:
                continue
            weapons = self._shot_options(pid)
            if not weapons:
                continue
            fates = (False, True) if self.ace_can_use_fate(pid, defensive=False) else (False,)
            made = self._shoot_values  # Shoot values are immutable: made once, reused
            for key in product((pid,), weapons, targets, (False, True), (False, True), fates):
                shot = made.get(key)
                if shot is None:
                    shot = made[key] = ac.Shoot(*key)
                out.append(shot)
            out.append(ac.PassShot(pid))
        return out

    def apply(self, action: ac.AAAction) -> tuple[Event, ...]:
        """Apply ``action``; returns its events. ``IllegalActionError`` leaves no trace."""
        if self.state.ended:
            raise illegal(action, "the game is over", "AA-M53", H_END)

        def produce(emit: Emit) -> None:
            self._dispatch(Ctx(emit, action), action)

        return self._transaction(action, produce)

    def _dispatch(self, c: Ctx, a: ac.AAAction) -> None:
        if isinstance(a, ac.Dispute):
            self._r_dispute(c, a)
            return
        if isinstance(a, ac.EndGame):
            self._r_end_by_agreement(c, a)
            return
        if isinstance(a, ac.CancelOptional):
            self._r_cancel(c, a)
            return
        s = self.state
        if s.bailouts and not isinstance(a, ac.BailOut):
            raise illegal(a, f"{s.bailouts[0]}'s pilot must bail out first", "AA-M78", H_BAIL)
        handlers = {
            ac.BailOut: self._r_bail_out,
            ac.FirstPlayerRoll: self._r_first_player,
            ac.Deploy: self._r_deploy,
            ac.RollInitiative: self._r_initiative,
            ac.SetSpeed: self._r_set_speed,
            ac.Throttle: self._r_throttle,
            ac.Disengage: self._r_disengage,
            ac.Plan: self._r_plan,
            ac.ReportMove: self._r_move,
            ac.ReportOverlap: self._r_overlap,
            ac.OverlapsDone: self._r_overlaps_done,
            ac.CollisionFate: self._r_collision_fate,
            ac.DaringFeat: self._r_feat,
            ac.FeatChoice: self._r_feat_choice,
            ac.Shoot: self._r_shoot,
            ac.PassShot: self._r_pass,
            ac.DefensiveFate: self._r_defensive_fate,
        }
        handler = handlers[type(a)]
        handler(c, a)  # type: ignore[operator]
        self._advance(c)

    def _advance(self, c: Ctx) -> None:
        """Run every step that needs no decision, until one does (AA-M22, AA-M35, AA-M48)."""
        s = self.state
        while not s.ended and not s.bailouts:
            if self._check_end(c):
                return
            ph = s.phase
            if ph == "throttle":
                if self._throttle_player() is not None:
                    return
                c.emit(ev.PhaseChanged("announce"))
            elif ph == "announce":
                self._announce(c)
            elif ph == "plan":
                if any(p not in s.plans and s.planes[p].in_play for p in s.active):
                    return
                self._r_reveal_and_prepare(c)
            elif ph == "move":
                if any(p not in s.move_results and s.planes[p].in_play for p in s.active):
                    return
                if not self._movers():
                    c.emit(ev.PhaseChanged("combat"))
                    self._next_shooter(c, None)
                else:
                    c.emit(ev.PhaseChanged("overlaps"))
                    return
            elif ph == "collisions":
                if s.collision is not None:
                    if any(p not in s.collision.fate for p in s.collision.offers):
                        return
                    self._finish_collision(c)
                    continue
                groups = self._collision_groups()
                if groups:
                    self._start_collision(c, groups[0])
                    continue
                c.emit(ev.PhaseChanged("feats"))
                self._offer_feats(c)
            elif ph == "feats":
                if s.feat is not None or s.feat_offers:
                    return
                c.emit(ev.PhaseChanged("combat"))
                self._next_shooter(c, None)
            else:
                return

    def _announce(self, c: Ctx) -> None:
        """AA-M22 / AA-A12: count down from 10 to the next speed with an unmoved plane."""
        s = self.state
        speeds: dict[int, list[str]] = {}
        for pid in self.in_play():
            sp = self.speed_of(pid)
            if not s.planes[pid].activated and sp is not None and 1 <= sp <= MAX_COUNTDOWN:
                speeds.setdefault(sp, []).append(pid)
        if not speeds:  # AA-M48: the turn is over
            c.emit(ev.TurnStarted(s.turn + 1))
            return
        top = max(speeds)
        c.emit(ev.SpeedAnnounced(top, tuple(sorted(speeds[top]))))


def validate_setup(setup: ev.GameSetup, cat: Catalogue) -> None:
    """AA-M08 build total, AA-M09 pilot uniqueness, AA-M10 Aces as pilots."""
    if len(setup.players) < 2 or len(set(setup.players)) != len(setup.players):
        raise illegal("setup", "needs two or more distinct players", "AA-M13", H_SKIES)
    if setup.build_total <= 0 or setup.build_total % BUILD_STEP:
        raise illegal(
            "setup", f"build total {setup.build_total} is not a multiple of 100", "AA-M08", H_SQUAD
        )
    if setup.removal_vp not in ("split", "each"):
        raise illegal("setup", "removal VP must be split or each", "AA-M55", H_VICTORY)
    ids = [p.id for p in setup.planes]
    if len(set(ids)) != len(ids):
        raise illegal("setup", "plane ids must be unique", "AA-M05", H_PILOT)
    for spec in setup.planes:
        if spec.owner not in setup.players:
            raise illegal("setup", f"{spec.id}: unknown player {spec.owner}", "AA-M08", H_SQUAD)
        if spec.figure not in cat.figures:
            raise illegal("setup", f"{spec.id}: unknown figure {spec.figure}", "AA-M01", H_PILOT)
        fig = cat.figures[spec.figure]
        if spec.level not in fig.levels:
            raise illegal(
                "setup", f"{spec.id}: {spec.figure} has no {spec.level} level", "AA-M72", H_CAMPAIGN
            )
        if spec.ace is not None:
            if fig.ace != spec.ace:
                raise illegal(
                    "setup",
                    f"{spec.id}: {spec.ace} is not the Ace corresponding to {spec.figure}",
                    "AA-M10",
                    H_ACES,
                )
            if setup.build_total < MIN_ACE_BUILD and setup.strict_build_total:
                raise illegal(
                    "setup", "with Aces the build total must be at least 300", "AA-M10", H_ACES
                )
    for player in setup.players:
        mine = [s for s in setup.planes if s.owner == player]
        if not mine:
            raise illegal("setup", f"{player} has no planes", "AA-M08", H_SQUAD)
        pilots = [cat.figures[s.figure].pilot for s in mine]
        if len(set(pilots)) != len(pilots):
            raise illegal(
                "setup", f"{player} has two planes flown by the same pilot", "AA-M09", H_SQUAD
            )
        total = sum(
            cat.figures[s.figure].levels[s.level].points + (cat.aces[s.ace].points if s.ace else 0)
            for s in mine
        )
        if total > setup.build_total:
            raise illegal(
                "setup",
                f"{player}'s squadron costs {total}, over the build total {setup.build_total}",
                "AA-M08",
                H_SQUAD,
            )
