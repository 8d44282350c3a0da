"""The decisions offered to whoever is to move, as a person scans them: grouped by figure and by
kind (``A1 shoot``, ``louis move``), the common case first in each group (the plain shot before
its fate variant, a move before a pass), the groups of moves and shots before passes.

And the bookkeeping steps that have one sensible answer (``moved A1`` when nobody says the plane
left the table, ``overlaps-done`` when nobody reports an overlap, ``pass A1`` when a plane has no
shot): ``bookkeeping`` names the action the table takes unless a player objects.

Reads only the notation of the engine's legal actions (every engine's ``action.text()``): no
engine is imported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

FIGURE = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
LATE_VERBS = ("pass", "nofate", "breakaway", "overlaps-done", "end", "endgame")
"""Kinds of decision shown after the others: the do-nothing answers."""
OPTIONAL = ("fate", "+fate", "bail")
"""Words that make a decision the uncommon variant of another (spending fate, bailing out)."""


@dataclass(frozen=True)
class Offer:
    """One decision: ``text`` is what to type (the notation), exactly."""

    text: str


@dataclass(frozen=True)
class OfferGroup:
    """The decisions of one kind for one figure (``figure`` "" when they name none)."""

    figure: str
    kind: str
    offers: tuple[Offer, ...]

    @property
    def title(self) -> str:
        return f"{self.figure} {self.kind}".strip()


def _figure_of(words: Sequence[str], figures: set[str]) -> str:
    for w in words[1:]:
        if w in figures:
            return w
    return ""


def _rank(text: str) -> int:
    """How uncommon a variant is: each optional word (fate, +rear-arc…) counts one."""
    return sum(1 for w in text.split()[1:] if w in OPTIONAL or w.startswith("+"))


def group(texts: Iterable[str], figures: Iterable[str]) -> list[OfferGroup]:
    """``texts`` in the engine's order → groups, each common case first (stable)."""
    figs = set(figures)
    groups: dict[tuple[str, str], list[str]] = {}
    for text in texts:
        words = text.split()
        if not words:
            continue
        key = (_figure_of(words, figs), words[0])
        groups.setdefault(key, []).append(text)
    order = list(groups)
    order.sort(key=lambda k: k[1] in LATE_VERBS)  # stable: the engine's order otherwise
    return [OfferGroup(fig, verb, tuple(Offer(t) for t in sorted(groups[(fig, verb)],
                                                                 key=_rank)))
            for fig, verb in order]


def flat(groups: Sequence[OfferGroup]) -> list[str]:
    """Every offer's text, in the grouped order."""
    return [o.text for g in groups for o in g.offers]


def bookkeeping(legal: Sequence[Any]) -> Any | None:
    """The one sensible answer to a bookkeeping step, or None when it is a real decision.

    A step is bookkeeping when every legal answer reports a fact of the table (``moved``,
    ``left``, ``overlap``, ``overlaps-done``) or when the only answers are passes: the default
    is the uneventful fact (``moved X``, ``overlaps-done``) or the pass."""
    if not legal:
        return None
    texts = [a.text() for a in legal]
    verbs = {t.split()[0] for t in texts}
    if verbs <= {"moved", "left", "obstacle"}:
        return next((a for a, t in zip(legal, texts, strict=True) if t.startswith("moved ")),
                    None)
    if verbs <= {"overlap", "overlaps-done"} and "overlaps-done" in verbs:
        return next(a for a, t in zip(legal, texts, strict=True) if t == "overlaps-done")
    if verbs == {"pass"} and len(texts) == 1:
        return legal[0]
    return None
