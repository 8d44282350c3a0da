"""Zeppelin landings in play (FS-M66, FS-M67, FS-M91; FS table 10 and 12; D-FS-18).

"To land on a zeppelin, a plane must fly under the airship and attempt to catch the landing
gear on top of his plane ... on the fighter landing hook of the zeppelin" (Landing, p. 31).
A SAMPLE map marks that hook as an object of kind ``hook`` under the hull (its ``owner`` is
the seat whose squadron's zeppelin it is, ``on`` the gas cell it hangs from). A plane of that
seat that ends its move in the hook's hex may land (``land A1``) as its Combat-Phase action:
TN = 4 + FS table 10 - Natural Touch (FS-M22, FS-M66; FS-A05: the zeppelin gear is the
required gear, "not on a runway" does not apply); no roll at TN <= 0 unless Natural Touch <= 3
or any damage; a failure reads the Zeppelin Landing Table at max(0, TN - roll) (FS-M67,
FS-A04). The plane leaves play: landed, or aboard after a mishap, or destroyed at row 5+
(one helium cell ripped open, the pilot bails out at base 14, FS-M65).
"""

from __future__ import annotations

from dialtray.rules.core.dice import DiceSource
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Land
from dialtray.rules.fasa.apply import Emit, combat_bailout
from dialtray.rules.fasa.hexmap import MapObject, MapSheet
from dialtray.rules.fasa.state import FasaState, PlaneState
from dialtray.rules.fasa.tn import (
    landing_mishap,
    landing_needs_roll,
    landing_tn,
    roll_d10,
    succeeds,
)
from dialtray.rules.fasa.zeppelin import FALLS_AT

Why = tuple[str, str, str] | None
HEADING = "Landing TN"


def hooks(sheet: MapSheet) -> list[MapObject]:
    return [o for o in sheet.objects if o.kind == "hook"]


def _cells(sheet: MapSheet) -> list[str]:
    return [o.id for o in sheet.objects if o.kind == "zeppelin"]


def land_why(st: FasaState, sheet: MapSheet, p: PlaneState) -> Why:
    """Why ``p`` may not land on a zeppelin now (None: it may). Shares one test with the list
    of legal actions."""
    if not p.flying:
        return f"{p.id} is not flying", "FS-M66", HEADING
    mine = [o for o in hooks(sheet) if o.owner == p.seat]
    if not mine:
        return (f"no zeppelin of {p.seat} on this map: a plane lands on its squadron's "
                "zeppelin (or at home, by its home side)", "FS-M66", HEADING)
    hook = next((o for o in mine if o.hex == p.hex), None)
    if hook is None:
        return (f"{p.id} is not under the landing hook (it must end its move in "
                f"{', '.join(_at(o) for o in mine)})", "FS-M66", HEADING)
    cells = _cells(sheet)
    if cells and sum(st.ground.get(c, 0) for c in cells) <= FALLS_AT:
        return "the zeppelin is falling (gas cells <= 120)", "FS-M117", "Gas cells"
    if hook.on and st.ground.get(hook.on, 0) <= 0:
        return f"the hook hangs from {hook.on}, which is shredded", "FS-M117", "Gas cells"
    return None


def _at(o: MapObject) -> str:
    from dialtray.rules.fasa.hexmap import hex_text

    return hex_text(o.hex)


def options(st: FasaState, sheet: MapSheet, p: PlaneState) -> list[Land]:
    return [Land(p.id)] if land_why(st, sheet, p) is None else []


def zeppelin_landing_tn(p: PlaneState) -> int:
    """FS-M66 with FS table 10 (FS-A05): the zeppelin gear (FS-M91) is the required gear."""
    lost = p.lost
    return landing_tn(p.sheet_data.pilot.natural_touch,
                      gear_damaged="zeppelin_gear" in lost,
                      rudders_damaged=len(p.rudders()),
                      flaps_damaged=any(x.startswith(("flap", "wing_controls")) for x in lost),
                      wounds=p.sheet_data.pilot.constitution - p.constitution,
                      zeppelin=True)


def land(st: FasaState, sheet: MapSheet, dice: DiceSource, emit: Emit, p: PlaneState) -> None:
    """Resolve ``land``: the roll (if any), FS table 12's row, and the plane leaving play."""
    hook = next(o for o in hooks(sheet) if o.owner == p.seat and o.hex == p.hex)
    nt = p.sheet_data.pilot.natural_touch
    tn = zeppelin_landing_tn(p)
    if p.towing:  # FS-M108: the prize comes aboard with the plane
        emit(ev.Credit(p.id, f"cargo {p.towing}"))
    if not landing_needs_roll(tn, nt, bool(p.marked)):
        emit(ev.Credit(p.id, "landed"))
        emit(ev.PlaneOut(p.id, "withdrawn", f"landed on the zeppelin, TN {tn}: no roll",
                         "FS-M66"))
        return
    (r,) = roll_d10(dice, f"{p.id} zeppelin landing")
    ok = succeeds(r, tn)
    emit(ev.Rolled(p.id, "zeppelin landing", r, tn, ok, "FS-M66"))
    index, what = landing_mishap(tn, r, zeppelin=True)
    if ok or index == 0:  # FS-A04: row 0 lands safely
        emit(ev.Credit(p.id, "landed"))
        emit(ev.PlaneOut(p.id, "withdrawn", "landed on the zeppelin", "FS-M66"))
        return
    emit(ev.Credit(p.id, f"landing mishap {index}"))
    if index >= 5:  # the plane is destroyed, a helium cell ripped open, bail out at 14
        cell = hook.on or next(iter(_cells(sheet)), "")
        if st.ground.get(cell, 0) > 0:
            emit(ev.GroundHit(cell, st.ground[cell], "FS-M67"))
        combat_bailout(st, dice, emit, p.id, "zeppelin-landing", f"landing mishap: {what}",
                       "FS-M67")
        return
    if index >= 3:
        emit(ev.Wounded(p.id, "pilot", 1))
        if st.planes[p.id].constitution <= 0:  # FS-M92: at 0 the character dies
            emit(ev.PlaneOut(p.id, "dead", f"landing mishap {index}: {what}", "FS-M92"))
            return
    if st.planes[p.id].flying:
        emit(ev.PlaneOut(p.id, "withdrawn", f"landing mishap {index}: {what}", "FS-M67"))
