"""This scene's own photographs of a dial's clicks (``vision/scene_looks.py``, issue 33): a
burst the synthesis leaves unsure is confirmed when every close rival click is excluded by
its photograph; a dial resting at a photographed click is never confirmed as another; the
witness keeps the photographs of what its open reads confirmed and forgets them when the
scene may have changed under them (a hand, a re-seat asked for, a new registration).

The scene: Charlie Steele's plane alone on dock 0 at a held-back scene drawn for this test
(seed 9971), whose combat dial at click 2 the synthesis names but cannot tell from clicks
0/1 surely on 12 averaged frames (found by searching seeds 9970-9975 for such a window:
docs/vision.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from dialtray.vision import render_profiles as rp
from dialtray.vision import scene_looks as sl
from dialtray.vision import testset
from dialtray.vision.faces import base_type_of, dial_faces
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.reading import CLICK
from dialtray.vision.render import DockSpec
from dialtray.vision.scene import TrayScene
from dialtray.vision.synth_worker import WORKER
from dialtray.vision.virtual_camera import HAND, DialWorld, VirtualCamera, blob, dock_positions
from dialtray.vision.witness import (
    CONFIRM,
    DISAGREE,
    CameraWitness,
    Witnessed,
)

FIG, SEED, FPS = "sample-charlie-steele", 9971, 30.0


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Plane:
    """Charlie Steele's plane on dock 0 filmed by the virtual camera (frames on a clock of
    the test's own), its combat dial at ``start``."""

    def __init__(self, layout: Layout, refs: Any, params: rp.Params, start: int) -> None:
        doc = testset.sample_figures("airaction")[FIG]
        faces = dial_faces(doc)
        self.docks = {0: DockSpec(FIG, base_type_of(doc), faces,
                                  {"combat": float(start), "speed": 0.0})}
        self.clock = Clock()
        self.world = DialWorld(dock_positions(self.docks), clock=self.clock)
        self.camera = VirtualCamera(TrayScene(layout, self.docks, params, SEED), self.world,
                                    fps=FPS, seed=SEED)
        self.reader = TrayReader(layout, {FIG: refs})
        bt = layout.base_type(self.docks[0].base_type)
        self.window = (layout.places[0], bt.windows["combat"], bt.name)
        self.shift = 0  # px the camera has moved (a new registration)

    def frame(self) -> Any:
        self.clock.t += 1.0 / FPS
        ok, frame = self.camera.read()
        assert ok and frame is not None
        return np.roll(frame, self.shift, axis=1) if self.shift else frame

    def frames(self, n: int) -> sl.Frames:
        out = sl.Frames()
        for _ in range(n):
            frame = self.frame()
            out.add(self.reader.follow(frame).crop(frame, *self.window))
        return out

    def turn_to(self, click: int) -> None:
        self.world.turn(0, "combat", click - self.world.positions[0]["combat"], 1e-3)
        self.clock.t += 0.01


@pytest.fixture(scope="module")
def charlie(layout: Layout, captured_refs: Any) -> Any:
    return captured_refs.get(layout, FIG, testset.sample_figures("airaction")[FIG])


