"""The mosaic (one map and one remap for every window) gives each window's crop, frame box and
log grey exactly as the window read alone does: the reads cannot change by reading together."""

from __future__ import annotations

import numpy as np
from dialtray.vision import render_profiles as rp
from dialtray.vision.camera import CameraModel
from dialtray.vision.layout import Layout
from dialtray.vision.mosaic import mosaic_of
from dialtray.vision.normal import highpass, logged, normalise
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
