"""``SkyAceGame``: the ``core.game.Game`` protocol for Sky Ace v0.8 (``004_6593e8b5f90f4d60.txt``).

A duel (1.0 BASIC GAME, two heroes) or a mission (2.0 ADVANCED GAME: heroes against the GM's
villains, e.g. 4.0 "The Mugging"). Cards come from the injected ``DiceSource`` (``deal`` and every
later draw) or, with physical decks, are typed in by the players (``draw P1 QH``), refused when
that card is on the playmat, in a discard pile or in a hand (SA-M01).

>>> from dialtray.rules.core.dice import SeededDice
>>> g = SkyAceGame.duel(SeededDice(3))
>>> g.apply(g.parse_action("deal")) and g.to_move() in g.seats()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from dialtray.rules.core.dials import Dial, DialChange, DialSetting, click_change
from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Event, EventSourcedGame
from dialtray.rules.core.game import TABLE, Seat
from dialtray.rules.skyace import events as ev
from dialtray.rules.skyace import turn
from dialtray.rules.skyace.actions import (
    Attack,
    Deal,
    Discard,
    Draw,
    Hold,
    Knock,
    Layout,
    Move,
    Pass,
    SkyAceAction,
    parse_action,
)
from dialtray.rules.skyace.cards import sort_cards
from dialtray.rules.skyace.flow import Emit, after_draw, deal_after_layout, settle
from dialtray.rules.skyace.heroes import Hero, hero
from dialtray.rules.skyace.mat import NEIGHBOURS, cell_text
from dialtray.rules.skyace.missions import mission_setup
from dialtray.rules.skyace.state import VICTIM, SkyAceState, fold_event

LIFE = "life"  # the dial kind: the d6 LIFE counter (SA-M01), shown on the tray's LED dice
DEFAULT_TURN_LIMIT = 60


@dataclass(frozen=True)
class Outcome:
    termination: str
    winner: Seat | None
    vp: dict[Seat, int] = field(default_factory=dict)
    winners: tuple[Seat, ...] = ()


class SkyAceGame(EventSourcedGame[SkyAceState, SkyAceAction]):
    kind = "skyace"

    def __init__(self, setup: ev.Setup, dice: DiceSource) -> None:
        self.dice = dice
        super().__init__([setup])

    @classmethod
    def duel(cls, dice: DiceSource, heroes: Sequence[str] = ("sky-ace-1.3", "twilight"),
             physical: bool = False, turn_limit: int = DEFAULT_TURN_LIMIT,
             digits: str = "ul-lr", regen_cap: str = "start",
             reveal: str = "discard", own: Sequence[Hero] = (),
             hero_files: Sequence[str] = ()) -> SkyAceGame:
        """SA-M15 "Preparation steps": two heroes, LIFE 5 each (the basic game has no Lucky).
        ``own``: the owner's heroes (read from ``hero_files``), found before the shipped."""
        mine = {h.id: h for h in own}
        for h in heroes:
            if h not in mine:
                hero(h)
        pawns = tuple(ev.PawnSpec(f"P{i + 1}", f"P{i + 1}", h, f"P{i + 1}", 5)
                      for i, h in enumerate(heroes))
        return cls(ev.Setup("duel", physical, tuple(p.id for p in pawns), pawns, turn_limit,
                            digits=digits, regen_cap=regen_cap, reveal=reveal,
                            heroes=tuple(own), hero_files=tuple(hero_files)), dice)

    @classmethod
    def mission(cls, dice: DiceSource, name: str = "mugging", heroes: Sequence[str] | None = None,
                physical: bool = False, turn_limit: int = DEFAULT_TURN_LIMIT,
                digits: str = "ul-lr", regen_cap: str = "start",
             reveal: str = "discard", own: Sequence[Hero] = (),
             hero_files: Sequence[str] = (),
             layout: Sequence[tuple[str, tuple[int, int]]] = ()) -> SkyAceGame:
        """SA-M38 "Advanced preparation"; ``layout``: SA-M37, the GM's start cell per pawn
        (``ValueError`` naming SA-M37 for a pawn the mission does not have or a cell given
        twice)."""
        setup = mission_setup(name, heroes, physical, turn_limit, own)
        ids = {p.id for p in setup.pawns}
        cells = [c for _, c in layout]
        for pid, _ in layout:
            if pid not in ids:
                raise ValueError(f"no pawn {pid} in this mission (pawns: {' '.join(sorted(ids))}"
                                 "; SA-M37)")
        if len(set(cells)) != len(cells) or len({p for p, _ in layout}) != len(layout):
            raise ValueError("a pawn or a cell given twice (SA-M37)")
        return cls(replace(setup, digits=digits, regen_cap=regen_cap, reveal=reveal,
                           heroes=tuple(own), hero_files=tuple(hero_files),
                           layout=tuple(layout)), dice)

    # -- fold --------------------------------------------------------------------------------
    def initial_state(self) -> SkyAceState:
        return SkyAceState()

    def apply_event(self, state: SkyAceState, event: Event) -> None:
        fold_event(state, event)

    # -- dials: the LIFE counters -------------------------------------------------------------
    def dial_settings(self, state: SkyAceState) -> dict[Dial, DialSetting]:
        out = {Dial(p.id, LIFE): DialSetting(Dial(p.id, LIFE), p.life, {"life": p.life}, {},
                                             not p.out) for p in state.pawns.values()}
        if state.victim_life is not None:
            d = Dial(VICTIM, LIFE)
            out[d] = DialSetting(d, state.victim_life, {"life": state.victim_life}, {},
                                 state.victim_life > 0)
        return out

    def dial_changes_of(self, state: SkyAceState, event: Event) -> tuple[DialChange, ...]:
        if isinstance(event, ev.LifeChanged):
            return (click_change(event.pawn, LIFE, event.before, event.after, event, event.rule),)
        if isinstance(event, ev.Shielded):
            return (click_change(VICTIM, LIFE, event.before, event.after, event, "SA-M56"),)
        return ()

    # -- the protocol ---------------------------------------------------------------------------
    def seats(self) -> tuple[Seat, ...]:
        return tuple(self.state.seats)

    def to_move(self) -> Seat | None:
        st = self.state
        if st.over is not None:
            return None
        if st.pending or st.phase in ("deal", "resume"):
            return TABLE
        if st.phase == "layout":
            return st.pawns[st.order[0]].seat
        if st.phase == "discard":
            assert st.discarder is not None
            return st.discarder
        p = st.active()
        return None if p is None else p.seat

    def parse_action(self, text: str) -> SkyAceAction:
        return parse_action(text)

    def legal_actions(self) -> list[SkyAceAction]:
        st = self.state
        if st.over is not None:
            return []
        if st.phase == "resume" and not st.pending:  # a judge's position (D-SA-12)
            return [Deal()]
        if st.pending:
            if not st.physical:
                return [Deal()]
            deck = st.pending[0][0]
            if deck in st.tops:
                return [Draw(deck, st.tops[deck])]
            return [Draw(deck, c) for c in sorted(set(st.piles[deck].draw))]
        if st.phase == "layout":
            return [Layout(c) for c in self._layout_cells()]
        if st.phase == "discard":
            return list(turn.discard_options(st))
        p = st.active()
        if p is None:
            return []
        out: list[SkyAceAction] = []
        if st.phase in ("maneuver", "maneuver2"):
            out += turn.move_options(st, p)
            if st.phase == "maneuver" and not out:
                return [Pass()]
        if st.phase in ("attack", "maneuver2"):
            out += turn.attack_options(st, p)
            if st.advanced and st.knocked is None:
                out.append(Hold())
        return out

    def _unplaced(self) -> str:
        """The next pawn whose start card the first player lays out (turn order)."""
        return next(p for p in self.state.order if self.state.pawns[p].cell is None)

    def _layout_cells(self) -> list[tuple[int, int]]:
        """SA-M17 "Starting layout": free cells adjacent to a laid card where the next start card
        keeps the red/black checkerboard (SA-M09; SA-A06: same colours go diagonal)."""
        st = self.state
        card = st.start[self._unplaced()][0]
        near = {(x + dx, y + dy) for (x, y) in st.mat for dx, dy in NEIGHBOURS}
        return [c for c in sorted(near - set(st.mat), key=lambda c: (c[1], c[0]))
                if turn.fits(st, c, card)]

    def apply(self, action: Any) -> tuple[Event, ...]:
        if isinstance(action, str):
            action = parse_action(action)
        self._check(action)
        return self._transaction(action, lambda emit: self._produce(action, emit))

    def _refuse(self, a: SkyAceAction, reason: str, mechanic: str, heading: str) -> None:
        raise IllegalActionError(a.text(), reason, mechanic, heading)

    def _check(self, a: SkyAceAction) -> None:
        """Every refusal before anything is emitted, naming the rule."""
        st = self.state
        if st.over is not None:
            rule = ("SA-M57", "Mugging loss condition") if st.advanced else ("SA-M30", "Defeat")
            self._refuse(a, f"the game is over ({st.over[0]})", *rule)
        pending = bool(st.pending) or st.phase in ("deal", "resume")
        if isinstance(a, Deal | Draw) != pending:
            if pending:
                self._refuse(a, "cards must be drawn first", "SA-M15", "Preparation steps")
            self._refuse(a, "no card is waiting to be drawn", "SA-M02", "LIFE and hand size")
        if isinstance(a, Deal):
            if st.physical and st.phase != "resume":  # a position's turn starts with deal
                self._refuse(a, "physical decks: type each card drawn (draw DECK CARD)",
                             "SA-M15", "Preparation steps")
            return
        if isinstance(a, Draw):
            if not st.physical:
                self._refuse(a, "the decks are dealt with dice (deal)", "SA-M15",
                             "Preparation steps")
            deck = st.pending[0][0]
            if a.deck != deck:
                self._refuse(a, f"the next card comes from {deck}'s deck", "SA-M02",
                             "LIFE and hand size")
            if deck in st.tops and a.card != st.tops[deck]:
                self._refuse(a, f"the top card of {deck}'s draw pile is the face-up "
                             f"{st.tops[deck]}", "SA-A10", "Establish Preferred Attack card")
            if deck not in st.tops and a.card not in st.piles[deck].draw:
                self._refuse(a, f"{a.card} of {deck}'s deck is {st.where(deck, a.card)}",
                             "SA-M01", "Per-player kit")
            return
        if isinstance(a, Layout):
            if st.phase != "layout":
                self._refuse(a, "the start layout is already made", "SA-M17", "Starting layout")
            if a.cell not in self._layout_cells():
                self._refuse(a, f"{cell_text(a.cell)} does not keep the start cards adjacent "
                             "in a red/black checkerboard", "SA-M17", "Starting layout")
            return
        if isinstance(a, Discard):
            turn.check_discard(st, a)
            return
        if st.phase == "discard":
            self._refuse(a, f"{st.discarder} must first discard down to LIFE", "SA-M31",
                         "Defender redraw/discard")
        p = st.active()
        if p is None or st.phase == "layout":
            self._refuse(a, "the start cards must be laid out first", "SA-M17", "Starting layout")
            return
        if isinstance(a, Move | Knock):
            turn.check_move(st, p, a)
        elif isinstance(a, Attack):
            turn.check_attack(st, p, a)
        elif isinstance(a, Hold):
            if not st.advanced:
                self._refuse(a, "the basic game's attack always resolves (0 cards allowed)",
                             "SA-A09", "Is the attack mandatory in the basic game")
            if st.knocked is not None:
                self._refuse(a, "a knock-back's attack must be resolved", "SA-M21", "Knock-back")
            if st.phase not in ("attack", "maneuver2"):
                self._refuse(a, "maneuver first", "SA-M18", "Maneuver")
        elif isinstance(a, Pass) and (st.phase != "maneuver" or turn.move_options(st, p)):
            self._refuse(a, "a card must be played to the playmat each turn without exception",
                         "SA-M18", "Maneuver")

    def _produce(self, a: SkyAceAction, emit: Emit) -> None:
        st = self.state
        if isinstance(a, Draw):
            deck, dest, pawn = st.pending[0]
            drawn = ev.Drew(deck, a.card, dest, pawn)
            emit(drawn)
            after_draw(st, drawn, emit)
        elif isinstance(a, Layout):  # SA-M17: the next start card, in turn order
            laid = st.pawns[self._unplaced()]
            emit(ev.Placed(a.cell, laid.deck, st.start[laid.id][0], laid.id))
            if all(q.cell is not None for q in st.pawns.values()):
                deal_after_layout(st, emit)
        elif isinstance(a, Discard):
            emit(ev.Discarded(a.deck, a.cards))
            emit(ev.PhaseChanged("endturn"))
        elif not isinstance(a, Deal):
            p = st.active()
            assert p is not None
            if isinstance(a, Move | Knock):
                turn.do_move(st, p, a, emit)
            elif isinstance(a, Attack):
                turn.do_attack(st, p, a, turn.check_attack(st, p, a), emit)
            else:  # Hold, Pass
                turn.end_without_attack(st, p, emit)
        settle(st, self.dice, emit)

    def outcome(self) -> Outcome | None:
        st = self.state
        if st.over is None:
            return None
        termination, winners = st.over
        vp = {s: (1 if s in winners else 0) for s in st.seats}
        return Outcome(termination, winners[0] if len(winners) == 1 else None, vp, winners)

    def state_dict(self) -> dict[str, Any]:
        return self.state.to_dict()

    def report(self) -> str:
        st = self.state
        lines = []
        for p in st.pawns.values():
            where = "out" if p.out or p.cell is None else f"at {cell_text(p.cell)}"
            lines.append(f"{p.id:<4} {st.hero(p.hero).name:<10} LIFE {p.life}  {where}  "
                         f"hand {' '.join(sort_cards(st.hands[p.deck]))}")
        if st.victim_life is not None:
            lines.append(f"victim LIFE {st.victim_life}")
        out = self.outcome()
        if out is None:
            lines.append("game not over")
        else:
            lines.append(f"result: {out.termination}; VP " +
                         " ".join(f"{s}={v}" for s, v in out.vp.items()))
        return "\n".join(lines)

    def __repr__(self) -> str:
        lives = " ".join(f"{p.id}={p.life}" for p in self.state.pawns.values())
        return f"<SkyAceGame {self.state.mode} phase={self.state.phase} LIFE {lives}>"
