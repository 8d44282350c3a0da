"""FS-M87 "Canopy" as the text states it: "every hit (not every box) forces a Constitution
roll, and boxes lost to widowing count as a single hit. On fighters with turrets, rear canopy
hits affect the gunner." The gunship's SAMPLE layout (rear-engine-turret): the canopy in the
nose's row 5 (columns 4..7), the rear canopy in the tail's row 5 (columns 3..4)."""

from __future__ import annotations

from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.apply import Damage
from dialtray.rules.fasa.state import fold_event
from fasahelp import d10, game, placed


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
