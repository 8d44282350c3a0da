"""Gun posts through the Game API (issue 15): zeppelin turrets (FS-M120 "Turrets"), main guns
(FS-M121 "Main guns"), zeppelin gunners (FS-M122 "Zeppelin gunners") and ground turrets
(FS-M06 "Ten-step turn" step 3), in FS-M72 "Firing order"; their map data schema-checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Barrage, Gun, Pass, Plot, parse_action
from dialtray.rules.fasa.combat import combat_order
from dialtray.rules.fasa.guns import post_order, silenced
from dialtray.rules.fasa.hexmap import DATA, from_offset, load_map
from fasahelp import d10, game, placed, refused


def test_fs_m120_a_zeppelin_turret_fires_down_its_hexrows_for_its_seat() -> None:
    """FS-M120 Turrets: the port nacelle turret (SAMPLE, rows F A B, a 50 cal: 2 + 2 hexes)
    shoots P1's plane 2 hexes down row A: TN hawk 7 + deflection 2 (nose to nose) + 2 - the
    gunner's Dead Eye 4 = 7; its seat (P2) decides; one location roll, a column per hit."""
    g = game([placed("A1", "P1", "sample-hawk", 8, 3, "D", 2),
              placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
             map_name="sample-zeppelin", combat=["A1", "B1", "turret-port"], dice=d10(7, 3, 5))
    g.apply(Pass("A1"))
    g.apply(Pass("B1"))
    assert g.to_move() == "P2"
    legal = g.legal_actions()
    assert set(legal) == {Pass("turret-port"), Gun("turret-port", "A1")}
    events = g.apply(Gun("turret-port", "A1"))
    (roll,) = [e for e in events if isinstance(e, ev.Rolled)]
    assert (roll.plane, roll.tn, roll.success, roll.rule) == ("turret-port", 7, True, "FS-M120")
    marks = [e for e in events if isinstance(e, ev.Marked)]
    assert marks and marks[0].rule == "FS-M120" and g.state.planes["A1"].marked
    assert ev.Acted("turret-port") in events


def test_fs_m120_refusals_out_of_the_hexrows_and_out_of_turn() -> None:
    """FS-M120: not down one of the turret's hexrows (or a friend) -> refused; FS-M72 a post
    acts in its turn only; FS-M121 a machine-gun turret lays no flak."""
    g = game([placed("A1", "P1", "sample-hawk", 9, 3, "D", 2),
              placed("A2", "P1", "sample-hawk", 8, 3, "D", 2),
              placed("B1", "P2", "sample-brute", 8, 2, "D", 2)],
             map_name="sample-zeppelin", combat=["A1", "turret-port"])
    refused(g, Gun("turret-port", "A2"), "FS-M72")  # A1 acts first
    g.apply(Pass("A1"))
    refused(g, Gun("turret-port", "A1"), "FS-M120")  # not down F, A or B
    refused(g, Gun("turret-port", "B1"), "FS-M120")  # its own side
    refused(g, Barrage("turret-port", from_offset(8, 3)), "FS-M121")
    refused(g, parse_action("fire A2 B1"), "FS-M72")


def test_fs_m121_main_gun_flak_round_explodes_after_the_next_movement() -> None:
    """FS-M121 Main guns: a round auto-hits its hex down the gun's side (range 8) and explodes
    at the end of the next Movement Phase: 2 hits in the hex (FS-M105's burst)."""
    from dialtray.rules.core.dice import SeededDice

    target = from_offset(5, 4)  # 3 hexes down main-port-1's row F (SAMPLE warship)
    g = game([placed("A1", "P1", "sample-hawk", 5, 6, "A", 2),
              placed("B1", "P2", "sample-brute", 2, 1, "D", 2)],
             map_name="sample-warship", combat=["A1", "B1", "main-port-1"],
             dice=SeededDice(3))  # type: ignore[arg-type]
    g.apply(Pass("A1"))
    g.apply(Pass("B1"))
    assert Barrage("main-port-1", target) in g.legal_actions()
    refused(g, Barrage("main-port-1", from_offset(8, 3)), "FS-M121")  # behind a nacelle
    g.apply(Barrage("main-port-1", target))
    assert ("FK", target, "main-port-1", 1, False) in g.state.counters
    g.apply(Plot("A1", "2SA"))  # into the target hex
    events = g.apply(Plot("B1", "2SA"))
    flak = [e for e in events if isinstance(e, ev.Marked) and e.rule == "FS-M105"
            and e.plane == "A1"]
    assert len(flak) == 2 and g.state.counters == []


def test_fs_m122_a_flare_shocks_a_zeppelin_gunner_and_silences_the_gun() -> None:
    """FS-M122 / FS-T39: gunners face their hexrows; a flare down one of them calls for a
    Constitution roll against 10 - 5 = 5 at step 7; a 4 fails: the gun sits out next turn."""
    flare = ev.Counter("FL", from_offset(8, 2), "A1", 1)
    g = game([placed("A1", "P1", "sample-hawk", 3, 10, "A", 2),
              placed("B1", "P2", "sample-brute", 17, 12, "D", 2)], extra=[flare],
             map_name="sample-zeppelin", combat=["A1", "B1"], dice=d10(4))
    g.apply(Pass("A1"))
    events = g.apply(Pass("B1"))
    rolls = [e for e in events if isinstance(e, ev.Rolled) and e.rule == "FS-M122"]
    assert [(r.plane, r.tn, r.success) for r in rolls] == [("turret-port", 5, False)]
    assert ev.GunnerShocked("turret-port", 2) in events
    sheet = load_map("sample-zeppelin")
    post = next(o for o in sheet.objects if o.id == "turret-port")
    assert silenced(g.state, sheet, post) == "its gunner is in shock (FS-M122)"


def test_fs_m06_ground_turret_shoots_last_and_a_destroyed_post_is_skipped() -> None:
    """FS-M06 step 3 / FS-M72: pilots, aircraft turrets, zeppelin turrets, then ground turrets
    (SAMPLE flak-nest: all six hexrows, two 40 cal); shot to 0 points it no longer acts."""
    g = game([placed("A1", "P1", "sample-hawk", 13, 5, "D", 2),
              placed("B1", "P2", "sample-gunship", 2, 1, "D", 2)], map_name="sample-town")
    order = combat_order(g.state, d10(), lambda e: None, g.map)
    assert order[-1] == "flak-nest" and order.index("B1-turret") < order.index("flak-nest")
    live = game([placed("A1", "P1", "sample-hawk", 13, 5, "D", 2),
                 placed("B1", "P2", "sample-gunship", 2, 1, "D", 2)], map_name="sample-town",
                combat=["A1", "flak-nest"], dice=d10(10, 10, 1, 2, 3))
    live.apply(Pass("A1"))
    assert live.to_move() == "P2" and Gun("flak-nest", "A1") in live.legal_actions()
    events = live.apply(Gun("flak-nest", "A1"))
    assert sum(isinstance(e, ev.Rolled) and e.rule == "FS-M120" for e in events) == 2
    gone = game([placed("A1", "P1", "sample-hawk", 13, 5, "D", 2),
                 placed("B1", "P2", "sample-gunship", 2, 1, "D", 2)],
                extra=[ev.GroundHit("flak-nest", 8)], map_name="sample-town",
                combat=["A1", "flak-nest"])
    gone.apply(Pass("A1"))
    assert gone.state.phase == "plot"  # the destroyed nest did not get a turn


def test_fs_m72_zeppelin_posts_before_ground_turrets_and_idle_guns_left_out(
        tmp_path: Path) -> None:
    """FS-M72: zeppelin turrets and main guns fire before ground turrets, each group by its
    gunner's Quick Draw; a machine-gun post with nothing down its rows is not asked."""
    doc = json.loads((DATA / "maps" / "sample-zeppelin.json").read_text())
    doc["id"] = "mixed"
    doc["objects"].append({"id": "nest", "hex": [8, 1], "kind": "ground-turret", "base_tn": 7,
                           "points": 5, "blocks": False, "owner": "P2", "quick_draw": 9,
                           "guns": [{"caliber": 50, "ammo": "AP"}]})
    (tmp_path / "mixed.json").write_text(json.dumps(doc))
    sheet = load_map("mixed", tmp_path)
    g = game([placed("A1", "P1", "sample-hawk", 8, 3, "D", 2),
              placed("B1", "P2", "sample-brute", 2, 1, "D", 2)], map_name="sample-zeppelin")
    g.state.ground["nest"] = 5
    assert post_order(g.state, sheet, d10(), lambda e: None) == ["turret-port", "nest"]


@pytest.mark.parametrize(("change", "field"), [
    (lambda o: o.update(rows=["A", "B", "C", "D"]), "rows"),  # a nacelle turret: 3 rows
    (lambda o: o.pop("owner"), "owner"),
    (lambda o: o.update(on="nowhere"), "on"),
    (lambda o: o.update(flak=True), "guns"),  # guns and a flak cannon
])
def test_malformed_gun_posts_are_refused_naming_the_field(change, field: str,  # type: ignore
                                                          tmp_path: Path) -> None:
    """FS-M120's hexrow counts and a gun post's owner, mount and weapon are checked when the
    map loads (CatalogueError: file, map, field)."""
    doc = json.loads((DATA / "maps" / "sample-zeppelin.json").read_text())
    change(next(o for o in doc["objects"] if o["id"] == "turret-port"))
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(CatalogueError) as caught:
        load_map("bad", tmp_path)
    assert "bad.json" in str(caught.value) and field in str(caught.value)


def test_shipped_maps_and_sheets_are_samples() -> None:
    """Sample data is marked: the box's mapsheets and record sheets are not in the seed."""
    for path in [*(DATA / "maps").glob("*.json"), *(DATA / "sheets").glob("*.json")]:
        doc = json.loads(path.read_text())
        assert doc["sample"] is True and "SAMPLE" in doc["note"], path
    for name in ("sample-town", "sample-zeppelin", "sample-warship"):
        assert load_map(name).sample
