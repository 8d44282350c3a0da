"""What `dialtray play fasa` shows and writes: the live state as text, each roll with its TN and
(for a to-hit) the modifiers it sums, and every plane's live record sheet as SVG (``--sheets``).

Reads the engine's state and events only; the to-hit breakdown is recomputed with the engine's
own functions (FS-M73 ``to_hit_tn``, ``deflection``, ``target_range``) and shown only when it
adds up to the TN the engine rolled against — never a second opinion on the rules.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from dialtray.rules.core.events import Event
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.combat import deflection, target_range
from dialtray.rules.fasa.game import FasaGame
from dialtray.rules.fasa.hexmap import FACINGS, MapSheet, hex_text
from dialtray.rules.fasa.sheets import DEPLOYED
from dialtray.rules.fasa.skills import gunner_skill
from dialtray.rules.fasa.state import FasaState, PlaneState
from dialtray.rules.fasa.tn import SHOCK, to_hit_tn
from dialtray.table.narrate import event_text


def chance(tn: int) -> int:
    """Percent chance of a d10 check succeeding (FS-M01 roll >= TN, FS-M02 10 always succeeds,
    1 always fails)."""
    return 10 * min(9, max(1, 11 - tn))


def plane_line(p: PlaneState, turn: int) -> str:
    """One plane's record sheet in a line (FS-M05): where it is, what it can still do, what
    it has lost, its pilot, guns and rockets."""
    sh = p.sheet_data
    where = (f"{hex_text(p.hex)} facing {FACINGS[p.facing]}" if p.flying else p.status)
    shock = " SHOCKED" if p.shocked(turn) else ""
    guns = []
    for g in sh.guns:
        state = ("lost" if g.id in p.lost else "jammed" if g.id in p.jammed
                 else f"{p.bursts.get(g.id, 0)} bursts")
        guns.append(f"{g.id} {g.caliber}cal {state}")
    rockets = [f"{hp} {'/'.join(load)}" for hp, load in sorted(p.rockets.items())
               if load and hp not in p.lost]
    lost = ", ".join(sorted(p.lost)) or "-"
    tow = f" towing {p.towing}" if p.towing else ""
    return (f"{p.id} {p.seat} {sh.name} ({p.sheet}): {where} speed {p.speed}/{p.max_speed()} "
            f"acc {p.acceleration()} dec {p.deceleration()} Gs {p.g_rating('port')}/"
            f"{p.g_rating('starboard')}{tow} | boxes marked {len(p.marked)}, lost {lost} | "
            f"{sh.pilot.name} Con {p.constitution}{shock} | guns: {'; '.join(guns) or '-'}"
            + (f" | rockets: {', '.join(rockets)}" if rockets else ""))


def status(g: FasaGame, humans: Sequence[str]) -> list[str]:
    """The head of the view: turn, phase, who is to move, the seals so far, every plane."""
    st = g.state
    who = g.to_move()
    plots = "sealed plots (FS-M33)" if st.sealed else "open plots"
    head = (f"FASA Crimson Skies on {st.map}: turn {st.turn}/{st.turn_limit}, phase {st.phase}, "
            f"{plots}; to move: {who or 'nobody'}" + ("  (you)" if who in humans else ""))
    out = [head]
    if st.phase == "combat" and st.order:
        todo = [c for c in st.order if c not in st.acted]
        out.append(f"  Quick Draw order (FS-M72): {' '.join(st.order)}; still to act: "
                   f"{' '.join(todo) or '-'}")
    for seat, digest in sorted(st.seals.items() if st.phase != "combat" else ()):
        out.append(f"  {seat} sealed: sha256 {digest}")
    for p in sorted(st.planes.values(), key=lambda x: x.id):
        out.append("  " + plane_line(p, st.turn))
    if st.ground:
        out.append("  objects: " + ", ".join(f"{k} {v}" for k, v in sorted(st.ground.items())))
    if st.pending is not None:
        plane, _, hits = st.pending
        out.append(f"  {plane} places {len(hits)} gun hit(s) (FS-M82; 'legal' lists them)")
    return out


def breakdown(sheet: MapSheet, st: FasaState, e: ev.Rolled) -> str:
    """FS-M73 to-hit: 'base 4 + deflection 2 + range 2 - Dead Eye 3 = 5' for a gun or lethal
    rocket shot at a plane, from the position the shot was taken in (``st``), when the parts
    add up to the rolled TN; else ''."""
    shooter = st.planes.get(e.plane)
    words = e.purpose.split()
    if shooter is None or e.rule not in ("FS-M73", "FS-M104") or len(words) < 4 \
            or words[-2] != "on" or words[-3] != "to-hit":
        return ""
    target = st.planes.get(words[-1])
    if target is None:
        return ""
    weapon = words[0]
    turret = weapon == "turret_gun"
    gun = next((x for x in shooter.sheet_data.guns if x.id == weapon), None)
    code = DEPLOYED.get(words[0]) if gun is None and words[1:2] == ["rocket"] else None
    if gun is None and code is None:
        return ""
    reach = gun.range if gun is not None else code.range  # type: ignore[union-attr]
    rng = target_range(sheet, shooter, target, reach, turret)
    if rng is None:
        return ""
    pilot = shooter.sheet_data.pilot
    dead_eye = gunner_skill(pilot.dead_eye) if turret else pilot.dead_eye
    defl = deflection(shooter.facing, target.facing)
    mod = code.modifier if code is not None else 0
    for shocked in (False, True):
        if to_hit_tn(target.sheet_data.base_to_hit, defl, rng, dead_eye, mod, shocked) != e.tn:
            continue
        parts = (f"base {target.sheet_data.base_to_hit} + deflection {defl} + range {rng} "
                 f"- Dead Eye {dead_eye}")
        parts += f" + rocket {mod}" if code is not None else ""
        parts += f" + shock {SHOCK}" if shocked else ""
        return f"{parts} = {e.tn}"
    return ""


def event_lines(sheet: MapSheet, before: FasaState, events: Sequence[Event]
                ) -> tuple[list[str], list[str]]:
    """(every event as the engine says it, the d10 rolls among them): a check also with its
    chance and, for a to-hit, the modifiers it sums in the position ``before`` the action."""
    out, rolls = [], []
    for e in events:
        if isinstance(e, ev.Acted):
            continue
        line = event_text(e)  # own wording, else its fields in words (never a repr)
        if isinstance(e, ev.Rolled):
            if e.rule not in ("FS-M55", "FS-M72") and not e.purpose.startswith("tow location"):
                parts = breakdown(sheet, before, e)
                line += (f"  (TN {e.tn}: {parts + ', ' if parts else ''}{chance(e.tn)}% to "
                         "succeed)")
            rolls.append(line)
        out.append(line)
    return out, rolls


def write_sheets(g: FasaGame, directory: Path) -> list[Path]:
    """Every plane's live record sheet as ``DIR/<plane>.svg``, each replaced whole (written
    beside it, then renamed) so a browser keeping it open never reads half a sheet."""
    from dialtray.rules.fasa.svg import render

    out = []
    for pid, p in sorted(g.state.planes.items()):
        path = directory / f"{pid}.svg"
        tmp = directory / f".{pid}.svg.tmp"
        tmp.write_text(render(p, g.state.turn), encoding="utf-8")
        os.replace(tmp, path)
        out.append(path)
    return out
