"""FS-M82 "Order of damage" for lethal rockets (D-FS-45).

"The attacker may roll all hits first and then apply them in any order" (seed: "rolling all his
hits before applying any damage to the target allows him to apply damage according to a
carefully thought-out strategy"). A plane may launch several lethal rockets at one target in a
round (FS-M68, D-FS-32): each rocket's location and column are rolled when it hits (FS-M79,
one location roll per rocket), and the hit is *held*; when the plane's launching ends (a pass,
or nothing left to launch) one held hit is applied at once, several wait as pending hits the
attacker places one by one in the order it chooses (``place A1 COL hit N``; a rocket's column
is its roll: Steady Hand does not shift rockets, FS-M21). Widowing and cutting in half come
after the last of them (FS-M84, FS-M85).
"""

from __future__ import annotations

from dialtray.rules.core.dice import DiceSource
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.apply import Damage, Emit
from dialtray.rules.fasa.damage import shape
from dialtray.rules.fasa.state import FasaState

PREFIX = "rocket:"  # a held hit's id: rocket:CODE:RANGE:RULE


def is_rocket(hit_id: str) -> bool:
    return hit_id.startswith(PREFIX)


def hold(st: FasaState, emit: Emit, plane: str, target: str, code: str, rng: int, rule: str,
         table: str, col: int) -> None:
    """Keep one rolled rocket hit until the plane's launching ends."""
    before = st.held[2] if st.held is not None and st.held[0] == plane else ()
    emit(ev.Held(plane, target, (*before, (f"{PREFIX}{code}:{rng}:{rule}", table, col))))


def release(st: FasaState, dice: DiceSource, emit: Emit, plane: str) -> None:
    """The plane's launching is over: one held hit is applied now, several become pending hits
    for the attacker to place in its own order."""
    if st.held is None or st.held[0] != plane:
        return
    _, target, hits = st.held
    emit(ev.Held(plane, target, ()))
    if len(hits) > 1:
        emit(ev.Pending(plane, target, hits))
        return
    dmg = Damage(st, dice, emit, target, plane)
    apply_hit(dmg, hits[0][0], hits[0][1], hits[0][2])
    dmg.finish()


def apply_hit(dmg: Damage, hit_id: str, table: str, col: int) -> None:
    """Mark one rocket hit (the rocket's template, an HE one its own, FS-M103); a drill rocket
    keeps drilling from next combat phase (FS-M113)."""
    code, rng, rule = hit_id[len(PREFIX):].split(":")
    dmg.hit(table, col - 1, shape("rocket" if code != "HE" else "HE"), f"{code} rocket", rule)
    if code == "DR" and dmg.p.flying:
        dmg.emit(ev.Burning(dmg.plane, "DR", table, col, int(rng), True))
