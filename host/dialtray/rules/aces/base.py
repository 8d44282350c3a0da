"""What every Aces rule handler shares: the event fold (``state.apply_event``), the queries
(characters, adjacency, eligibility AC-M14/M15, speed AC-M21/M43/M59, destinations, line of fire,
attacks allowed AC-M28, fate allowed AC-M49/M53), the core ``Game`` protocol members and the
checks every handler starts with (phase AC-M18, whose action AC-M14)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dialtray.rules.aces.actions import (
    AcesAction,
    Attack,
    parse_action,
)
from dialtray.rules.aces.combat import (
    halved_speed,
)
from dialtray.rules.aces.dial import dial_changes_of, dial_settings
from dialtray.rules.aces.figures import Figure, default_catalogue
from dialtray.rules.aces.grid import Square
from dialtray.rules.aces.lof import LineOfFire, line_of_fire
from dialtray.rules.aces.maps import AcesMap, Terrain
from dialtray.rules.aces.movement import Reach, neighbour_masks, reach_masks
from dialtray.rules.aces.state import AcesState, CharState, TurnState, apply_event, current_turn
from dialtray.rules.aces.talents import Ability, Talents, load_talents
from dialtray.rules.aces.victory import seat_of
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


class AcesBase(EventSourcedGame[AcesState, AcesAction]):
    """Queries and helpers every rule handler uses; ``AcesGame`` adds the flow."""

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
        self._move_actions: dict[str, Any] = {}  # label -> move.MoveTable
        self._lof_memo: dict[tuple[int, int, int], LineOfFire] = {}
        # (figure, click) -> abilities; the figure is kept so its id is never reused
        self._abilities_memo: dict[tuple[int, int], tuple[Figure, dict[str, Ability]]] = {}
        self._adjacent_memo: dict[Any, Any] = {}  # see _per_event
        self._adjacent_version = -1
        super().__init__(setup_events)

    def initial_state(self) -> AcesState:
        return AcesState()

    def apply_event(self, state: AcesState, event: Event) -> None:
        self._version += 1
        apply_event(state, event, self.map, self.catalogue)

    @property
    def turn(self) -> TurnState:
        return current_turn(self.state)

    def char(self, label: str) -> CharState:
        c = self.state.chars.get(label)
        if c is None:
            raise KeyError(label)
        return c

    def square_of(self, label: str) -> Square | None:
        sq = self.char(label).square
        return None if sq is None else self.map.square(sq)

    def seats(self) -> tuple[Seat, ...]:
        """ "P1", "P2", ... in seating order (``state.players`` holds their names)."""
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
        """The abilities showing on ``c``'s dial (AC-M13); read-only, made once per click."""
        key = (id(c.figure), c.click)
        hit = self._abilities_memo.get(key)
        if hit is None:
            hit = self._abilities_memo[key] = (c.figure, self.talents.active(c.values))
        return hit[1]

    def enemies_of(self, c: CharState) -> list[CharState]:
        return [o for o in self.state.chars.values() if o.on_map and o.player != c.player]

    def controlling_enemies(self, c: CharState) -> list[CharState]:
        """Enemies whose adjacency counts (stops moves, forces break away, bars ranged attacks).
        Decided (docs AC-A09 note): a captive, being under control, exerts none. (Memoised per
        player until the next event.)"""
        memo = self._per_event()
        key = ("controlling", c.player)
        hit: list[CharState] | None = memo.get(key)
        if hit is None:
            hit = memo[key] = [o for o in self.enemies_of(c) if not o.is_captive]
        return list(hit)

    def _per_event(self) -> dict[Any, Any]:
        """A memo that lives until the next folded event."""
        if self._adjacent_version != self._version:
            self._adjacent_memo.clear()
            self._adjacent_version = self._version
        return self._adjacent_memo

    def adjacent(self, a: CharState, b: CharState) -> bool:
        """AC-M20 / AC-M65: touching squares not cut apart by blocking terrain."""
        if a.square is None or b.square is None:
            return False
        return b.square in self.map.neighbours[a.square]

    def adjacent_enemies(self, c: CharState) -> list[CharState]:
        """The controlling enemies touching ``c`` (memoised until the next event)."""
        memo = self._per_event()
        hit: list[CharState] | None = memo.get(c.label)
        if hit is None:
            hit = memo[c.label] = [e for e in self.controlling_enemies(c) if self.adjacent(c, e)]
        return list(hit)

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
        self._adjacent_memo.clear()
        self._lof_memo.clear()

    def compute_reach(self, c: CharState) -> Reach:
        """The legal destinations of ``c``, computed afresh (AC-M21..M27, AC-M43, AC-M59).
        Friends are passed through, enemies never entered, the squares next to a controlling
        enemy (not a captive, not one broken away from, AC-M26) end the move."""
        assert c.square is not None
        occupied, zones = self._occupancy()
        own = 1 << c.square
        captive = 0
        if c.captive is not None and (sq := self.char(c.captive).square) is not None:
            captive = 1 << sq  # it moves with its captor (AC-M43): neither friend nor enemy
        everyone = 0
        for mask in occupied.values():
            everyone |= mask
        friends = occupied.get(c.player, 0) & ~own
        enemies = everyone & ~occupied.get(c.player, 0) & ~captive
        if self.turn.broken_from:  # AC-M26: those broken away from do not stop this move
            exempt = {self.char(lab).square for lab in self.turn.broken_from}
            nbr = neighbour_masks(self.map)
            zone = 0
            for o in self.state.chars.values():
                sq = o.square
                if sq is not None and sq not in exempt and o.player != c.player:
                    zone |= 0 if o.is_captive else nbr[sq]
            return reach_masks(self.map, c.square, self.speed(c), friends, enemies, zone)
        zone = 0
        for player, z in zones.items():
            if player != c.player:
                zone |= z
        return reach_masks(self.map, c.square, self.speed(c), friends, enemies, zone)

    def _occupancy(self) -> tuple[dict[int, int], dict[int, int]]:
        """Per player: the squares of its characters on the map, and the squares next to its
        controlling ones (not captives) — memoised until the next event."""
        memo = self._per_event()
        hit: tuple[dict[int, int], dict[int, int]] | None = memo.get("occupancy")
        if hit is None:
            occupied: dict[int, int] = {}
            zones: dict[int, int] = {}
            nbr = neighbour_masks(self.map)
            for o in self.state.chars.values():
                if o.square is None:
                    continue
                occupied[o.player] = occupied.get(o.player, 0) | 1 << o.square
                if not o.is_captive:
                    zones[o.player] = zones.get(o.player, 0) | nbr[o.square]
            hit = memo["occupancy"] = (occupied, zones)
        return hit

    def line_of_fire(self, attacker: str, target: str) -> LineOfFire:
        """AC-M31: the line of fire between two characters on the map. It depends only on the
        two squares and which squares are occupied, so it is kept for as long as nobody
        moves (a few thousand lines at most)."""
        a, b = self.char(attacker), self.char(target)
        assert a.square is not None and b.square is not None
        everyone = 0
        for mask in self._occupancy()[0].values():
            everyone |= mask
        key = (a.square, b.square, everyone)
        hit = self._lof_memo.get(key)
        if hit is None:
            if len(self._lof_memo) > 4096:
                self._lof_memo.clear()
            occupied = set(self.state.by_square())
            hit = self._lof_memo[key] = line_of_fire(
                self.map, self.map.square(a.square), self.map.square(b.square), occupied
            )
        return hit

    def attacks_allowed(self, c: CharState) -> int:
        """AC-M28 one attack per action; Old One-Two (sample hook, AC-T03) adds more."""
        extra = sum(
            a.param("extra_attacks")
            for a in self.abilities(c).values()
            if a.kind == "extra_attacks"
        )
        return 1 + extra

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

    def parse_action(self, text: str) -> AcesAction:
        return parse_action(text)

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

    # -- implemented by the rule handlers (turn, attacks, ranged, close, ending) ---------------
    def _end_action(self, emit: Emit) -> None:
        raise NotImplementedError

    def _end_turn(self, emit: Emit) -> None:
        raise NotImplementedError

    def _eliminate(
        self, emit: Emit, c: CharState, cause: str, awards: tuple[tuple[int, int], ...]
    ) -> None:
        raise NotImplementedError

    def _check_end(self, emit: Emit) -> bool:
        raise NotImplementedError

    def _finish(self, emit: Emit, reason: str) -> None:
        raise NotImplementedError

    def _legal_attacks(self, c: CharState, close_only: bool) -> list[AcesAction]:
        raise NotImplementedError

    def _can_attack(self, c: CharState, close_only: bool) -> bool:
        raise NotImplementedError

    def _ranged_reason(self, c: CharState, e: CharState) -> str | None:
        raise NotImplementedError

    def _can_shoot(self, c: CharState, e: CharState) -> bool:
        raise NotImplementedError

    def _after_assignment(self, emit: Emit) -> None:
        raise NotImplementedError

    def _check_ranged(self, a: Attack, c: CharState, targets: list[CharState]) -> list[int]:
        raise NotImplementedError

    def _check_close(self, a: Attack, c: CharState, targets: list[CharState]) -> list[int]:
        raise NotImplementedError

    def _legal_ranged(self, c: CharState, fate_options: list[bool]) -> list[AcesAction]:
        raise NotImplementedError

    def _legal_close(self, c: CharState, fate_options: list[bool]) -> list[AcesAction]:
        raise NotImplementedError


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
