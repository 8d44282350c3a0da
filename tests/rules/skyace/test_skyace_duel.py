"""The basic game (1.4 FIGHTING THE DUEL) through the engine, with physical decks typed in."""

from __future__ import annotations

import pytest
from dialtray.rules.core.dice import ManualDice, SeededDice
from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.core.events import Event
from dialtray.rules.core.game import TABLE, state_json
from dialtray.rules.skyace import SkyAceGame
from dialtray.rules.skyace import events as ev
from dialtray.rules.skyace.actions import Draw
from dialtray.rules.skyace.flow import draw_ready
from dialtray.rules.skyace.state import SkyAceState, fold_event
from skyace_helpers import duel, feed

SKY = ["AS", "4S", "2C", "6C", "8C", "10C"]
TWI = ["KH", "2D", "4D", "6D", "8D", "10D"]


def refused(g: SkyAceGame, text: str, rule: str) -> IllegalActionError:
    """The action is refused naming ``rule`` and nothing changes."""
    before = (state_json(g), len(g.history))
    with pytest.raises(IllegalActionError) as info:
        g.apply(text)
    assert info.value.mechanic == rule, str(info.value)
    assert (state_json(g), len(g.history)) == before
    return info.value


def test_sa_m15_preparation_sa_m02_hands_equal_life_sa_m16_turn_order() -> None:
    """SA-M15 "Preparation steps": LIFE 5, a start card each with the pawn on it, the first
    player arranges them, hands of 5 (SA-M02); SA-M16: the higher start card goes first."""
    g = SkyAceGame.duel(ManualDice(), physical=True)
    assert g.to_move() == TABLE
    feed(g, {"P1": ["3C"], "P2": ["QH"]})
    assert g.state.order == ["P2", "P1"] and g.to_move() == "P2"  # the Queen outranks the 3
    g.apply("layout 1,0")
    feed(g, {"P1": ["2C", "4C", "6C", "8C", "10C"], "P2": ["2D", "4D", "6D", "8D", "10D"]})
    st = g.state
    assert [p.life for p in st.pawns.values()] == [5, 5]
    assert [len(st.hands[s]) for s in ("P1", "P2")] == [5, 5]
    assert st.pawns["P2"].cell == (0, 0) and st.pawns["P1"].cell == (1, 0)
    assert g.to_move() == "P2"


def test_sa_m17_start_layout_keeps_the_checkerboard_and_sa_a06_either_diagonal() -> None:
    """SA-M17 "Starting layout": a red and a black card sit side by side or head to head; two
    cards of one colour only diagonally, Digit or Clear at the first player's choice (SA-A06)."""
    g = SkyAceGame.duel(ManualDice(), physical=True)
    feed(g, {"P1": ["AS"], "P2": ["KS"]})
    assert sorted(a.text() for a in g.legal_actions()) == [
        "layout -1,-1", "layout -1,1", "layout 1,-1", "layout 1,1"]
    refused(g, "layout 1,0", "SA-M17")
    refused(g, "layout 3,3", "SA-M17")


def test_sa_m16_tied_start_cards_redraw_sa_a05() -> None:
    """SA-A05: tied start cards (two Kings) are drawn again; the new cards decide the order only
    and go to the discard pile, the Kings stay as the playmat cards."""
    g = SkyAceGame.duel(ManualDice(), physical=True)
    feed(g, {"P1": ["KC"], "P2": ["KD"]})
    assert g.state.pending == [("P1", "tie", "P1"), ("P2", "tie", "P2")]
    feed(g, {"P1": ["2C"], "P2": ["9D"]})
    assert g.state.order == ["P2", "P1"] and g.state.piles["P1"].discard == ["2C"]
    g.apply("layout 1,0")
    assert g.state.top((0, 0)) == "KD" and g.state.top((1, 0)) == "KC"


def test_sa_m18_maneuver_adjacent_to_both_pawns_and_sa_m09_checkerboard() -> None:
    """SA-M18 "Maneuver": the card goes to a cell adjacent to both pawns and the pawn moves onto
    it; SA-M09: a black card on a red cell is refused; SA-A13: not onto a pawn's card."""
    g = duel(SKY, TWI)  # P1 AS at 0,0 (black), P2 KH at 1,0 (red)
    cells = {a.text().split()[1] for a in g.legal_actions()}
    assert cells == {"1,-1", "1,1", "2,0"}  # black cards: not the red 0,-1 and 0,1; 2,0 knocks
    refused(g, "move 0,1 4S", "SA-M09")  # 0,1 is red
    refused(g, "move -1,0 4S", "SA-M18")  # adjacent to P1 only
    refused(g, "move 1,0 4S", "SA-A13")
    refused(g, "move 1,1 9H", "SA-M18")  # not in hand
    g.apply("move 1,1 4S")
    assert g.state.pawns["P1"].cell == (1, 1) and g.state.top((1, 1)) == "4S"


