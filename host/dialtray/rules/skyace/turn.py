"""A turn's decisions: maneuver, knock-back, attack, defence, damage, discard (SA-M18..SA-M31,
SA-M40..SA-M45, SA-M50, SA-M51, SA-M53, SA-M56, SA-A07..SA-A09, SA-A13, SA-A16, SA-A20).

``*_options`` list what is legal (for ``legal_actions``); ``check_*`` refuse an action with the
rule that forbids it, before anything is emitted; ``do_*`` emit its events.
"""

from __future__ import annotations

from itertools import combinations

from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.skyace import events as ev
from dialtray.rules.skyace.actions import Attack, Discard, Knock, Move
from dialtray.rules.skyace.cards import colour, contains, sort_cards
from dialtray.rules.skyace.combat import attack_successes, damage, defence_successes, forced_defence
from dialtray.rules.skyace.flow import Emit, check_end
from dialtray.rules.skyace.mat import NEIGHBOURS, Cell, adjacent, behind, cell_text, relation
from dialtray.rules.skyace.state import GM, Pawn, SkyAceState

MANEUVER = ("SA-M18", "Maneuver")
ADV_MANEUVER = ("SA-M41", "Advanced maneuver")
KNOCK = ("SA-M21", "Knock-back")
CHECKER = ("SA-M09", "Checkerboard")


def _refuse(action: str, reason: str, rule: tuple[str, str]) -> IllegalActionError:
    return IllegalActionError(action, reason, rule[0], rule[1])


def fits(st: SkyAceState, c: Cell, card: str) -> bool:
    """SA-M09 checkerboard, SA-M20: a Joker can be played anywhere."""
    col, want = colour(card), st.colour_at(c)
    return col is None or want is None or col == want


def move_cells(st: SkyAceState, p: Pawn) -> list[Cell]:
    """SA-M18: cells adjacent to both an opponent's pawn and one's own (basic); SA-M41: adjacent
    to one's own pawn (advanced). SA-A13: never onto a card a pawn stands on."""
    assert p.cell is not None
    own = p.cell
    cells = [(own[0] + dx, own[1] + dy) for dx, dy in NEIGHBOURS]
    if not st.advanced:  # SA-A19: any opponent (the attack then names its target)
        foes = [q.cell for q in st.enemies(p) if q.cell is not None]
        cells = [c for c in cells if any(adjacent(c, t) for t in foes)]
    return [c for c in cells if st.pawn_at(c) is None]


def knock_cells(st: SkyAceState, p: Pawn) -> dict[Cell, Pawn]:
    """SA-M21 / SA-M42: the cell behind each adjacent enemy, if the maneuver has not begun (a pawn
    that "begins their Maneuver Phase adjacent", SA-A08 in both modes; SA-A16 with Quick)."""
    if st.moves or p.cell is None:
        return {}
    out: dict[Cell, Pawn] = {}
    for q in st.enemies(p):
        if q.cell is not None and adjacent(p.cell, q.cell):
            c = behind(p.cell, q.cell)
            if st.pawn_at(c) is None:
                out[c] = q
    return out


def move_options(st: SkyAceState, p: Pawn) -> list[Move | Knock]:
    hand = sorted(set(st.hands[p.deck]))
    out: list[Move | Knock] = [
        Move(c, k) for c in move_cells(st, p) for k in hand if fits(st, c, k)]
    if st.phase == "maneuver":
        out += [Knock(c, k) for c in knock_cells(st, p) for k in hand if fits(st, c, k)]
    return out


def check_move(st: SkyAceState, p: Pawn, a: Move | Knock) -> None:
    rule = ADV_MANEUVER if st.advanced else MANEUVER
    knock_late = isinstance(a, Knock) and st.phase != "maneuver"
    if st.phase not in ("maneuver", "maneuver2") or knock_late:
        raise _refuse(a.text(), f"{p.id} has already maneuvered this turn", rule)
    if a.card not in st.hands[p.deck]:
        raise _refuse(a.text(), f"{a.card} is not in {p.deck}'s hand", rule)
    if st.pawn_at(a.cell) is not None:
        raise _refuse(a.text(), f"a pawn stands on {cell_text(a.cell)}",
                      ("SA-A13", "Pawns sharing a card"))
    if isinstance(a, Knock):
        if a.cell not in knock_cells(st, p):
            rule = ("SA-M42", "Advanced knock-back") if st.advanced else KNOCK
            raise _refuse(a.text(), f"{cell_text(a.cell)} is not directly behind an enemy that "
                          f"{p.id} began the maneuver next to", rule)
    elif a.cell not in move_cells(st, p):
        where = "its own pawn" if st.advanced else "both its own and the opponent's pawn"
        raise _refuse(a.text(), f"{cell_text(a.cell)} is not adjacent to {where}", rule)
    if not fits(st, a.cell, a.card):
        raise _refuse(a.text(), f"{a.card} is {colour(a.card)} but {cell_text(a.cell)} is a "
                      f"{st.colour_at(a.cell)} square", CHECKER)


