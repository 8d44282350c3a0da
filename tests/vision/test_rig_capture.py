"""Capture on the rig (issue 14): the real firmware in the virtual tray says when each click of
dock 0's dial settled; the camera — the one fake, at the hardware boundary: a rendered tray
showing the dial where the hands turned it — is photographed then. The crops go through the
same confirmation and build as a capture from photos: the catalogue file loads in the rules
engine and every click reads back exactly."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from dialtray.vision import render_profiles as rp
from dialtray.vision.capture import build
from dialtray.vision.classify import DialClassifier
from dialtray.vision.errors import VisionError
from dialtray.vision.faces import dial_faces
from dialtray.vision.layout import Layout
from dialtray.vision.render import DockSpec, render_tray
from dialtray.vision.rig import RigDial, capture_on_rig

WAIT_S = 60.0


@pytest.fixture
def tray_session() -> Any:
    from dialrig import config
    from dialtray.link.session import TraySession
    from dialtray.virtual.tray import VirtualTray

    with VirtualTray(config.default_config(1), seed=3, report=lambda n: None) as tray, \
            TraySession(tray.port) as session:
        session.wait_synced(WAIT_S)
        yield tray, session


def test_capture_on_the_rig_round_trips(layout: Layout, figures: dict, tray_session: Any
                                        ) -> None:
    tray, session = tray_session
    doc = figures["sample-genghis"]
    faces = dial_faces(doc)
    n = len(faces["combat"])
    where = {"pos": 0}
    params = rp.capture(np.random.default_rng(8))
    shots = {"n": 0}

    def camera() -> Any:
        shots["n"] += 1
        spec = DockSpec(doc["id"], "aces-figure", faces, {"combat": float(where["pos"])})
        return render_tray(layout, {0: spec}, params, 500 + shots["n"]).image

    # the hands: first the wrong way (past the figure's clicks: the capture says so and
    # photographs nothing), back past click 0 (already captured) to click 1, then one click
    # clockwise after each capture
    said: list[str] = []

    def turn(clicks: int) -> None:
        where["pos"] += clicks
        tray.turn(0, "combat", clicks)

    def say(line: str) -> None:
        said.append(line)
        if "click 0 captured" in line:
            turn(-1)
        elif "past the figure's" in line:
            turn(2)
        elif "captured" in line and where["pos"] < n - 1:
            turn(1)

    crops = capture_on_rig(session, camera, layout, "aces-figure", 0, [RigDial("combat", n)],
                           lambda prompt: "", say, click_timeout=WAIT_S)
    assert len(crops["combat"]) == n
    assert sum("captured" in s for s in said) == n, said
    assert any("past the figure's 5 clicks" in s for s in said), said
    built, refs = build(layout, dict(doc), "aces", crops, faces)  # engine check + read-back
    assert built["id"] == doc["id"]
    clf = DialClassifier("combat", faces["combat"], refs.crops["combat"],
                         layout.base_type("aces-figure").windows["combat"], layout)
    for k, c in enumerate(crops["combat"]):
        assert k in clf.read(c).clicks


def test_no_click_in_time_is_a_clear_error(layout: Layout, figures: dict, tray_session: Any
                                           ) -> None:
    _tray, session = tray_session
    doc = figures["sample-genghis"]
    faces = dial_faces(doc)
    spec = DockSpec(doc["id"], "aces-figure", faces, {"combat": 0.0})
    frame = render_tray(layout, {0: spec}, rp.capture(np.random.default_rng(1)), 1).image
    with pytest.raises(VisionError, match="no click from dock 0's combat dial"):
        capture_on_rig(session, lambda: frame, layout, "aces-figure", 0,
                       [RigDial("combat", 5)], lambda prompt: "", lambda s: None,
                       click_timeout=0.5)
