"""Errors shared by every rule set.

Like python-chess's ``IllegalMoveError``, every refusal is a ``ValueError`` that says what was
tried and which rule forbids it: the mechanic id from ``rules-inventory.md`` and the heading of the
seed rule text it comes from.
"""

from __future__ import annotations


class RuleRef:
    """A pointer into the rules: mechanic id (``AA-M20``) and the seed text's heading."""

    __slots__ = ("heading", "mechanic")

    def __init__(self, mechanic: str, heading: str) -> None:
        self.mechanic = mechanic
        self.heading = heading

    def __str__(self) -> str:
        return f'{self.mechanic} "{self.heading}"'

    def __repr__(self) -> str:
        return f"RuleRef({self.mechanic!r}, {self.heading!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, RuleRef)
            and other.mechanic == self.mechanic
            and other.heading == self.heading
        )

    def __hash__(self) -> int:
        return hash((self.mechanic, self.heading))


class IllegalActionError(ValueError):
    """An action the rules do not allow now. The game state is left unchanged.

    >>> e = IllegalActionError("throttle A1 +3", "at most 2 clicks", "AA-M20", "Set Throttle")
    >>> str(e)
    'throttle A1 +3: at most 2 clicks [AA-M20 "Set Throttle"]'
    """

    def __init__(self, action: str, reason: str, mechanic: str, heading: str) -> None:
        self.action = action
        self.reason = reason
        self.rule = RuleRef(mechanic, heading)
        super().__init__(f"{action}: {reason} [{self.rule}]")

    @property
    def mechanic(self) -> str:
        return self.rule.mechanic

    @property
    def heading(self) -> str:
        return self.rule.heading


class InvalidActionError(ValueError):
    """Text that does not parse as an action of this game (a syntax error, not a rules one)."""


class DiceError(ValueError):
    """A dice source could not supply the faces asked for (exhausted, or a face out of range)."""


class CatalogueError(ValueError):
    """A malformed figure file: names the file, the figure and the field at fault.

    >>> str(CatalogueError("f.json", "loyle", "combat_dial[3].piloting", "must be an integer"))
    'f.json: figure loyle: field combat_dial[3].piloting: must be an integer'
    """

    def __init__(self, file: str, figure: str, field: str, message: str) -> None:
        self.file = file
        self.figure = figure
        self.field = field
        self.message = message
        who = "" if figure in ("", "-") else f"figure {figure}: "  # "-": not about one figure
        super().__init__(f"{file}: {who}field {field}: {message}")


class NotationError(ValueError):
    """A game-log line that cannot be replayed; carries ``file:line``."""

    def __init__(self, file: str, line: int, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message
        super().__init__(f"{file}:{line}: {message}")
