"""A camera-only tray (`--no-encoders`) reads every dial a figure or card can have on a dock
(issue 33): Air Action's Ace cards (each on a dock of its own, read through the card's ``ace``
window) and Aces' second figure sharing dock 0 (in the dock's holder, ``layout.HOLDER``). The
virtual camera-only tray of each game's own setup (``new_game``, as play and serve set it up)
at a held-back scene: every dial's first read is where the world has it, and a turn of an Ace
card's dial or of the holder's figure is a dial event from the camera on that reader.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from camera_truth import misread
from dialtray.rules.core.dice import SeededDice
from dialtray.table.build import binding_for, tracker_for
from dialtray.table.camera_only import virtual_camera_tray
from dialtray.table.games import new_game
from dialtray.tracker.binding import Slot
from dialtray.tracker.dice import TableDice
from dialtray.vision import testset
from dialtray.vision.faces import dial_faces
from dialtray.vision.layout import HOLDER, Layout

SEED = 9970  # a held-back scene drawn for this test
# Aces' cast in dock order: the ninth shares dock 0 (its holder). The default order puts a
# one-click token there (the trusty sidekick, whose dial never turns): Genghis instead.
ACES_ORDER = ["charlie", "trusty-sidekick", "louis", "ruffian", "sergeant", "show-stopper",
              "soldier", "tail-gunner", "genghis"]


def _tracker(game: str) -> Any:
    dice = TableDice(SeededDice(SEED))
    setup = new_game(game, dice, SEED, 1)
    order = ACES_ORDER if game == "aces" else None
    return tracker_for(setup, binding_for(setup, 8, figures=order), dice, None)


@pytest.mark.parametrize("game", ["airaction", "aces"])
def test_a_camera_only_tray_reads_ace_cards_and_a_shared_dock(game: str, layout: Layout) -> None:
    link = virtual_camera_tray(game, _tracker(game), SEED, "held-back", layout=layout)
    tray, world = link.tray, link.camera.world
    docs = {**testset.sample_figures(game), **testset.sample_ace_cards()}
    # the dials this is about: the Ace cards, the second figure sharing a dock
    odd = [d for d in tray.dials.values() if d.name == "ace" or d.place >= HOLDER]
    assert len(odd) == (2 if game == "airaction" else 1), tray.dials
    with link:
        snap = link.snapshot(120)
        for (dock, dial), d in tray.dials.items():
            faces = dial_faces(docs[link.camera.witness.docks[d.place]])[d.name]
            pos = snap.position(dock, dial)
            assert pos is not None
            truth = round(world.positions[d.place][d.name]) % d.clicks
            assert faces[(pos.position * d.up) % d.clicks].key() == faces[truth].key(), \
                (dock, dial, d.name, pos.position, truth)
        for d in odd:
            link.hand(Slot(d.dock, d.dial), 2)  # clicks 0 and 2 print differently
        end = time.monotonic() + 120
        turned = {(d.dock, d.dial) for d in odd}
        while time.monotonic() < end and \
                turned - {(e.dock, e.dial) for e in tray.events}:
            time.sleep(0.1)
        seen = {(e.dock, e.dial): e.position for e in tray.events}
    for d in odd:
        assert seen.get((d.dock, d.dial)) == (2 * d.up) % d.clicks, (d, tray.events,
                                                                     link.camera.witness.results)


@pytest.mark.slow  # a whole camera-only Aces game of 2 turns (clean photographs)
def test_a_camera_only_aces_game_plays_to_its_end() -> None:
    """Aces on a camera-only tray (its cast of 9 sharing dock 0): every figure's clicks 0 and
    1 print alike, and the one-click tokens' knock-outs are a click of a dial that looks the
    same wherever it rests. A click alike with where the dial rests is taken on the rules'
    word only once the person turned it; before, the tray stopped asking at once, the dial
    stayed behind and this game (seed 5) stalled at a figure's second click of damage."""
    from dialtray.table.camera_game import camera_game
    from dialtray.tracker.tracker import OVER

    g = camera_game("aces", 5, 2, encoders=False, profile="clean")  # Stuck if it stalls
    tray = g.camera_tray
    assert tray is not None and g.table.tracker.phase == OVER
    assert tray.assumed and tray.events, "no turn was seen or taken on the rules' word"
    assert not misread(tray, g.world, g.witness.docks, "aces")
