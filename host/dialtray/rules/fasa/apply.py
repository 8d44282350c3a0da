"""Applying damage to a record sheet: boxes, internal locations, crew, destruction.

FS-M81 "Damage template", FS-M84 "Widowing", FS-M85 "Cut in half", FS-M86 "Internal
locations", FS-M87 "Canopy", FS-M88 "Engine", FS-M89 "Fuel tanks", FS-M90 "Guns", FS-M92
"Pilot/Gunner boxes", FS-M93 "Radio", FS-M94 "Rockets location", FS-M15 "Constitution",
FS-M17 "Shock roll", FS-M65 "Combat bailout".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from dialtray.rules.core.dice import DiceSource
from dialtray.rules.core.events import Event
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.damage import Box, cut_in_half, template_boxes, widowed
from dialtray.rules.fasa.layouts import location_of
from dialtray.rules.fasa.state import FasaState, PlaneState
from dialtray.rules.fasa.tn import bailout_tn, constitution_tn, roll_d10, succeeds

Emit = Callable[[Event], None]


class Damage:
    """One attacker's damage to one plane (FS-M82: widowing waits until all its hits are in)."""

    def __init__(self, st: FasaState, dice: DiceSource, emit: Emit, plane: str,
                 attacker: str | None) -> None:
        self.st, self.dice, self.emit = st, dice, emit
        self.plane, self.attacker = plane, attacker
        self.touched = False  # no box marked: nothing can be widowed or cut (FS-M84)

    @property
    def p(self) -> PlaneState:
        return self.st.planes[self.plane]

    def hit(self, table: str, col: int, shape: Iterable[tuple[int, int]], cause: str,
            rule: str, ammo: str = "") -> None:
        """Trace one template on the diagram (FS-M81) and set off what the boxes hold."""
        if not self.p.flying:
            return
        boxes = template_boxes(self.p.marked, table, col, shape)
        if not boxes:
            return
        att = self.st.planes.get(self.attacker or "")
        if att is not None and "damage" not in att.credits:
            self.emit(ev.Credit(att.id, "damage"))
        self.touched = True
        self.emit(ev.Marked(self.plane, tuple(boxes), cause, rule, self.attacker or ""))
        self._locations(boxes, ammo)

    def _locations(self, boxes: list[Box], ammo: str) -> None:
        where = location_of(self.p.sheet_data.layout)
        hit_locs: list[str] = []
        for t, r, c in boxes:
            loc = where.get((t, (r, c)))
            if loc is not None:
                hit_locs.append(loc)
        for loc in dict.fromkeys(hit_locs):
            boxes_in = hit_locs.count(loc)
            if loc in ("canopy", "rear_canopy"):
                continue
            if loc in ("pilot", "gunner"):
                # FS-M92: each box costs 1 Constitution; the hit forces one Constitution roll
                # at the reduced Constitution (D-FS-30: one roll per hit, not per box)
                self.wound(loc, boxes_in)
                continue
            if loc.startswith("fuel") and ammo == "MG" and loc not in self.p.lost:
                # FS-M89: magnesium on an undamaged tank: the plane explodes this phase
                self.emit(ev.LocationLost(self.plane, loc, "FS-M89"))
                self.destroy("fuel", "magnesium round in an undamaged fuel tank", "FS-M89")
                return
            if loc not in self.p.lost:
                self.emit(ev.LocationLost(self.plane, loc, _rule(loc)))
                if loc.startswith("fuel"):  # FS-M89: any damage empties the tank
                    self._fill(loc)
        # FS-M87: every hit (not every box; the boxes widowing takes: one hit) forces a roll
        # for the crew under that canopy: the front one the pilot, the rear one the gunner
        for canopy, crew in (("canopy", "pilot"), ("rear_canopy", "gunner")):
            if canopy in hit_locs:
                self.shock_roll(crew, "canopy hit", "FS-M87")
        if self.p.flying and self.p.engine_out() and "engine" not in self.p.lost:
            self.emit(ev.LocationLost(self.plane, "engine", "FS-M89"))

    def _fill(self, loc: str) -> None:

        cells = [(t, r, c) for t, locs in self.p.sheet_data.diagram.items()
                 for name, cs in locs.items() if name == loc for r, c in cs]
        rest = tuple(b for b in cells if b not in self.p.marked)
        if rest:
            self.emit(ev.Marked(self.plane, rest, f"{loc} emptied", "FS-M89"))

    def wound(self, crew: str, amount: int) -> None:
        """FS-M92: Constitution lost and a roll at the reduced Constitution; 0 is death."""
        self.emit(ev.Wounded(self.plane, crew, amount))
        con = self.p.constitution if crew == "pilot" else self.p.gunner_constitution
        if con <= 0:
            if crew == "pilot":
                self.destroy(None, "pilot killed", "FS-M15")
            return
        self.shock_roll(crew, "wound", "FS-M92")

    def shock_roll(self, crew: str, why: str, rule: str) -> None:
        """FS-M17: TN 10 - Constitution (+2 already shocked); failing is screaming shock."""
        if not self.p.flying:
            return
        turn = self.st.turn
        if crew == "pilot":
            con, shocked = self.p.constitution, self.p.shocked(turn)
        else:
            con, shocked = self.p.gunner_constitution, self.p.gunner_shocked_until >= turn
        tn = constitution_tn(con, shocked)
        (roll,) = roll_d10(self.dice, f"{self.plane} {crew} Constitution ({why})")
        ok = succeeds(roll, tn)
        self.emit(ev.Rolled(self.plane, f"{crew} Constitution ({why})", roll, tn, ok, rule))
        if not ok:  # FS-A06: until the end of next turn (the forced straight maneuver)
            self.emit(ev.Shocked(self.plane, crew, turn + 1))

    def finish(self) -> None:
        """After all of one attacker's hits: widowing (FS-M84), then cutting in half (FS-M85)."""
        if not self.p.flying or not self.touched:
            return
        lost = widowed(self.p.marked)
        if lost:
            self.emit(ev.Marked(self.plane, tuple(lost), "widowed", "FS-M84"))
            self._locations(lost, "")
        if self.p.flying:
            cut = cut_in_half(self.p.marked)
            if cut is not None:
                what = "wing sheared off" if cut == "wing" else "fuselage cored"
                self.destroy(cut, what, "FS-M85")

    def destroy(self, situation: str | None, reason: str, rule: str) -> None:
        """The plane is lost; the pilot bails out (FS-M65) unless already dead."""
        p = self.p
        if not p.flying:
            return
        att = self.st.planes.get(self.attacker or "")
        if att is not None and att.seat != p.seat:
            self.emit(ev.Credit(att.id, "kill"))
        if situation is None or p.constitution <= 0:
            self.emit(ev.PlaneOut(self.plane, "dead" if p.constitution <= 0 else "destroyed",
                                  reason, rule))
            return
        combat_bailout(self.st, self.dice, self.emit, self.plane, situation, reason, rule)


