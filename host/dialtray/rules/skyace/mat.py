"""The playmat: a grid of cells holding stacks of cards, the red/black checkerboard, and the
relation of one pawn's card to another's (SA-M08..SA-M14, SA-M19, SA-M20, SA-A04).

Cells are ``(x, y)``: x grows to the right, y grows downwards (towards the player), every card in
portrait orientation. SA-A04: the digit corners of a card are its upper-left and lower-right, so
the diagonal neighbours at (-1,-1) and (+1,+1) are Digit cards and those at (+1,-1) and (-1,+1)
are Clear cards. The relation is symmetric, so the defence type equals the attack type.

>>> [relation((0, 0), c) for c in ((0, 1), (1, 0), (1, 1), (1, -1))]
['H', 'S', 'D', 'C']
"""

from __future__ import annotations

from dialtray.rules.skyace.cards import BLACK, RED

Cell = tuple[int, int]

NEIGHBOURS: tuple[Cell, ...] = (
    (-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
"""SA-M08 "Grid": a card has at most 8 adjacent cards."""


def cell_text(c: Cell) -> str:
    return f"{c[0]},{c[1]}"


def parse_cell(text: str) -> Cell:
    x, sep, y = text.partition(",")
    if not sep:
        raise ValueError(f"{text!r} is not a cell 'x,y'")
    return int(x), int(y)


def adjacent(a: Cell, b: Cell) -> bool:
    """SA-M08: one of the eight cells around."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


DIGITS_UL_LR = "ul-lr"  # indices top-left and bottom-right (most decks; the default, SA-A04)
DIGITS_UR_LL = "ur-ll"  # a deck printed the other way
DIGIT_LAYOUTS = (DIGITS_UL_LR, DIGITS_UR_LL)


def relation(attacker: Cell, target: Cell, digits: str = DIGITS_UL_LR) -> str | None:
    """The target's card as seen from the attacker's (Active) card: SA-M10 Head (above/below,
    ``H``), SA-M11 Side (left/right, ``S``), SA-M12 Digit (diagonal at a digit corner, ``D``),
    SA-M13 Clear (diagonal at a clear corner, ``C``); None if not adjacent. The letter is also
    the attack type (SA-M22). ``digits`` says which corners of the deck's cards carry the
    index (SA-A04, header ``Digit-corners:``)."""
    dx, dy = target[0] - attacker[0], target[1] - attacker[1]
    if not adjacent(attacker, target):
        return None
    if dx == 0:
        return "H"
    if dy == 0:
        return "S"
    main = dx == dy
    return "D" if main == (digits == DIGITS_UL_LR) else "C"


def behind(attacker: Cell, target: Cell) -> Cell:
    """SA-M21 "Knock-back": the cell "directly behind" the target in a straight line from the
    attacker (a Side target goes to the Side card one step away, and so on)."""
    return (2 * target[0] - attacker[0], 2 * target[1] - attacker[1])


def cell_colour(c: Cell, red_parity: int) -> str:
    """SA-M09 "Checkerboard": orthogonal neighbours differ in colour, diagonal ones share it; the
    colour of a cell follows from the parity of x + y once one card fixed which parity is red."""
    return RED if (c[0] + c[1]) % 2 == red_parity else BLACK


def parity_for(c: Cell, colour: str) -> int:
    """The red parity that makes cell ``c`` the given colour (the first card fixes it)."""
    p = (c[0] + c[1]) % 2
    return p if colour == RED else 1 - p
