"""A player's squadron checked against the catalogue and the event's limit before it is entered.

AA-M08 **Build total**: the event's limit is a multiple of 100 and the squadron's total (each
plane's level points, plus its Ace's, AA-M10) must not exceed it. AA-M09 **Pilot uniqueness**: no
two planes flown by the same pilot. AA-M10 **Aces as pilots**: an Ace only in events of ≥ 300
points, and only on a plane whose figure names that Ace. Each refusal names the rule and the
plane.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dialtray.rules.airaction.catalogue import Catalogue


class SquadError(ValueError):
    """A squadron that breaks a rule; the message names the rule id and the plane."""


def check_limit(limit: int) -> None:
    if limit <= 0 or limit % 100:
        raise SquadError(f"AA-M08: the build total must be a positive multiple of 100, not "
                         f"{limit}")


def squad_total(cat: Catalogue, squad: Sequence[dict[str, Any]], limit: int) -> int:
    """The squadron's total in points; SquadError names what breaks AA-M08/M09/M10."""
    check_limit(limit)
    if not squad:
        raise SquadError("AA-M08: a squadron needs at least one plane")
    total = 0
    pilots: dict[str, int] = {}
    for i, plane in enumerate(squad, 1):
        fid = plane.get("figure")
        if fid not in cat.figures:
            raise SquadError(f"plane {i}: no figure {fid!r} in the catalogue")
        fig = cat.figures[fid]
        level = plane.get("level", "rookie")
        if level not in fig.levels:
            raise SquadError(f"plane {i} ({fid}): no level {level!r} (known: "
                             f"{', '.join(sorted(fig.levels))})")
        total += fig.levels[level].points
        if fig.pilot in pilots:
            raise SquadError(f"AA-M09: plane {i} ({fid}) is flown by {fig.pilot}, like plane "
                             f"{pilots[fig.pilot]}")
        pilots[fig.pilot] = i
        ace = plane.get("ace")
        if ace is not None:
            if limit < 300:
                raise SquadError(f"AA-M10: plane {i} ({fid}): Aces only in events of 300 points "
                                 f"or more (this event: {limit})")
            if ace not in cat.aces:
                raise SquadError(f"plane {i}: no Ace {ace!r} in the catalogue")
            if fig.ace != ace:
                raise SquadError(f"AA-M10: plane {i} ({fid}): the Ace {ace!r} does not fly this "
                                 "figure")
            total += cat.aces[ace].points
    if total > limit:
        raise SquadError(f"AA-M08: the squadron's total is {total} points, over the event's "
                         f"limit of {limit}")
    return total
