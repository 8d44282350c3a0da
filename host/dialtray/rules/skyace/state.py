"""The position of a Sky Ace game and its fold: every event applied in place, no dice, no choice.

Piles and hands are lists kept in the deck's canonical order, so equal positions give equal
``state_dict``. A draw pile is an unordered set of cards: a draw takes a card chosen uniformly
through the dice source (``flow.draw_one``), which is what shuffling then taking the top card
does (SA-M15 "Each Player shuffles their deck"), and it replays from the log's faces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dialtray.rules.core.events import Event
from dialtray.rules.core.game import plain
from dialtray.rules.skyace import events as ev
from dialtray.rules.skyace.cards import DECK, colour, preferred_of, remove, sort_cards
from dialtray.rules.skyace.heroes import Hero, hero
from dialtray.rules.skyace.mat import Cell, cell_colour, cell_text, parity_for

GM = "GM"
GM_HAND = 4  # SA-M36 "GM hand"
VICTIM = "victim"


@dataclass
class Pawn:
    id: str
    seat: str
    hero: str
    deck: str
    life: int
    max_life: int
    cell: Cell | None = None
    out: bool = False


@dataclass
class Pile:
    draw: list[str] = field(default_factory=lambda: list(DECK))
    discard: list[str] = field(default_factory=list)


@dataclass
class SkyAceState:
    mode: str = "duel"
    physical: bool = False
    mission: str | None = None
    turn_limit: int = 0
    gap: int = 2
    seats: list[str] = field(default_factory=list)
    pawns: dict[str, Pawn] = field(default_factory=dict)
    piles: dict[str, Pile] = field(default_factory=dict)
    hands: dict[str, list[str]] = field(default_factory=dict)
    mat: dict[Cell, list[tuple[str, str, str]]] = field(default_factory=dict)
    red_parity: int | None = None
    start: dict[str, list[str]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    turn: int = -1
    round: int = 0
    phase: str = "deal"
    pending: list[tuple[str, str, str]] = field(default_factory=list)
    preferred: str | None = None
    knocked: tuple[str, str] | None = None  # (target, attack type) after a knock-back
    moves: int = 0
    discarder: str | None = None
    victim_life: int | None = None
    hostage: str | None = None
    over: tuple[str, tuple[str, ...]] | None = None
    digits: str = "ul-lr"  # SA-A04: which corners carry the index
    regen_cap: str = "start"  # SA-A11: "start" (the hero's starting LIFE) or "5" (the text)
    attack: tuple[str, str, str, int, bool] | None = None  # the attack the defence answers
    heroes: dict[str, Hero] = field(default_factory=dict)  # the owner's (``Hero-file:``)
    hero_files: tuple[str, ...] = ()
    layout: dict[str, Cell] = field(default_factory=dict)  # SA-M37: the GM's start cells
    reveal: str = "discard"  # SA-A10: the revealed card is "discard"ed or stays on "top"
    tops: dict[str, str] = field(default_factory=dict)  # a revealed card left on its draw pile

    # -- queries used everywhere ------------------------------------------------------------
    @property
    def advanced(self) -> bool:
        return self.mode == "mission"

    def active(self) -> Pawn | None:
        if self.turn < 0 or not self.order:
            return None
        return self.pawns[self.order[self.turn]]

    def top(self, c: Cell | None) -> str | None:
        """The card a pawn rests on: the top of the stack (SA-M14 "Active card", SA-M19)."""
        if c is None or c not in self.mat:
            return None
        return self.mat[c][-1][1]

    def pawn_at(self, c: Cell) -> Pawn | None:
        return next((p for p in self.pawns.values() if p.cell == c and not p.out), None)

    def hero(self, ident: str) -> Hero:
        """A pawn's hero sheet: the owner's (``Hero-file:``) first, else the shipped one."""
        return self.heroes.get(ident) or hero(ident)

    def hand_limit(self, deck: str) -> int:
        """SA-M02: a hero's hand is its LIFE; SA-M36: the GM always holds 4."""
        if deck == GM:
            return GM_HAND
        return max(0, self.pawns[deck].life)

    def enemies(self, p: Pawn) -> list[Pawn]:
        """The pawns ``p`` may attack: the other hero in a duel; the other side in a mission."""
        return [q for q in self.pawns.values() if not q.out and q.id != p.id
                and (not self.advanced or (q.seat == GM) != (p.seat == GM))]

    def colour_at(self, c: Cell) -> str | None:
        return None if self.red_parity is None else cell_colour(c, self.red_parity)

    def where(self, deck: str, card: str) -> str:
        """Where a card of ``deck`` is, for the physical-deck refusal (SA-M01)."""
        for c, stack in sorted(self.mat.items()):
            if any(d == deck and x == card for d, x, _ in stack):
                return f"already on the playmat at {cell_text(c)}"
        if card in self.piles[deck].discard:
            return f"in {deck}'s discard pile"
        if card in self.hands[deck]:
            return f"in {deck}'s hand"
        if self.tops.get(deck) not in (None, card):
            return f"not the face-up card on top of {deck}'s draw pile ({self.tops[deck]})"
        if any(card in cs for p, cs in self.start.items() if self.pawns[p].deck == deck):
            return "already drawn (start card)"
        return f"not in {deck}'s draw pile"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = plain({k: v for k, v in self.__dict__.items() if k != "mat"})
        d["mat"] = {cell_text(c): [list(s) for s in stack] for c, stack in sorted(self.mat.items())}
        return d


