"""The camera confirming a whole bot game at the table (issue 33, acceptance): the virtual tray
(the real firmware under MicroPython, its encoders, the link, the tracker) with the virtual
camera filming it at a held-back scene. Every click the encoders settle is burst-read by the
camera and fused with the encoder; the bots make their deliberate mistakes (wrong dial, too
many clicks, a peek, ...) and the camera sees each too (it confirms the dial where the
mistake left it, or saw its window move). No confirmation is wrong; what the camera is
unsure of is said so; every answer is a `# camera` line in the game's log.

Games of 6 turns (the demo's); the >= 99.9 % figure over many clicks is
bench/bench_camera_burst.py's.
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

pytest.importorskip("dialtray.virtual.tray")

from dialrig import config
from dialtray.commands._camera import WitnessedTray, camera_dials, catalogue_figures
from dialtray.commands._table import make_dice, new_table
from dialtray.link.session import TraySession
from dialtray.tracker import Timing
from dialtray.tracker.binding import Slot
from dialtray.tracker.hands import Hands, Mistakes
from dialtray.tracker.runner import play_out
from dialtray.tracker.tracker import OVER
from dialtray.virtual.tray import VirtualTray
from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.camera_tray import DIAL_NAMES
from dialtray.vision.faces import BASE_TYPE, dial_faces
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.render import DockSpec
from dialtray.vision.scene import TrayScene
from dialtray.vision.virtual_camera import DialWorld, VirtualCamera, dock_positions
from dialtray.vision.witness import CONFIRM, CameraWitness

SEEDS = {"airaction": 9980, "aces": 9981}  # held-back scenes drawn for this test
TURNS = int(os.environ.get("DIALTRAY_CAMERA_GAME_TURNS", "6"))  # as many as the demo plays


@pytest.mark.slow
@pytest.mark.parametrize("game", ["airaction", "aces"])
def test_the_camera_confirms_every_settled_click_of_a_bot_game(game: str,
                                                               layout: Layout) -> None:
    started, seed = time.monotonic(), SEEDS[game]
    with VirtualTray(config.default_config(8), seed=seed) as vtray:
        session = TraySession(vtray.port, name="camera-test", ack_policy="auto")
        with session:
            session.wait_synced(30)
            session.set_timing(5, 2)
            source, _ = make_dice("seeded", session, seed)
            table = new_table(game, source, seed, TURNS, 8, timing=Timing(judge_s=0.25,
                                                                      grace_s=0.5))
            t = table.tracker
            figs = catalogue_figures(game, t)
            docs = testset.sample_figures(game)
            docks = {d: DockSpec(f, BASE_TYPE[game], dial_faces(docs[f]),
                                 dict.fromkeys(dial_faces(docs[f]), 0.0))
                     for d, f in figs.items()}
            rng = np.random.default_rng(seed)
            world = DialWorld(dock_positions(docks))
            cam = VirtualCamera(TrayScene(layout, docks, rp.held_back(rng), seed), world,
                                fps=30, seed=seed, pace=True)
            reader = TrayReader(layout, testset.sample_refs(set(figs.values()), game))
            witness = CameraWitness(cam, reader, figs, watch=True)
            clicks = {(d, k): len(f) for d, s in docks.items() for k, f in s.faces.items()}
            dials = camera_dials(t, clicks)

            def turn(slot: Slot, n: int) -> None:  # one hand on the physical dial: the
                d = dials[(slot.dock, slot.dial)]  # encoder counts it, the camera films it
                if d.name in DIAL_NAMES and slot.dock in figs:
                    world.turn(slot.dock, d.name, n * d.up, 0.006 * max(1, abs(n)))
                vtray.turn(slot.dock, slot.dial, n, 6 * max(1, abs(n)))

            with witness:
                tracked = WitnessedTray(t, session, witness, dials)
                tracked.sync()
                hands = Hands(t, table.setup.brain, Mistakes())
                play_out(tracked, hands, turn, timeout=900, step_timeout=60)
                assert witness.wait(witness.idle, 120), "the camera did not answer every click"
                tracked.pump()
                tracked.close()
    assert t.phase == OVER
    results = witness.results
    assert results, "the camera answered no click"
    wrong = [w for w in results if w.state == CONFIRM and w.camera and w.encoder not in w.camera]
    assert not wrong, [w.line() for w in wrong]
    settled = [w for w in results if w.encoder is not None]
    confirmed = [w for w in settled if w.state == CONFIRM]
    # every mistake the bots made is seen by the camera too: the flagged dial's window moved
    # or its click was confirmed after the flag was raised
    labels = {st.label: s for s, st in t.slots.items()}
    for f in t.flags:
        slot = labels.get(f.label)
        if slot is None or slot.dock not in figs or dials[(slot.dock, slot.dial)].name \
                not in DIAL_NAMES:
            continue
        name = dials[(slot.dock, slot.dial)].name
        seen = [m for m in witness.moves if m[:2] == (slot.dock, name)] + [
            w for w in results if (w.dock, w.dial) == (slot.dock, name)]
        assert seen, f"the camera saw nothing of {f.kind} on {f.label}"
    text = t.log_text()
    assert text.count("# camera ") == len(results)
    print(f"{game}: {len(settled)} settled clicks, {len(confirmed)} confirmed by the camera "
          f"({100 * len(confirmed) / max(len(settled), 1):.1f} %), 0 wrong, "
          f"{sorted({f.kind for f in t.flags})} flagged, {witness.frames} frames, "
          f"{witness.cpu_s:.0f} s camera CPU, {time.monotonic() - started:.0f} s")
