"""The mosaic (one map and one remap for every window) gives each window's crop, frame box and
log grey exactly as the window read alone does: the reads cannot change by reading together."""

from __future__ import annotations

import cv2
import numpy as np
from dialtray.vision import render_profiles as rp
from dialtray.vision.camera import CameraModel
from dialtray.vision.layout import Layout
from dialtray.vision.mosaic import mosaic_of
from dialtray.vision.normal import SLOPE, SMOOTH, highpass, logged, normalise
from dialtray.vision.register import MarkerFinder, register
from dialtray.vision.render import render_tray


def _places(layout: Layout) -> list:
    return [(centre, w, bt.name) for _, centre in sorted(layout.docks.items())
            for bt in layout.base_types.values() for w in bt.windows.values()]


def test_every_window_of_the_mosaic_is_its_own_crop_bit_for_bit(layout: Layout) -> None:
    shot = render_tray(layout, {}, rp.train(np.random.default_rng(3), "perspective"), 3)
    lens = CameraModel(np.array([[1100.0, 0, 640], [0, 1100.0, 360], [0, 0, 1]]),
                       np.array([-0.12, 0.05, 0.001, -0.002, 0.0]), (1280, 720))
    places = _places(layout)
    for camera in (None, lens):
        reg = register(shot.image, MarkerFinder(layout), camera)
        mosaic = mosaic_of(reg, places)
        assert mosaic_of(reg, places) is mosaic  # made once per registration
        crops, logs = mosaic.crops(shot.image)
        some, some_logs = mosaic.crops(shot.image, [len(places) - 1, 0, 1, 5])  # runs of them
        assert sorted(some) == [0, 1, 5, len(places) - 1]
        for i, (centre, window, base) in enumerate(places):
            alone = reg.crop(shot.image, centre, window, base)
            assert crops[i].shape == alone.shape and np.array_equal(crops[i], alone)
            assert mosaic.boxes[i] == reg.window_box(centre, window, base)
            assert np.array_equal(logs[i], logged(alone))
            assert np.array_equal(highpass(logs[i]), normalise(alone))
            if i in some:
                assert np.array_equal(some[i], alone) and np.array_equal(some_logs[i], logs[i])


def test_the_high_pass_slope_made_at_half_size_is_the_full_size_blurs() -> None:
    """normal.highpass takes the slope out at half size (issue 35): on a print-like crop in
    uneven light it is within 1 % (RMS) of the full-size Gaussian's high-pass; a crop with an
    odd side gets the full-size blur itself."""
    rng = np.random.default_rng(5)
    h, w = 72, 102
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    strokes = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2)
    g = np.asarray(4.6 + 0.004 * xx - 0.003 * yy + 0.3 * strokes, np.float32)  # log light

    def exact(a: np.ndarray) -> np.ndarray:
        return cv2.GaussianBlur(a - cv2.GaussianBlur(a, (0, 0), SLOPE), (0, 0), SMOOTH)

    inner = (slice(9, -9), slice(9, -9))  # the template's place in the read crop
    want, got = exact(g)[inner], highpass(g)[inner]
    assert np.sqrt(np.mean((got - want) ** 2)) < 0.01 * np.sqrt(np.mean(want ** 2))
    odd = np.ascontiguousarray(g[:, :101])
    assert np.array_equal(highpass(odd), exact(odd))
