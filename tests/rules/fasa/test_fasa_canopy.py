"""FS-M87 "Canopy" as the text states it: "every hit (not every box) forces a Constitution
roll, and boxes lost to widowing count as a single hit. On fighters with turrets, rear canopy
hits affect the gunner." The gunship's SAMPLE layout (rear-engine-turret): the canopy in the
nose's row 5 (columns 4..7), the rear canopy in the tail's row 5 (columns 3..4)."""

from __future__ import annotations

import json
from pathlib import Path

from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.apply import Damage
from dialtray.rules.fasa.game import FasaGame
from dialtray.rules.fasa.state import fold_event
from dialtray.rules.fasa.tables import SHIPPED
from fasahelp import d10, game, owner, placed, shipped


def _gunship_hit(table: str, col: int, shape: list[tuple[int, int]]) -> list[ev.Rolled]:
    g = game([placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
              placed("B1", "P2", "sample-gunship", 10, 3, "D", 2)], dice=d10(*[10] * 6))
    st = g.state
    out: list[ev.Rolled] = []

    def emit(e: ev.Event) -> None:
        fold_event(st, e)
        if isinstance(e, ev.Rolled):
            out.append(e)

    Damage(st, g.dice, emit, "B1", "A1").hit(table, col, shape, "test", "FS-M81")
    return out


def test_fs_m87_one_hit_on_two_canopy_boxes_is_one_pilot_roll() -> None:
    rolls = _gunship_hit("nose", 3, [(5, 0), (5, 1)])  # canopy (5,3) and (5,4)
    assert [(r.purpose, r.rule) for r in rolls] == [("pilot Constitution (canopy hit)",
                                                     "FS-M87")]


def test_fs_m87_a_rear_canopy_hit_is_the_gunners_roll() -> None:
    rolls = _gunship_hit("tail", 2, [(5, 0)])  # rear canopy (5,2)
    assert [(r.purpose, r.rule) for r in rolls] == [("gunner Constitution (canopy hit)",
                                                     "FS-M87")]


def test_fs_m87_canopies_widowed_together_are_one_roll_for_each_crew(tmp_path: Path) -> None:
    """FS-M87: "boxes lost to widowing count as a single hit" (D-FS-51). An owner's layout
    with the canopy in the nose's outer row (0,4-5) and the rear canopy in the tail's (0,1-2);
    one attacker's hits wall both off; widowing (FS-M84) takes them together: one roll for the
    pilot and one for the gunner, no more."""
    lay = shipped("layouts")
    mine = json.loads(json.dumps(lay["layouts"]["rear-engine-turret"]))
    mine["nose"]["canopy"] = [[0, 4], [0, 5]]
    mine["tail"]["rear_canopy"] = [[0, 1], [0, 2]]
    lay["layouts"]["glass-nose"] = mine
    d = owner(tmp_path, layouts=lay)
    (d / "sheets").mkdir()
    sheet = json.loads((SHIPPED.parent / "sheets" / "sample-gunship.json").read_text())
    sheet.update(id="glass", layout="glass-nose", sample=False)
    (d / "sheets" / "glass.json").write_text(json.dumps(sheet))
    g = FasaGame(d10(*[10] * 6), [
        ev.GameSetup("sample-blank", ("P1", "P2"), 12, False, False, False, 2, str(d)),
        placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
        placed("B1", "P2", "glass", 10, 3, "D", 2)])
    st, rolls = g.state, []

    def emit(e: ev.Event) -> None:
        fold_event(st, e)
        if isinstance(e, ev.Rolled):
            rolls.append(e.purpose)

    walls = [("nose", 0, 3), ("nose", 1, 3), ("nose", 1, 4), ("nose", 1, 5), ("nose", 1, 6),
             ("nose", 0, 6), ("tail", 0, 0), ("tail", 1, 0), ("tail", 1, 1), ("tail", 1, 2),
             ("tail", 1, 3),
             ("tail", 0, 3)]
    with g.bound():  # the owner's tables, as the game's own calls have them
        emit(ev.Marked("B1", tuple(walls), "walls", "FS-M81", "A1"))
        dmg = Damage(st, g.dice, emit, "B1", "A1")
        dmg.touched = True
        dmg.finish()
    assert {("nose", 0, 4), ("nose", 0, 5), ("tail", 0, 1), ("tail", 0, 2)} <= st.planes[
        "B1"].marked
    assert sorted(r for r in rolls if "canopy" in r) == [
        "gunner Constitution (canopy hit)", "pilot Constitution (canopy hit)"]
