"""``FasaGame``: the FASA Crimson Skies board game on the ``core.game.Game`` protocol.

A turn (FS-M06 "Ten-step turn"): every pilot records a plot (open: ``plot A1 3L2F``; secret:
``seal P1 <sha256>`` from each seat, then ``reveal`` from each, checked against the seal,
FS-M33), movement is resolved (``movement.Mover``), the combatants act in Quick Draw order
(``combat``), then flare/sonic rolls, continuing damage, tailing and the end of the turn.

There are no dials in this game: the record sheet's speed track stands in for one (dial kind
``speed``, a click per point of speed, FS-M39) so the tray and the click vocabulary can show
it. Every roll is a d10 from the injected dice source (FS-M01).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, TypeVar, cast

from dialtray.rules.core.dials import Dial, DialChange, DialSetting, click_change
from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Event, EventSourcedGame
from dialtray.rules.core.game import Seat, plain
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa import guns, landing, tow
from dialtray.rules.fasa.actions import Attack as AttackObject
from dialtray.rules.fasa.actions import (
    Bomb,
    Clear,
    Cut,
    FasaAction,
    Fire,
    Harpoon,
    Land,
    Launch,
    Pick,
    Place,
    Plot,
    Reveal,
    Rocket,
    Seal,
    Tell,
    Torpedo,
    parse_action,
    seal_digest,
)
from dialtray.rules.fasa.aftermath import continuing, non_lethal
from dialtray.rules.fasa.apply import Emit
from dialtray.rules.fasa.combat import TURRET, Attack, combat_order
from dialtray.rules.fasa.hexmap import MapSheet
from dialtray.rules.fasa.legal import (
    check_combat,
    check_plot,
    combat_actions,
    plot_order,
    plots_for,
)
from dialtray.rules.fasa.movement import Mover, caps, crowded, refusal
from dialtray.rules.fasa.rocketorder import release
from dialtray.rules.fasa.setup import SEATS, Outcome, start_events
from dialtray.rules.fasa.skills import mission_xp
from dialtray.rules.fasa.state import FasaState, PlaneState, fold_event
from dialtray.rules.fasa.summary import record
from dialtray.rules.fasa.tables import FasaTables, load_tables, using
from dialtray.rules.fasa.tailing import check_tell, check_told, tails
from dialtray.rules.fasa.tailing import tells_due as tails_due
from dialtray.rules.fasa.template import parse_plot
from dialtray.rules.fasa.tn import roll_d10, tailing_number, tailing_reveal

SPEED = "speed"
__all__ = ["SEATS", "SPEED", "FasaGame", "Outcome", "record", "start_events", "tails"]


F = TypeVar("F", bound=Callable[..., Any])


def _bound(method: F) -> F:
    """Run a ``FasaGame`` method with the game's tables bound (``tables.using``)."""

    @functools.wraps(method)
    def run(self: FasaGame, *args: Any, **kwargs: Any) -> Any:
        with using(self.tables):
            return method(self, *args, **kwargs)

    return cast(F, run)


