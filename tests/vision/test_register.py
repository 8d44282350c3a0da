"""Registration: markers -> homography -> window crops; bad frames refused with a reason."""

from __future__ import annotations

import numpy as np
import pytest
from dialtray.vision import render_profiles as rp
from dialtray.vision.camera import CameraModel
from dialtray.vision.errors import VisionError
from dialtray.vision.faces import dial_faces
from dialtray.vision.layout import Layout, LayoutError, parse_layout
from dialtray.vision.register import MarkerFinder, check_image, follow, register
from dialtray.vision.render import DockSpec, camera_for, render_tray


def test_homography_puts_the_docks_where_the_camera_does(layout: Layout, figures: dict) -> None:
    """The fitted homography agrees with the renderer's true camera at every dock centre."""
    import cv2

    doc = figures["sample-genghis"]
    spec = DockSpec(doc["id"], "aces-figure", dial_faces(doc), {"combat": 1.0})
    p = rp.train(np.random.default_rng(5), "perspective")
    shot = render_tray(layout, {2: spec}, p, 5)
    reg = register(shot.image, MarkerFinder(layout))
    k, _dist, hn = camera_for(p, layout, (1280, 720))
    for centre in layout.docks.values():
        truth = k @ hn @ np.array([centre[0], centre[1], 1.0])
        got = cv2.perspectiveTransform(np.array([[centre]], np.float64), reg.homography)[0, 0]
        assert np.linalg.norm(truth[:2] / truth[2] - got) < 1.5
    assert reg.rms_px < 1.0 and len(reg.markers) == 4


def test_three_markers_are_enough_two_are_not(layout: Layout) -> None:
    import cv2

    shot = render_tray(layout, {}, rp.Params(), 1)
    finder = MarkerFinder(layout)
    img = shot.image.copy()
    corners = finder.find(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    x, y = corners[3].min(axis=0).astype(int) - 15
    img[max(y, 0):y + 130, max(x, 0):x + 130] = 140  # marker 3 covered
    assert register(img, finder).markers == (0, 1, 2)
    x, y = corners[2].min(axis=0).astype(int) - 15
    img[max(y, 0):y + 130, max(x, 0):x + 130] = 140
    with pytest.raises(VisionError, match=r"tray markers not found .*saw 0, 1\)"):
        register(img, finder, what="x.jpg")


def test_frames_refused_with_a_reason() -> None:
    with pytest.raises(VisionError, match="not a colour image"):
        check_image(None, "a.png")
    with pytest.raises(VisionError, match="320x240; dials need at least 640x360"):
        check_image(np.zeros((240, 320, 3), np.uint8), "a.png")
    cam = CameraModel(np.eye(3), np.zeros(5), (1920, 1080))
    with pytest.raises(VisionError, match="1280x720 but the camera was calibrated at 1920x1080"):
        check_image(np.zeros((720, 1280, 3), np.uint8), "a.png", cam)


def test_layout_errors_name_the_field() -> None:
    with pytest.raises(LayoutError, match=r"t.json: docks\[1\].centre\[0\]: expected a number"):
        parse_layout({"format": 1, "tray": {"width": 1, "height": 1},
                      "markers": {"dictionary": "DICT_4X4_50", "size": 3,
                                  "corners": {"0": [0, 0], "1": [1, 0], "2": [1, 1]}},
                      "docks": [{"dock": 0, "centre": [0, 0]}, {"dock": 1, "centre": ["a", 0]}],
                      "base_types": {}, "colours_bgr": {"none": [0, 0, 0]}}, "t.json")


def test_follow_keeps_the_registration_while_the_markers_stay_put(layout: Layout,
                                                                  figures: dict) -> None:
    """A live loop: the same camera, fresh sensor noise and turning dials -> the very same
    registration (window maps and alignments kept); the camera moved -> a new one that fits
    the new photo (as the full search finds it)."""
    doc = figures["sample-genghis"]
    faces = dial_faces(doc)
    finder = MarkerFinder(layout)
    rng = np.random.default_rng(11)
    p = rp.train(rng)
    shots = [render_tray(layout, {1: DockSpec(doc["id"], "aces-figure", faces,
                                              {"combat": float(i)})}, p, 100 + i)
             for i in range(3)]
    first = follow(shots[0].image, finder, None)
    assert follow(shots[1].image, finder, first) is first
    assert follow(shots[2].image, finder, first) is first
    moved = render_tray(layout, {}, rp.train(np.random.default_rng(12), "perspective"), 7)
    again = follow(moved.image, finder, first)
    assert again is not first
    fresh = register(moved.image, finder)
    assert np.allclose(again.homography, fresh.homography)
    assert not np.allclose(again.homography, first.homography, atol=1e-3)
