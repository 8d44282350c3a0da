"""What happens between decisions: draws, reshuffles, turn order, start layout of a mission, the
next turn (SA-M15, SA-M16, SA-M32, SA-M33, SA-M38, SA-M39, SA-M52, SA-M55, SA-A05, SA-A12).

``settle`` runs after every action: it makes every pending draw (with dice decks) and every step
that needs nobody's decision, and stops at the next decision (or at a draw the players must type
in, with physical decks).
"""

from __future__ import annotations

from collections.abc import Callable

from dialtray.rules.core.dice import FACES, DiceSource
from dialtray.rules.core.events import Event
from dialtray.rules.skyace import events as ev
from dialtray.rules.skyace.cards import colour, rank, value
from dialtray.rules.skyace.mat import Cell
from dialtray.rules.skyace.state import GM, SkyAceState

Emit = Callable[[Event], None]


def draw_ready(st: SkyAceState, emit: Emit) -> bool:
    """True if the next pending draw can be made now; otherwise emits what stands in its way:
    SA-M33 "Empty draw pile" (shuffle the discards in) or SA-A12 (nothing left: no draw)."""
    deck, dest, pawn = st.pending[0]
    pile = st.piles[deck]
    if pile.draw or deck in st.tops:
        return True
    if pile.discard:
        emit(ev.Reshuffled(deck, len(pile.discard)))
    else:
        emit(ev.DrawSkipped(deck, dest, pawn))
    return False


def after_draw(st: SkyAceState, drawn: ev.Drew, emit: Emit) -> None:
    """SA-M52 "Regenerative": a Royal revealed for the preferred attack gives +1 LIFE, up to the
    hero's starting LIFE (SA-A11: 5, or 6 with Lucky; ``Regenerative-cap: 5`` reads the text's
    flat 5)."""
    if drawn.dest != "reveal" or value(drawn.card) != "R":
        return
    p = st.pawns[drawn.pawn]
    cap = p.max_life if st.regen_cap == "start" else 5
    if st.hero(p.hero).has("regenerative") and p.life < cap:
        emit(ev.LifeChanged(p.id, p.life, p.life + 1, "SA-M52"))


MAX_REROLLS = 20


def draw_index(dice: DiceSource, k: int, purpose: str) -> int:
    """A card index in ``range(k)`` from d6 rolls: ``core.dice.choose_uniform``'s rejection
    sampling (fewest dice covering k, the group rerolled in the uneven remainder), but after
    ``MAX_REROLLS`` rejections in a row the last number is used modulo k. The bias is below
    (20/216)**20, and a source that always shows the same faces (a tracker's trial run shows
    sixes) cannot loop for ever."""
    if k <= 1:
        return 0
    n = 1
    while FACES**n < k:
        n += 1
    space = FACES**n
    limit = space - space % k
    for tries in range(MAX_REROLLS + 1):
        value = 0
        for f in dice.roll(n, purpose):
            value = value * FACES + (f - 1)
        if value < limit or tries == MAX_REROLLS:
            return value % k
    raise AssertionError("unreachable")


def settle(st: SkyAceState, dice: DiceSource, emit: Emit) -> None:
    while st.over is None:
        if st.pending:
            if not draw_ready(st, emit):
                continue
            if st.physical:
                return
            deck, dest, pawn = st.pending[0]
            top = st.tops.get(deck)
            if top is None:
                pile = st.piles[deck].draw
                top = pile[draw_index(dice, len(pile), f"{deck} draws a card ({dest})")]
            drawn = ev.Drew(deck, top, dest, pawn)
            emit(drawn)
            after_draw(st, drawn, emit)
            continue
        if not _step(st, emit):
            return


def _order_keys(st: SkyAceState) -> dict[str, tuple[int, ...]]:
    return {p: tuple(rank(c) for c in cs) for p, cs in st.start.items()}


def _step(st: SkyAceState, emit: Emit) -> bool:
    if st.phase == "deal":
        keys = _order_keys(st)
        tied = sorted(p for p, k in keys.items() if list(keys.values()).count(k) > 1)
        if tied:  # SA-A05: the tied pawns draw again; the new cards decide the order only
            emit(ev.DrawsQueued(tuple((st.pawns[p].deck, "tie", p) for p in tied)))
            return True
        # SA-M16 "Turn order": highest rank first, lowest last.
        emit(ev.TurnOrder(tuple(sorted(keys, key=lambda p: keys[p], reverse=True))))
        if not st.advanced:  # SA-M17: the first player's card at 0,0, the others laid next
            first = st.pawns[st.order[0]]
            emit(ev.Placed((0, 0), first.deck, st.start[first.id][0], first.id))
            emit(ev.PhaseChanged("layout"))
            return True
        _place_mission(st, emit)
        _deal_hands(st, emit)
        return True
    if st.phase == "ready":
        _start_turn(st, 0, 1, emit)
        return True
    if st.phase == "resume":  # a judge's position (D-SA-12): its turn starts now
        _start_turn(st, st.turn, st.round, emit)
        return True
    if st.phase == "endturn":
        _next_turn(st, emit)
        return True
    if st.phase == "defend":  # SA-M25: the attacker has drawn; now the defence
        from dialtray.rules.skyace.turn import resolve_defence

        resolve_defence(st, emit)
        return True
    return False


