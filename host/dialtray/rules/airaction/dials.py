"""Air Action's dials in the core dial vocabulary (``core.dials``): what the tray must see.

Each plane has a combat dial and a speed dial (AA-M01, AA-M02); an Ace figure's own dial stays
off the play area (AA-M60) and is keyed by the id of the plane its pilot started in
(``PlaneState.pilot``), so it keeps its name when the Ace commandeers another plane (AA-M70).
A click is clockwise (AA-M85): damage and fate turn dials clockwise, throttling up turns the speed
dial counter-clockwise (AA-M02), the first-turn speed is set freely (AA-M18).
"""

from __future__ import annotations

from collections.abc import Mapping

from dialtray.rules.airaction import events as ev
from dialtray.rules.airaction.catalogue import Catalogue
from dialtray.rules.airaction.state import State
from dialtray.rules.core.dials import (
    ACE,
    CLOCKWISE,
    COMBAT,
    COUNTER_CLOCKWISE,
    SPEED,
    Dial,
    DialChange,
    DialSetting,
    click_change,
    instructions,
)
from dialtray.rules.core.events import Event

UP = {COMBAT: CLOCKWISE, ACE: CLOCKWISE, SPEED: COUNTER_CLOCKWISE}
"""Physical direction of a rising click index, per dial kind."""

DAMAGE_RULE = {
    "hits": "AA-M45",
    "failed collision check": "AA-M33",
    "serious collision": "AA-M34",
    "Winged 'Em": "AA-M68",
    "failed redline check": "AA-M29",
    "obstacle collision": "AA-M50",
    "failed two-click throttle check": "AA-M20",
}
SPEED_RULE = {
    "starting speed": "AA-M18",
    "throttle": "AA-M19",
    "redline": "AA-M29",
    "speed effect": "AA-M28",
    "obstacle": "AA-M50",
}


def dial_settings(state: State, cat: Catalogue) -> dict[Dial, DialSetting]:
    out: dict[Dial, DialSetting] = {}
    for pid, ps in state.planes.items():
        fig = cat.figures[ps.figure]
        c = fig.combat_dial[ps.combat_click]
        values = {
            "max_speed": c.max_speed,
            "front_gunnery": c.front_gunnery,
            "rear_gunnery": c.rear_gunnery,
            "piloting": c.piloting,
            "bullet_holes": c.bullet_holes,
        }
        if c.bail_out is not None:
            values["bail_out"] = c.bail_out
        d = Dial(pid, COMBAT)
        out[d] = DialSetting(d, ps.combat_click, values, dict(c.colours), ps.in_play)
        d = Dial(pid, SPEED)
        if ps.speed_index is None:
            out[d] = DialSetting(d, None, {}, {}, ps.in_play)
        else:
            pos = fig.speed_dial[ps.speed_index]
            colours = {"speed": pos.effect} if pos.effect else {}
            out[d] = DialSetting(d, ps.speed_index, {"speed": pos.speed}, colours, ps.in_play)
    for ps in state.planes.values():
        if ps.ace is None:
            continue
        a = cat.aces[ps.ace].dial[ps.ace_click]
        d = Dial(ps.pilot, ACE)
        values = {"attack": a.attack, "fate": a.fate, "ko": int(a.ko)}
        out[d] = DialSetting(d, ps.ace_click, values, {}, ps.in_play)
    return out


def dial_changes_of(state: State, cat: Catalogue, e: Event) -> tuple[DialChange, ...]:
    """The clicks event ``e`` makes, ``state`` being the state just before it."""
    t = type(e)
    if t is ev.DamageClicks:
        assert isinstance(e, ev.DamageClicks)
        ps = state.planes[e.plane]
        last = cat.figures[ps.figure].last_click()
        to = min(last, ps.combat_click + e.clicks)
        if to == ps.combat_click:
            return ()
        rule = DAMAGE_RULE.get(
            e.cause, "AA-M28" if e.cause.startswith("speed effect") else "AA-M85"
        )
        return (click_change(e.plane, COMBAT, ps.combat_click, to, e, rule),)
    if t is ev.FateClick:
        assert isinstance(e, ev.FateClick)
        ps = state.planes[e.ace]
        assert ps.ace is not None
        to = min(len(cat.aces[ps.ace].dial) - 1, ps.ace_click + 1)
        if to == ps.ace_click:
            return ()
        return (click_change(ps.pilot, ACE, ps.ace_click, to, e, "AA-M61"),)
    if t is ev.SpeedChanged:
        assert isinstance(e, ev.SpeedChanged)
        old = state.planes[e.plane].speed_index
        if old == e.new_index:
            return ()
        rule = SPEED_RULE.get(e.cause, "AA-M02")
        if rule == "AA-M19" and old is not None and abs(e.new_index - old) == 2:
            rule = "AA-M20"
        return (click_change(e.plane, SPEED, old, e.new_index, e, rule, UP[SPEED]),)
    return ()


def verify(want: Mapping[Dial, DialSetting], seen: Mapping[Dial, int]) -> list[str]:
    """AA-M81: every dial must show what the rules say; each mismatch becomes an instruction
    ("A1 combat dial: turn 1 click clockwise"). Empty list = all dials agree."""
    return instructions(want, seen, UP)