def test_sa_m22_head_hand_to_hand_sa_m25_attacker_redraws_before_defence_sa_m34_sa_m31() -> None:
    """SA-M22: the target above the attacker's card is on its Head: Hand-to-Hand, (HE) for Sky
    Ace. SA-M34: the 4S played to maneuver counts once, as the attacker's card (4 + 1 = 5).
    Twilight (HO) has no Odd: difference 5, 2 LIFE (SA-M29); her 5 cards exceed LIFE 3, so she
    discards 2 of her choice (SA-M31) before the turn passes (SA-M32)."""
    g = duel(SKY, TWI)
    g.apply("move 1,1 4S")
    events = g.apply("attack P2 2C 6C 8C 10C")
    att = next(e for e in events if isinstance(e, ev.Attacked))
    assert (att.attack_type, att.successes) == ("H", 5)
    # SA-M25: the attacker's 5 redraws come before the defence: Twilight is untouched yet
    assert g.state.pawns["P2"].life == 5 and g.to_move() == TABLE and g.state.phase == "defend"
    assert not any(isinstance(e, ev.Defended) for e in events)
    feed(g, {"P1": ["3C", "5C", "7C", "9C", "JC"]})
    assert g.state.pawns["P2"].life == 3
    assert g.to_move() == "P2" and g.state.phase == "discard"
    refused(g, "move 0,0 2D", "SA-M31")
    refused(g, "discard P2 2D", "SA-M31")  # exactly 2
    g.apply("discard P2 2D 4D")
    assert g.state.hands["P2"] == ["6D", "8D", "10D"]
    assert g.state.active() is g.state.pawns["P2"] and g.state.phase == "maneuver"  # SA-M32


def test_sa_m19_cards_stack_and_sa_m20_jokers_fit_any_cell() -> None:
    """SA-M19 "Stacking": a card may go on top of another, keeping the colour of the cell; the
    top card is the one a pawn rests on. SA-M20: a Joker can be played anywhere and takes the
    colour of its cell."""
    g = duel(["AS", "4S", "JK", "6C", "8C", "10C"], ["KH", "2D", "4D", "6D", "8D", "10S"])
    g.apply("move 0,1 JK")  # a red cell: only the Joker of this black hand fits it
    assert g.state.mat[(0, 1)] == [("P1", "JK", "red")]
    g.apply("attack P2 -")
    feed(g, {"P1": ["2H"]})
    refused(g, "move 0,0 8D", "SA-M09")  # 0,0 is black
    g.apply("move 0,0 10S")
    assert [c for _, c, _ in g.state.mat[(0, 0)]] == ["AS", "10S"]
    assert g.state.top((0, 0)) == "10S" and g.state.pawns["P2"].cell == (0, 0)


def test_sa_m21_knock_back_pushes_the_target_and_sa_a07_keeps_the_attack_type() -> None:
    """SA-M21 "Knock-back": the card goes directly behind the target, which moves onto it; the
    attack follows with the type of the original direction (SA-A07) and the new card under the
    target. SA-A08: only from a pawn adjacent to its target."""
    g = duel(["AS", "4S", "2C", "6C", "8C", "10C"], ["KS", "2D", "4D", "6D", "8D", "10D"],
             layout="1,1")  # Twilight on Sky Ace's Digit card
    refused(g, "knock 2,3 4S", "SA-M21")
    g.apply("knock 2,2 4S")
    st = g.state
    assert st.pawns["P2"].cell == (2, 2) and st.pawns["P1"].cell == (0, 0)
    assert st.knocked == ("P2", "D")
    refused(g, "attack P1 -", "SA-M21")
    att = next(e for e in g.apply("attack P2 -") if isinstance(e, ev.Attacked))
    assert att.attack_type == "D"


def test_sa_a09_basic_attack_is_mandatory_and_pass_only_when_stuck() -> None:
    """SA-A09: no ``hold`` in the basic game (0 cards is the way not to attack); SA-M18: a card is
    played every turn without exception, so ``pass`` only when none can be."""
    g = duel(SKY, TWI)
    refused(g, "pass", "SA-M18")
    g.apply("move 1,1 4S")
    refused(g, "hold", "SA-A09")


def test_sa_m22_attack_type_the_positions_do_not_give_is_refused() -> None:
    """SA-M22 "Attack type": only a pawn on an adjacent card can be attacked, only by an enemy."""
    g = duel(SKY, TWI)
    refused(g, "attack P2 -", "SA-M22")  # maneuver first
    g.apply("move 1,1 4S")
    refused(g, "attack P1 -", "SA-M22")
    refused(g, "attack P2 9H", "SA-M23")  # a card not in hand


