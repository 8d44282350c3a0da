"""The move list: each decision of the game with who took it, what it caused in plain words and
the clicks it made, as the page's narrated move list shows it (lichess's move list for clix
games).

The words are the table's narration (``dialtray.table.narrate.entry_lines``: the engine's own
wording of each event, never a Python repr); a dial change adds the figure, the dial, the
clicks, the direction and the rule that made them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialtray.table.narrate import entry_lines

MAX_LINES = 200


def change_text(c: Any) -> str:
    if c.direction == "set":
        return f"{c.figure}'s {c.dial} dial set to click {c.to_click}"
    rule = f" ({c.rule_id})" if getattr(c, "rule_id", "") else ""
    return (f"{c.figure}'s {c.dial} dial {c.clicks} click{'s' if c.clicks != 1 else ''} "
            f"{c.direction}{rule}")


def entry(n: int, who: str | None, e: Any,
          hidden: Callable[[Any], bool] | None = None) -> dict[str, Any]:
    """One numbered line of the move list: who decided what, and what it caused (a rival's
    drawn card without the card: ``hidden``, D-SA-15)."""
    lines = entry_lines(who or "table", e.action, e.events, hidden)
    return {"n": n, "who": who or "", "text": e.action.text(), "caused": lines[1:],
            "clicks": [change_text(c) for c in e.dial_changes]}


class MoveList:
    """The move list of one game, built once per entry (the seat that decided each is read
    before it is applied: ``note_mover``)."""

    def __init__(self, hidden: Callable[[Any], bool] | None = None) -> None:
        self.hidden = hidden  # which draws are told without their card (D-SA-15)
        self.lines: list[dict[str, Any]] = []
        self._movers: dict[int, str] = {}

    def note_mover(self, index: int, seat: str | None) -> None:
        self._movers.setdefault(index, seat or "")

    def update(self, history: Any) -> list[dict[str, Any]]:
        n = len(history)
        if n < len(self.lines):  # an undo
            del self.lines[n:]
        for i in range(len(self.lines), n):
            self.lines.append(entry(i + 1, self._movers.get(i), history[i], self.hidden))
        return self.lines[-MAX_LINES:]
