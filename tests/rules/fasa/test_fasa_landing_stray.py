"""Stray shots and zeppelin landings in play (issue 15 follow-up).

FS-M119 "Stray shots": a missed gun or rocket shot at a target between a zeppelin-facing
attacker and the zeppelin flies on down the hexrow into the first gas cell with points left
(D-FS-19). FS-M66 "Landing TN", FS-M67 "Failed landing", FS-M91 "Landing gear and zeppelin
gear", FS-M22 "Natural Touch": ``land B1`` from the landing hook's hex of the seat's own
zeppelin, FS table 10 / FS table 12 (D-FS-18, FS-A04, FS-A05). Dice are typed in as d10s.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from dialtray.cli import main
from dialtray.rules.core.errors import InvalidActionError
from dialtray.rules.core.events import Event
from dialtray.rules.core.notation import parse_log
from dialtray.rules.core.replay import replay_log
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Land, parse_action
from dialtray.rules.fasa.bots import bot_game
from dialtray.rules.fasa.game import FasaGame, record
from dialtray.rules.fasa.skills import mission_xp
from fasahelp import d10, game, placed, refused

ZEP = "sample-zeppelin"


def _texts(events: tuple[Event, ...]) -> list[str]:
    return [e.text() for e in events]


# -- FS-M119 "Stray shots" ---------------------------------------------------------------------

def test_fs_m119_stray_shots_a_missed_burst_flies_on_into_the_gas_cell() -> None:
    """FS-M119 "Stray shots": A1 faces the zeppelin (column 9, cell-3 at 9,6) and misses B1
    between them: each missed gun's template (50 cal AP 3 boxes, 50 cal DD 4 boxes: D-FS-13)
    lands on cell-3, no extra dice."""
    g = game([placed("A1", "P1", "sample-hawk", 9, 10, "A", 2),
              placed("B1", "P2", "sample-brute", 9, 8, "A", 2)], map_name=ZEP,
             combat=["A1"], dice=d10(1, 1))
    out = _texts(g.apply("fire A1 B1"))
    assert out.count("ground target cell-3 takes 3 point(s) [FS-M119]") == 1
    assert out.count("ground target cell-3 takes 4 point(s) [FS-M119]") == 1
    assert g.state.ground["cell-3"] == 53 and g.dice.remaining == 0  # type: ignore[attr-defined]


def test_fs_m119_stray_shots_no_stray_on_a_hit_or_without_a_zeppelin_behind() -> None:
    """FS-M119 "Stray shots": a hit does not stray; an attacker that does not face the
    zeppelin (the row runs off the sheet) strays nothing."""
    g = game([placed("A1", "P1", "sample-hawk", 9, 10, "A", 2),
              placed("B1", "P2", "sample-brute", 9, 8, "A", 2)], map_name=ZEP,
             combat=["A1"], dice=d10(10, 10, 3, 4, 5))
    out = _texts(g.apply("fire A1 B1"))
    assert not any("FS-M119" in t for t in out) and g.state.ground["cell-3"] == 60
    g = game([placed("A1", "P1", "sample-hawk", 9, 10, "D", 2),
              placed("B1", "P2", "sample-brute", 9, 12, "A", 2)], map_name=ZEP,
             combat=["A1"], dice=d10(1, 1))
    out = _texts(g.apply("fire A1 B1"))
    assert not any("FS-M119" in t for t in out)
    assert sum(v for k, v in g.state.ground.items() if k.startswith("cell-")) == 300


def test_fs_m119_stray_shots_pass_a_shredded_cell_and_stop_at_a_nacelle() -> None:
    """FS-M119 "Stray shots" / FS-M117 "Gas cells": the first *undamaged* gas cell in the
    hexrow: a shredded cell-1 lets the miss through to cell-2 (D-FS-19). A standing nacelle
    in the row stops it (nacelle-port at 8,5 before cell-2 at 8,6)."""
    g = game([placed("A1", "P1", "sample-hawk", 4, 8, "B", 2),
              placed("B1", "P2", "sample-brute", 5, 7, "A", 2)], map_name=ZEP,
             extra=[ev.GroundHit("cell-1", 60, "FS-M117")], combat=["A1"], dice=d10(1, 1))
    out = _texts(g.apply("fire A1 B1"))
    assert [t for t in out if "FS-M119" in t] == [
        "ground target cell-2 takes 3 point(s) [FS-M119]",
        "ground target cell-2 takes 4 point(s) [FS-M119]"]
    g = game([placed("A1", "P1", "sample-hawk", 8, 1, "D", 2),
              placed("B1", "P2", "sample-brute", 8, 3, "A", 2)], map_name=ZEP,
             combat=["A1"], dice=d10(1, 1))
    assert not any("FS-M119" in t for t in _texts(g.apply("fire A1 B1")))


def test_fs_m119_stray_shots_a_missed_rocket_strays_too() -> None:
    """FS-M119 "Stray shots": "the ordnance will continue": a missed AP rocket (6-box
    template) hits the cell."""
    g = game([placed("A1", "P1", "sample-hawk", 9, 10, "A", 2),
              placed("B1", "P2", "sample-brute", 9, 8, "A", 2)], map_name=ZEP,
             combat=["A1"], dice=d10(1))
    out = _texts(g.apply("rocket A1 rockets_p1 AP B1"))
    assert "ground target cell-3 takes 6 point(s) [FS-M119]" in out


# -- FS-M66 / FS-M67 / FS-M91 zeppelin landings -------------------------------------------------

def _at_hook(extra: tuple[Event, ...] = (), dice: tuple[int, ...] = ()) -> FasaGame:
    """B1 (P2, the zeppelin's seat; sample-hawk: Natural Touch 5) under the hook at 9,5."""
    return game([placed("A1", "P1", "sample-brute", 2, 12, "A", 2),
                 placed("B1", "P2", "sample-hawk", 9, 5, "B", 2)], map_name=ZEP,
                extra=extra, combat=["B1"], dice=d10(*dice))


def _marked(*locations: str) -> tuple[Event, ...]:
    return (ev.Marked("B1", (("nose", 0, 0),), "earlier hit", "FS-M81"),
            *(ev.LocationLost("B1", loc, "FS-M91") for loc in locations))


def test_fs_m66_landing_tn_at_or_below_0_lands_with_no_roll() -> None:
    """FS-M66 "Landing TN" / FS-M22 "Natural Touch": 4 - 5 = -1, undamaged: no roll; the
    plane leaves play landed, FS table 6's 10 XP for landing."""
    g = _at_hook()
    assert Land("B1") in g.legal_actions()
    out = _texts(g.apply("land B1"))
    assert "B1 out: withdrawn (landed on the zeppelin, TN -1: no roll) [FS-M66]" in out
    b1 = g.state.planes["B1"]
    assert not b1.flying and record(b1).landed and mission_xp(record(b1)) >= 10


def test_fs_m91_zeppelin_gear_makes_the_landing_a_roll() -> None:
    """FS-M91 "Landing gear and zeppelin gear" / FS-A05: the zeppelin gear is the required
    gear: +3, and any damage forces a roll: 4 + 3 - 5 = TN 2. A 2 lands; a 1 fails at row
    2 - 1 = 1 of FS table 12 (the landing structure), the plane is aboard (FS-M67)."""
    g = _at_hook(_marked("zeppelin_gear"), (2,))
    out = _texts(g.apply("land B1"))
    assert "B1 zeppelin landing: d10 2 vs TN 2 succeeds [FS-M66]" in out
    assert record(g.state.planes["B1"]).landed
    g = _at_hook(_marked("zeppelin_gear"), (1,))
    out = _texts(g.apply("land B1"))
    assert "B1 zeppelin landing: d10 1 vs TN 2 fails [FS-M66]" in out
    assert any("withdrawn (landing mishap 1: slams the landing structure" in t for t in out)
    assert not record(g.state.planes["B1"]).landed


def test_fs_m67_failed_landing_rows_3_4_and_5_plus() -> None:
    """FS-M67 "Failed landing" / FS table 12: gear +3, both rudders (tail controls) +3 = TN 5:
    a 1 is row 4, the pilot loses 1 Constitution. With a flap too (+1) TN 6: a 1 is row 5:
    the plane is destroyed, the hook's gas cell is ripped open and the pilot bails out at base
    14 - Sixth Sense 5 - Quick Draw 4 = TN 5 (FS-M65)."""
    g = _at_hook(_marked("zeppelin_gear", "tail_controls"), (1,))
    out = _texts(g.apply("land B1"))
    assert "B1 pilot loses 1 Constitution [FS-M92]" in out
    assert g.state.planes["B1"].status == "withdrawn"
    g = _at_hook(_marked("zeppelin_gear", "tail_controls", "flap_port"), (1, 5))
    out = _texts(g.apply("land B1"))
    assert "ground target cell-3 takes 60 point(s) [FS-M67]" in out
    assert any("combat bailout" in t and "vs TN 5 succeeds [FS-M65]" in t for t in out)
    assert g.state.planes["B1"].status == "bailed" and g.state.ground["cell-3"] == 0


def test_fs_m66_landing_refused_away_from_the_hook_for_the_enemy_or_a_falling_zeppelin() -> None:
    """FS-M66 "Landing TN": only under the own zeppelin's hook; FS-M117 "Gas cells": not on a
    falling zeppelin nor from a shredded cell. Refused with the rule, state unchanged."""
    g = game([placed("A1", "P1", "sample-brute", 2, 12, "A", 2),
              placed("B1", "P2", "sample-hawk", 10, 5, "B", 2)], map_name=ZEP, combat=["B1"])
    assert "under the landing hook" in refused(g, "land B1", "FS-M66").reason
    assert Land("B1") not in g.legal_actions()
    g = game([placed("A1", "P1", "sample-brute", 9, 5, "A", 2),
              placed("B1", "P2", "sample-hawk", 2, 2, "B", 2)], map_name=ZEP, combat=["A1"])
    assert "no zeppelin of P1" in refused(g, "land A1", "FS-M66").reason
    falling = tuple(ev.GroundHit(f"cell-{i}", 60, "FS-M117") for i in (1, 2, 4))
    refused(_at_hook(falling), "land B1", "FS-M117")
    refused(_at_hook((ev.GroundHit("cell-3", 60, "FS-M117"),)), "land B1", "FS-M117")
    g = game([placed("A1", "P1", "sample-brute", 9, 5, "A", 2)], map_name="sample-town",
             combat=["A1"])
    refused(g, "land A1", "FS-M66")


def test_land_notation_round_trip_and_bad_forms() -> None:
    """FS-M66 "Landing TN": ``land B1`` (docs/notation.md); malformed lines are refused
    before any rule."""
    assert parse_action("land B1") == Land("B1") and Land("B1").text() == "land B1"
    for bad in ("land", "land B1 now", "land b1"):
        with pytest.raises(InvalidActionError):
            parse_action(bad)


@pytest.mark.parametrize(("change", "field"), [
    (lambda o: o.pop("owner"), "on"),
    (lambda o: o.update(on="nacelle-port"), "on"),  # a hook hangs from a gas cell
    (lambda o: o.update(blocks=True), "on"),
])
def test_fs_m66_malformed_landing_hook_refused_naming_the_field(change, field: str,  # type: ignore
                                                                 tmp_path: Path) -> None:
    """FS-M66 "Landing TN" (D-FS-18): a map's landing hook needs an owner seat, a gas cell
    to hang from and no blocking; a bad one is refused when the map loads, naming the file
    and the field."""
    import json

    from dialtray.rules.core.errors import CatalogueError
    from dialtray.rules.fasa.hexmap import DATA, load_map

    doc = json.loads((DATA / "maps" / "sample-zeppelin.json").read_text())
    change(next(o for o in doc["objects"] if o["id"] == "hook"))
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(CatalogueError) as caught:
        load_map("bad", tmp_path)
    assert "bad.json" in str(caught.value) and f"].{field}" in str(caught.value)


def _log_with_landing_and_strays() -> str:
    for seed in range(4, 400, 8):  # the sweep's escort games (bots.ESCORTS)
        _, log = bot_game(seed, turn_limit=6)
        again = replay_log(parse_log(log, "x.log")).game
        assert isinstance(again, FasaGame)
        if "\nland " in log and any("FS-M119" in e.text() for x in again.history
                                      for e in x.events):
            return log
    raise AssertionError("no escort game both landed and strayed")


def test_replay_of_a_log_with_landings_and_stray_shots(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """FS-M66 "Landing TN" / FS-M119 "Stray shots": a bot log using ``land`` and stray shots
    replays with `dialtray replay`; every action line prints back as written; a P2 plane's
    ``pass`` turned into ``land`` away from the hook is refused at its FILE:LINE naming
    FS-M66."""
    log = _log_with_landing_and_strays()
    for line in log.split("---\n", 1)[1].splitlines():
        text = line.split(" | ")[0]
        if text and not text.startswith("#"):
            assert parse_action(text).text() == text
    path = tmp_path / "escort.log"
    path.write_text(log)
    assert main(["replay", str(path)]) == 0
    assert "sample-escort" in capsys.readouterr().out
    lines = log.splitlines()
    i = next(k for k, t in enumerate(lines) if t.startswith("pass B1")  # turn 1: B1 at 8,1
             and lines[k - 1].split()[:2] not in (["rocket", "B1"], ["launch", "B1"],
                                                  ["bomb", "B1"]))  # not ending a launch
    lines[i] = "land B1" + lines[i][len("pass B1"):]
    path.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"escort.log:{i + 1}" in err and "FS-M66" in err and "landing hook" in err