def test_sa_m30_defeat_at_zero_life_ends_the_duel() -> None:
    """SA-M30 "Defeat": LIFE reduced to zero or less loses the duel; nothing is legal after."""
    g = SkyAceGame.duel(SeededDice(5))
    from dialtray.rules.skyace.bots import GreedyBot

    bot = GreedyBot(1)
    while g.outcome() is None:
        g.apply(bot.choose(g))
    out = g.outcome()
    assert out is not None and out.termination in ("knock-out", "turn limit")
    if out.termination == "knock-out":
        loser = next(p for p in g.state.pawns.values() if p.out)
        assert loser.life == 0 and out.winner != loser.seat
    assert g.to_move() is None and g.legal_actions() == []
    refused(g, "deal", "SA-M30")


def test_sa_m33_empty_draw_pile_reshuffles_and_sa_a12_nothing_left_skips() -> None:
    """SA-M33 "Empty draw pile": the discards become the new draw pile; SA-A12: with neither,
    the draw is not made (the hand stays below LIFE)."""
    g = SkyAceGame.duel(SeededDice(1))
    st = SkyAceState()
    for e in g.setup_events:
        fold_event(st, e)
    st.piles["P1"].draw, st.piles["P1"].discard = [], ["3C", "9H"]
    st.pending = [("P1", "hand", "P1")]
    out: list[Event] = []

    def emit(e: Event) -> None:
        fold_event(st, e)
        out.append(e)

    assert not draw_ready(st, emit) and out == [ev.Reshuffled("P1", 2)]
    assert st.piles["P1"].draw == ["3C", "9H"] and draw_ready(st, emit)
    st.piles["P1"].draw = []
    assert not draw_ready(st, emit) and out[-1] == ev.DrawSkipped("P1", "hand", "P1")
    assert st.pending == []


def test_sa_m01_physical_deck_refuses_a_card_on_the_mat_or_in_a_discard_pile() -> None:
    """SA-M01 "Per-player kit": each deck holds each card once (two Jokers): a typed-in card that
    is on the playmat, in a discard pile or in a hand is refused, state unchanged."""
    g = duel(SKY, TWI)
    g.apply("move 1,1 4S")
    g.apply("attack P2 2C 6C 8C 10C")
    e = refused(g, "draw P1 AS", "SA-M01")
    assert "playmat at 0,0" in str(e)
    assert "discard pile" in str(refused(g, "draw P1 2C", "SA-M01"))
    refused(g, "draw P2 3C", "SA-M02")  # P1's redraw comes first
    g.apply(Draw("P1", "JK"))
    g.apply(Draw("P1", "JK"))
    assert "hand" in str(refused(g, "draw P1 JK", "SA-M01"))


def test_sa_a19_three_hero_basic_game_last_standing_wins() -> None:
    """SA-A19: more than two heroes in the basic game: the first player lays every start card
    next to one already laid (SA-M17), a maneuver goes next to one's own pawn and *an*
    opponent's, the attack names its target; the last hero standing wins (SA-M30)."""
    from dialtray.rules.skyace.bots import GreedyBot, RandomBot

    g = SkyAceGame.duel(ManualDice(), ("sky-ace-1.3", "twilight", "sky-ace"), physical=True)
    feed(g, {"P1": ["AS"], "P2": ["KH"], "P3": ["QS"]})
    assert g.state.order == ["P1", "P2", "P3"] and g.to_move() == "P1"
    refused(g, "layout 1,1", "SA-M17")  # KH is red: not on a black diagonal
    g.apply("layout 1,0")
    assert {a.text() for a in g.legal_actions()} >= {"layout 2,0", "layout -1,-1", "layout -1,1"}
    assert "layout 0,1" not in {a.text() for a in g.legal_actions()}  # QS is black
    refused(g, "layout 1,0", "SA-M17")
    g.apply("layout -1,-1")
    assert g.state.pending and g.state.pawns["P3"].cell == (-1, -1)
    for seed in range(30):
        h = SkyAceGame.duel(SeededDice(seed), ("sky-ace-1.3", "twilight", "sky-ace"))
        bots = (GreedyBot(seed), RandomBot(seed))
        while h.outcome() is None:
            seat = h.to_move()
            h.apply(bots[0 if seat == "P1" else 1].choose(h))
        out = h.outcome()
        assert out is not None
        standing = [p.seat for p in h.state.pawns.values() if not p.out]
        if out.termination == "knock-out":
            assert len(standing) == 1 and out.winner == standing[0]