def _put(st: SkyAceState, c: Cell, deck: str, card: str) -> None:
    """SA-M19 "Stacking": a card goes on top of the cell's stack; SA-M06/SA-M20: a Joker takes the
    colour of its cell. The first card fixes the checkerboard (a first Joker counts as red)."""
    col = colour(card)
    if st.red_parity is None:
        st.red_parity = parity_for(c, col or "red")
    cell_col = cell_colour(c, st.red_parity)
    st.mat.setdefault(c, []).append((deck, card, col or cell_col))


def fold_position(st: SkyAceState, e: Any) -> None:
    """A judge's mid-game position (``position.PositionSet``, D-SA-12): the playmat, pawns,
    hands and discards as given, each draw pile the rest of its deck; the table's ``deal``
    then starts the turn (phase ``resume``)."""
    st.mat, st.red_parity = {}, None
    # SA-M09: the checkerboard is fixed by a coloured card (a Joker takes its cell's colour,
    # SA-M06), whatever cell comes first (D-SA-13).
    st.red_parity = next((parity_for(c, col) for c, stack in e.cells for _, card in stack
                          if (col := colour(card)) is not None), None)
    for c, stack in e.cells:
        for deck, card in stack:
            _put(st, c, deck, card)
    for deck, pile in st.piles.items():
        gone = [card for stack in st.mat.values() for d, card, _ in stack if d == deck]
        hand = list(dict(e.hands).get(deck, ()))
        discard = list(dict(e.discards).get(deck, ()))
        draw = list(DECK)
        for card in [*gone, *hand, *discard]:
            draw.remove(card)
        pile.draw, pile.discard = draw, sort_cards(discard)
        st.hands[deck] = hand
    for pid, cell, life in e.pawns:
        p = st.pawns[pid]
        p.cell, p.out = cell, cell is None
        p.life = life if cell is not None else 0  # SA-M30: a pawn is out at LIFE 0
    if e.victim is not None:
        st.victim_life = e.victim
    st.order, st.round = list(e.order), e.round
    st.turn = st.order.index(e.turn)
    st.phase, st.pending = "resume", []