class FasaGame(EventSourcedGame[FasaState, FasaAction]):
    """One FASA engagement; see the module docstring."""

    kind = "fasa"

    def __init__(self, dice: DiceSource, setup: Sequence[Event]) -> None:
        self.dice = dice
        self._legal: tuple[int, tuple[FasaAction, ...]] = (-1, ())
        self._version = 0  # bumped by every apply and undo: the legal-action cache's key
        first = next((e for e in setup if isinstance(e, ev.GameSetup)), None)
        self.tables: FasaTables = load_tables(first.tables if first and first.tables else None)
        with using(self.tables):
            super().__init__(setup)
            self.map: MapSheet = self.tables.map(self.state.map)
        if self.state.phase == "setup":
            self.state.phase = "plot"  # folded setup: the first Movement Phase is plotting

    def bound(self) -> AbstractContextManager[FasaTables]:
        """Bind this game's tables for rules code called from outside the game (bots, the
        record-sheet drawing): ``with game.bound(): ...``."""
        return using(self.tables)

    def initial_state(self) -> FasaState:
        return FasaState()

    def apply_event(self, state: FasaState, event: Event) -> None:
        fold_event(state, event)

    def fold(self, events: Any) -> FasaState:
        with using(self.tables):
            st = super().fold(events)
        if st.phase == "setup":
            st.phase = "plot"
        return st

    # -- dials: the speed track -------------------------------------------------------------
    def dial_settings(self, state: FasaState) -> dict[Dial, DialSetting]:
        return {Dial(p.id, SPEED): DialSetting(Dial(p.id, SPEED), p.speed, {"speed": p.speed},
                                               {}, p.flying) for p in state.planes.values()}

    def dial_changes_of(self, state: FasaState, event: Event) -> tuple[DialChange, ...]:
        if isinstance(event, ev.Moved):
            before = state.planes[event.plane].speed
            if before != event.speed:
                return (click_change(event.plane, SPEED, before, event.speed, event,
                                     event.rule if event.rule != "FS-M33" else "FS-M39"),)
        return ()

    # -- the protocol -------------------------------------------------------------------------
    def seats(self) -> tuple[Seat, ...]:
        return self.state.seats

    @_bound
    def to_move(self) -> Seat | None:
        st = self.state
        if st.over is not None:
            return None
        if st.phase == "plot":
            if st.sealed:
                due = tails_due(st)  # FS-M61: a tailed plane's seat tells first
                if due:
                    return st.planes[due[0]].seat
                return next(s for s in st.seats if s not in st.seals)
            return st.planes[plot_order(st)[0]].seat
        if st.phase == "reveal":
            return next(s for s in st.seats if self._unrevealed(s))
        if st.phase == "pick":
            if st.sealed:
                return next(s for s in self._pickers() if s not in st.seals)
            return st.planes[self._unpicked()[0]].seat
        if st.phase == "pick-reveal":
            return next(s for s in self._pickers() if self._unpicked(s))
        from dialtray.rules.fasa.legal import combatant

        c = st.current()
        if c is not None and c in st.gunposts:
            return st.gunposts[c]  # a zeppelin or ground gun post fights for its seat
        who = combatant(st)
        assert who is not None
        return who[0].seat

    def _pickers(self) -> list[Seat]:
        """Seats with a plane in a same-hex collision check (FS-M55), in seating order."""
        mine = {self.state.planes[p].seat for p in self.state.order}
        return [s for s in self.state.seats if s in mine]

    def _unpicked(self, seat: str | None = None) -> list[str]:
        st = self.state
        return [p for p in st.order if p not in st.picks
                and (seat is None or st.planes[p].seat == seat)]

    def _unrevealed(self, seat: str) -> bool:
        return any(p.plot is None for p in self.state.planes.values()
                   if p.seat == seat and p.flying)

    @_bound
    def legal_actions(self) -> Sequence[FasaAction]:
        """Every action that settles the current decision. Sealed plots cannot be listed (the
        digest hides them): ``plots_for`` gives each plane's choices then."""
        st = self.state
        if st.over is not None or (st.sealed and st.phase in ("plot", "reveal", "pick",
                                                              "pick-reveal")):
            return ()
        if st.phase == "pick":
            plane = self._unpicked()[0]
            return tuple(Pick(plane, n) for n in range(1, 11))
        key = self._version
        if self._legal[0] != key:
            if st.phase == "plot":
                self._legal = (key, tuple(plots_for(st, st.planes[plot_order(st)[0]])))
            else:
                self._legal = (key, tuple(combat_actions(st, self.map)))
        return self._legal[1]

    def parse_action(self, text: str) -> FasaAction:
        return parse_action(text)

    @_bound
    def apply(self, action: Any) -> tuple[Event, ...]:
        a: FasaAction = parse_action(action) if isinstance(action, str) else action
        st = self.state
        if st.over is not None:
            raise IllegalActionError(a.text(), "the engagement is over", "FS-M13", "Victory")
        if isinstance(a, Pick):
            if st.phase != "pick" or st.sealed or a.plane not in self._unpicked()[:1]:
                raise IllegalActionError(a.text(), "no collision pick is due from this plane "
                                         "now", "FS-M55", "Piloted collisions")
            if not 1 <= a.number <= 10:
                raise IllegalActionError(a.text(), "pick a number 1 to 10", "FS-M55",
                                         "Piloted collisions")
        elif isinstance(a, Plot):
            check_plot(st, a)
        elif isinstance(a, Seal | Reveal):
            self._check_secret(a)
        elif isinstance(a, Tell):
            check_tell(self.state, a)
        else:
            cached = self._legal[1] if self._legal[0] == self._version else ()
            check_combat(st, self.map, a, cached)
        self._version += 1
        return self._transaction(a, lambda emit: self._run(a, emit))

    def undo(self) -> Any:
        self._version += 1
        with using(self.tables):
            return super().undo()

    def _check_secret(self, a: Seal | Reveal) -> None:
        st = self.state
        heading = "Simultaneous movement"
        if not st.sealed:
            raise IllegalActionError(a.text(), "this game plots openly (Plots: open)", "FS-M33",
                                     heading)
        if isinstance(a, Seal) and tails_due(st):
            raise IllegalActionError(a.text(), f"{' '.join(tails_due(st))} must first tell its "
                                     "tailers what the tailing number reveals", "FS-M61",
                                     "Information revealed")
        if isinstance(a, Reveal) and st.phase == "reveal":
            check_told(self.state, a)
        if isinstance(a, Seal):
            if st.phase not in ("plot", "pick") or a.seat in st.seals \
                    or a.seat != self.to_move():
                raise IllegalActionError(a.text(), "not this seat's turn to seal", "FS-M33",
                                         heading)
            return
        if st.phase not in ("reveal", "pick-reveal") or a.seat != self.to_move():
            raise IllegalActionError(a.text(), "plots are revealed together, after every seal",
                                     "FS-M33", heading)
        if seal_digest(a.seat, st.turn, a.plots, a.salt) != st.seals[a.seat]:
            raise IllegalActionError(a.text(), "does not match the sealed digest", "FS-M33",
                                     heading)
        if st.phase == "pick-reveal":
            want = sorted(self._unpicked(a.seat))
            if sorted(p for p, _, _ in a.plots) != want or any(
                    b or not n.isdigit() or not 1 <= int(n) <= 10 for _, n, b in a.plots):
                raise IllegalActionError(a.text(), f"must pick 1..10 for {' '.join(want)}",
                                         "FS-M55", "Piloted collisions")
            return
        mine = sorted(p.id for p in st.planes.values() if p.seat == a.seat and p.flying)
        if sorted(p for p, _, _ in a.plots) != mine:
            raise IllegalActionError(a.text(), f"must plot exactly {' '.join(mine)}", "FS-M06",
                                     "Ten-step turn")

    def _run(self, a: FasaAction, emit: Emit) -> None:
        st = self.state
        if isinstance(a, Tell):
            from dialtray.rules.fasa.tailing import coarser, tailers_of

            emit(ev.Told(a.plane, a.info))
            for tailer, n in tailers_of(st, a.plane):
                emit(ev.TailingInfo(tailer, a.plane, n, coarser(a.info, n)))
            return
        if isinstance(a, Plot):
            emit(ev.PlotRecorded(a.plane, a.maneuver, a.bail))
            self._tail_info(a.plane, emit)
            if not plot_order(st):
                self._movement(emit)
            return
        if isinstance(a, Pick):
            emit(ev.Picked(a.plane, a.number))
            if not self._unpicked():
                self._after_moves(emit)
            return
        if isinstance(a, Seal):
            emit(ev.PlotSealed(a.seat, a.digest))
            if st.phase == "pick" and all(s in st.seals for s in self._pickers()):
                emit(ev.Phase("pick-reveal", st.turn, st.order))
            elif st.phase == "plot" and all(s in st.seals for s in st.seats):
                emit(ev.Phase("reveal", st.turn))
            return
        if isinstance(a, Reveal) and st.phase == "pick-reveal":
            for plane, number, _ in a.plots:
                emit(ev.Picked(plane, int(number)))
            if not self._unpicked():
                self._after_moves(emit)
            return
        if isinstance(a, Reveal):
            for plane, text, bail in a.plots:
                try:  # FS-M44: an illegal recorded move is flown as random movement
                    m = parse_plot(text)
                    bad = refusal(caps(st.planes[plane], st.turn), m, bail) is not None
                except ValueError:  # not on the template: flown at its written speed
                    bad = True
                emit(ev.PlotRecorded(plane, text, bail and not bad, bad))
            if not any(self._unrevealed(s) for s in st.seats):
                self._movement(emit)
            return
        from dialtray.rules.fasa.legal import combatant

        c = st.current()
        if c is not None and c in st.gunposts:  # FS-M120, FS-M121, ground turrets
            guns.resolve(st, self.map, self.dice, emit, a)
            if st.over is None:
                emit(ev.Acted(c))
                self._after_combatant(emit)
            return
        who = combatant(st)
        assert who is not None
        p, turret = who
        att = Attack(st, self.map, self.dice, emit, p.id, turret)
        dead_eye, _, shocked = att.skills()
        if isinstance(a, Fire):
            att.fire_guns(a.target, a.double, a.tow, a.guns, a.doubled)
        elif isinstance(a, Harpoon):
            tow.harpoon(st, self.map, self.dice, emit, p, a.hardpoint, a.obj, dead_eye, shocked)
        elif isinstance(a, Torpedo):
            tow.torpedo(st, self.map, self.dice, emit, p, a.hardpoint, a.obj, dead_eye, shocked)
        elif isinstance(a, Cut):
            tow.drop(st, self.map, emit, p, "FS-M110")
        elif isinstance(a, Land):
            landing.land(st, self.map, self.dice, emit, p)
        elif isinstance(a, AttackObject):
            att.strafe(a.target)
        elif isinstance(a, Place):
            att.place(a.column, a.hit)
        elif isinstance(a, Rocket):
            att.rocket(a.hardpoint, a.code, a.target, a.tow)
        elif isinstance(a, Launch):
            att.launch(a.hardpoint, a.code, a.hex, a.tow)
        elif isinstance(a, Bomb):
            att.bomb(a.hardpoint, a.hex)
        elif isinstance(a, Clear):
            att.clear()
        if isinstance(a, Rocket | Launch | Bomb) and st.pending is None and st.over is None \
                and p.flying and self._launch_more(p, a, emit):
            return
        if st.pending is None and st.over is None:
            release(st, self.dice, emit, p.id)  # FS-M82: held rocket hits
        if st.pending is None and st.over is None:
            emit(ev.Acted(p.id + (TURRET if turret else "")))
            self._after_combatant(emit)

    def _launch_more(self, p: PlaneState, a: Rocket | Launch | Bomb, emit: Emit) -> bool:
        """FS-M68: launched weapons are "any or all" (lethal ones at one target, non-lethal
        at any hexes): the plane keeps the turn while it has more to launch (D-FS-32)."""
        from dialtray.rules.fasa.sheets import deployed

        st = self.state
        held = st.launching[1] if st.launching and st.launching[0] == p.id else ""
        target = a.target if isinstance(a, Rocket) and deployed()[a.code].lethal else held
        emit(ev.Launching(p.id, target))
        return any(isinstance(x, Rocket | Launch | Bomb) for x in combat_actions(st, self.map))

    def _tail_info(self, plane: str, emit: Emit) -> None:
        """FS-M61: a tailed plane's plot tells its tailer what the tailing number allows."""
        for tailer, target, number, _ in list(self.state.tailing):
            if target == plane:
                m = parse_plot(self.state.planes[plane].plot or "A")
                shown = tailing_reveal(number, m.text(), m.direction or "stall", m.speed)
                emit(ev.TailingInfo(tailer, target, number, shown))

    def _movement(self, emit: Emit) -> None:
        st = self.state
        Mover(st, self.map, self.dice, emit).resolve()
        if self._victory(emit):
            return
        groups = crowded(st)
        mixed = [g for g in groups if len({p.seat for p in g}) > 1]
        rolled = [p for g in groups if len({p.seat for p in g}) == 1 for p in g]
        if mixed:  # FS-M55: the pilots in each shared hex with an enemy pick their numbers
            emit(ev.Phase("pick", st.turn, tuple(p.id for g in mixed for p in g)))
        for p in rolled:  # FS-M55 / FS-A17: teammates who must check roll a die instead
            (n,) = roll_d10(self.dice, f"{p.id} collision number (teammates roll, FS-M54)")
            emit(ev.Picked(p.id, n))
        if not mixed:
            self._after_moves(emit)

    def _after_moves(self, emit: Emit) -> None:
        """Collisions (FS-M55), last turn's flak (FS-M105), then the Combat Phase."""
        st = self.state
        mover = Mover(st, self.map, self.dice, emit)
        mover.collisions()
        mover.flak()
        if self._victory(emit):
            return
        emit(ev.Phase("combat", st.turn, combat_order(st, self.dice, emit, self.map)))
        self._after_combatant(emit)

    def _after_combatant(self, emit: Emit) -> None:
        st = self.state
        if self._victory(emit) or st.current() is not None:
            return
        guns.gunner_shock(st, self.map, self.dice, emit)  # step 7: FS-M122, then the pilots
        non_lethal(st, self.dice, emit)
        continuing(st, self.dice, emit)  # step 8
        if self._victory(emit):
            return
        self._tailing(emit)  # step 9
        for p in sorted(st.planes.values(), key=lambda x: x.id):  # step 10
            for g in sorted(p.jam_next):
                emit(ev.GunState(p.id, g, "jammed"))
        if st.turn >= st.turn_limit:
            emit(ev.Over("turn limit: both sides withdraw (draw)", None))
            return
        emit(ev.Phase("plot", st.turn + 1))

    def _tailing(self, emit: Emit) -> None:
        """FS-M59 conditions and FS-M60's number, for the next turn's plots."""
        planes = [p for p in self.state.planes.values() if p.flying]
        for a in planes:
            for t in planes:
                if a.seat == t.seat or not tails(a, t, self.state.turn):
                    continue
                n = tailing_number(a.sheet_data.pilot.sixth_sense, t.sheet_data.pilot.sixth_sense,
                                   t.smoke_until >= self.state.turn, t.shocked(self.state.turn))
                emit(ev.TailingInfo(a.id, t.id, n, "in tailing position"))

    def _victory(self, emit: Emit) -> bool:
        """FS-M13: the side with the last planes flying wins; none left is a draw."""
        st = self.state
        if st.over is not None:
            return True
        alive = {p.seat for p in st.planes.values() if p.flying}
        if len(alive) > 1:
            return False
        winner = next(iter(alive)) if alive else None
        emit(ev.Over("every enemy plane shot down or driven off" if winner else
                     "no plane left flying", winner))
        return True

    # -- results ----------------------------------------------------------------------------
    @_bound
    def outcome(self) -> Outcome | None:
        st = self.state
        if st.over is None:
            return None
        vp = {s: sum(mission_xp(record(p)) for p in st.planes.values() if p.seat == s)
              for s in st.seats}
        return Outcome(st.over[0], st.over[1], vp, st.over[0])

    def state_dict(self) -> dict[str, Any]:
        st = self.state
        out: dict[str, Any] = plain(st)
        out["planes"] = {k: plain(v) for k, v in sorted(st.planes.items())}
        return out

    @_bound
    def report(self) -> str:
        """The state as text (``summary.report``)."""
        from dialtray.rules.fasa.summary import report

        return report(self.state, self.outcome())
