"""Tailing information in sealed-plot games (FS-M59 "Tailing conditions", FS-M60 "Tailing
Number", FS-M61 "Information revealed"; D-FS-43).

With open plots the tailed plane plots first and the engine tells its tailers what the number
allows. With sealed plots the engine cannot read a plot before the reveal, so the tailed
plane's seat *tells* it (``tell B1 L speed 4``) before any tailer's seat seals, every other plot
staying sealed; the reveal is checked against what was told.
"""

from __future__ import annotations

import re

from dialtray.rules.fasa.state import FasaState
from dialtray.rules.fasa.template import Maneuver
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
