"""The tables the FASA seed refers to but does not print are data files the owner can replace
(issue 34): each test swaps one shipped file for an owner's and sees the game follow it.

FS-M34/FS-M35 the maneuver template, FS-M79 the Hit Location Table (FS-A08), FS-M81 the damage
templates, FS-M83 the damage-diagram layouts, FS-M102 the Machine Gun Range Table, FS-M74 the
deflection diagram; FS-M07 each plane's own start speed. A game names its tables in its log
(``Tables: DIR``) and replays from the log alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dialtray.rules.core.errors import CatalogueError, NotationError
from dialtray.rules.core.events import Event
from dialtray.rules.core.game import state_json
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.bots import GreedyBot, RandomBot
from dialtray.rules.fasa.game import FasaGame, start_events
from dialtray.rules.fasa.hexmap import from_offset
from dialtray.rules.fasa.notation import DEFAULT_SIDES, LogWriter
from dialtray.rules.fasa.tables import SHIPPED, load_tables
from dialtray.rules.fasa.template import sample_template, template
from fasahelp import d10, owner, placed, refused, shipped


def duel(tables: str = "", speed: int = 2) -> FasaGame:
    """A1 (sample-hawk, 50 cal AP gun1 and DD gun2, Steady Hand 5) nose to nose with B1 at
    range 2, in the Combat Phase, A1 first."""
    setup: list[Event] = [ev.GameSetup("sample-blank", ("P1", "P2"), 12, False, False, False, 2,
                                       tables),
                          placed("A1", "P1", "sample-hawk", 10, 8, "A", speed),
                          placed("B1", "P2", "sample-gunship", 10, 6, "D", speed),
                          ev.Phase("combat", 1, ("A1", "B1"))]
    return FasaGame(d10(), setup)


def one_hit(g: FasaGame, location: int = 1, column: int = 5) -> tuple[Event, ...]:
    """gun1 hits (10), gun2 misses (1): one hit, applied at once (no shift at Steady Hand 5)."""
    assert isinstance(g.dice, type(d10()))
    g.dice.feed((10, 1, location, column), sides=10)
    return g.apply("fire A1 B1")


def marked(events: tuple[Event, ...]) -> list[tuple[str, int, int]]:
    return [b for e in events if isinstance(e, ev.Marked) for b in e.boxes]


def test_shipped_tables_are_marked_samples_and_the_template_is_the_documented_one() -> None:
    """Every shipped table says it is a SAMPLE; template.json is what D-FS-01 builds."""
    t = load_tables()
    assert all(t.sample.values()) and set(t.sample) == {
        "template", "hit_location", "damage_templates", "layouts", "weapons", "arcs", "scatter"}
    assert template() == sample_template()


def test_fs_m34_m35_the_owners_template_decides_which_plots_exist(tmp_path: Path) -> None:
    """FS-M35: "If there is no arrowhead for that hex and facing, the move is impossible": an
    owner's template without 3L2F refuses it; with a 3L2F rated 5 G, a G-3 wing must push."""
    doc = shipped("template")
    doc["arrowheads"] = [a for a in doc["arrowheads"] if a["plot"] != "3L2F"]
    g = FasaGame(d10(), start_events("sample-blank", DEFAULT_SIDES, 12,
                                     tables=str(owner(tmp_path, template=doc))))
    refused(g, "plot A1 3L2F", "FS-M35")
    doc = shipped("template")
    for a in doc["arrowheads"]:
        if a["plot"] == "3L2F":
            a["gs"] = 5
    g = FasaGame(d10(), start_events("sample-blank", DEFAULT_SIDES, 12,
                                     tables=str(owner(tmp_path, template=doc))))
    with g.bound():
        from dialtray.rules.fasa.movement import caps, pushes
        from dialtray.rules.fasa.template import parse_plot

        kinds = {x.kind for x in pushes(caps(g.state.planes["A1"], 1), parse_plot("3L2F"))}
    assert "gs" in kinds  # sample-hawk's port wing is G 3 (FS-M46)
    plain = FasaGame(d10(), start_events("sample-blank", DEFAULT_SIDES, 12))
    with plain.bound():
        from dialtray.rules.fasa.movement import caps, pushes
        from dialtray.rules.fasa.template import parse_plot

        assert not pushes(caps(plain.state.planes["A1"], 1), parse_plot("3L2F"))