def do_move(st: SkyAceState, p: Pawn, a: Move | Knock, emit: Emit) -> None:
    if isinstance(a, Move):
        emit(ev.Maneuvered(p.id, p.deck, a.cell, a.card))
        quick = st.advanced and st.hero(p.hero).has("quick") and st.moves == 1
        emit(ev.PhaseChanged("maneuver2" if quick else "attack"))  # SA-M51 "Quick"
        return
    target = knock_cells(st, p)[a.cell]
    assert p.cell is not None and target.cell is not None
    typ = relation(p.cell, target.cell, st.digits)
    assert typ is not None
    # SA-A20: the hostage thug is not moved by a knock-back that is not a Stealth attack.
    shield = st.advanced and target.id == st.hostage and (st.victim_life or 0) > 0
    moved = not (shield and typ != "S")
    emit(ev.KnockedBack(p.id, p.deck, target.id, a.cell, a.card, typ, moved))
    emit(ev.PhaseChanged("attack"))


def targets(st: SkyAceState, p: Pawn) -> dict[str, str]:
    """Who can be attacked and with which attack type (SA-M22: the target's card as seen from the
    attacker's; SA-A07: after a knock-back, the type of the knock's direction, only its target)."""
    if st.knocked is not None:
        return {st.knocked[0]: st.knocked[1]}
    out: dict[str, str] = {}
    for q in st.enemies(p):
        typ = None if p.cell is None or q.cell is None else relation(p.cell, q.cell, st.digits)
        if typ is not None:
            out[q.id] = typ
    return out


def subsets(hand: list[str]) -> list[tuple[str, ...]]:
    seen: set[tuple[str, ...]] = set()
    for n in range(len(hand) + 1):
        for combo in combinations(sort_cards(hand), n):
            seen.add(combo)
    return sorted(seen, key=lambda c: (len(c), c))


def attack_options(st: SkyAceState, p: Pawn) -> list[Attack]:
    subs = subsets(st.hands[p.deck])
    return [Attack(t, s) for t in sorted(targets(st, p)) for s in subs]


def check_attack(st: SkyAceState, p: Pawn, a: Attack) -> str:
    phases = ("attack", "maneuver2")
    if st.phase not in phases:
        raise _refuse(a.text(), "the attack comes after the maneuver", ("SA-M22", "Attack type"))
    if not contains(st.hands[p.deck], a.cards):
        raise _refuse(a.text(), f"not every card played is in {p.deck}'s hand "
                      f"({' '.join(st.hands[p.deck])})", ("SA-M23", "Attacker's cards"))
    ts = targets(st, p)
    if a.target not in ts:
        if st.knocked is not None:
            raise _refuse(a.text(), f"the knock-back's attack is on {st.knocked[0]}", KNOCK)
        if a.target not in st.pawns or st.pawns[a.target] not in st.enemies(p):
            raise _refuse(a.text(), f"{a.target} is not an enemy in play",
                          ("SA-M22", "Attack type"))
        raise _refuse(a.text(), f"{a.target} is not on a Head, Side, Digit or Clear card of "
                      f"{p.id}'s card: the positions give no attack type",
                      ("SA-M22", "Attack type"))
    return ts[a.target]