def _deal_hands(st: SkyAceState, emit: Emit) -> None:
    """SA-M15 step 7 / SA-M38 step 6: each hero draws a hand equal to LIFE; the GM holds 4."""
    draws: list[tuple[str, str, str]] = []
    for p in st.pawns.values():
        if p.deck == p.id or (p.deck == GM and not any(d[0] == GM for d in draws)):
            draws.extend((p.deck, "hand", p.id) for _ in range(st.hand_limit(p.deck)))
    emit(ev.DrawsQueued(tuple(draws)))
    emit(ev.PhaseChanged("ready"))


def deal_after_layout(st: SkyAceState, emit: Emit) -> None:
    _deal_hands(st, emit)


def _place_mission(st: SkyAceState, emit: Emit) -> None:
    """SA-M55 "Mission set-up" with SA-M37 "GM set-up powers": heroes in row 0, villains in the
    row after ``gap`` empty rows ("Two card spaces separate the heroes from the villains"), or
    where the GM's ``Layout:`` puts each pawn ("PC and GM cards need not start adjacent"); each
    start card goes to the first free cell from there along its row whose checkerboard colour
    it fits (D-SA-11: the colours are drawn, the GM chooses the places)."""
    taken: set[Cell] = set()
    for p in st.pawns.values():
        card = st.start[p.id][0]
        if p.id in st.layout:  # SA-M37: the GM's cell, or the next along its row that fits
            x, y = st.layout[p.id]
        else:
            x, y = 0, (0 if p.seat != GM else st.gap + 1)
        while (x, y) in taken or not _fits(st, (x, y), card):
            x += 1
        c = (x, y)
        taken.add(c)
        emit(ev.Placed(c, p.deck, card, p.id))


def _fits(st: SkyAceState, c: Cell, card: str) -> bool:
    col, want = colour(card), st.colour_at(c)
    return col is None or want is None or col == want


def _start_turn(st: SkyAceState, index: int, rnd: int, emit: Emit) -> None:
    p = st.pawns[st.order[index]]
    emit(ev.TurnStarted(p.id, index, rnd))
    if st.advanced:  # SA-M39 "Establish Preferred Attack": turn the top card over
        emit(ev.DrawsQueued(((p.deck, "reveal", p.id),)))


def _next_turn(st: SkyAceState, emit: Emit) -> None:
    """SA-M32 "End of turn": the next pawn in the turn order that is still in play."""
    n = len(st.order)
    i, rnd = st.turn, st.round
    for _ in range(n):
        i += 1
        if i >= n:
            i, rnd = 0, rnd + 1
        if not st.pawns[st.order[i]].out:
            break
    if rnd > st.turn_limit:
        emit(ev.GameOver("turn limit", ()))
        return
    _start_turn(st, i, rnd, emit)


def check_end(st: SkyAceState, emit: Emit) -> bool:
    """SA-M30 "Defeat" (the duel is lost at LIFE 0) and SA-M57 "Mugging loss condition" (the
    victim at 0: the thugs run away; every thug defeated: the heroes win)."""
    heroes = [p for p in st.pawns.values() if p.seat != GM]
    villains = [p for p in st.pawns.values() if p.seat == GM]
    hero_seats = tuple(p.seat for p in heroes)
    if not st.advanced:  # SA-A19: with more than two, the last hero standing wins
        standing = [p for p in heroes if not p.out]
        if len(standing) <= 1:
            emit(ev.GameOver("knock-out", tuple(p.seat for p in standing)))
            return True
        return False
    if st.victim_life is not None and st.victim_life <= 0:
        emit(ev.GameOver("the victim lost all LIFE: the thugs run away", (GM,)))
        return True
    if villains and all(p.out for p in villains):
        emit(ev.GameOver("every villain defeated", hero_seats))
        return True
    if all(p.out for p in heroes):
        emit(ev.GameOver("every hero knocked out", (GM,)))
        return True
    return False