def test_photographs_confirm_what_the_synthesis_leaves_unsure(layout: Layout,
                                                             charlie: Any) -> None:
    p = Plane(layout, charlie, rp.held_back(np.random.default_rng(SEED)), 0)
    c = p.reader.classifiers(FIG)["combat"]
    photos = {}
    for k in (0, 1):  # the dial's start and its first click of damage, each read surely
        p.turn_to(k)
        f = p.frames(12)
        assert k in c.read(f.average()).clicks
        photos[k] = sl.Photo(k, f.mean(), f.n)
    p.turn_to(2)
    at2 = p.frames(12)
    assert c.read(at2.average()).status != CLICK  # the synthesis alone: unsure
    assert not sl.judge(c, at2, {}, 2).confirmed  # no photograph of the rivals: unsure
    v = sl.judge(c, at2, photos, 2)
    assert v.confirmed, v.reason
    assert all(e.z >= sl.EXCLUDE for e in v.rivals) and v.rivals
    read = sl.read_by_photos(c, photos, 2, at2)
    assert read.status == CLICK and read.clicks == (2,) and "photograph" in read.reason

    # the impostor: the dial back at click 0 (photographed), the encoder saying 2 (or any
    # other click): never confirmed, and 0's photograph is not excluded along the way to 2
    p.turn_to(0)
    at0 = p.frames(12)
    for e in (2, 3):  # (click 1 prints as 0 does in grey)
        assert not sl.judge(c, at0, photos, e).confirmed, e
    r = c.synthesise(at0.average())
    assert r is not None and r.warp is not None and 0 in c.click_groups.clicks(r.best.a)
    size = (c.mean_template.shape[1], c.mean_template.shape[0])
    cov = sl._noise_maps(at0, at0.mean(), r.warp, size)
    toward = [rv for rv in r.rivals if rv.look.kind == CLICK and 2 in
              c.click_groups.clicks(rv.look.a)]
    assert toward
    z, _, _ = sl.exclusion(at0.mean(), at0.n, photos[0], -toward[0].difference, r.warp, size,
                           cov, sl.print_box(c))
    assert z < sl.EXCLUDE / 2, z


def _step(w: CameraWitness, p: Plane) -> None:
    w.step(p.frame(), p.clock.t)
    WORKER.drain(60)  # the worker's answers by the next frame (a condition, not time)


def _settle(w: CameraWitness, p: Plane, click: int, dial: str = "combat") -> Witnessed:
    n = len(w.results)
    w.settled(0, dial, click)
    for _ in range(150):
        _step(w, p)
        if len(w.results) > n:
            return w.results[-1]
    raise AssertionError("no answer")


def _photograph(w: CameraWitness, p: Plane, dial: str, click: int, grow: bool = True
                ) -> None:
    w.photograph(0, dial, click)
    for _ in range(150):
        _step(w, p)
        if w.idle():
            break
    for _ in range(150 if grow else 0):  # the photograph grows while the window is still
        if not w.album.growing((0, dial)):
            break
        _step(w, p)


def _film(w: CameraWitness, p: Plane, seconds: float) -> None:
    for _ in range(round(seconds * FPS)):
        w.step(p.frame(), p.clock.t)


def test_the_witness_keeps_photographs_and_forgets_them(layout: Layout, charlie: Any) -> None:
    p = Plane(layout, charlie, rp.held_back(np.random.default_rng(SEED)), 0)
    w = CameraWitness(p.camera, p.reader, {0: FIG}, watch=True, clock=p.clock, photo_frames=8,
                      unexplained_s=0.5)
    key = (0, "combat")
    _film(w, p, 0.2)
    _photograph(w, p, "combat", 0)  # the game's start: photographed, no answer given
    assert set(w.album.photos(key)) == {0} and not w.results
    assert w.album.photos(key)[0].frames == 8  # grown while the window was still
    p.turn_to(1)
    assert _settle(w, p, 1).state == CONFIRM
    p.turn_to(2)  # unsure by synthesis alone; clicks 0/1 photographed here: confirmed
    a = _settle(w, p, 2)
    assert a.state == CONFIRM and "photograph" in a.reason, a.line()
    assert set(w.album.photos(key)) == {0, 1}  # (a confirmation by photographs is none)
    _film(w, p, 0.7)  # the turns were the encoder's: nothing dropped
    assert set(w.album.photos(key)) == {0, 1}

    # a hand over the window, no turn of its encoder: the photographs are forgotten
    reg = w._reg
    assert reg is not None
    p.world.over(blob(reg.window_box(*p.window), HAND, cover=0.9), 0.5)
    _film(w, p, 1.2)
    assert w.album.photos(key) == {}

    # a disagreement (a re-seat asked for): forgotten
    p.turn_to(1)
    assert _settle(w, p, 1).state == CONFIRM and w.album.photos(key)
    assert _settle(w, p, 3).state == DISAGREE
    assert w.album.photos(key) == {}

    # a new registration (the camera moved): every photograph forgotten
    _photograph(w, p, "speed", 0, grow=False)
    assert len(w.album) > 0
    p.shift = 6
    _film(w, p, 0.2)
    assert len(w.album) == 0
