"""Aces' dials in the core dial vocabulary (``core.dials``): what the tray must see.

Every character has one combat dial (AC-M08). AC-M73: a click is a clockwise turn; damage
(AC-M36) and fate (AC-M50) turn it clockwise, healing counter-clockwise (AC-A17). The dial stops
at the KO click (``Figure.ko_click``, AC-M37): a knocked-out character is off the map
(``DialSetting.in_play`` False) and its dial shows KO (no values).
"""

from __future__ import annotations

from dialtray.rules.aces import events as ev
from dialtray.rules.aces.state import AcesState
from dialtray.rules.core.dials import COMBAT, Dial, DialChange, DialSetting, click_change
from dialtray.rules.core.events import Event


def dial_settings(state: AcesState) -> dict[Dial, DialSetting]:
    out: dict[Dial, DialSetting] = {}
    for label, c in state.chars.items():
        d = Dial(label, COMBAT)
        click = min(c.click, c.figure.ko_click)
        if click >= c.figure.ko_click:
            out[d] = DialSetting(d, click, {}, {}, False)
            continue
        v = c.figure.dial[click]
        values = {"speed": v.speed, "attack": v.attack, "defense": v.defense, "fate": v.fate}
        in_play = c.on_map or (not c.knocked_out and c.player not in state.withdrawn)
        out[d] = DialSetting(d, click, values, dict(v.colours), in_play)
    return out


def dial_changes_of(state: AcesState, e: Event) -> tuple[DialChange, ...]:
    """The clicks event ``e`` makes, ``state`` being the state just before it."""
    if isinstance(e, ev.Damaged | ev.FateClicked | ev.Healed):
        c = state.chars[e.label]
        ko = c.figure.ko_click
        before, after = min(c.click, ko), min(e.to_click, ko)
        if before == after:
            return ()
        rule = "AC-M36" if isinstance(e, ev.Damaged) else "AC-M50"
        if isinstance(e, ev.Healed):
            rule = "AC-A17"
        return (click_change(e.label, COMBAT, before, after, e, rule),)
    return ()