def test_fs_m79_the_owners_hit_location_table_picks_the_damage_table(tmp_path: Path) -> None:
    """FS-M79: a nose-to-nose hit with location roll 1 lands on the Nose table of the sample
    table; an owner's table sending every roll to the Tail puts it there."""
    assert {b[0] for b in marked(one_hit(duel()))} == {"nose"}
    doc = shipped("hit_location")
    doc["sides"] = {s: [{"up_to": 10, "table": "tail"}] for s in "ABCDEF"}
    g = duel(str(owner(tmp_path, hit_location=doc)))
    assert {b[0] for b in marked(one_hit(g))} == {"tail"}


def test_fs_m81_the_owners_damage_template_marks_its_boxes(tmp_path: Path) -> None:
    """FS-M81: a 50 cal AP hit marks the AP template's boxes: 3 in the sample, 5 in an
    owner's template five boxes deep."""
    assert len(marked(one_hit(duel()))) == 3
    doc = shipped("damage_templates")
    doc["templates"]["AP"] = {"boxes": [[r, 0] for r in range(5)]}
    g = duel(str(owner(tmp_path, damage_templates=doc)))
    assert len(marked(one_hit(g))) == 5


def test_fs_m102_the_owners_gun_range_table_sets_the_reach(tmp_path: Path) -> None:
    """FS-M102: the sample 50 cal reaches 2 hexes; an owner's table giving it 1 hex puts the
    target at range 2 out of reach (refused naming FS-M102)."""
    doc = shipped("weapons")
    doc["gun_range"]["50"] = 1
    g = duel(str(owner(tmp_path, weapons=doc)))
    refused(g, "fire A1 B1", "FS-M102")
    assert one_hit(duel())  # the sample reaches


def test_fs_m104_fs_m114_the_owners_rocket_and_bomb_tables_are_played(tmp_path: Path) -> None:
    """FS table 16/17 in ``weapons.json``: an owner's AP rocket at +3 (sample +1) raises the
    rocket's TN by 2 (FS-M104); an owner's 100 lb bomb doing 3 hits (sample 1) takes 9 of the
    depot's 12 points, not 3 (FS-M114)."""
    from dialtray.rules.fasa.actions import Bomb

    doc = shipped("weapons")
    next(d for d in doc["deployed"] if d["code"] == "AP")["modifier"] = 3
    next(b for b in doc["bombs"] if b["code"] == "B100")["hits"] = 3
    box = str(owner(tmp_path, weapons=doc))

    def rocket_tn(tables: str) -> int:
        g = duel(tables)
        g.dice.feed((1,), sides=10)
        out = g.apply("rocket A1 rockets_p1 AP B1")
        return next(e.tn for e in out if isinstance(e, ev.Rolled))

    assert rocket_tn(box) - rocket_tn("") == 2

    def depot_after(tables: str) -> int:
        setup: list[Event] = [ev.GameSetup("sample-town", ("P1", "P2"), 12, False, False, False,
                                           2, tables),
                              placed("A2", "P1", "sample-pusher", 6, 3, "A", 2),
                              placed("B1", "P2", "sample-gunship", 15, 10, "D", 2),
                              ev.Phase("combat", 1, ("A2", "B1"))]
        g = FasaGame(d10(10), setup)
        g.apply(Bomb("A2", "rockets_p1", from_offset(6, 3)))
        return int(g.state.ground["depot"])

    assert (depot_after(""), depot_after(box)) == (12 - 3, 12 - 9)


def test_fs_m74_the_owners_deflection_diagram_sets_the_to_hit_number(tmp_path: Path) -> None:
    """FS-M74 / FS table 13: nose to nose is +2 in the sample; an owner's diagram giving 0
    lowers gun1's TN by 2."""
    def tn(g: FasaGame) -> int:
        return next(e.tn for e in one_hit(g) if isinstance(e, ev.Rolled))

    doc = shipped("arcs")
    doc["deflection"] = {str(k): 0 for k in range(6)}
    assert tn(duel()) - tn(duel(str(owner(tmp_path, arcs=doc)))) == 2


