"""A missed rocket at a map object flies on as a stray shot (issue 34, D-FS-47): FS-M119 "Stray
shots" ("the ordnance will continue past the target in the same hexrow and hit the first
undamaged box of the gas cell on that hexrow") with FS-M118 "Engine nacelles" and FS-M117
"Gas cells" as the targets missed."""

from __future__ import annotations

from dialtray.rules.core.events import Event
from dialtray.rules.fasa import events as ev
from fasahelp import d10, game, placed


def _rocket(col: int, row: int, target: str, roll: int) -> tuple[dict[str, int], list[Event]]:
    g = game([placed("A1", "P1", "sample-hawk", col, row, "A", 2),
              placed("B1", "P2", "sample-gunship", 15, 2, "D", 2)],
             map_name="sample-zeppelin", combat=["A1", "B1"], dice=d10(roll))
    out = list(g.apply(f"rocket A1 rockets_p1 AP {target}"))
    return dict(g.state.ground), out


def test_fs_m119_a_rocket_missing_a_nacelle_hits_the_gas_cell_beyond() -> None:
    """The hawk fires its AP rocket at the starboard nacelle two hexes ahead and rolls a 1: the
    rocket flies on down the hexrow into cell-4 (the AP template's 6 points, the sample's
    commercial "Zep. Dmg."); the nacelle is untouched."""
    ground, out = _rocket(10, 10, "nacelle-starboard", 1)
    assert ground["cell-4"] == 60 - 6 and ground["nacelle-starboard"] == 12
    hit = next(e for e in out if isinstance(e, ev.GroundHit))
    assert (hit.target, hit.rule) == ("cell-4", "FS-M119")


def test_fs_m119_a_hit_or_a_miss_with_nothing_beyond_strays_nowhere() -> None:
    """A hit on the nacelle is the nacelle's (no stray); a missed gas cell with open sky
    beyond it costs no cell a box."""
    ground, _ = _rocket(10, 10, "nacelle-starboard", 10)
    assert ground["cell-4"] == 60 and ground["nacelle-starboard"] < 12
    ground, out = _rocket(7, 8, "cell-1", 1)
    assert all(v == 60 for k, v in ground.items() if k.startswith("cell-"))
    assert not any(isinstance(e, ev.GroundHit) for e in out)


def test_fs_m119_guns_missing_a_nacelle_hit_the_gas_cell_beyond() -> None:
    """The hawk's two guns at the starboard nacelle both miss (1, 1): each round flies on into
    cell-4, which loses each gun template's "Zep. Dmg." points; the nacelle keeps its 12."""
    g = game([placed("A1", "P1", "sample-hawk", 10, 10, "A", 2),
              placed("B1", "P2", "sample-gunship", 15, 2, "D", 2)],
             map_name="sample-zeppelin", combat=["A1", "B1"], dice=d10(1, 1))
    out = g.apply("attack A1 nacelle-starboard")
    strays = [e for e in out if isinstance(e, ev.GroundHit)]
    assert [e.target for e in strays] == ["cell-4", "cell-4"]
    assert g.state.ground["cell-4"] == 60 - sum(e.points for e in strays) < 60
    assert g.state.ground["nacelle-starboard"] == 12
