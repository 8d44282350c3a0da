"""The Aces game object (python-chess style): ``legal_actions()``, ``apply()``, ``undo()``,
``outcome()``. Pure and event-sourced on ``core.events.EventSourcedGame``: every die comes from the
injected ``DiceSource``; an illegal action raises ``IllegalActionError`` naming the mechanic and the
rule heading, and leaves the state unchanged.

Handlers by concern (MegaMek's split): turn flow (``_begin``, ``_end_action``, ``_end_turn``),
movement (``_do_move``, ``_do_break_away``), combat (``_do_attack``, ``_resolve``), capture and
escape (``_do_escape``), fate (``_fate_allowed``, ``_fate_clicks``), victory (``_check_end``,
``victory``).

Example::

    >>> from dialtray.rules.aces.scenarios import load_scenario, start_scenario
    >>> from dialtray.rules.core.dice import SeededDice
    >>> g = start_scenario(load_scenario("kim-vs-tim"), SeededDice(1))
    >>> g.apply(g.parse_action("pass vigilante"))  # doctest: +ELLIPSIS
    (...)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import combinations, permutations
from typing import Any

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.actions import (
    AcesAction,
    Assign,
    Attack,
    BreakAway,
    DefensiveFate,
    EndAction,
    EndGame,
    Escape,
    Move,
    Pass,
    SecondWind,
    Withdraw,
    parse_action,
)
from dialtray.rules.aces.combat import (
    after_defensive_fate,
    attack_dice,
    count_hits,
    halved_speed,
    split_evenly,
    target_defense,
)
from dialtray.rules.aces.dial import dial_changes_of, dial_settings
from dialtray.rules.aces.figures import Figure, default_catalogue
from dialtray.rules.aces.grid import Square, chebyshev
from dialtray.rules.aces.lof import LineOfFire, line_of_fire
from dialtray.rules.aces.maps import AcesMap, Terrain
from dialtray.rules.aces.movement import Reach, reach
from dialtray.rules.aces.state import AcesState, CharState, PendingAttack, TurnState
from dialtray.rules.aces.talents import Ability, Talents, load_talents
from dialtray.rules.aces.victory import Outcome, final_vp, pick_winner, seat_of
from dialtray.rules.core.dials import Dial, DialChange, DialSetting
from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Emit, Event, EventSourcedGame
from dialtray.rules.core.game import Seat, plain

# Rule headings of the seed text, for IllegalActionError.
H_TURNS = "Turns and Actions"
H_MOVE = "Movement"
H_BREAK = "Breaking Away"
H_COMBAT = "Combat"
H_RANGED = "Ranged Combat"
H_CLOSE = "Close Combat"
H_CAPTURE = "Capturing"
H_ESCAPE = "Escaping"
H_FATE = "Fate"
H_TALENTS = "Talents and Abilities"
H_WITHDRAW = "Withdrawing"
H_END = "Ending the Game"
H_RECRUIT = "Recruitment"
H_DECK = "Hit the Deck!"


class AcesGame(EventSourcedGame[AcesState, AcesAction]):
    """One game of Crimson Skies: Aces on one map."""

    kind = "aces"

    def __init__(
        self,
        game_map: AcesMap,
        setup_events: Iterable[Event],
        dice: DiceSource,
        catalogue: Mapping[str, Figure] | None = None,
        talents: Talents | None = None,
    ) -> None:
        self.map = game_map
        self.dice = dice
        self.catalogue: Mapping[str, Figure] = catalogue or default_catalogue()
        self.talents = talents or load_talents()
        self._version = 0  # bumped by every folded event: keys the memo below
        self._reach_memo: dict[str, tuple[int, Reach]] = {}
        super().__init__(setup_events)

    # == the fold =================================================================================
    def initial_state(self) -> AcesState:
        return AcesState()

    def apply_event(self, state: AcesState, event: Event) -> None:
        self._version += 1
        s = state
        if isinstance(event, ev.GameCreated):
            s.map_name, s.players = event.map_name, event.players
            s.build_total, s.turn_limit = event.build_total, event.turn_limit
            s.captives_count_on_map = event.captives_count_on_map
            s.vp = [0] * len(event.players)
        elif isinstance(event, ev.FirstPlayerRolled):
            s.first_player = event.first
        elif isinstance(event, ev.StartingAreaChosen):
            s.areas[event.player] = event.area
        elif isinstance(event, ev.Recruited):
            fig = self.catalogue[event.figure_id]
            s.chars[event.label] = CharState(
                event.label, fig, event.player, click=fig.starting_click
            )
        elif isinstance(event, ev.Placed):
            s.chars[event.label].square = self.map.index(Square.parse(event.square))
        elif isinstance(event, ev.TurnPassed):
            if s.turn is not None:
                s.last_acted[s.turn.player] = tuple(s.turn.acted)
            s.turn = TurnState(event.to_player)
            s.turn_number += 1
        elif isinstance(event, ev.ActionBegun):
            t = self._turn(s)
            t.label = event.label or None
            t.phase = "choose"
            t.broken_from = ()
            t.break_failed = False
            t.attacks_made = 0
            t.pending = None
            if event.label:
                t.acted.append(event.label)
            t.extra_for = None
        elif isinstance(event, ev.BreakAwayRolled):
            t = self._turn(s)
            t.phase = "broke" if event.success else "failed"
            t.break_failed = not event.success
            t.broken_from = event.from_labels if event.success else ()
        elif isinstance(event, ev.Moved):
            if event.path:
                s.chars[event.label].square = self.map.index(Square.parse(event.path[-1]))
            self._turn(s).phase = "moved"
        elif isinstance(event, ev.CaptiveMoved):
            s.chars[event.label].square = self.map.index(Square.parse(event.square))
        elif isinstance(event, ev.AttackRolled):
            t = self._turn(s)
            t.pending = PendingAttack(
                event.attacker, event.kind, event.targets, event.defenses, event.faces
            )
            t.phase = "assign" if len(event.targets) > 1 else "defend"
        elif isinstance(event, ev.DiceAssigned):
            t = self._turn(s)
            assert t.pending is not None
            t.pending.assignment = {tg: d - 1 for tg, d in event.assignment}
            t.phase = "defend"
        elif isinstance(event, ev.FateDeclared):
            t = self._turn(s)
            t.fate_uses[event.label] = t.fate_uses.get(event.label, 0) + 1
            t.fate_clicks.append(event.label)
            if event.mode == "defensive" and t.pending is not None:
                t.pending.defended.add(event.label)
        elif isinstance(event, ev.DefenseAwaited):
            t = self._turn(s)
            assert t.pending is not None
            t.pending.awaiting.extend(event.labels)
        elif isinstance(event, ev.AttackResolved):
            t = self._turn(s)
            t.attacks_made += 1
            t.pending = None
            t.phase = "attacked"
        elif isinstance(event, ev.HitsResolved):
            t = self._turn(s)
            if t.pending is not None and event.target in t.pending.awaiting:
                t.pending.awaiting.remove(event.target)
        elif isinstance(event, ev.Damaged):
            s.chars[event.label].click = event.to_click
        elif isinstance(event, ev.FateClicked):
            s.chars[event.label].click = event.to_click
            t = self._turn(s)
            if event.label in t.fate_clicks:
                t.fate_clicks.remove(event.label)
        elif isinstance(event, ev.Healed):
            s.chars[event.label].click = event.to_click
        elif isinstance(event, ev.Eliminated):
            c = s.chars[event.label]
            c.square = None
            c.knocked_out = True
            for p, v in event.awards:
                s.vp[p] += v
            if s.turn is not None and event.label in s.turn.fate_clicks:
                s.turn.fate_clicks = [x for x in s.turn.fate_clicks if x != event.label]
        elif isinstance(event, ev.Captured):
            s.chars[event.captor].captive = event.captive
            s.chars[event.captive].captor = event.captor
        elif isinstance(event, ev.Freed):
            c = s.chars[event.captive]
            if c.captor is not None:
                s.chars[c.captor].captive = None
            c.captor = None
            if event.reason == "escape" and s.turn is not None:
                s.turn.extra_for = event.captive
        elif isinstance(event, ev.EscapeRolled):
            pass
        elif isinstance(event, ev.ActionEnded):
            t = self._turn(s)
            t.phase = "choose"
            t.label = None
            t.pending = None
            t.attacks_made = 0
            t.broken_from = ()
            t.break_failed = False
        elif isinstance(event, ev.Withdrew):
            s.withdrawn.add(event.player)
            for lab in event.removed:
                s.chars[lab].square = None
        elif isinstance(event, ev.GameEnded):
            s.over = True
            s.end_reason = event.reason
            s.final_vp = event.vp
            s.winner = event.winner
            s.tiebreak = event.tiebreak
        else:  # pragma: no cover - a new event without a fold is a programming error
            raise TypeError(f"no fold for {type(event).__name__}")

    @staticmethod
    def _turn(s: AcesState) -> TurnState:
        if s.turn is None:
            raise RuntimeError("no turn in progress")
        return s.turn

    # == queries ==================================================================================
    @property
    def turn(self) -> TurnState:
        return self._turn(self.state)

    def char(self, label: str) -> CharState:
        c = self.state.chars.get(label)
        if c is None:
            raise KeyError(label)
        return c

    def square_of(self, label: str) -> Square | None:
        sq = self.char(label).square
        return None if sq is None else self.map.square(sq)

    def seats(self) -> tuple[Seat, ...]:
        """"P1", "P2", ... in seating order (``state.players`` holds their names)."""
        return tuple(seat_of(p) for p in range(len(self.state.players)))

    def to_move(self) -> Seat | None:
        """The seat that must decide next (the defender during a defensive-fate decision);
        None once the game is over."""
        if self.state.over or self.state.turn is None:
            return None
        return seat_of(self.player_to_move())

    def player_to_move(self) -> int:
        """``to_move()`` as a 0-based player index (the state's own numbering)."""
        t = self.turn
        if t.phase == "defend" and t.pending is not None and t.pending.awaiting:
            return self.char(t.pending.awaiting[0]).player
        return t.player

    def state_dict(self) -> dict[str, Any]:
        return state_dict(self.state, self.map)

    def dial_settings(self, state: AcesState) -> dict[Dial, DialSetting]:
        return dial_settings(state)

    def dial_changes_of(self, state: AcesState, event: Event) -> tuple[DialChange, ...]:
        return dial_changes_of(state, event)

    def abilities(self, c: CharState) -> dict[str, Ability]:
        return self.talents.active(c.values)

    def enemies_of(self, c: CharState) -> list[CharState]:
        return [o for o in self.state.chars.values() if o.on_map and o.player != c.player]

    def controlling_enemies(self, c: CharState) -> list[CharState]:
        """Enemies whose adjacency counts (stops moves, forces break away, bars ranged attacks).
        Decided (docs AC-A09 note): a captive, being under control, exerts none."""
        return [o for o in self.enemies_of(c) if not o.is_captive]

    def adjacent(self, a: CharState, b: CharState) -> bool:
        """AC-M20 / AC-M65: touching squares not cut apart by blocking terrain."""
        if a.square is None or b.square is None:
            return False
        return b.square in self.map.neighbours[a.square]

    def adjacent_enemies(self, c: CharState) -> list[CharState]:
        return [e for e in self.controlling_enemies(c) if self.adjacent(c, e)]

    def eligible(self, label: str) -> str | None:
        """Why ``label`` may not be given an action now (None if it may): AC-M14, AC-M15."""
        s = self.state
        t = self.turn
        c = s.chars.get(label)
        if c is None:
            return f"no character {label!r}"
        if c.player != t.player:
            return f"{label} belongs to P{c.player + 1}, not to the aggressor P{t.player + 1}"
        if not c.on_map:
            return f"{label} is not on the map"
        if t.extra_for is not None:
            return None if label == t.extra_for else f"only {t.extra_for} may act again this turn"
        if label in t.acted:
            return f"{label} already had an action this turn"
        if label in s.last_acted.get(t.player, ()):
            return f"{label} had an action last turn (AC-M15: not two turns in a row)"
        return None

    def eligible_characters(self) -> list[str]:
        t = self.turn
        return [
            c.label
            for c in self.state.chars.values()
            if c.player == t.player and self.eligible(c.label) is None
        ]

    def speed(self, c: CharState) -> int:
        """AC-M21 speed value; AC-M43 a captor uses the lower of its and its captive's speed;
        AC-M59 halved (rounded up) when the character starts its action in hindering terrain."""
        v = c.values.speed
        if c.captive is not None:
            v = min(v, self.char(c.captive).values.speed)
        assert c.square is not None
        if self.map.terrain[c.square] is Terrain.HINDERING:
            v = halved_speed(v)
        return v

    def reach_of(self, c: CharState) -> Reach:
        """The legal destinations of ``c`` now (memoised until the next event)."""
        hit = self._reach_memo.get(c.label)
        if hit is not None and hit[0] == self._version:
            return hit[1]
        r = self.compute_reach(c)
        self._reach_memo[c.label] = (self._version, r)
        return r

    def forget_memo(self) -> None:
        """Drop memoised destinations (benchmarks; code that edits ``state`` directly)."""
        self._reach_memo.clear()

    def compute_reach(self, c: CharState) -> Reach:
        """The legal destinations of ``c``, computed afresh (AC-M21..M27, AC-M43, AC-M59)."""
        assert c.square is not None
        friends: list[int] = []
        enemies: list[int] = []
        controlling: list[int] = []
        for o in self.state.chars.values():
            if o.square is None or o.label == c.label or o.label == c.captive:
                continue
            if o.player == c.player:
                friends.append(o.square)
            else:
                enemies.append(o.square)
                if not o.is_captive:
                    controlling.append(o.square)
        broken = [sq for lab in self.turn.broken_from if (sq := self.char(lab).square) is not None]
        return reach(self.map, c.square, self.speed(c), friends, enemies, controlling, broken)

    def line_of_fire(self, attacker: str, target: str) -> LineOfFire:
        a, b = self.char(attacker), self.char(target)
        assert a.square is not None and b.square is not None
        occupied = set(self.state.by_square())
        return line_of_fire(
            self.map, self.map.square(a.square), self.map.square(b.square), occupied
        )

    def attacks_allowed(self, c: CharState) -> int:
        """AC-M28 one attack per action; Old One-Two (sample hook, AC-T03) adds more."""
        extra = sum(
            a.param("extra_attacks")
            for a in self.abilities(c).values()
            if a.kind == "extra_attacks"
        )
        return 1 + extra

    # == legal actions ============================================================================
    def legal_actions(self) -> list[AcesAction]:
        """Everything that may be applied now (python-chess's ``legal_moves``)."""
        s = self.state
        if s.over or s.turn is None:
            return []
        t = s.turn
        out: list[AcesAction] = []
        if t.phase == "assign":
            return self._legal_assignments()
        if t.phase == "defend":
            p = t.pending
            assert p is not None
            if p.awaiting:
                return [DefensiveFate(p.awaiting[0], True), DefensiveFate(p.awaiting[0], False)]
            return []
        if t.phase == "choose":
            labels = self.eligible_characters()
            for lab in labels:
                out.extend(self._legal_for(lab, "choose"))
            if not labels:
                out.append(Pass(""))
            if t.extra_for is None and t.label is None:
                out.append(Withdraw())
                out.extend([EndGame("agreed"), EndGame("time")])
            return out
        assert t.label is not None
        out.extend(self._legal_for(t.label, t.phase))
        out.append(EndAction())
        return out

    def _legal_for(self, label: str, phase: str) -> list[AcesAction]:
        c = self.char(label)
        out: list[AcesAction] = []
        if phase == "choose":
            out.append(Pass(label))
            if c.is_captive:
                out.append(Escape(label))
                if self._fate_allowed(c, "escape") is None:
                    out.append(Escape(label, True))
                return out
            if (
                "second_wind" in self.abilities(c)
                and c.captive is None
                and c.click > c.figure.starting_click
            ):
                out.append(SecondWind(label))
            if self.adjacent_enemies(c):
                out.append(BreakAway(label))
            else:
                out.extend(self._legal_moves(c))
        elif phase == "broke":
            out.extend(self._legal_moves(c))
        if phase in ("choose", "broke", "failed", "moved", "attacked"):
            out.extend(self._legal_attacks(c, close_only=self.turn.break_failed))
        return out

    def _legal_moves(self, c: CharState) -> list[AcesAction]:
        r = self.reach_of(c)
        out: list[AcesAction] = []
        sq = self.map.square
        for d in sorted(r.destinations):
            if d == c.square:
                continue  # moving 0 squares is legal but is the same as not moving
            if c.captive is None:
                out.append(Move(c.label, sq(d)))
            else:
                for cap in self._captive_spots(c, d):
                    out.append(Move(c.label, sq(d), sq(cap)))
        return out

    def _captive_spots(self, captor: CharState, dest: int) -> list[int]:
        """AC-M41 / AC-M43: the captive ends adjacent to its captor, where the captor's player
        says; it may not share a square with anyone (AC-M24)."""
        taken = {
            sq
            for lab, o in self.state.chars.items()
            if (sq := o.square) is not None and lab not in (captor.label, captor.captive)
        }
        return [n for n in self.map.neighbours[dest] if n not in taken]

    def _legal_attacks(self, c: CharState, close_only: bool) -> list[AcesAction]:
        t = self.turn
        if c.is_captive or c.captive is not None:
            return []
        if t.attacks_made >= self.attacks_allowed(c):
            return []
        fate_options = [False, True] if self._fate_allowed(c, "offensive") is None else [False]
        out: list[AcesAction] = []
        for e in self.adjacent_enemies(c):
            for f in fate_options:
                out.append(Attack(c.label, "close", (e.label,), f))
                if e.captive is None:
                    out.append(Attack(c.label, "capture", (e.label,), f))
        if close_only or c.figure.range <= 0 or self.adjacent_enemies(c):
            return out
        targets = [
            e.label for e in self.controlling_enemies(c) if self._ranged_reason(c, e) is None
        ]
        for k in range(1, min(c.figure.pistols, len(targets)) + 1):
            for combo in combinations(targets, k):
                for f in fate_options:
                    out.append(Attack(c.label, "ranged", combo, f))
        return out

    def _legal_assignments(self) -> list[AcesAction]:
        p = self.turn.pending
        assert p is not None
        n = len(p.faces)
        out: list[AcesAction] = []
        k = min(n, len(p.targets))
        for chosen in combinations(p.targets, k):
            for dice_idx in _injections(n, k):
                out.append(
                    Assign(tuple((tg, d + 1) for tg, d in zip(chosen, dice_idx, strict=True)))
                )
        return out

    def _ranged_reason(self, c: CharState, e: CharState) -> str | None:
        if e.is_captive:
            return f"{e.label} is a captive: no one may target it (AC-M42)"
        if e.captive is not None:
            return f"{e.label} holds a captive: no ranged attack on it (AC-M45)"
        assert c.square is not None and e.square is not None
        dist = chebyshev(self.map.square(c.square), self.map.square(e.square))
        if dist > c.figure.range:
            return f"{e.label} is {dist} squares away; range is {c.figure.range} (AC-M32)"
        lof = self.line_of_fire(c.label, e.label)
        if not lof.clear:
            return lof.reason
        return None

    def _fate_allowed(self, c: CharState, mode: str) -> str | None:
        """AC-M49: Aces only, once per turn; AC-A01: with extra attacks (Old One-Two) once per
        attack; AC-M53: defensive fate needs a fate value above 0."""
        if not c.figure.is_ace:
            return f"{c.label} is a character token: tokens cannot use fate (AC-M12)"
        used = self.turn.fate_uses.get(c.label, 0)
        limit = 1
        if mode == "offensive" and self.turn.label == c.label:
            limit = self.attacks_allowed(c) if self.attacks_allowed(c) > 1 else 1
            if used >= limit or used > self.turn.attacks_made:
                return f"{c.label} already used fate for this attack/turn (AC-M49, AC-A01)"
            return None
        if used >= limit:
            return f"{c.label} already used fate this turn (AC-M49)"
        if mode == "defensive" and c.values.fate <= 0:
            return f"{c.label}'s fate value is 0: no defensive fate (AC-M53)"
        return None

    # == apply ====================================================================================
    def parse_action(self, text: str) -> AcesAction:
        return parse_action(text)

    def apply(self, action: Any) -> tuple[Event, ...]:
        """Apply one action; the events it caused. ``IllegalActionError`` leaves no trace."""
        if self.state.over:
            raise IllegalActionError(action.text(), "the game is over", "AC-M67", H_END)
        handlers: dict[type, Callable[[Any, Emit | None], None]] = {
            Pass: self._do_pass,
            BreakAway: self._do_break_away,
            Move: self._do_move,
            Attack: self._do_attack,
            Assign: self._do_assign,
            DefensiveFate: self._do_defensive_fate,
            Escape: self._do_escape,
            SecondWind: self._do_second_wind,
            EndAction: self._do_end_action,
            Withdraw: self._do_withdraw,
            EndGame: self._do_end_game,
        }
        handler = handlers.get(type(action))
        if handler is None:
            raise TypeError(f"not an Aces action: {action!r}")
        check = handler(action, None)  # validation only; raises before anything changes
        assert check is None
        run = handler
        return self._transaction(action, lambda emit: run(action, emit))

    def push_text(self, text: str) -> tuple[Event, ...]:
        return self.apply(self.parse_action(text))

    # -- helpers for handlers ---------------------------------------------------------------------
    def _illegal(self, action: AcesAction, reason: str, mechanic: str, heading: str) -> None:
        raise IllegalActionError(action.text(), reason, mechanic, heading)

    def _need_phase(self, action: AcesAction, *phases: str) -> None:
        t = self.turn
        if t.phase not in phases:
            wanted = {
                "assign": "the attacker must assign the dice first (assign ...)",
                "defend": "the target must decide on defensive fate first (fate/nofate ...)",
            }.get(t.phase, f"not possible now (phase {t.phase})")
            self._illegal(action, wanted, "AC-M18", H_TURNS)

    def _start_or_continue(
        self, action: AcesAction, label: str, kind: str, continuing: tuple[str, ...]
    ) -> bool:
        """Check ``label`` may do this now; True if it begins a new action."""
        t = self.turn
        if t.phase == "choose":
            why = self.eligible(label)
            if why is not None:
                mech = "AC-M15" if "turn" in why else "AC-M14"
                self._illegal(action, why, mech, H_TURNS)
            return True
        self._need_phase(action, *continuing)
        if label != t.label:
            self._illegal(action, f"{t.label} is taking the action, not {label}", "AC-M14", H_TURNS)
        return False

    # -- turn flow --------------------------------------------------------------------------------
    def _do_pass(self, a: Pass, emit: Emit | None) -> None:
        self._need_phase(a, "choose")
        if a.label:
            self._start_or_continue(a, a.label, "pass", ())
        elif self.eligible_characters():
            self._illegal(
                a,
                "a player passes only with no character able to act; give one 'pass CHARACTER'",
                "AC-M16",
                H_TURNS,
            )
        if emit is None:
            return
        emit(ev.ActionBegun(a.label, "pass"))
        self._end_action(emit)

    def _do_end_action(self, a: EndAction, emit: Emit | None) -> None:
        self._need_phase(a, "broke", "failed", "moved", "attacked")
        if emit is None:
            return
        self._end_action(emit)

    def _end_action(self, emit: Emit) -> None:
        """AC-M50 / AC-A16: fate clicks at the end of the action, then the turn passes (AC-M38)
        unless an escaped captive may act again (AC-M47)."""
        t = self.turn
        label = t.label or ""
        self._fate_clicks(emit)
        emit(ev.ActionEnded(label))
        if self._check_end(emit):
            return
        extra = t.extra_for
        if extra is not None and self.char(extra).on_map:
            return  # the escaped character may be given another action this turn
        self._end_turn(emit)

    def _end_turn(self, emit: Emit) -> None:
        s = self.state
        t = self.turn
        if s.turn_limit and s.turn_number >= s.turn_limit:
            self._finish(emit, "time limit reached (AC-M67 (2))")
            return
        n = len(s.players)
        for k in range(1, n + 1):
            p = (t.player + k) % n
            if p in s.withdrawn:
                continue
            if any(c.on_map for c in s.team(p)):
                emit(ev.TurnPassed(p))
                return
        self._finish(emit, "nobody left to act")

    def _fate_clicks(self, emit: Emit) -> None:
        t = self.turn
        for label in list(t.fate_clicks):
            c = self.char(label)
            if not c.on_map:
                continue
            to = c.click + 1
            emit(ev.FateClicked(label, to))
            if to >= c.figure.ko_click:
                # AC-M56: knocked out by its own fate click: the opponents score it, split evenly
                opponents = [p for p in range(len(self.state.players)) if p != c.player]
                share = split_evenly(c.figure.points, len(opponents))
                self._eliminate(emit, c, "fate", tuple((p, share) for p in opponents))

    def _eliminate(
        self, emit: Emit, c: CharState, cause: str, awards: tuple[tuple[int, int], ...]
    ) -> None:
        """AC-M37 knocked out and removed; AC-M46 its captive is freed; a captive knocked out by
        its own fate click leaves its captor free of it."""
        captive = c.captive
        emit(ev.Eliminated(c.label, cause, awards))
        if captive is not None:
            emit(ev.Freed(captive, "captor knocked out"))
        if c.captor is not None:
            emit(ev.Freed(c.label, "knocked out"))

    # -- movement ---------------------------------------------------------------------------------
    def _do_break_away(self, a: BreakAway, emit: Emit | None) -> None:
        self._need_phase(a, "choose")
        self._start_or_continue(a, a.label, "breakaway", ())
        c = self.char(a.label)
        if c.is_captive:
            self._illegal(a, f"{a.label} is a captive: only pass or escape", "AC-M40", H_CAPTURE)
        adj = self.adjacent_enemies(c)
        if not adj:
            self._illegal(a, f"{a.label} is not adjacent to an enemy", "AC-M25", H_BREAK)
        if emit is None:
            return
        emit(ev.ActionBegun(a.label, "breakaway"))
        (face,) = self.dice.roll(1, f"{a.label}: break away (4-6)")
        ok = face >= 4  # AC-M25 / table AC-2
        emit(ev.BreakAwayRolled(a.label, face, ok, tuple(e.label for e in adj)))
        if not ok and not self._legal_attacks(c, close_only=True):
            self._end_action(emit)

    def _do_move(self, a: Move, emit: Emit | None) -> None:
        new = self._start_or_continue(a, a.label, "move", ("broke",))
        c = self.char(a.label)
        if c.is_captive:
            self._illegal(a, f"{a.label} is a captive: only pass or escape", "AC-M40", H_CAPTURE)
        if new and self.adjacent_enemies(c):
            self._illegal(
                a,
                f"{a.label} is adjacent to an enemy: break away first (breakaway {a.label})",
                "AC-M25",
                H_BREAK,
            )
        if not self.map.on_map(a.to):
            self._illegal(a, f"{a.to.name()} is off the map", "AC-M21", H_MOVE)
        r = self.reach_of(c)
        dest = self.map.index(a.to)
        if dest not in r.destinations:
            why, mech = self._why_not_reachable(c, dest, r)
            self._illegal(a, why, mech, H_MOVE)
        if c.captive is not None:
            if a.captive_to is None or not self.map.on_map(a.captive_to):
                self._illegal(
                    a, f"say where the captive {c.captive} goes: 'with SQUARE'", "AC-M43", H_CAPTURE
                )
            assert a.captive_to is not None
            if self.map.index(a.captive_to) not in self._captive_spots(c, dest):
                self._illegal(
                    a,
                    f"{a.captive_to.name()} is not a free square adjacent to {a.to.name()}",
                    "AC-M41",
                    H_CAPTURE,
                )
        elif a.captive_to is not None:
            self._illegal(a, f"{a.label} holds no captive", "AC-M43", H_CAPTURE)
        if emit is None:
            return
        if new:
            emit(ev.ActionBegun(a.label, "move"))
        path = tuple(self.map.square(i).name() for i in r.path(dest))
        emit(ev.Moved(a.label, path))
        if c.captive is not None and a.captive_to is not None:
            emit(ev.CaptiveMoved(c.captive, a.captive_to.name()))
        if not self._legal_attacks(c, close_only=False):
            self._end_action(emit)

    def _why_not_reachable(self, c: CharState, dest: int, r: Reach) -> tuple[str, str]:
        name = self.map.square(dest).name()
        occ = self.state.by_square()
        if self.map.terrain[dest] is Terrain.BLOCKING:
            return f"{name} is blocking terrain", "AC-M63"
        if dest in occ and occ[dest] != c.label:
            return f"{name} is occupied by {occ[dest]}", "AC-M24"
        return (
            f"{name} cannot be reached within speed {self.speed(c)} without passing an enemy, "
            "blocking terrain, or a square where the move must end (AC-M22, AC-M23, AC-M58)",
            "AC-M21",
        )

    # -- combat -----------------------------------------------------------------------------------
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
        hindering: list[int] = []
        if a.kind == "ranged":
            if c.figure.range <= 0:
                self._illegal(a, f"{a.label}'s range is 0", "AC-M30", H_RANGED)
            if t.break_failed:
                self._illegal(
                    a, "after a failed break away only close combat is possible", "AC-A15", H_BREAK
                )
            if self.adjacent_enemies(c):
                self._illegal(a, f"{a.label} is adjacent to an enemy", "AC-M30", H_RANGED)
            if len(a.targets) > c.figure.pistols:
                self._illegal(
                    a,
                    f"{a.label} has {c.figure.pistols} pistol(s): at most that many targets",
                    "AC-M34",
                    H_RANGED,
                )
            for e in targets:
                why = self._ranged_reason(c, e)
                if why is not None:
                    mech = (
                        "AC-M45"
                        if "holds a captive" in why
                        else ("AC-M32" if "range" in why else "AC-M31")
                    )
                    self._illegal(a, why, mech, H_RANGED)
                hindering.append(self.line_of_fire(c.label, e.label).hindering)
        else:
            if len(targets) != 1:
                self._illegal(a, "close combat has one target", "AC-M35", H_CLOSE)
            e = targets[0]
            if e.is_captive or not self.adjacent(c, e):
                self._illegal(
                    a,
                    f"{e.label} is not adjacent to {a.label} (blocking terrain "
                    "between figures also prevents it)",
                    "AC-M35",
                    H_CLOSE,
                )
            if a.kind == "capture" and e.captive is not None:
                self._illegal(
                    a,
                    f"{e.label} holds a captive: it may not be the target of a capture attempt",
                    "AC-M45",
                    H_CAPTURE,
                )
            hindering.append(0)  # AC-M62: no hindering modifier in close combat
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

    def _do_assign(self, a: Assign, emit: Emit | None) -> None:
        self._need_phase(a, "assign")
        p = self.turn.pending
        assert p is not None
        need = min(len(p.faces), len(p.targets))
        tgts = [tg for tg, _ in a.pairs]
        dice = [d for _, d in a.pairs]
        if len(set(tgts)) != len(tgts) or any(tg not in p.targets for tg in tgts):
            self._illegal(
                a, f"assign one die to each of {', '.join(p.targets)}", "AC-M34", H_RANGED
            )
        if len(set(dice)) != len(dice) or any(not 1 <= d <= len(p.faces) for d in dice):
            self._illegal(
                a, f"each die (1..{len(p.faces)}) goes to one target only", "AC-M34", H_RANGED
            )
        if len(a.pairs) != need:
            self._illegal(a, f"assign exactly {need} dice (AC-A02)", "AC-M34", H_RANGED)
        if emit is None:
            return
        emit(ev.DiceAssigned(a.pairs))
        self._after_assignment(emit)

    def _after_assignment(self, emit: Emit) -> None:
        """Ask each hit Ace for defensive fate where it would prevent something (AC-M53)."""
        p = self.turn.pending
        assert p is not None
        awaiting: list[str] = []
        for tg, d in zip(p.targets, p.defenses, strict=True):
            e = self.char(tg)
            faces = p.faces_for(tg)
            hits = count_hits(faces, d)
            if len(p.targets) > 1:
                hits = min(hits, 1)
            if hits > after_defensive_fate(faces, d) and self._fate_allowed(e, "defensive") is None:
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
        if not attacker.on_map or not self._legal_attacks(
            attacker, close_only=self.turn.break_failed
        ):
            self._end_action(emit)

    # -- capture and escape -----------------------------------------------------------------------
    def _do_escape(self, a: Escape, emit: Emit | None) -> None:
        self._need_phase(a, "choose")
        self._start_or_continue(a, a.label, "escape", ())
        c = self.char(a.label)
        if c.captor is None:
            self._illegal(a, f"{a.label} is not a captive", "AC-M17", H_TURNS)
        if a.fate:
            why = self._fate_allowed(c, "escape")
            if why is not None:
                self._illegal(a, why, "AC-M48", H_FATE)
        if emit is None:
            return
        assert c.captor is not None
        captor = self.char(c.captor)
        emit(ev.ActionBegun(a.label, "escape"))
        mine = attack_dice(c.values.attack, "escape", a.fate, c.values.fate)
        theirs = captor.values.attack
        my_faces = self.dice.roll(mine, f"{a.label}: escape roll, {mine} dice")
        their_faces = self.dice.roll(theirs, f"{captor.label}: hold the captive, {theirs} dice")
        my_hits = count_hits(my_faces, captor.values.defense)
        their_hits = count_hits(their_faces, c.values.defense)
        escaped = my_hits > their_hits  # AC-M47: strictly more hits
        if a.fate:
            emit(ev.FateDeclared(a.label, "escape"))
        emit(
            ev.EscapeRolled(
                a.label, captor.label, my_faces, their_faces, my_hits, their_hits, escaped
            )
        )
        if escaped:
            emit(ev.Freed(a.label, "escape"))
        self._end_action(emit)

    # -- talents ----------------------------------------------------------------------------------
    def _do_second_wind(self, a: SecondWind, emit: Emit | None) -> None:
        self._need_phase(a, "choose")
        self._start_or_continue(a, a.label, "secondwind", ())
        c = self.char(a.label)
        if c.is_captive:
            self._illegal(a, f"{a.label} is a captive: only pass or escape", "AC-M40", H_CAPTURE)
        if c.captive is not None:
            self._illegal(a, f"{a.label} holds a captive: only move or pass", "AC-M44", H_CAPTURE)
        ab = self.abilities(c).get("second_wind")
        if ab is None:
            self._illegal(a, f"Second Wind is not showing on {a.label}'s dial", "AC-M13", H_TALENTS)
        assert ab is not None
        heal = min(ab.param("heal_clicks"), c.click - c.figure.starting_click)
        if heal <= 0:
            self._illegal(a, f"{a.label} has no damage to heal (AC-A17)", "AC-M17", H_TURNS)
        if emit is None:
            return
        emit(ev.ActionBegun(a.label, "secondwind"))
        emit(ev.Healed(a.label, heal, c.click - heal))
        self._end_action(emit)

    # -- withdrawing, end, victory ----------------------------------------------------------------
    def _do_withdraw(self, a: Withdraw, emit: Emit | None) -> None:
        t = self.turn
        if t.phase != "choose" or t.label is not None or t.extra_for is not None or t.acted:
            self._illegal(
                a, "withdraw at the start of your turn, instead of an action", "AC-M66", H_WITHDRAW
            )
        if emit is None:
            return
        s = self.state
        mine = [c for c in s.team(t.player) if c.on_map]
        for c in mine:
            if c.captive is not None:
                emit(ev.Freed(c.captive, "captor withdrew"))
        # AC-A12: the withdrawing team leaves the map at once (its captives held by enemies stay)
        emit(ev.Withdrew(t.player, tuple(c.label for c in mine if not c.is_captive)))
        if not self._check_end(emit):
            self._end_turn(emit)

    def _do_end_game(self, a: EndGame, emit: Emit | None) -> None:
        t = self.turn
        if t.phase != "choose" or t.label is not None or t.extra_for is not None:
            self._illegal(a, "only between actions", "AC-M67", H_END)
        if emit is None:
            return
        why = (
            "all players agree (AC-M67 (3))" if a.reason == "agreed" else "time limit (AC-M67 (2))"
        )
        self._finish(emit, why)

    def _check_end(self, emit: Emit) -> bool:
        """AC-M67 (1): the game ends when only one player still has characters on the map
        (AC-A09: a captive does not count, unless the game is set up otherwise)."""
        s = self.state
        if s.over:
            return True
        active = {
            c.player
            for c in s.chars.values()
            if c.on_map
            and c.player not in s.withdrawn
            and (s.captives_count_on_map or not c.is_captive)
        }
        if len(active) <= 1:
            self._finish(emit, "only one player still has characters on the map (AC-M67 (1))")
            return True
        return False

    def _finish(self, emit: Emit, reason: str) -> None:
        s = self.state
        vp = final_vp(s)
        winner, how = pick_winner(s, vp, self.dice)
        emit(ev.GameEnded(reason, vp, winner, how))

    def outcome(self) -> Outcome | None:
        """None while the game runs; else the reason, VP table and winner (python-chess style)."""
        s = self.state
        if not s.over:
            return None
        vp = {seat_of(p): v for p, v in enumerate(s.final_vp)}
        return Outcome(s.end_reason, seat_of(s.winner), s.tiebreak, vp)

    def victory_points(self) -> tuple[int, ...]:
        """The VP table if the game ended now (AC-M71)."""
        return final_vp(self.state)

    # == reports ==================================================================================
    def report(self) -> str:
        s = self.state
        lines = [f"Crimson Skies: Aces on {s.map_name} - turn {s.turn_number}"]
        for c in s.chars.values():
            where = (
                self.map.square(c.square).name()
                if c.square is not None
                else ("KO" if c.knocked_out else "off the map")
            )
            v = c.values
            extra = ""
            if c.captor:
                extra = f", captive of {c.captor}"
            if c.captive:
                extra = f", holds {c.captive}"
            lines.append(
                f"  P{c.player + 1} {c.label:<18} {where:<5} click {c.click}/{c.figure.ko_click} "
                f"spd {v.speed} att {v.attack} def {v.defense} fate {v.fate}{extra}"
            )
        vp = s.final_vp if s.over else final_vp(s)
        for i, name in enumerate(s.players):
            lines.append(f"  VP P{i + 1} {name}: {vp[i]}")
        if s.over:
            won = f"winner P{s.winner + 1} {s.tiebreak}".rstrip()
            lines.append(f"  game over: {s.end_reason}; {won}")
        unknown = self.talents.unknown(c.figure for c in s.chars.values())
        lines.extend(f"  unknown talent: {u}" for u in unknown)
        return "\n".join(lines)

    def __repr__(self) -> str:
        s = self.state
        if s.turn is None:
            return "<AcesGame (setting up)>"
        return (
            f"<AcesGame {s.map_name} turn {s.turn_number} P{s.turn.player + 1} "
            f"phase {s.turn.phase}{' over' if s.over else ''}>"
        )


def state_dict(s: AcesState, game_map: AcesMap) -> dict[str, Any]:
    """The state as plain data: figures by id, squares by name (``core.game.plain``)."""
    chars = {}
    for label, c in s.chars.items():
        chars[label] = {
            "figure": c.figure.id,
            "player": c.player,
            "square": None if c.square is None else game_map.square(c.square).name(),
            "click": c.click,
            "captor": c.captor,
            "captive": c.captive,
            "knocked_out": c.knocked_out,
        }
    out: dict[str, Any] = {
        k: plain(getattr(s, k)) for k in s.__dataclass_fields__ if k not in ("chars",)
    }
    out["chars"] = chars
    return out


def _injections(n: int, k: int) -> Iterable[tuple[int, ...]]:
    """Ordered choices of k different die indexes out of n."""
    return permutations(range(n), k)
