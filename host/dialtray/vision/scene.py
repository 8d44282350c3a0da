"""A rendered tray kept between frames: the virtual camera's world (``virtual_camera.py``).

A photograph costs ~0.3 s to render from scratch (eight bases, their figures and shadows,
taken through the camera's optics). A camera filming a game sees the same scene frame after
frame with only a dial or two turning, so ``TrayScene`` draws the tray once and then, when a
dial moves, pastes only that window again into the texture (its figure's shadow and body
over it again, as the full render draws them) and exposes only the frame pixels that window
reaches, plus the blurs' margin (``Optics.expose`` with a box). A dial turned to a position
it showed before is a cached patch. Each frame then gets its own sensor noise and JPEG
(``frame``), as a webcam's frames do.

Things that change more than a window (a base knocked off its dock) draw the whole scene
again (``reseat``); a hand over the tray or a figure knocked over a window are overlays of
one frame (``Overlay``), never kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from dialtray.vision.layout import Layout
from dialtray.vision.render import DockSpec, draw_tray, paste_window, sensed
from dialtray.vision.render_dial import Image
from dialtray.vision.render_profiles import Params

Box = tuple[slice, slice]
Overlay = Callable[[Any], None]  # paints over a frame's light (float32 BGR) in place
PATCH_CACHE = 64  # window patches kept per window (positions seen before)


class TrayScene:
    """One tray as a fixed camera films it (see the module docstring)."""

    def __init__(self, layout: Layout, docks: Mapping[int, DockSpec], params: Params, seed: int,
                 size: tuple[int, int] = (1280, 720)) -> None:
        self.layout, self.params, self.seed, self.size = layout, params, seed, size
        self.specs = dict(docks)
        self.positions = {d: dict(s.positions) for d, s in docks.items()}
        self.seats: dict[int, tuple[float, float, float]] = {}
        self.renders = 0  # windows exposed again (for the bench: what a frame cost)
        self._draw()

    def _draw(self) -> None:
        specs = {d: replace(s, positions=dict(self.positions[d])) for d, s in self.specs.items()}
        self.drawn = draw_tray(self.layout, specs, self.params, self.seed, self.size, self.seats)
        self.optics = self.drawn.optics
        self.clean = self.optics.expose(self.drawn.tex)
        self._boxes: dict[tuple[int, str], Box] = {}
        self._patches: dict[tuple[int, str], dict[tuple[float, ...], Image]] = {}

    @property
    def matrix(self) -> np.ndarray:
        return np.asarray(self.optics.matrix)

    def window_frame_box(self, dock: int, dial: str, tex_box: Box) -> Box:
        """The frame pixels a window's texture box reaches (through the optics' maps and the
        blurs' margin)."""
        key = (dock, dial)
        if key not in self._boxes:
            ys, xs = tex_box
            pad = 4
            inside = ((self.optics.mx >= xs.start - pad) & (self.optics.mx < xs.stop + pad)
                      & (self.optics.my >= ys.start - pad) & (self.optics.my < ys.stop + pad))
            rows, cols = np.nonzero(inside)
            m = self.optics.margin()
            h, w = self.size[1], self.size[0]
            self._boxes[key] = (slice(max(int(rows.min()) - m, 0), min(int(rows.max()) + m + 1, h)),
                                slice(max(int(cols.min()) - m, 0), min(int(cols.max()) + m + 1, w)))
        return self._boxes[key]

    def set_positions(self, positions: Mapping[int, Mapping[str, float]]) -> list[tuple[int, str]]:
        """Turn the dials to ``positions`` (dock -> dial -> clicks, a fraction mid-turn);
        returns the windows that changed."""
        changed = []
        for dock, dials in positions.items():
            for dial, pos in dials.items():
                n = len(self.specs[dock].faces[dial])
                pos = float(pos) % n
                if abs(self.positions[dock][dial] - pos) > 1e-6:
                    self._turn(dock, dial, pos)
                    changed.append((dock, dial))
        return changed

    def _turn(self, dock: int, dial: str, pos: float) -> None:
        self.positions[dock][dial] = pos
        tex = self.drawn.tex
        box, sel = paste_window(tex, self.layout, self.specs[dock], dial, self.drawn.seats[dock],
                                pos)
        for j in sorted(self.drawn.figures):  # drawn after this dock's windows: over them
            if j >= dock:
                self.drawn.figures[j].apply(tex, box, sel)
        fbox = self.window_frame_box(dock, dial, box)
        cache = self._patches.setdefault((dock, dial), {})
        key = tuple(round(v, 4) for v in (pos, *(q for d, q in sorted(
            self.positions[dock].items()) if d != dial)))  # its neighbour may reach the box
        if key not in cache:
            if len(cache) >= PATCH_CACHE:
                cache.pop(next(iter(cache)))
            cache[key] = self.optics.expose(tex, fbox)
            self.renders += 1
        self.clean[fbox] = cache[key]

    def reseat(self, dock: int, seat: tuple[float, float, float] | None) -> None:
        """A base seated ``seat`` (degrees, mm, mm) off its dock (None: as first drawn); the
        whole scene is drawn again."""
        if seat is None:
            self.seats.pop(dock, None)
        else:
            self.seats[dock] = seat
        self._draw()

    def frame(self, rng: np.random.Generator, overlays: list[Overlay] | None = None) -> Image:
        """One frame: the scene now, any overlays, this frame's own noise and JPEG."""
        light = self.clean
        if overlays:
            light = light.copy()
            for paint in overlays:
                paint(light)
        return sensed(light, self.params, rng)
