"""The arcs diagram and the bomb scatter diagram are the owner's data files (issue 34,
D-FS-46): FS-M120 "Turrets" / FS-M59 "Tailing conditions" arc widths (``arcs.json``) and
FS-M114 "Bombs" scatter (``scatter.json``, with its schema); a test swaps each and the game
follows it, and a malformed one is refused naming the file and the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from dialtray.rules.core.errors import CatalogueError
from dialtray.rules.fasa import events as ev
from dialtray.rules.fasa.actions import Bomb
from dialtray.rules.fasa.combat import TURRET
from dialtray.rules.fasa.game import FasaGame
from dialtray.rules.fasa.hexmap import from_offset
from dialtray.rules.fasa.tables import load_tables
from fasahelp import d10, owner, placed, shipped


def _setup(tables: str, map_name: str = "sample-blank") -> list[ev.GameSetup]:
    return [ev.GameSetup(map_name, ("P1", "P2"), 12, False, False, False, 2, tables)]


def test_fs_m120_the_owners_arcs_decide_what_a_turret_covers(tmp_path: Path) -> None:
    """The gunship's turret covers its rear half (shipped width 1.5 hexsides either side): the
    hawk dead ahead is out of it. The owner's ``arcs.json`` with width 3 (all round) lets the
    turret fire at the hawk."""
    def turret_targets(tables: str) -> list[str]:
        g = FasaGame(d10(*[5] * 10), [*_setup(tables),
                                      placed("A1", "P1", "sample-hawk", 10, 8, "A", 2),
                                      placed("B1", "P2", "sample-gunship", 10, 6, "D", 2),
                                      ev.Phase("combat", 1, ("B1" + TURRET, "A1"))])
        return [a.text() for a in g.legal_actions()]

    assert "fire B1 A1" not in turret_targets("")
    arcs = shipped("arcs")
    arcs["turret_rear_half_width"] = 3
    assert "fire B1 A1" in turret_targets(str(owner(tmp_path, arcs=arcs)))


def _bomb_miss(tables: str) -> FasaGame:
    """The pusher drops its bomb on the hex south of the town's depot and misses (1), then the
    scatter d10 is 1."""
    g = FasaGame(d10(1, 1), [*_setup(tables, "sample-town"),
                             placed("A2", "P1", "sample-pusher", 6, 4, "A", 2),
                             placed("B1", "P2", "sample-gunship", 15, 10, "D", 2),
                             ev.Phase("combat", 1, ("A2", "B1"))])
    g.apply(Bomb("A2", "rockets_p1", from_offset(6, 4)))
    return g


def test_fs_m114_the_owners_scatter_diagram_decides_where_a_miss_lands(tmp_path: Path) -> None:
    """Shipped: a scatter 1 moves the bomb one hex toward A, onto the depot (12 -> 9). The
    owner's diagram says a 1 stays in the aimed hex: the depot is untouched."""
    assert _bomb_miss("").state.ground["depot"] == 9
    scatter = shipped("scatter")
    scatter["d10"]["1"] = {"hexes": 0}
    assert _bomb_miss(str(owner(tmp_path, scatter=scatter))).state.ground["depot"] == 12


@pytest.mark.parametrize(("row", "field"), [({"facing": "A", "hexes": 9}, "d10.1"),
                                            ({"hexes": 1}, "d10.1.facing")])
def test_a_malformed_scatter_diagram_names_the_file_and_field(tmp_path: Path, row: object,
                                                              field: str) -> None:
    scatter = shipped("scatter")
    scatter["d10"]["1"] = row
    with pytest.raises(CatalogueError) as caught:
        load_tables(owner(tmp_path, scatter=scatter))
    assert "scatter.json" in str(caught.value) and field in str(caught.value)
