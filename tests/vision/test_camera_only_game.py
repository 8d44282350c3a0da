"""A camera-only tray (`--no-encoders`) cannot hold an Ace card: its dial has no window in the
tray layout, so CameraTray refuses it, naming it (the camera-only games, in
test_camera_table.py and `demo --camera virtual --no-encoders`, fly their squadrons without
Ace cards).
"""

from __future__ import annotations

import numpy as np
import pytest
from dialtray.commands._camera import camera_dials, catalogue_figures
from dialtray.rules.airaction import AirActionGame
from dialtray.rules.airaction.base import SquadronPlane
from dialtray.rules.airaction.bots import STANDARD_SQUADRONS
from dialtray.rules.airaction.notation import header_of
from dialtray.rules.core.dice import SeededDice
from dialtray.table.games import setup_of
from dialtray.table.start import new_table
from dialtray.tracker import Timing
from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.camera_tray import CameraTray
from dialtray.vision.errors import VisionError
from dialtray.vision.faces import BASE_TYPE, dial_faces
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.render import DockSpec
from dialtray.vision.scene import TrayScene
from dialtray.vision.virtual_camera import DialWorld, VirtualCamera, dock_positions
from dialtray.vision.witness import CameraWitness

SEED = 9970
NO_ACES = {seat: [SquadronPlane(p.id, p.figure, p.level) for p in planes]
           for seat, planes in STANDARD_SQUADRONS.items()}


def _table(seed: int, turns: int, squadrons: dict) -> object:
    def make(dice: object) -> object:
        g = AirActionGame.new(squadrons, build_total=300, dice=dice)
        return setup_of("airaction", g, header_of(g.setup_events[0]), seed, turns)
    return new_table("airaction", SeededDice(seed), seed, turns, 8, make=make,  # type: ignore
                     timing=Timing(judge_s=0.25, grace_s=0.5))


def _camera(layout: Layout, kind_figures: dict[int, str], seed: int
            ) -> tuple[DialWorld, VirtualCamera, TrayReader, dict]:
    docs = testset.sample_figures("airaction")
    docks = {d: DockSpec(f, BASE_TYPE["airaction"], dial_faces(docs[f]),
                         dict.fromkeys(dial_faces(docs[f]), 0.0))
             for d, f in kind_figures.items()}
    rng = np.random.default_rng(seed)
    scene = TrayScene(layout, docks, rp.held_back(rng), seed)
    world = DialWorld(dock_positions(docks))
    reader = TrayReader(layout, testset.sample_refs(set(kind_figures.values()), "airaction"))
    return world, VirtualCamera(scene, world, fps=30, seed=seed, pace=True), reader, docks


def test_an_ace_card_dial_cannot_be_on_a_camera_only_tray(layout: Layout) -> None:
    table = _table(SEED, 1, STANDARD_SQUADRONS)
    figs = catalogue_figures("airaction", table.tracker)  # type: ignore[attr-defined]
    _world, cam, reader, docks = _camera(layout, figs, SEED)
    witness = CameraWitness(cam, reader, {d: s.figure for d, s in docks.items()})
    clicks = {(d, k): len(f) for d, s in docks.items() for k, f in s.faces.items()}
    with pytest.raises(VisionError, match="no window for it"):
        CameraTray(witness, camera_dials(table.tracker, clicks))  # type: ignore[attr-defined]
