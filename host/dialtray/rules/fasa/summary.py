"""A FASA engagement as text (``FasaGame.report``) and each pilot's FS table 6 facts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialtray.rules.fasa.hexmap import FACINGS, hex_text
from dialtray.rules.fasa.skills import MissionRecord, mission_xp
from dialtray.rules.fasa.state import FasaState, PlaneState
from dialtray.rules.fasa.zeppelin import FALLS_AT

if TYPE_CHECKING:
    from dialtray.rules.fasa.game import Outcome


def report(st: FasaState, out: Outcome | None) -> str:
    """The engagement as text: every plane's line, the objects, the cargo, the result."""
    lines = [f"FASA Crimson Skies on {st.map}, turn {st.turn} ({st.phase})"]
    for p in sorted(st.planes.values(), key=lambda x: x.id):
        lines.append(f"  {p.id} {p.sheet:16} {p.status:9} {hex_text(p.hex):>6} "
                     f"{FACINGS[p.facing]} speed {p.speed} boxes {len(p.marked):3} "
                     f"Con {p.constitution} XP {mission_xp(record(p))}")
    if st.ground:
        shown = ", ".join(f"{k} {v}" for k, v in sorted(st.ground.items()))
        lines.append(f"  objects: {shown}")
        cells = [v for k, v in st.ground.items() if k.startswith("cell-")]
        if cells and sum(cells) <= FALLS_AT:  # FS-M117
            lines.append(f"  the zeppelin falls: gas cells {sum(cells)} <= {FALLS_AT}")
    for obj, h in sorted(st.cargo.items()):  # FS-M108..FS-M110
        by = [p.id for p in st.planes.values() if p.towing == obj]
        lines.append(f"  cargo {obj}: " + (f"towed by {by[0]}" if by else hex_text(h)
                                           if h is not None else "carried off the map"))
    if out is not None:
        lines.append(f"  result: {out.termination}; winner {out.winner or 'none'}; "
                     + ", ".join(f"{s} {v} XP" for s, v in out.vp.items()))
    return "\n".join(lines)


def record(p: PlaneState) -> MissionRecord:
    """FS table 6 facts of one pilot (FS-M25)."""
    c = p.credits
    return MissionRecord(survived=p.status not in ("dead",) and p.constitution > 0,
                         inflicted_damage="damage" in c, kills=c.count("kill"),
                         half_kill="half-kill" in c,
                         planned_bailout="bailout-planned" in c, fled="fled" in c,
                         combat_bailout="bailout-combat" in c, landed="landed" in c,
                         memento="memento" in c, cargo="cargo" in c)