def fold_event(st: SkyAceState, e: Event) -> None:
    """Apply one event to ``st`` in place (the pure fold of ``EventSourcedGame``)."""
    if type(e).__name__ == "PositionSet":
        fold_position(st, e)
        return
    if isinstance(e, ev.Setup):
        st.mode, st.physical, st.mission = e.mode, e.physical, e.mission
        st.turn_limit, st.gap, st.seats = e.turn_limit, e.gap, list(e.seats)
        st.victim_life, st.hostage = e.victim_life, e.hostage
        st.digits, st.regen_cap, st.reveal = e.digits, e.regen_cap, e.reveal
        st.heroes, st.hero_files = {h.id: h for h in e.heroes}, e.hero_files
        st.layout = dict(e.layout)
        for p in e.pawns:
            st.pawns[p.id] = Pawn(p.id, p.seat, p.hero, p.deck, p.life, p.life)
            if p.deck not in st.piles:
                st.piles[p.deck] = Pile()
                st.hands[p.deck] = []
            st.start[p.id] = []
            st.pending.append((p.deck, "start", p.id))
    elif isinstance(e, ev.DrawsQueued):
        st.pending.extend(e.draws)
    elif isinstance(e, ev.Drew):
        st.pending.pop(0)
        if st.tops.get(e.deck) == e.card:  # the face-up top card is drawn (SA-A10 "top")
            del st.tops[e.deck]
        else:
            st.piles[e.deck].draw.remove(e.card)
        if e.dest == "reveal" and st.reveal == "top":  # SA-A10: it stays on the pile, face up
            st.tops[e.deck] = e.card
            st.preferred = preferred_of(e.card)
        elif e.dest == "hand":
            st.hands[e.deck] = sort_cards([*st.hands[e.deck], e.card])
        elif e.dest == "start":
            st.start[e.pawn].append(e.card)
        elif e.dest == "tie":  # SA-A05: the tie-break card decides the order only
            st.start[e.pawn].append(e.card)
            st.piles[e.deck].discard = sort_cards([*st.piles[e.deck].discard, e.card])
        elif e.dest == "reveal":  # SA-M39, SA-A10: read, then discarded
            st.preferred = preferred_of(e.card)
            st.piles[e.deck].discard = sort_cards([*st.piles[e.deck].discard, e.card])
    elif isinstance(e, ev.DrawSkipped):
        st.pending.pop(0)
    elif isinstance(e, ev.Reshuffled):
        pile = st.piles[e.deck]
        pile.draw, pile.discard = sort_cards(pile.draw + pile.discard), []
    elif isinstance(e, ev.TurnOrder):
        st.order = list(e.order)
    elif isinstance(e, ev.Placed):
        _put(st, e.cell, e.deck, e.card)
        if e.pawn is not None:
            st.pawns[e.pawn].cell = e.cell
    elif isinstance(e, ev.PhaseChanged):
        st.phase, st.discarder = e.phase, e.who
    elif isinstance(e, ev.TurnStarted):
        st.turn, st.round, st.phase = e.index, e.round, "maneuver"
        st.preferred, st.knocked, st.moves = None, None, 0
    elif isinstance(e, ev.Maneuvered):
        remove(st.hands[e.deck], [e.card])
        _put(st, e.cell, e.deck, e.card)
        st.pawns[e.pawn].cell = e.cell
        st.moves += 1
    elif isinstance(e, ev.KnockedBack):
        remove(st.hands[e.deck], [e.card])
        _put(st, e.cell, e.deck, e.card)
        if e.moved:
            st.pawns[e.target].cell = e.cell
        st.knocked = (e.target, e.attack_type)
        st.moves += 1
    elif isinstance(e, ev.Attacked):
        st.attack = (e.attacker, e.target, e.attack_type, e.successes, e.preferred)
        deck = st.pawns[e.attacker].deck
        remove(st.hands[deck], e.played)
        st.piles[deck].discard = sort_cards(st.piles[deck].discard + list(e.played))
    elif isinstance(e, ev.Defended | ev.Discarded):
        cs = e.played if isinstance(e, ev.Defended) else e.cards
        remove(st.hands[e.deck], cs)
        st.piles[e.deck].discard = sort_cards(st.piles[e.deck].discard + list(cs))
    elif isinstance(e, ev.Shielded):
        st.victim_life = e.after
    elif isinstance(e, ev.LifeChanged):
        st.pawns[e.pawn].life = e.after
    elif isinstance(e, ev.KnockedOut):
        st.pawns[e.pawn].out = True
        st.pawns[e.pawn].cell = None
    elif isinstance(e, ev.GameOver):
        st.over = (e.termination, e.winners)
        st.phase = "over"
    else:  # pragma: no cover - a new event kind without a fold is a programming error
        raise TypeError(f"no fold for {type(e).__name__}")
