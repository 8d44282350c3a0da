"""The camera at the table, on the virtual tray's virtual camera (held-back profile): the
scene's partial renders equal full ones; each settled click is burst-read and fused with the
encoder; a disagreement is flagged with what to do; a dial resting mid-turn, a hand over the
window, a figure knocked over it and a base off its dock are held, never confirmed wrong.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.faces import BASE_TYPE, base_type_of, dial_faces, game_of
from dialtray.vision.layout import HOLDER, Layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.render import DockSpec, draw_tray
from dialtray.vision.scene import TrayScene
from dialtray.vision.virtual_camera import HAND, DialWorld, VirtualCamera, blob, dock_positions
from dialtray.vision.witness import CONFIRM, DISAGREE, MIDTURN, UNSURE, CameraWitness

SEED = 9960  # a held-back scene drawn for this test


def _docks(figures: dict[str, Any], rng: np.random.Generator, n: int) -> dict[int, DockSpec]:
    ids = sorted(figures)
    out = {}
    for dock in range(n):
        fid = ids[dock % len(ids)]
        faces = dial_faces(figures[fid])
        out[dock] = DockSpec(fid, BASE_TYPE[game_of(figures[fid])], faces,
                             {d: float(int(rng.integers(len(f)))) for d, f in faces.items()})
    return out


def test_a_turned_window_is_rendered_as_a_full_render_would(layout: Layout,
                                                            figures: dict) -> None:
    rng = np.random.default_rng(SEED)
    docks = _docks(figures, rng, 3)
    p = rp.held_back(rng)
    scene = TrayScene(layout, docks, p, SEED)
    moved = {0: {d: v + 1.4 for d, v in docks[0].positions.items()}, 2: {
        d: v + 2 for d, v in docks[2].positions.items()}}
    assert scene.set_positions(moved)
    full = draw_tray(layout, {d: replace(s, positions=scene.positions[d])
                              for d, s in docks.items()}, p, SEED)
    assert np.array_equal(full.optics.expose(full.tex), scene.clean)


def test_a_turned_card_and_holder_are_rendered_as_a_full_render_would(layout: Layout) -> None:
    """The same for the dials elsewhere than a plane's base: an Ace card on a dock of its own
    and one in a dock's holder, an Aces figure and another sharing its dock (in the holder),
    turned by whole clicks and left mid-turn."""
    docs = {**testset.sample_ace_cards(), **testset.sample_figures("aces")}
    cast = {0: "sample-genghis", HOLDER + 0: "sample-louis-thibodeaux",
            5: "sample-ace-charlie-steele", HOLDER + 5: "sample-ace-loyle-crawford"}
    docks = {d: DockSpec(f, base_type_of(docs[f]), dial_faces(docs[f]),
                         dict.fromkeys(dial_faces(docs[f]), 1.0)) for d, f in cast.items()}
    p = rp.held_back(np.random.default_rng(SEED + 1))
    scene = TrayScene(layout, docks, p, SEED + 1)
    moved = {HOLDER + 0: {"combat": 2.5}, 5: {"ace": 3.0}, HOLDER + 5: {"ace": 4.3}}
    assert sorted(scene.set_positions(moved)) == [(5, "ace"), (HOLDER + 0, "combat"),
                                                  (HOLDER + 5, "ace")]
    full = draw_tray(layout, {d: replace(s, positions=scene.positions[d])
                              for d, s in docks.items()}, p, SEED + 1)
    assert np.array_equal(full.optics.expose(full.tex), scene.clean)
    assert not np.array_equal(scene.clean, TrayScene(layout, docks, p, SEED + 1).clean)


@pytest.mark.slow
def test_the_camera_confirms_flags_and_holds(layout: Layout, figures: dict, refs: dict) -> None:
    rng = np.random.default_rng(SEED + 1)
    docks = _docks(figures, rng, 4)
    scene = TrayScene(layout, docks, rp.held_back(rng), SEED + 1)
    world = DialWorld(dock_positions(docks))
    cam = VirtualCamera(scene, world, fps=30, seed=5)  # frames as fast as they come
    witness = CameraWitness(cam, TrayReader(layout, refs), {d: s.figure for d, s in docks.items()},
                            watch=True)
    turnable = [(d, k) for d, s in docks.items() for k, f in s.faces.items() if len(f) > 1]
    with witness:
        def settle(dock: int, dial: str, encoder: int) -> Any:
            n = len(witness.results)
            witness.settled(dock, dial, encoder)
            assert witness.wait(lambda: len(witness.results) > n, 60), witness.error
            return witness.results[-1]

        def click(dock: int, dial: str) -> int:
            return round(world.positions[dock][dial]) % len(docks[dock].faces[dial])

        # every dial turned one click and settled: confirmed (or unsure, never wrong)
        differ = 0  # turns to a click that prints differently (the camera can see those)
        for dock, dial in turnable:
            faces = docks[dock].faces[dial]
            differ += faces[click(dock, dial)].key() != faces[(click(dock, dial) + 1)
                                                              % len(faces)].key()
            witness.turning(dock, dial)
            world.turn(dock, dial, 1, 0.15)
            assert witness.wait(lambda: world.still(), 5)
            w = settle(dock, dial, click(dock, dial))
            assert w.state in (CONFIRM, UNSURE), w.line()
            assert w.state == CONFIRM or not w.camera or click(dock, dial) in w.camera
        confirmed = [w for w in witness.results if w.state == CONFIRM]
        assert len(confirmed) >= len(turnable) - 1, [w.line() for w in witness.results]
        assert len(witness.moves) >= differ  # the camera saw each turn too

        # the encoder wrong by a click: flagged, with what to do, the last value kept
        dock, dial = next(t for t in turnable if witness.last_confirmed(*t) is not None)
        kept = witness.last_confirmed(dock, dial)
        n = len(docks[dock].faces[dial])
        w = settle(dock, dial, (click(dock, dial) + 1) % n)  # a dial the camera read surely
        assert w.state == DISAGREE, w.line()
        assert w.click == kept and "re-seat" in w.todo and str(click(dock, dial)) in w.reason
        # the figure re-seated (its window changes, then is still): read again, and now the
        # encoder is put right (the person turns the dial to where the encoder says): agreed
        world.turn(dock, dial, 1, 0.1)
        assert witness.wait(lambda: len(witness.results) > 0 and witness.results[-1].state
                            == CONFIRM and (witness.results[-1].dock, witness.results[-1].dial)
                            == (dock, dial), 60), witness.results[-1].line()

        # a dial resting half-way between two clicks: mid-turn, the encoder's click not
        # confirmed
        dock2, dial2 = turnable[-1]
        world.turn(dock2, dial2, 0.5, 0.1)
        assert witness.wait(lambda: world.still(), 5)
        w = settle(dock2, dial2, click(dock2, dial2))
        assert w.state in (MIDTURN, UNSURE), w.line()
        world.turn(dock2, dial2, 0.5, 0.1)

        # a hand over a window, a figure knocked over one: held, never confirmed
        reg = witness._reg
        assert reg is not None
        for dock3, dial3 in turnable[:2]:
            bt = layout.base_type(docks[dock3].base_type)
            box = reg.window_box(layout.docks[dock3], bt.windows[dial3], bt.name)
            for paint, cover in ((blob(box, HAND, cover=0.9), True),
                                 (blob(box, (40, 160, 60), cover=0.5), False)):
                world.over(paint, 1e6)  # there until the camera has answered
                w = settle(dock3, dial3, click(dock3, dial3))
                world.hands.clear()
                if cover:  # the whole window hidden: nothing to confirm
                    assert w.state == UNSURE, w.line()
                else:  # half of it: held (unsure, or taken for mid-turn), or read right
                    assert w.state in (UNSURE, MIDTURN) or click(dock3, dial3) in w.camera, \
                        w.line()

        # a base knocked 3 mm and 6 degrees off its dock: held or right, never wrong
        dock4, dial4 = turnable[0]
        world.unseat(dock4, (6.0, 3.0, -2.0))
        w = settle(dock4, dial4, click(dock4, dial4))
        assert w.state in (CONFIRM, UNSURE), w.line()
    assert not any(w.state == CONFIRM and w.camera and w.encoder not in w.camera
                   for w in witness.results)
