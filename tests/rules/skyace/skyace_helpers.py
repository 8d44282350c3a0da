"""Positions built the way players build them with physical decks: every card typed in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from dialtray.rules.core.dice import ManualDice
from dialtray.rules.core.events import Event
from dialtray.rules.skyace import SkyAceGame
from dialtray.rules.skyace.actions import Draw


def feed(g: SkyAceGame, cards: Mapping[str, Iterable[str]]) -> None:
    """Type in every pending draw, each deck's cards in the order given."""
    queues = {k: list(v) for k, v in cards.items()}
    while g.state.pending:
        deck = g.state.pending[0][0]
        if not queues.get(deck):
            break
        g.apply(Draw(deck, queues[deck].pop(0)))
    left = {k: v for k, v in queues.items() if v}
    assert not left, f"cards not drawn: {left}"


def duel(p1: list[str], p2: list[str], layout: str = "1,0",
         heroes: tuple[str, str] = ("sky-ace-1.3", "twilight")) -> SkyAceGame:
    """A physical-deck duel: ``p1``/``p2`` = start card, then the 5 cards of the hand (the start
    card of P1 outranks P2's unless the test wants otherwise)."""
    g = SkyAceGame.duel(ManualDice(), heroes, physical=True)
    feed(g, {"P1": p1[:1], "P2": p2[:1]})
    g.apply(f"layout {layout}")
    feed(g, {"P1": p1[1:], "P2": p2[1:]})
    return g


def attack(g: SkyAceGame, text: str) -> list[Event]:
    """Apply an attack, then type in the attacker's redraw (SA-M25: before the defence) from
    the top of its draw pile (the pile's sorted order); every event, the defence's included."""
    out = list(g.apply(text))
    attacker = g.state.attack[0] if g.state.attack else ""
    deck = g.state.pawns[attacker].deck if attacker else ""
    while g.state.pending and g.state.pending[0][0] == deck and g.state.pending[0][1] == "hand":
        out += g.apply(Draw(deck, g.state.piles[deck].draw[0]))
    return out
