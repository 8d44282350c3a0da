"""Tailing information in sealed-plot games (FS-M59 "Tailing conditions", FS-M60 "Tailing
Number", FS-M61 "Information revealed"; D-FS-43).

With open plots the tailed plane plots first and the engine tells its tailers what the number
allows. With sealed plots the engine cannot read a plot before the reveal, so the tailed
plane's seat *tells* it (``tell B1 L speed 4``) before any tailer's seat seals, every other plot
staying sealed; the reveal is checked against what was told.
"""

from __future__ import annotations

import re

from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.fasa.actions import Reveal, Tell
from dialtray.rules.fasa.hexmap import distance, in_arc
from dialtray.rules.fasa.state import FasaState, PlaneState
from dialtray.rules.fasa.tables import active
from dialtray.rules.fasa.template import Maneuver, parse_plot
from dialtray.rules.fasa.tn import tailing_reveal

HEADING = "Information revealed"
_DIRECTION = re.compile(r"^(L|R|S|stall)$")
_SPEED = re.compile(r"^(L|R|S|stall) speed [0-9]$")
_HEX = re.compile(r"^([0-9][LRS][0-9]?|[0-9]S)$")


def tailers_of(st: FasaState, target: str) -> list[tuple[str, int]]:
    """(tailer, tailing number) of every plane tailing ``target`` this turn."""
    return [(a, n) for a, t, n, shown in st.tailing if t == target
            and shown == "in tailing position"]


def tells_due(st: FasaState) -> list[str]:
    """Tailed planes whose seat must still tell (sealed games, the plot phase), by id."""
    if not st.sealed or st.phase != "plot":
        return []
    return sorted({t for _, t, _, shown in st.tailing if shown == "in tailing position"
                   and t not in st.told and t in st.planes and st.planes[t].flying})


def wanted(st: FasaState, target: str) -> int:
    """The most a tailer of ``target`` learns: the highest tailing number (FS-M61)."""
    return max(n for _, n in tailers_of(st, target))


def well_formed(info: str, number: int) -> bool:
    """The shape FS-M61 gives the information at ``number``: a direction (< 0), direction
    and speed (0..2), the destination hex without the facing (>= 3)."""
    pattern = _DIRECTION if number < 0 else _SPEED if number < 3 else _HEX
    return bool(pattern.match(info))


def coarser(info: str, number: int) -> str:
    """What a tailer with a lower ``number`` learns from the most detailed information."""
    if well_formed(info, number):
        return info
    if _HEX.match(info):
        speed, direction = info[0], info[1]
        info = f"{direction} speed {speed}"
    if number < 0:
        return info.split()[0]
    return info


def told_for(m: Maneuver, number: int) -> str:
    """What a plane flying ``m`` must tell at ``number`` (the reveal's check)."""
    return tailing_reveal(number, m.text(), m.direction or "stall", m.speed)


def check_tell(st: FasaState, a: Tell) -> None:
    """FS-M61 (sealed games): the tailed plane's seat tells, in the shape its number
    gives, before the tailers plot."""
    if a.plane not in tells_due(st):
        raise IllegalActionError(a.text(), f"{a.plane} has nothing to tell now (it tells "
                                 "only when tailed, in a sealed game, before the plots)",
                                 "FS-M61", HEADING)
    n = wanted(st, a.plane)
    if not well_formed(a.info, n):
        shape = ("its direction (L, R, S or stall)" if n < 0 else "direction and speed "
                 "(L speed 4)" if n < 3 else "its destination hex without the facing (4L3)")
        raise IllegalActionError(a.text(), f"at tailing number {n} it tells {shape}",
                                 "FS-M61", HEADING)


def check_told(st: FasaState, a: Reveal) -> None:
    """FS-M61: a revealed plot agrees with what its seat told the tailers."""
    for plane, text, _ in a.plots:
        if plane not in st.told:
            continue
        try:
            m = parse_plot(text)
        except ValueError:
            continue  # off the template: flown randomly (FS-M44), nothing to compare
        want = told_for(m, wanted(st, plane))
        if want != st.told[plane]:
            raise IllegalActionError(a.text(), f"{plane} told {st.told[plane]!r}; {text} "
                                     f"tells {want!r}", "FS-M61", HEADING)


def tails(a: PlaneState, t: PlaneState, turn: int) -> bool:
    """FS-M59: same facing, the leader in the follower's front arc and the follower in the
    leader's rear arc, within 3 hexes; in one hex the slower is behind; no shocked tailer."""
    if a.facing != t.facing or a.shocked(turn) or distance(a.hex, t.hex) > 3:
        return False
    if a.hex == t.hex:
        return a.speed < t.speed
    arcs = active()  # FS-M59 "DATA MISSING: the arcs diagram": arcs.json
    return in_arc(a.hex, a.facing, t.hex, arcs.front_half) and in_arc(t.hex, t.facing + 3, a.hex,
                                                                      arcs.rear_half)
