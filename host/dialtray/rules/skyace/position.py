"""Mid-game positions in Sky Ace logs (docs/notation.md, "Position header"; D-SA-12).

A position is the start of a pawn's turn: the playmat's stacks, every pawn's card and LIFE,
every hand and discard pile, the turn order and whose turn it is. Header lines::

    Position: turn P2 round 3
    Position: order P1 P2
    Position: cell 0,0 P1:AS
    Position: cell 1,0 P2:KH P1:4S          # a stack, bottom to top (SA-M19)
    Position: pawn P1 at 0,0 life 4
    Position: pawn T3 out
    Position: hand P1 2C 6C 8C 10C
    Position: discard P2 3C
    Position: victim 2                        # The Mugging's victim (SA-M56)

A deck's draw pile is its 54 cards less those on the playmat, in its hand and in its discard
pile. The table's first action is then ``deal``, which starts that turn (SA-M39's preferred
card is turned over in the advanced game). Every card, cell and pawn is checked, and a bad line
is named by its line with the rule it breaks.

``position_of(game)`` writes the current position back (the start of a pawn's turn) and
``format_position`` its header lines, so a log can start from a saved game (D-SA-13).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from dialtray.rules.core.events import Event
from dialtray.rules.core.notation import GameLog
from dialtray.rules.core.position import number, read_fields
from dialtray.rules.skyace.cards import DECK_COUNTS, colour, is_card
from dialtray.rules.skyace.mat import Cell, cell_colour, cell_text, parity_for, parse_cell

KEY = "Position"


@dataclass(frozen=True)
class PositionSet(Event):
    """A judge's mid-game position (a setup event, folded after ``Setup``)."""

    turn: str
    round: int
    order: tuple[str, ...]
    cells: tuple[tuple[Cell, tuple[tuple[str, str], ...]], ...]
    pawns: tuple[tuple[str, Cell | None, int], ...]  # id, cell (None: out), LIFE
    hands: tuple[tuple[str, tuple[str, ...]], ...]
    discards: tuple[tuple[str, tuple[str, ...]], ...]
    victim: int | None = None

    def text(self) -> str:
        return f"position: {self.turn}'s turn, round {self.round}"


def read(log: GameLog, game: Any) -> PositionSet | None:
    """The ``Position:`` lines of ``log`` as one event for ``game`` (None if there are none);
    ``NotationError`` naming the line and the rule for a bad one."""
    lines = log.values(KEY)
    if not lines:
        return None
    st = game.state
    turn, rnd = "", 1
    order: tuple[str, ...] = ()
    cells: dict[Cell, tuple[tuple[str, str], ...]] = {}
    pawns: dict[str, tuple[Cell | None, int]] = {}
    hands: dict[str, tuple[str, ...]] = {}
    discards: dict[str, tuple[str, ...]] = {}
    victim = None
    used: dict[str, Counter[str]] = {d: Counter() for d in st.piles}
    for h in lines:
        words = h.value.split()
        try:
            what = words[0] if words else ""
            if what == "turn":
                f = read_fields(words[2:], {"round"})
                turn, rnd = words[1], number(f, "round", 1, 1, 10**4)
            elif what == "order":
                order = tuple(words[1:])
            elif what == "cell":
                c = parse_cell(words[1])
                stack = tuple(_card(st, used, tok) for tok in words[2:])
                if not stack or c in cells:
                    raise ValueError("a cell needs its stack of DECK:CARD, once (SA-M19)")
                cells[c] = stack
            elif what == "pawn":
                pid = words[1]
                if pid not in st.pawns or pid in pawns:
                    raise ValueError(f"no pawn {pid!r} (pawns: {' '.join(st.pawns)}), or twice")
                if words[2:] == ["out"]:
                    pawns[pid] = (None, 0)
                else:
                    f = read_fields(words[2:], {"at", "life"})
                    if "at" not in f:
                        raise ValueError("a pawn in play says its cell: pawn P1 at 0,0")
                    pawns[pid] = (parse_cell(f["at"]), number(f, "life", st.pawns[pid].life, 1,
                                                              20))
            elif what in ("hand", "discard"):
                deck = words[1]
                if deck not in st.piles:
                    raise ValueError(f"no deck {deck!r} (decks: {' '.join(st.piles)})")
                cards = tuple(_card(st, used, f"{deck}:{c}") for c in words[2:])
                (hands if what == "hand" else discards)[deck] = tuple(c for _, c in cards)
            elif what == "victim" and st.victim_life is not None:
                victim = int(words[1]) if words[1:] and words[1].isdigit() else -1
                if not 0 <= victim <= 20:
                    raise ValueError("victim LIFE: a whole number")
            else:
                raise ValueError("a position line is turn, order, cell, pawn, hand, discard "
                                 "or victim")
        except (ValueError, IndexError) as exc:
            raise log.error(h.line, f"{KEY}: {exc}") from None
    _check(log, st, turn, order, cells, pawns)
    return PositionSet(turn, rnd, order, tuple(sorted(cells.items())),
                       tuple((p, c, life) for p, (c, life) in sorted(pawns.items())),
                       tuple(sorted(hands.items())), tuple(sorted(discards.items())), victim)


