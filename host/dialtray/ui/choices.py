"""The decisions on offer, grouped as a person looks for them: by figure, then by kind — where
it may move (squares that light up on the board), whom it may attack (figures that light up),
and its other decisions — with the decisions that name no figure apart.

Only the notation's words are read (a decision's verb, the figure labels and square names it
names), so this knows no rules: every text offered is one the engine listed as legal, and the
full list stays on the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

SQUARE = re.compile(r"^(?:[a-z]{1,2}\d{1,3}|-?\d+,-?\d+)$")  # an Aces square, a Sky Ace cell
TARGET_FIRST = {"attack"}  # Sky Ace: ``attack <target> <cards>`` names only the target
ATTACKS = ("shoot", "close", "capture", "attack")
VERBS = {"move": "move", "shoot": "shoot at", "close": "close combat with",
         "capture": "try to capture", "plan": "plan", "speed": "speed", "throttle": "throttle",
         "pass": "pass", "fate": "use fate", "no-fate": "no fate", "nofate": "no fate",
         "escape": "try to escape", "breakaway": "break away", "withdraw": "withdraw",
         "secondwind": "second wind", "moved": "moved", "left": "left the play area",
         "attack": "attack", "knock": "knock a card at", "discard": "discard",
         "layout": "lay out towards"}


def group(legal: Sequence[str], figures: Iterable[str],
          order: Sequence[str] = ()) -> dict[str, Any]:
    """``{"figures": [{"label", "moves", "targets", "other"}], "general": [...], "count"}``;
    each decision ``{"text", "label"}`` (+ ``"to"``: a square, ``"target"``: a figure).
    Figures of ``order`` (the seat to decide's) come first, in that order."""
    labels = set(figures)
    own = order[0] if len(order) == 1 else None  # a seat with one figure (a Sky Ace pawn)
    by: dict[str, dict[str, Any]] = {}
    general: list[dict[str, str]] = []
    for text in legal:
        words = text.split()
        if not words:
            continue
        verb = words[0]
        named = next((w for w in words[1:] if w in labels), None)
        fig = named if verb not in TARGET_FIRST else own
        if fig is None and own is not None and len(words) > 1 and SQUARE.match(words[1]):
            fig = own  # a move to a cell: the seat's own figure moves
        if fig is None:
            general.append({"text": text, "label": _words(words)})
            continue
        g = by.setdefault(fig, {"label": fig, "moves": [], "targets": [], "other": []})
        rest = [w for w in words[1:] if w != fig or verb in TARGET_FIRST]
        target = next((w for w in rest if w in labels and w != fig), None)
        if verb == "move" and rest and SQUARE.match(rest[0]):
            extra = " ".join(rest[1:])
            g["moves"].append({"text": text, "label": f"move to {rest[0]}"
                               + (f" with {extra}" if extra else ""), "to": rest[0]})
        elif target is not None and (verb in ATTACKS or verb in TARGET_FIRST):
            how = " ".join(w for w in rest if w != target)
            how = "with no card" if how == "-" else f"with {how}" if verb == "attack" else how
            label = f"{VERBS.get(verb, verb)} {target}" + (f" ({how})" if how else "")
            g["targets"].append({"text": text, "label": label, "target": target})
        else:
            g["other"].append({"text": text, "label": " ".join([VERBS.get(verb, verb), *rest])})
    first = [f for f in order if f in by]
    out = [by[f] for f in first] + [by[f] for f in sorted(by) if f not in first]
    return {"figures": out, "general": general, "count": len(legal)}


def _words(words: list[str]) -> str:
    return " ".join([VERBS.get(words[0], words[0]), *words[1:]])
