"""The test-data generator: deterministic, with ground truth, and a held-back profile that lies
outside the tuning profile on every axis (issue 14, "Test data")."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
from dialtray.vision import render_profiles as rp
from dialtray.vision.faces import dial_faces
from dialtray.vision.layout import Layout
from dialtray.vision.register import MarkerFinder
from dialtray.vision.render import DockSpec, render_tray


def _tray(layout: Layout, figures: dict, seed: int) -> tuple:
    doc = figures["sample-militia-fighter"]
    spec = DockSpec(doc["id"], "airaction-plane", dial_faces(doc), {"combat": 3.0, "speed": 2.5})
    params = rp.train(np.random.default_rng(seed))
    return render_tray(layout, {0: spec, 5: spec}, params, seed), params


def test_same_seed_same_photograph(layout: Layout, figures: dict) -> None:
    a, pa = _tray(layout, figures, 3)
    b, pb = _tray(layout, figures, 3)
    c, _ = _tray(layout, figures, 4)
    assert pa == pb
    assert np.array_equal(a.image, b.image)
    assert not np.array_equal(a.image, c.image)
    assert a.image.shape == (720, 1280, 3)
    assert a.truth[0]["positions"] == {"combat": 3.0, "speed": 2.5}
    assert set(a.truth) == {0, 5}


def test_rendered_markers_are_found(layout: Layout, figures: dict) -> None:
    import cv2

    shot, _ = _tray(layout, figures, 9)
    found = MarkerFinder(layout).find(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY))
    assert set(found) == set(layout.marker_corners)


def _ranges(make, n: int = 400) -> dict[str, tuple[float, float]]:
    rng = np.random.default_rng(0)
    samples = [make(rng) for _ in range(n)]
    out = {}
    for f in fields(rp.Params):
        vals = [getattr(s, f.name) for s in samples]
        if isinstance(vals[0], (int, float)) and not isinstance(vals[0], bool):
            mags = [abs(v) for v in vals]
            out[f.name] = (min(mags), max(mags))
    return out


def test_held_back_lies_outside_the_tuning_ranges() -> None:
    """Every distortion the held-back set varies is stronger than (or of another kind than)
    anything the threshold was chosen on."""
    train, held = _ranges(rp.train), _ranges(rp.held_back)
    stronger = ("tilt_x", "tilt_y", "roll", "light", "vignette", "shadow_strength", "blur",
                "motion_px", "noise", "seat_deg", "seat_mm", "occlusion")
    for name in stronger:
        assert held[name][0] >= train[name][1] - 1e-9, name
    assert held["jpeg"][1] <= train["jpeg"][0]  # lower quality
    rng = np.random.default_rng(1)
    assert all(rp.train(rng).k1 <= 0 for _ in range(200))  # barrel only
    assert all(rp.held_back(rng).k1 >= 0 for _ in range(200))  # pincushion only


def test_the_stress_profile_never_draws_from_the_held_back_ranges() -> None:
    """STRESS (where the two safety thresholds are chosen) takes each distortion from TRAIN or
    from beyond HELD_BACK, so the held-back set stays unseen: no value of STRESS falls strictly
    inside a held-back range, and both kinds occur."""
    held = _ranges(rp.held_back)
    rng = np.random.default_rng(2)
    stress = [rp.stress(rng) for _ in range(400)]
    magnitude = ("tilt_x", "tilt_y", "roll", "light", "vignette", "shadow_strength", "blur",
                 "motion_px", "noise", "seat_deg", "seat_mm", "occlusion")
    for name in magnitude:
        lo, hi = held[name]
        vals = [abs(getattr(p, name)) for p in stress]
        assert not any(lo + 1e-9 < v < hi - 1e-9 for v in vals), name
        assert any(v >= hi - 1e-9 for v in vals) and any(v <= lo + 1e-9 for v in vals), name
    assert all(p.k1 <= 0 for p in stress)  # barrel (TRAIN's and stronger), never pincushion
    assert all(not 50 <= p.jpeg < 70 for p in stress)
