"""The playmat's geometry (1.1 GLOSSARY: ADJACENT, HEAD/SIDE/DIGIT/CLEAR CARD, CHECKERBOARD)."""

from __future__ import annotations

from dialtray.rules.skyace.mat import (
    NEIGHBOURS,
    adjacent,
    behind,
    cell_colour,
    parity_for,
    relation,
)
from skyace_helpers import duel


def test_sa_m08_grid_a_card_has_at_most_eight_adjacent() -> None:
    """SA-M08 "Grid": the eight cells around a card are adjacent, nothing further."""
    assert len(NEIGHBOURS) == 8 and all(adjacent((0, 0), c) for c in NEIGHBOURS)
    assert not adjacent((0, 0), (2, 0)) and not adjacent((0, 0), (0, 0))


def test_sa_m10_head_card_is_above_or_below() -> None:
    """SA-M10 "Head card": across the card's height: Hand-to-Hand."""
    assert relation((0, 0), (0, -1)) == relation((0, 0), (0, 1)) == "H"


def test_sa_m11_side_card_is_left_or_right() -> None:
    """SA-M11 "Side card": across the width: Stealth."""
    assert relation((0, 0), (-1, 0)) == relation((0, 0), (1, 0)) == "S"


def test_sa_m12_digit_card_and_sa_a04_symmetry() -> None:
    """SA-M12 "Digit card" with SA-A04: upper-left and lower-right diagonals (the corners that
    carry the index); the relation is symmetric, so the defence type equals the attack type."""
    assert relation((0, 0), (-1, -1)) == relation((0, 0), (1, 1)) == "D"
    for c in NEIGHBOURS:
        assert relation((0, 0), c) == relation(c, (0, 0))


def test_sa_m13_clear_card_is_the_other_diagonal() -> None:
    """SA-M13 "Clear card": upper-right and lower-left diagonals: Charge."""
    assert relation((0, 0), (1, -1)) == relation((0, 0), (-1, 1)) == "C"
    assert relation((0, 0), (2, 2)) is None


def test_sa_m14_active_card_is_the_top_card_under_the_active_pawn() -> None:
    """SA-M14 "Active card": the card the active player's pawn rests on (the top of its stack);
    SA-M09: orthogonal neighbours differ in colour, diagonal ones share it."""
    g = duel(["AS", "4S", "2C", "6C", "8C", "10C"], ["KH", "2D", "4D", "6D", "8D", "10D"])
    p = g.state.active()
    assert p is not None and g.state.top(p.cell) == "AS"
    g.apply("move 1,1 4S")
    assert g.state.top(g.state.pawns["P1"].cell) == "4S"
    red = parity_for((0, 0), "black")
    assert cell_colour((0, 1), red) != cell_colour((0, 0), red) == cell_colour((1, 1), red)
    assert behind((0, 0), (1, 1)) == (2, 2) and behind((0, 0), (0, 1)) == (0, 2)


def test_sa_a04_digit_corners_configurable_per_deck() -> None:
    """SA-A04: a deck whose indices sit top-right and bottom-left swaps Digit and Clear
    (header ``Digit-corners: ur-ll``); Head and Side do not change."""
    assert relation((0, 0), (1, 1), "ur-ll") == "C" and relation((0, 0), (1, -1), "ur-ll") == "D"
    assert relation((0, 0), (0, 1), "ur-ll") == "H"
    from dialtray.rules.core.notation import parse_log
    from dialtray.rules.core.replay import replay_log

    log = ("Game: skyace\nDeck: physical\nDigit-corners: ur-ll\n---\ndraw P1 AS\ndraw P2 KS\n"
           "layout 1,1\n" + "".join(f"draw P1 {c}\n" for c in ("4S", "2C", "6C", "8C", "10C"))
           + "".join(f"draw P2 {c}\n" for c in ("2D", "4D", "6D", "8D", "10D"))
           + "knock 2,2 4S\n")
    g = replay_log(parse_log(log)).game
    from dialtray.rules.skyace import SkyAceGame

    assert isinstance(g, SkyAceGame) and g.state.knocked == ("P2", "C")
