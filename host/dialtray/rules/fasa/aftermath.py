"""What goes off after the shooting: flak bursts, flare and sonic rolls, continuing damage.

FS-M105 flak (and FS-M121 main-gun barrages) explode after the next Movement Phase; FS-M06
step 7 (FS-M106 flare, FS-M107 sonic Constitution rolls) and step 8 (magnesium burning,
D-FS-07; FS-M113 drilling on). Kept apart from ``combat.py`` (the attacks themselves) as
MegaMek keeps its phase-end handlers apart from its attack handlers.
"""

from __future__ import annotations

from dialtray.rules.core.dice import DiceSource
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.apply import Damage, Emit
from dialtray.rules.fasa.combat import side_of
from dialtray.rules.fasa.damage import hit_table, shape
from dialtray.rules.fasa.hexmap import Hex, MapObject, MapSheet, mega_hex, straight_ahead
from dialtray.rules.fasa.state import FasaState
from dialtray.rules.fasa.tables import active
from dialtray.rules.fasa.tn import constitution_tn, drill_tn, roll_d10, succeeds
from dialtray.rules.fasa.tow import at_tow, seat_of


def flak_burst(st: FasaState, sheet: MapSheet, dice: DiceSource, emit: Emit, h: Hex,
               owner: str, tow: bool = False) -> None:
    """FS-M105: 2 hits in the target hex (Nose table), 1 in the rest of the mega-hex, location
    by each plane's side toward the target hex; the launcher rolls for everyone (FS-T33).
    ``tow`` (FS-M110, D-FS-48): each hit on an enemy that tows goes at its object instead
    (1-6 the object takes the flak template's boxes, 7-10 the cable); once the object has
    fallen the burst's further hits strike the plane. Then the map objects in the burst
    (``in_burst``, D-FS-52)."""
    side = seat_of(st, sheet, owner)
    objects = in_burst(st, sheet, h)  # before the planes: cargo this burst cuts loose is in tow
    for p in sorted(st.planes.values(), key=lambda x: x.id):
        if not p.flying or p.hex not in mega_hex(h):
            continue
        n = 2 if p.hex == h else 1
        if tow and p.seat != side:
            while n and p.towing:
                at_tow(st, sheet, dice, emit, owner, p, len(shape("flak")))
                n -= 1
        if not n:
            continue
        dmg = Damage(st, dice, emit, p.id, owner if owner in st.planes else None)
        for _ in range(n):
            (loc,) = roll_d10(dice, f"{p.id} flak location")
            (col,) = roll_d10(dice, f"{p.id} flak column")
            dmg.hit(hit_table(side_of(p, h), loc), col - 1, shape("flak"), "flak", "FS-M105")
        dmg.finish()
    boxes = len(shape("flak"))
    for o, hits in objects:  # FS-M64: points equal to the template; a gas cell "Zep. Dmg."
        each = (active().zep_points("flak", boxes, sheet.military) if o.kind == "zeppelin"
                else boxes)
        left = st.ground.get(o.id, 0)
        if left > 0:
            emit(ev.GroundHit(o.id, min(hits * each, left), "FS-M105"))


SHRAPNEL_PROOF = ("nacelle", "turret", "main-gun", "hook")  # FS-M118; posts: their mount


def in_burst(st: FasaState, sheet: MapSheet, h: Hex) -> list[tuple[MapObject, int]]:
    """FS-M105 "damage to everything in the surrounding mega-hex and double damage (two hits)
    to anything in the target hex" (D-FS-52): the standing map objects there and their hits
    (an object over several hexes once, 2 if any of its hexes is the target hex). Engine
    nacelles are immune (FS-M118); a gun post's mount takes the hit; cargo counts where it
    lies (in tow it has no hex: the towing plane's, FS-M110)."""
    burst = set(mega_hex(h))
    out = []
    for o in sheet.objects:
        span = (st.cargo.get(o.id, o.hex),) if o.kind == "cargo" else o.span
        if st.ground.get(o.id, 0) > 0 and o.kind not in SHRAPNEL_PROOF and burst & set(span):
            out.append((o, 2 if h in span else 1))
    return out


def non_lethal(st: FasaState, dice: DiceSource, emit: Emit) -> None:
    """FS-M06 step 7: flare (FS-M106: pilots facing the hex in a straight line or in it) and
    sonic (FS-M107: pilots in the mega-hex) counters of this turn; the launcher is immune."""
    for kind, h, owner, turn, _tow in list(st.counters):
        if kind not in ("FL", "SS") or turn != st.turn:
            continue
        for p in sorted(st.planes.values(), key=lambda x: x.id):
            if not p.flying or p.id == owner:
                continue
            if kind == "FL":
                hit = p.hex == h or straight_ahead(p.hex, p.facing, h) is not None
            else:
                hit = p.hex in mega_hex(h)
            if not hit:
                continue
            tn = constitution_tn(p.constitution, p.shocked(st.turn))
            (r,) = roll_d10(dice, f"{p.id} Constitution ({kind})")
            ok = succeeds(r, tn)
            rule = "FS-M106" if kind == "FL" else "FS-M107"
            emit(ev.Rolled(p.id, f"Constitution vs {kind}", r, tn, ok, rule))
            if not ok:
                emit(ev.Shocked(p.id, "pilot", st.turn + 1))
        emit(ev.Counter(kind, h, owner, -1))


def continuing(st: FasaState, dice: DiceSource, emit: Emit) -> None:
    """FS-M06 step 8: magnesium burns one more box and goes out (D-FS-07); a drill rolls
    10 - range and drills 4 more boxes or stops for good (FS-M113)."""
    for p in sorted(st.planes.values(), key=lambda x: x.id):
        for kind, table, col, rng in list(p.burning):
            if not p.flying:
                break
            dmg = Damage(st, dice, emit, p.id, None)
            if kind == "MG":
                dmg.hit(table, col - 1, shape("fracture"), "magnesium burn", "FS-M06")
                emit(ev.Burning(p.id, kind, table, col, rng, False))
            else:
                (r,) = roll_d10(dice, f"{p.id} drill")
                ok = succeeds(r, drill_tn(rng))
                emit(ev.Rolled(p.id, "drill continues", r, drill_tn(rng), ok, "FS-M113"))
                if ok:
                    dmg.hit(table, col - 1, shape("drill"), "drill", "FS-M113")
                else:
                    emit(ev.Burning(p.id, kind, table, col, rng, False))
            dmg.finish()
