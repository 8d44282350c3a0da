"""The virtual camera over a tray of catalogue figures: what the camera games film (the
virtual tray's camera in ``table.camera_game``, the camera-only tray of
``table.camera_only``).

A ``TrayScene`` of the sample figures (and Air Action Ace cards) in their places (a dock, or a
dock's holder: ``layout.HOLDER``), drawn under a photograph profile
(``held-back``, ``train`` or ``clean``), a ``DialWorld`` a hand turns, a ``VirtualCamera``
filming it at a frame rate, and a ``TrayReader`` with the sample references of those figures.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.faces import base_type_of, dial_faces
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.render import DockSpec
from dialtray.vision.scene import TrayScene
from dialtray.vision.virtual_camera import DialWorld, VirtualCamera, dock_positions

PROFILES: dict[str, Callable[[np.random.Generator], rp.Params]] = {
    "train": rp.train, "held-back": rp.held_back, "clean": lambda _rng: rp.Params()}


def virtual_scene(layout: Layout, game: str, figs: dict[int, str], profile: str, seed: int,
                  fps: float) -> tuple[DialWorld, VirtualCamera, TrayReader,
                                       dict[int, DockSpec]]:
    """(the world, the camera filming it, the reader, place -> what is drawn there)."""
    docs = {**testset.sample_figures(game),
            **(testset.sample_ace_cards() if game == "airaction" else {})}
    docks = {d: DockSpec(f, base_type_of(docs[f]), dial_faces(docs[f]),
                         dict.fromkeys(dial_faces(docs[f]), 0.0)) for d, f in figs.items()}
    rng = np.random.default_rng(seed)
    world = DialWorld(dock_positions(docks))
    cam = VirtualCamera(TrayScene(layout, docks, PROFILES[profile](rng), seed), world, fps=fps,
                        seed=seed, pace=True)
    return world, cam, TrayReader(layout, testset.sample_refs(set(figs.values()), game)), docks