def do_attack(st: SkyAceState, p: Pawn, a: Attack, typ: str, emit: Emit) -> None:
    """SA-M22..SA-M24 the attack, then SA-M25 "Attacker redraw" (1.4.2.2.2: discard the played
    cards and draw up to LIFE) *before* the defence (1.4.2.3): the draws are queued and the
    defence resolves once they are made (phase ``defend``, ``resolve_defence``)."""
    adv = st.advanced
    t = st.pawns[a.target]
    ha = st.hero(p.hero)
    preferred = adv and st.preferred is not None and st.preferred in ("*", typ)  # SA-M40
    own, other = st.top(p.cell), st.top(t.cell)
    succ = attack_successes(a.cards, ha.frequency(typ), own, other,
                            ha.attribute(typ) if adv else 0, adv and ha.has("powerful"))
    emit(ev.Attacked(p.id, t.id, typ, a.cards, succ, preferred))
    emit(ev.DrawsQueued(_draw_up(st, p.deck)))
    emit(ev.PhaseChanged("defend"))


def resolve_defence(st: SkyAceState, emit: Emit) -> None:
    """SA-M26..SA-M31 after the attacker's redraw: the forced defence (or the Mugging's shield,
    SA-M56), damage, then the defender's redraw or discard."""
    assert st.attack is not None
    attacker, target, typ, succ, preferred = st.attack
    adv = st.advanced
    p, t = st.pawns[attacker], st.pawns[target]
    hd = st.hero(t.hero)
    own, other = st.top(p.cell), st.top(t.cell)
    if adv and t.id == st.hostage and typ != "S" and (st.victim_life or 0) > 0:
        # SA-M56: no defence cards, the thug is unaffected, the victim loses 1 LIFE.
        v = st.victim_life or 0
        emit(ev.Shielded(t.id, v, v - 1))
    else:
        # SA-M26 / SA-A04: the defence type equals the attack type (the relation is symmetric).
        freq = hd.frequency(typ)
        played = tuple(forced_defence(st.hands[t.deck], freq))
        dsucc = defence_successes(played, freq, other, own,
                                  hd.attribute(typ) if adv else 0, adv and hd.has("unbreakable"))
        emit(ev.Defended(t.id, t.deck, played, dsucc))
        lost = damage(succ, dsucc, adv, preferred)
        if lost:
            after = max(0, t.life - lost)
            emit(ev.LifeChanged(t.id, t.life, after, "SA-M45" if adv else "SA-M29"))
            if after == 0:
                emit(ev.KnockedOut(t.id))
    if check_end(st, emit):
        return
    # SA-M31 "Defender redraw/discard" (the attacker drew before the defence, SA-M25).
    if t.deck != GM and not t.out and len(st.hands[t.deck]) > st.hand_limit(t.deck):
        emit(ev.PhaseChanged("discard", t.deck))
        return
    if not t.out or t.deck == GM:  # the GM's hand is refilled even when a villain is down
        emit(ev.DrawsQueued(_draw_up(st, t.deck)))
    emit(ev.PhaseChanged("endturn"))


def _draw_up(st: SkyAceState, deck: str) -> tuple[tuple[str, str, str], ...]:
    n = st.hand_limit(deck) - len(st.hands[deck])
    return tuple((deck, "hand", deck) for _ in range(max(0, n)))


def end_without_attack(st: SkyAceState, p: Pawn, emit: Emit) -> None:
    """SA-M41 "may attack" (hold) or an impossible maneuver (pass): draw up to LIFE (SA-A21),
    end the turn."""
    emit(ev.DrawsQueued(_draw_up(st, p.deck)))
    emit(ev.PhaseChanged("endturn"))


def discard_options(st: SkyAceState) -> list[Discard]:
    deck = st.discarder
    assert deck is not None
    n = len(st.hands[deck]) - st.hand_limit(deck)
    combos = sorted(set(combinations(st.hands[deck], n)))
    return [Discard(deck, c) for c in combos]


def check_discard(st: SkyAceState, a: Discard) -> None:
    rule = ("SA-M31", "Defender redraw/discard")
    if st.phase != "discard" or a.deck != st.discarder:
        raise _refuse(a.text(), "no discard is due from " + a.deck, rule)
    n = len(st.hands[a.deck]) - st.hand_limit(a.deck)
    if len(a.cards) != n:
        raise _refuse(a.text(), f"{a.deck} must discard exactly {n} card(s) to match LIFE", rule)
    if not contains(st.hands[a.deck], a.cards):
        raise _refuse(a.text(), f"not every card is in {a.deck}'s hand", rule)