def _gunship_with_pilot_in_the_nose(tmp_path: Path, pilot: list[list[int]],
                                    **cells: list[list[int]]) -> FasaGame:
    """A1 (hawk) and B1, an owner's gunship whose layout puts the pilot's boxes at ``pilot``
    in the nose table (other nose locations moved by ``cells``), A1 to fire."""
    lay = shipped("layouts")
    mine = json.loads(json.dumps(lay["layouts"]["front-engine-turret"]))
    for table in mine.values():
        table.pop("pilot", None)
    mine["nose"]["pilot"] = pilot
    mine["nose"].update(cells)
    lay["layouts"]["open-cockpit"] = mine
    d = owner(tmp_path, layouts=lay)
    (d / "sheets").mkdir()
    sheet = json.loads((SHIPPED.parent / "sheets" / "sample-gunship.json").read_text())
    sheet.update(id="my-gunship", layout="open-cockpit", sample=False)
    (d / "sheets" / "my-gunship.json").write_text(json.dumps(sheet))
    setup: list[Event] = [ev.GameSetup("sample-blank", ("P1", "P2"), 12, False, False, False, 2,
                                       str(d)),
                          placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
                          placed("B1", "P2", "my-gunship", 10, 6, "D", 2),
                          ev.Phase("combat", 1, ("A1", "B1"))]
    return FasaGame(d10(), setup)


def test_fs_m83_an_owners_layout_and_sheet_are_played(tmp_path: Path) -> None:
    """FS-M05/FS-M83: an owner's layout (pilot boxes in the nose's outer row) and a sheet of
    theirs using it: a nose hit in that column wounds the pilot at once (FS-M92)."""
    g = _gunship_with_pilot_in_the_nose(tmp_path, [[0, 4]])
    assert g.state.planes["B1"].sheet_data.diagram["nose"]["pilot"] == ((0, 4),)
    g.dice.feed((10, 1, 1, 5, 10), sides=10)  # column 5 = index 4; Constitution roll 10
    out = g.apply("fire A1 B1")
    assert [e.amount for e in out if isinstance(e, ev.Wounded)] == [1]


def test_fs_m92_one_constitution_roll_per_hit_however_many_pilot_boxes(tmp_path: Path) -> None:
    """FS-M92 "Pilot/Gunner boxes" (D-FS-30): an owner's layout with two pilot boxes in the
    nose's column 5 (rows 1 and 2); one 50 cal AP hit there marks both: the pilot loses 2
    Constitution (3 -> 1) and makes ONE roll at the reduced Constitution (TN 10 - 1 = 9), not
    one per box: the two dice fed after it stay unused."""
    g = _gunship_with_pilot_in_the_nose(tmp_path, [[0, 4], [1, 4]], engine_ms4=[[1, 3]])
    g.dice.feed((10, 1, 1, 5, 10, 10, 10), sides=10)  # gun1 hits, gun2 misses, nose, col 5
    out = g.apply("fire A1 B1")
    assert [e.amount for e in out if isinstance(e, ev.Wounded)] == [2]
    rolls = [e for e in out if isinstance(e, ev.Rolled) and e.rule == "FS-M92"]
    assert [(r.roll, r.tn) for r in rolls] == [(10, 9)]
    assert g.state.planes["B1"].constitution == 1 and len(g.dice.pending()) == 2