def _card(st: Any, used: dict[str, Counter[str]], tok: str) -> tuple[str, str]:
    deck, sep, card = tok.partition(":")
    if not sep or deck not in used or not is_card(card):
        raise ValueError(f"{tok!r} is not DECK:CARD with a deck of this game (SA-M01)")
    used[deck][card] += 1
    if used[deck][card] > DECK_COUNTS[card]:
        raise ValueError(f"{deck}'s deck has {DECK_COUNTS[card]} {card} (SA-M01)")
    return deck, card


def _check(log: GameLog, st: Any, turn: str, order: tuple[str, ...],
           cells: dict[Cell, tuple[tuple[str, str], ...]],
           pawns: dict[str, tuple[Cell | None, int]]) -> None:
    line = log.line_of(KEY)
    if sorted(order) != sorted(st.pawns) or turn not in order:
        raise log.error(line, f"{KEY}: order names every pawn once ({' '.join(st.pawns)}) "
                        "and turn one of them (SA-M16)")
    if set(pawns) != set(st.pawns):
        raise log.error(line, f"{KEY}: a pawn line for every pawn (SA-M14)")
    parity = None
    for c, stack in sorted(cells.items()):
        col = colour(stack[0][1])
        if col is None:
            continue
        if parity is None:
            parity = parity_for(c, col)
        for _, card in stack:
            if colour(card) not in (None, cell_colour(c, parity)):
                raise log.error(line, f"{KEY}: {card} at {c[0]},{c[1]} breaks the red/black "
                                "checkerboard (SA-M09)")
    for pid, (at, _) in pawns.items():
        if at is not None and at not in cells:
            raise log.error(line, f"{KEY}: pawn {pid} rests on {at[0]},{at[1]}, which has no "
                            "card (SA-M14)")


def position_of(game: Any) -> PositionSet:
    """The position at the start of the active pawn's turn (D-SA-13): before its first move,
    with no card waiting but SA-M39's reveal (which the resumed turn draws again). ``ValueError``
    saying why at any other moment, or when the game holds what a position cannot say."""
    st = game.state
    p = st.active()
    reveal_only = [d[1] for d in st.pending] == ["reveal"] and st.preferred is None
    if (st.over is not None or p is None or st.phase != "maneuver" or st.moves
            or st.knocked is not None
            or (st.pending and not reveal_only) or (st.advanced and not reveal_only)):
        raise ValueError("a Sky Ace position is the start of a pawn's turn, before its first "
                         "move (and before its preferred-attack card is turned, SA-M39)")
    if st.tops:
        raise ValueError("a face-up card left on a draw pile (SA-A10 'top') is not written in "
                         "a position")
    pawns = tuple((q.id, None if q.out else q.cell, 0 if q.out else q.life)
                  for q in sorted(st.pawns.values(), key=lambda q: q.id))
    cells = tuple((c, tuple((d, card) for d, card, _ in stack))
                  for c, stack in sorted(st.mat.items()))
    return PositionSet(p.id, st.round, tuple(st.order), cells, pawns,
                       tuple(sorted((d, tuple(h)) for d, h in st.hands.items())),
                       tuple(sorted((d, tuple(pl.discard)) for d, pl in st.piles.items())),
                       st.victim_life)


def format_position(pos: PositionSet) -> list[tuple[str, str]]:
    """``Position:`` header lines for ``pos`` (what ``read`` reads back to the same event)."""
    out = [(KEY, f"turn {pos.turn} round {pos.round}"), (KEY, "order " + " ".join(pos.order))]
    out += [(KEY, f"cell {cell_text(c)} " + " ".join(f"{d}:{card}" for d, card in stack))
            for c, stack in pos.cells]
    out += [(KEY, f"pawn {pid} out" if c is None else f"pawn {pid} at {cell_text(c)} life {life}")
            for pid, c, life in pos.pawns]
    for what, piles in (("hand", pos.hands), ("discard", pos.discards)):
        out += [(KEY, " ".join([what, deck, *cards])) for deck, cards in piles if cards]
    if pos.victim is not None:
        out.append((KEY, f"victim {pos.victim}"))
    return out
