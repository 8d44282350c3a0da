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

SQUARE = re.compile(r"^[a-z]{1,2}\d{1,3}$")
ATTACKS = ("shoot", "close", "capture")
VERBS = {"move": "move", "shoot": "shoot at", "close": "close combat with",
         "capture": "try to capture", "plan": "plan", "speed": "speed", "throttle": "throttle",
         "pass": "pass", "fate": "use fate", "no-fate": "no fate", "nofate": "no fate",
         "escape": "try to escape", "breakaway": "break away", "withdraw": "withdraw",
         "secondwind": "second wind", "moved": "moved", "left": "left the play area"}


def group(legal: Sequence[str], figures: Iterable[str], order: Sequence[str] = ()) -> dict[str, Any]:
    """``{"figures": [{"label", "moves", "targets", "other"}], "general": [...], "count"}``;
    each decision ``{"text", "label"}`` (+ ``"to"``: a square, ``"target"``: a figure).
    Figures of ``order`` (the seat to decide's) come first, in that order."""
    labels = set(figures)
    by: dict[str, dict[str, Any]] = {}
    general: list[dict[str, str]] = []
    for text in legal:
        words = text.split()
        if not words:
            continue
        verb = words[0]
        fig = next((w for w in words[1:] if w in labels), None)
        if fig is None:
            general.append({"text": text, "label": _words(words)})
            continue
        g = by.setdefault(fig, {"label": fig, "moves": [], "targets": [], "other": []})
        rest = [w for w in words[1:] if w != fig]
        target = next((w for w in rest if w in labels), None)
        if verb == "move" and rest and SQUARE.match(rest[0]):
            g["moves"].append({"text": text, "label": f"move to {rest[0]}", "to": rest[0]})
        elif target is not None and (verb in ATTACKS or verb == "shoot"):
            how = " ".join(w for w in rest if w != target)
            label = f"{VERBS.get(verb, verb)} {target}" + (f" ({how})" if how else "")
            g["targets"].append({"text": text, "label": label, "target": target})
        else:
            g["other"].append({"text": text, "label": " ".join([VERBS.get(verb, verb), *rest])})
    first = [f for f in order if f in by]
    out = [by[f] for f in first] + [by[f] for f in sorted(by) if f not in first]
    return {"figures": out, "general": general, "count": len(legal)}


def _words(words: list[str]) -> str:
    return " ".join([VERBS.get(words[0], words[0]), *words[1:]])