def test_fs_m07_each_plane_starts_at_its_own_speed_and_above_max_is_refused() -> None:
    """FS-M07: "Pilots may start at any speed <= their plane's max speed": per plane; a speed
    above the plane's max is refused naming FS-M07, not capped."""
    events = start_events("sample-blank", DEFAULT_SIDES, 12, speeds={"A1": 4, "B2": 0})
    speeds = {e.plane: e.speed for e in events if isinstance(e, ev.PlanePlaced)}
    assert speeds == {"A1": 4, "A2": 2, "B1": 2, "B2": 0}
    with pytest.raises(ValueError, match="FS-M07"):
        start_events("sample-blank", DEFAULT_SIDES, 12, speeds={"A1": 6})
    text = "Game: fasa\nSpeeds: A1=9\n---\n"
    with pytest.raises(NotationError, match=r"x.log:2: Speeds:.*FS-M07"):
        replay_log(parse_log(text, "x.log"))


def test_a_malformed_owner_table_names_the_file_and_field(tmp_path: Path) -> None:
    """A bad file is refused naming file and field, directly and through the log's header
    line; a missing directory too."""
    doc = shipped("hit_location")
    doc["sides"]["C"][0]["up_to"] = 11
    d = owner(tmp_path, hit_location=doc)
    with pytest.raises(CatalogueError) as info:
        load_tables(d)
    assert info.value.field == "sides.C[0].up_to" and info.value.file.endswith(
        "hit_location.json")
    with pytest.raises(NotationError, match=r"x.log:2: Tables: .*hit_location.json.*sides.C"):
        replay_log(parse_log(f"Game: fasa\nTables: {d}\n---\n", "x.log"))
    with pytest.raises(NotationError, match="no such directory"):
        replay_log(parse_log(f"Game: fasa\nTables: {tmp_path / 'nope'}\n---\n", "x.log"))


def test_a_game_on_the_owners_tables_replays_from_its_log_alone(tmp_path: Path) -> None:
    """A bot game on an owner's tables and sheet: its log names them (``Tables:``); the
    replay from the log text alone rebuilds the same state; `dialtray import` stores it and
    `replay` plays it back (`verify`: the next test)."""
    doc = shipped("damage_templates")
    doc["templates"]["AP"] = {"boxes": [[0, 0], [1, 0], [2, 0], [3, 0]]}
    d = owner(tmp_path, damage_templates=doc)
    (d / "sheets").mkdir()
    sheet = json.loads((SHIPPED.parent / "sheets" / "sample-hawk.json").read_text())
    sheet.update(id="my-hawk", sample=False, max_speed=4)
    (d / "sheets" / "my-hawk.json").write_text(json.dumps(sheet))
    sides = (("P1", "A1", "my-hawk"), *DEFAULT_SIDES[1:])
    g = FasaGame(d10(), start_events("sample-town", sides, 6, speeds={"A1": 4}, tables=str(d)))
    from dialtray.rules.core.dice import SeededDice

    g.dice = SeededDice(7)
    w = LogWriter(g)
    bots = {"P1": GreedyBot(1), "P2": RandomBot(2)}
    for _ in range(400):
        seat = g.to_move()
        if seat is None:
            break
        w.apply(bots[seat].choose(g))
    text = w.text()
    assert f"Tables: {d}" in text and "A1=my-hawk" in text and "Speeds: A1=4" in text
    again = replay_log(parse_log(text, "owner.log")).game
    assert state_json(again) == state_json(g)
    from dialtray.cli import main

    log, db = tmp_path / "owner.log", tmp_path / "games.sqlite3"
    log.write_text(text, encoding="utf-8")
    assert main(["import", "--db", str(db), str(log)]) == 0  # stored ...
    assert main(["replay", str(log)]) == 0  # ... and replayed from the log alone


def test_a_stored_game_on_the_owners_tables_verifies(tmp_path: Path) -> None:
    """`dialtray verify` of a stored game played on the owner's tables."""
    from dialtray.cli import main
    from dialtray.rules.core.dice import SeededDice

    d = owner(tmp_path, arcs=shipped("arcs"))
    g = FasaGame(SeededDice(3), start_events("sample-town", DEFAULT_SIDES, 3, tables=str(d)))
    w = LogWriter(g)
    bots = {"P1": GreedyBot(1), "P2": RandomBot(2)}
    while (seat := g.to_move()) is not None:
        w.apply(bots[seat].choose(g))
    log, db = tmp_path / "owner.log", tmp_path / "games.sqlite3"
    log.write_text(w.text(), encoding="utf-8")
    assert main(["import", "--db", str(db), str(log)]) == 0
    assert main(["verify", "--db", str(db)]) == 0


