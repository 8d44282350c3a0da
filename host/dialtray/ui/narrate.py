"""The move list: each decision of the game in plain words with what it caused and the clicks
it made, as the page's narrated move list shows it (lichess's move list for clix games).

Generic over every engine: an event is named by its kind in words (``AttackRolled`` → "attack
rolled") with its facts as words and numbers (never a Python repr); a dial change says the
figure, the dial, the clicks, the direction and the rule. Bookkeeping events (an action begun,
a turn passed) are left out. (The table package's narration, when it exists, replaces this.)
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

QUIET = {"ActionBegun", "ActionEnded", "TurnPassed", "AttackResolved", "MoveReported",
         "PhaseBegun", "PhaseEnded"}
MAX_LINES = 200


def words(name: str) -> str:
    """``AttackRolled`` → ``attack rolled``; ``VPScored`` → ``VP scored``."""
    parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name)
    return " ".join(p if p.isupper() and len(p) > 1 else p.lower() for p in parts)


def value(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list | tuple | set | frozenset):
        return " ".join(value(x) for x in v)
    if isinstance(v, dict):
        return ", ".join(f"{k} {value(x)}" for k, x in v.items())
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return " ".join(value(getattr(v, f.name)) for f in dataclasses.fields(v))
    return str(v)


def event_text(e: Any) -> str | None:
    name = type(e).__name__
    if name in QUIET:
        return None
    facts = []
    if dataclasses.is_dataclass(e):
        for f in dataclasses.fields(e):
            v = getattr(e, f.name)
            if v is None or v == "" or v == () or v == [] or v == {}:
                continue
            facts.append(f"{f.name.replace('_', ' ')} {value(v)}")
    return words(name) + (": " + ", ".join(facts) if facts else "")


def change_text(c: Any) -> str:
    if c.direction == "set":
        return f"{c.figure}'s {c.dial} dial set to click {c.to_click}"
    rule = f" ({c.rule_id})" if getattr(c, "rule_id", "") else ""
    return (f"{c.figure}'s {c.dial} dial {c.clicks} click{'s' if c.clicks != 1 else ''} "
            f"{c.direction}{rule}")


def entry(n: int, who: str | None, e: Any) -> dict[str, Any]:
    """One numbered line of the move list: who decided what, and what it caused."""
    caused = [t for t in (event_text(x) for x in e.events) if t]
    return {"n": n, "who": who or "", "text": e.action.text(), "caused": caused,
            "clicks": [change_text(c) for c in e.dial_changes]}


class MoveList:
    """The move list of one game, built once per entry (the seat that decided each is read
    before it is applied: ``note_mover``)."""

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self._movers: dict[int, str] = {}

    def note_mover(self, index: int, seat: str | None) -> None:
        self._movers.setdefault(index, seat or "")

    def update(self, history: Any) -> list[dict[str, Any]]:
        n = len(history)
        if n < len(self.lines):  # an undo
            del self.lines[n:]
        for i in range(len(self.lines), n):
            self.lines.append(entry(i + 1, self._movers.get(i), history[i]))
        return self.lines[-MAX_LINES:]