def combat_bailout(st: FasaState, dice: DiceSource, emit: Emit, plane: str, situation: str,
                   reason: str, rule: str) -> None:
    """FS-M65 "Combat bailout": escape on a roll >= TN, else down with the ship."""
    p = st.planes[plane]
    pilot = p.sheet_data.pilot
    tn = bailout_tn(situation, pilot.sixth_sense, pilot.quick_draw, p.shocked(st.turn),
                    pilot.previous_bailouts, p.rescue == "memento", p.rescue == "cargo")
    saving = f", saving the {p.rescue}" if p.rescue else ""
    (roll,) = roll_d10(dice, f"{plane} combat bailout ({reason}{saving})")
    ok = succeeds(roll, tn)
    emit(ev.Rolled(plane, f"combat bailout ({reason}{saving})", roll, tn, ok, "FS-M65"))
    if ok:
        emit(ev.Credit(plane, "bailout-combat"))
        if p.rescue:  # FS table 6: +5 XP for the memento, +10 for the cargo (FS-A22)
            emit(ev.Credit(plane, p.rescue))
    emit(ev.PlaneOut(plane, "bailed" if ok else "dead", reason, rule))


def _rule(loc: str) -> str:
    for prefix, rule in (("engine", "FS-M88"), ("fuel", "FS-M89"), ("gun", "FS-M90"),
                         ("turret_gun", "FS-M90"), ("landing_gear", "FS-M91"),
                         ("zeppelin_gear", "FS-M91"),
                         ("radio", "FS-M93"), ("rockets", "FS-M94"), ("tail_controls", "FS-M95"),
                         ("elevator", "FS-M96"), ("rudder", "FS-M97"),
                         ("wing_controls", "FS-M98"), ("flap", "FS-M99"),
                         ("aileron", "FS-M100"), ("spar", "FS-M101")):
        if loc.startswith(prefix):
            return rule
    return "FS-M86"
