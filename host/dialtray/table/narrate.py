"""Every resolved step in the words a player would say, with the numbers behind it.

"B3 fires at A1 (front guns, point blank): 4 dice need 5+, rolled 5 2 6 1 → 2 hits", then
"A1's combat dial 2 clicks clockwise (AA-M47)", "A1 shot down — P2 scores 80 VP". An event the
engine words itself (``Event.text``) is used as it is; an event with no wording of its own is
put in words from its fields — never a Python repr (``GunState(plane=B1, …)``), a dict or a
tuple. ``plain`` is the last guard: a line that still looks like code is reworded.

Reads the engine's events by their type name and fields only (no engine is imported).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any

from dialtray.rules.core.events import Event

REPR = re.compile(r"\b[A-Z]\w*\((\w+=)|\{'|\{\"|\[\(|\[[\d'\"]|\(\)|<\w+ object|\w+=\w")
"""What a Python repr, dict or tuple looks like on a screen."""
QUIET = ("PhaseChanged", "ShooterTurn", "Acted", "TurnStarted", "ThrottleDone")
"""Events that say only what the header shows already."""


def _words(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower().replace("_", " ")


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list | tuple | set | frozenset):
        return " ".join(_value(x) for x in v) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{_words(str(k))} {_value(x)}" for k, x in v.items()) or "none"
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return " ".join(_value(getattr(v, f.name)) for f in dataclasses.fields(v))
    return str(v).replace("_", " ")


def fields_in_words(e: Any) -> str:
    """An event without its own wording: ``gun state: plane B2, gun turret gun, state fired``."""
    name = _words(type(e).__name__)
    if not (dataclasses.is_dataclass(e) and not isinstance(e, type)):
        return name
    parts = []
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if v is None or v == () or v == "" or v == []:
            continue
        parts.append(f"{_words(f.name)} {_value(v)}")
    return f"{name}: {', '.join(parts)}" if parts else name


def plain(text: str) -> str:
    """The guard: a line that looks like code loses its brackets and ``name=`` pairs."""
    if not REPR.search(text):
        return text
    text = re.sub(r"\b([A-Z]\w*)\(", lambda m: _words(m.group(1)) + ": ", text)
    text = re.sub(r"(\w+)=", lambda m: _words(m.group(1)) + " ", text)
    return re.sub(r"[{}\[\]()'\"]", "", text).replace("<", "").replace(">", "")


def event_text(e: Any) -> str:
    """One event in words: its own wording, or its fields in words."""
    own = type(e).text is not Event.text if isinstance(e, Event) else hasattr(e, "text")
    return plain(e.text() if own else fields_in_words(e))


def _hits(faces: Sequence[int], need: int) -> int:
    return sum(1 for f in faces if f >= need)


def _shot(e: Any, action: Any) -> str:
    """Air Action's ShotRolled with the facts of the shot that rolled it (AA-M36..M45)."""
    facts = [f"{e.weapon} guns"]
    if getattr(action, "rear_arc", False):
        facts.append("in the rear arc")
    if getattr(action, "point_blank", False):
        facts.append("point blank")
    if e.offensive_fate:
        facts.append("with fate")
    n = _hits(e.faces, e.target_number)
    faces = " ".join(map(str, e.faces)) or "nothing"
    return (f"{e.plane} fires at {e.target} ({', '.join(facts)}): {e.dice} dice need "
            f"{e.target_number}+, rolled {faces} → {n} hit{'' if n == 1 else 's'}")


def _clicks(n: int) -> str:
    return f"{abs(n)} click{'' if abs(n) == 1 else 's'}"


def hidden_draws(game: Any, people: Sequence[str]) -> Callable[[Any], bool]:
    """Which Sky Ace draws are told without their card (D-SA-15: a hand is held, not shown):
    a card drawn into the hand of a pawn whose seat is not one of ``people`` (the seats a person
    takes at this terminal or page). With nobody seated (bots only, a demo) every card is told.
    The store and the judge keep every card: this is only what a screen says."""
    seated = frozenset(people)

    def hidden(e: Any) -> bool:
        if not seated or getattr(e, "dest", "") != "hand":
            return False
        pawns = getattr(getattr(game, "state", None), "pawns", {})
        pawn = pawns.get(getattr(e, "pawn", ""))
        return pawn is not None and pawn.seat not in seated

    return hidden


def entry_lines(who: str, action: Any, events: Sequence[Any],
                hidden: Callable[[Any], bool] | None = None) -> list[str]:
    """What one applied action did: who decided what, then each event in words (the quiet ones
    left out), shots and damage with their numbers, a figure lost with the VP it scored; a
    rival's drawn card (``hidden``, see :func:`hidden_draws`) without the card."""
    out = [f"{who} played: {plain(action.text())}"]
    scored: dict[str, str] = {}
    for e in events:
        name = type(e).__name__
        if name == "VPScored" and getattr(e, "plane", None):
            scored[e.plane] = f"{e.player} scores {e.points} VP"
    for e in events:
        name = type(e).__name__
        if name in QUIET:
            continue
        if name == "ShotRolled":
            out.append(_shot(e, action))
        elif name == "DamageClicks":
            out.append(f"{e.plane}'s combat dial {_clicks(e.clicks)} clockwise ({e.cause})")
        elif name == "PlaneRemoved":
            how = "shot down" if "shot" in e.reason or e.shot_by else e.reason
            by = f" by {e.shot_by}" if e.shot_by else ""
            vp = scored.pop(e.plane, "")
            out.append(f"{e.plane} {how}{by}" + (f" — {vp}" if vp else ""))
        elif name == "VPScored" and e.plane not in scored:
            continue  # said with the plane it was scored for
        elif name == "Drew" and hidden is not None and hidden(e):
            out.append(f"{e.deck} draws a card ({e.dest} for {e.pawn})")
        else:
            out.append(event_text(e))
    return out


def score_rows(outcome: Any, seats: Sequence[str], roles: dict[str, str]) -> list[list[str]]:
    """The final scores as rows: seat, who played it, VP, and the winner marked."""
    rows = []
    for seat in seats:
        vp = outcome.vp.get(seat, 0) if outcome is not None else 0
        mark = "winner" if outcome is not None and outcome.winner == seat else ""
        rows.append([seat, roles.get(seat, ""), str(vp), mark])
    return rows
