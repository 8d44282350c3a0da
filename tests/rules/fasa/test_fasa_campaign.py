"""The pilot's campaign log: creation, mission XP, advancement, fractional Quick Draw, files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.fasa.campaign import (
    create,
    load,
    put_into_quick_draw,
    raise_skill,
    record_mission,
    save,
)
from dialtray.rules.fasa.skills import MissionRecord, QuickDraw


def test_creation_budget_fs_m24() -> None:
    """FS-M24: 450 XP for the hero, 350 for the wingman, FS table 4 costs, the rest saved;
    FS-A13 Constitution 3 -> 4 costs 30."""
    ivy = create("Ivy", {"dead_eye": 6, "steady_hand": 5, "sixth_sense": 4, "quick_draw": 4})
    assert ivy.xp == 450 - (160 + 110 + 70 + 70)
    with pytest.raises(ValueError, match="FS-M24"):
        create("Wing", {"dead_eye": 8, "steady_hand": 4}, wingman=True)
    tough = create("Tough", {}, constitution=4)
    assert tough.xp == 450 - 30 and tough.constitution == 4


def test_ivy_iverian_mission_and_spending_fs_t03(tmp_path: Path) -> None:
    """FS-T03 through the log (FS-M25, FS-M26): +90, Steady Hand 5->6 (50), Sixth Sense 4->5
    (40), 0 left; saved and read back."""
    ivy = create("Ivy", {"dead_eye": 6, "steady_hand": 5, "sixth_sense": 4, "quick_draw": 4})
    ivy.xp = 0
    assert record_mission(ivy, "m1", MissionRecord(inflicted_damage=True, kills=2,
                                                    landed=True)) == 90
    assert raise_skill(ivy, "steady_hand") == 50 and raise_skill(ivy, "sixth_sense") == 40
    assert ivy.xp == 0 and ivy.kills == 2
    record_mission(ivy, "m2", MissionRecord(combat_bailout=True, memento=True))
    assert ivy.combat_bailouts == 1 and ivy.xp == 5
    with pytest.raises(ValueError, match="FS-M26"):
        raise_skill(ivy, "dead_eye")
    path = tmp_path / "ivy.json"
    save(ivy, path)
    again = load(path)
    assert again == ivy


def test_fractional_quick_draw_fs_t01() -> None:
    """FS-T01 (FS-M19): Condor puts 25 XP into Quick Draw 4: 4/25."""
    condor = create("Condor", {"quick_draw": 4})
    condor.xp = 25
    assert put_into_quick_draw(condor, 25) == QuickDraw(4, 25) and condor.xp == 0


def test_malformed_pilot_log_names_the_field(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    good = create("X", {})
    save(good, p)
    doc = json.loads(p.read_text())
    doc["skills"]["dead_eye"] = 11
    p.write_text(json.dumps(doc))
    with pytest.raises(CatalogueError) as info:
        load(p)
    assert info.value.field == "skills.dead_eye"