def test_fs_m117_zep_dmg_numbers_commercial_and_military(tmp_path: Path) -> None:
    """FS-M117: a gas cell takes the template's "Zep. Dmg." number, the first against a
    commercial zeppelin and the one after the slash against a military one: an owner's AP
    template giving 9/20 takes 9 points off a cell of the commercial sample zeppelin and 20
    off the same cell of the owner's military copy of the map (FS-M64's box count, 3, with no
    number given)."""
    doc = shipped("damage_templates")
    doc["templates"]["AP"]["zep_damage"] = {"commercial": 9, "military": 20}
    d = owner(tmp_path, damage_templates=doc)
    (d / "maps").mkdir()
    zep = json.loads((SHIPPED.parent / "maps" / "sample-zeppelin.json").read_text())
    zep.update(id="my-warship", military=True, sample=False)
    (d / "maps" / "my-warship.json").write_text(json.dumps(zep))

    def cell_after(tables: str, map_name: str) -> int:
        setup: list[Event] = [ev.GameSetup(map_name, ("P1", "P2"), 12, False, False, False, 2,
                                           tables),
                              placed("A1", "P1", "sample-hawk", 7, 8, "A", 2),
                              placed("B1", "P2", "sample-gunship", 15, 2, "D", 2),
                              ev.Phase("combat", 1, ("A1", "B1"))]
        g = FasaGame(d10(2, 1), setup)
        g.apply("attack A1 cell-1")
        return g.state.ground["cell-1"]

    assert cell_after("", "sample-zeppelin") == 60 - 3
    assert cell_after(str(d), "sample-zeppelin") == 60 - 9
    assert cell_after(str(d), "my-warship") == 60 - 20


def test_fs_m117_a_gas_cell_over_several_hexes(tmp_path: Path) -> None:
    """FS-M03/FS-M117: an owner's zeppelin map whose cell-1 covers 7,6 and 7,7: the plane two
    hexes below 7,7 strafes the cell at that hex (out of reach of 7,6, and the shipped map's
    single-hex cell is no target from there); the map finds the cell at 7,7 (what movement and
    sight ask, FS-M116, FS-M71); a hex of a cell that touches none of its others is refused
    naming the field."""
    from dialtray.rules.fasa.hexmap import load_map

    zep = json.loads((SHIPPED.parent / "maps" / "sample-zeppelin.json").read_text())
    zep.update(id="long-zep", sample=False)
    zep["objects"][0]["more"] = [[7, 7]]
    d = owner(tmp_path)
    (d / "maps").mkdir()
    (d / "maps" / "long-zep.json").write_text(json.dumps(zep))

    def strafe(tables: str, map_name: str) -> FasaGame:
        return FasaGame(d10(2, 2), [
            ev.GameSetup(map_name, ("P1", "P2"), 12, False, False, False, 2, tables),
            placed("A1", "P1", "sample-hawk", 7, 9, "A", 2),
            placed("B1", "P2", "sample-gunship", 15, 2, "D", 2),
            ev.Phase("combat", 1, ("A1", "B1"))])

    from dialtray.rules.fasa.actions import Attack

    long = strafe(str(d), "long-zep")
    assert long.map.object_at(from_offset(7, 7)).id == "cell-1"  # type: ignore[union-attr]
    assert Attack("A1", "cell-1") in long.legal_actions()
    long.apply("attack A1 cell-1")
    assert long.state.ground["cell-1"] == 60 - 3 - 4  # both guns hit: AP 3, DD 4 boxes
    assert Attack("A1", "cell-1") not in strafe("", "sample-zeppelin").legal_actions()
    zep["objects"][0]["more"] = [[3, 3]]
    (d / "maps" / "long-zep.json").write_text(json.dumps(zep))
    with pytest.raises(CatalogueError) as info:
        load_map("long-zep", d / "maps")
    assert info.value.field == "objects[0].more[0]"
