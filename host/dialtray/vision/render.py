"""Rendered tray photographs with ground truth: the vision code's test and benchmark data.

No public photographs of Crimson Skies dials exist, so the tests photograph a *rendered* tray:
the tray is drawn flat in millimetres (ArUco corner markers, bases seated a few degrees off,
each base's windows showing its dial at the true click or mid-turn, the figure standing over
the base with its shadow), then one ``cv2.remap`` takes it through a pinhole camera with tilt
and Brown-Conrady lens distortion, and the photograph gets uneven light, cast shadows, blur,
sensor noise and JPEG artefacts. Everything comes from one seed (``numpy`` Generator), so a
failing case can be rendered again exactly.

Two parameter profiles (``render_profiles.py``): ``TRAIN`` — what the confidence threshold was
chosen on — and ``HELD_BACK``, whose ranges lie outside it (stronger and different, never seen
while tuning); the acceptance test reads the held-back set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from dialtray.vision.faces import Face
from dialtray.vision.layout import HOLDER, BaseType, Layout
from dialtray.vision.render_dial import DialStyle, Image, render_strip, window_view
from dialtray.vision.render_optics import TEX_PPM, Optics, camera_for, sensed
from dialtray.vision.render_profiles import Params

__all__ = ["DockSpec", "Drawn", "Figure", "Optics", "Rendered", "camera_for", "draw_tray",
           "paste_window", "random_positions", "render_tray", "sensed"]

STRIP_PPM = 8.0
CARD_MARGIN_MM = 5.0  # a card's edge beyond its windows (the crop's 3 mm search room is card)


@dataclass(frozen=True)
class DockSpec:
    """A figure in a dock: its id, base type, faces per dial and the position of each dial
    (a whole number of clicks, or a fraction: mid-turn)."""

    figure: str
    base_type: str
    faces: Mapping[str, list[Face]]
    positions: Mapping[str, float]


@dataclass
class Rendered:
    """A photograph and its ground truth."""

    image: Image
    params: Params
    truth: dict[int, dict[str, Any]] = field(default_factory=dict)
    camera_matrix: Any = None
    dist_coeffs: Any = None


_STRIPS: dict[tuple[str, str, str], Image] = {}
Box = tuple[slice, slice]


def _strip(layout: Layout, spec: DockSpec, bt: BaseType, dial: str) -> Image:
    key = (spec.figure, bt.name, dial)
    if key not in _STRIPS:
        _STRIPS[key] = render_strip(bt.windows[dial], spec.faces[dial],
                                    DialStyle.for_figure(spec.figure), layout, STRIP_PPM)
    return _STRIPS[key]


def _aruco_dict(layout: Layout) -> Any:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.dictionary))


def _draw_markers(tex: Image, layout: Layout) -> None:
    d = _aruco_dict(layout)
    side = round(layout.marker_size * TEX_PPM)
    for mid, (x, y) in layout.marker_corners.items():
        m = cv2.aruco.generateImageMarker(d, mid, side)
        x0, y0 = round(x * TEX_PPM), round(y * TEX_PPM)
        q = round(4 * TEX_PPM)  # white quiet zone around the printed marker
        cv2.rectangle(tex, (x0 - q, y0 - q), (x0 + side + q, y0 + side + q), (245, 245, 245), -1)
        tex[y0:y0 + side, x0:x0 + side] = m[:, :, None]


def _base_to_tex(centre: tuple[float, float], angle_deg: float,
                 shift: tuple[float, float]) -> np.ndarray:
    """Affine: base mm (origin at the base centre) -> texture px, with the seat error."""
    a = np.deg2rad(angle_deg)
    c, s = np.cos(a), np.sin(a)
    cx, cy = (centre[0] + shift[0]) * TEX_PPM, (centre[1] + shift[1]) * TEX_PPM
    return np.array([[c * TEX_PPM, -s * TEX_PPM, cx], [s * TEX_PPM, c * TEX_PPM, cy]])


def _paste(tex: Image, patch: Image, m: np.ndarray) -> tuple[Box, Any]:
    """Warp ``patch`` into ``tex`` with the 2x3 affine ``m`` (patch px -> texture px); only the
    patch's bounding box of the texture is touched. Returns that box and the pixels of it
    the patch covers (a live scene re-applies the figures' shadows over just those)."""
    ph, pw = patch.shape[:2]
    box = cv2.transform(np.array([[[0, 0], [pw, 0], [pw, ph], [0, ph]]], np.float64), m)[0]
    x0, y0 = np.floor(box.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, tex.shape[1]), min(y1, tex.shape[0])
    local = m.copy()
    local[:, 2] -= (x0, y0)
    size = (int(x1 - x0), int(y1 - y0))
    warped = cv2.warpAffine(patch, local, size, flags=cv2.INTER_AREA)
    mask = cv2.warpAffine(np.full((ph, pw), 255, np.uint8), local, size, flags=cv2.INTER_LINEAR)
    roi = tex[y0:y1, x0:x1]
    sel = mask > 127
    roi[sel] = warped[sel]
    return (slice(int(y0), int(y1)), slice(int(x0), int(x1))), sel


def _draw_dock(tex: Image, layout: Layout, dock: int, spec: DockSpec, p: Params,
               rng: np.random.Generator, windows_mask: Image,
               seat: tuple[float, float, float] | None = None) -> np.ndarray:
    """The base and its windows; returns the seat affine (base mm -> texture px). ``seat``
    (degrees, mm, mm) overrides the drawn seat error (a base knocked off its dock); the
    draws are made all the same, so the rest of the scene stays as it was."""
    bt = layout.base_type(spec.base_type)
    angle = float(rng.uniform(-p.seat_deg, p.seat_deg))
    shift = (float(rng.uniform(-p.seat_mm, p.seat_mm)), float(rng.uniform(-p.seat_mm, p.seat_mm)))
    if seat is not None:
        angle, shift = seat[0], (seat[1], seat[2])
    a = _base_to_tex(layout.places[dock], angle, shift)
    centre = (round(a[0, 2]), round(a[1, 2]))
    grey = int(rng.integers(35, 60))
    if is_card(bt, dock):
        _draw_card(tex, bt, a, (grey, grey, grey + 4))
    else:
        cv2.circle(tex, centre, round(bt.radius * TEX_PPM), (grey, grey, grey + 4), -1,
                   cv2.LINE_AA)
    for name, win in bt.windows.items():
        paste_window(tex, layout, spec, name, a, spec.positions[name])
        x0 = win.centre[0] - win.size[0] / 2 - 0.5
        y0 = win.centre[1] - win.size[1] / 2 - 0.5
        corners = np.array([[[x0, y0], [x0 + win.size[0] + 1, y0],
                             [x0 + win.size[0] + 1, y0 + win.size[1] + 1],
                             [x0, y0 + win.size[1] + 1]]], np.float64)
        pts = cv2.transform(corners, a) - np.array(_box_origin(layout.places[dock]))
        label = 1 + list(bt.windows).index(name)  # one label per window
        cv2.fillPoly(windows_mask, pts.astype(np.int32), label)
    return a


def is_card(bt: BaseType, place: int) -> bool:
    """Drawn as a card (an Ace card, anything in a dock's holder), nothing standing over it;
    else a round base with its figure."""
    return bt.shape == "card" or place >= HOLDER


def _draw_card(tex: Image, bt: BaseType, a: np.ndarray, colour: tuple[int, int, int]) -> None:
    """A card around the base type's windows (their box and ``CARD_MARGIN_MM``), seated by
    the affine ``a`` (base mm -> texture px)."""
    xs = [w.centre[0] + s * w.size[0] / 2 for w in bt.windows.values() for s in (-1, 1)]
    ys = [w.centre[1] + s * w.size[1] / 2 for w in bt.windows.values() for s in (-1, 1)]
    m = CARD_MARGIN_MM
    x0, x1, y0, y1 = min(xs) - m, max(xs) + m, min(ys) - m, max(ys) + m
    pts = cv2.transform(np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64), a)
    cv2.fillPoly(tex, [np.round(pts[0] * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)


def paste_window(tex: Image, layout: Layout, spec: DockSpec, name: str, a: np.ndarray,
                 position: float) -> tuple[Box, Any]:
    """One window of a seated base (``a``: its seat affine) showing its dial at ``position``,
    with its dark rim; returns the texture box touched and the pixels pasted."""
    bt = layout.base_type(spec.base_type)
    win = bt.windows[name]
    view = window_view(_strip(layout, spec, bt, name), win, position, STRIP_PPM)
    border = np.full((view.shape[0] + 8, view.shape[1] + 8, 3), 15, np.uint8)
    border[4:-4, 4:-4] = view  # the window's dark rim, 0.5 mm
    x0 = win.centre[0] - win.size[0] / 2 - 0.5
    y0 = win.centre[1] - win.size[1] / 2 - 0.5
    k = 1.0 / STRIP_PPM  # patch px -> base mm
    m = a @ np.array([[k, 0, x0], [0, k, y0], [0, 0, 1]])
    return _paste(tex, border, m)


@dataclass
class Figure:
    """A figure standing over its base: where its body and its shadow fall on the texture."""

    origin: tuple[int, int]  # texture px of the box (mask, shade) are drawn in
    mask: Image  # uint8, 255 under the figure's body
    shade: Any  # float32, the soft shadow's strength 0..1
    colour: tuple[int, ...]

    def apply(self, tex: Image, box: Box | None = None, sel: Any = None) -> None:
        """Darken by the shadow, then paint the body: over the whole box, or only over the
        ``sel`` pixels of the texture ``box`` (a window pasted again)."""
        bx, by = self.origin
        h, w = self.mask.shape
        if box is None:
            roi = tex[by:by + h, bx:bx + w]
            roi[:] = (roi * (1.0 - 0.45 * self.shade[:, :, None])).astype(np.uint8)
            roi[self.mask > 0] = self.colour
            return
        ys, xs = box
        y0, y1 = max(ys.start, by), min(ys.stop, by + h)
        x0, x1 = max(xs.start, bx), min(xs.stop, bx + w)
        if y0 >= y1 or x0 >= x1:
            return
        part = tex[y0:y1, x0:x1]
        pick = np.ones(part.shape[:2], bool) if sel is None else \
            sel[y0 - ys.start:y1 - ys.start, x0 - xs.start:x1 - xs.start]
        sh = self.shade[y0 - by:y1 - by, x0 - bx:x1 - bx]
        part[pick] = (part * (1.0 - 0.45 * sh[:, :, None])).astype(np.uint8)[pick]
        body = (self.mask[y0 - by:y1 - by, x0 - bx:x1 - bx] > 0) & pick
        part[body] = self.colour


def _draw_figure(tex: Image, centre: tuple[float, float], p: Params, rng: np.random.Generator,
                 windows_mask: Image) -> Figure | None:
    """The plane or character standing over the base, and its shadow; it may hide a little of
    window (at most ``p.occlusion`` of each), never enough to hide the reading. Drawn in a
    box around the dock (``windows_mask`` labels that box's windows 1, 2, ...)."""
    fig = _pose_figure(tex, centre, p, rng, windows_mask)
    if fig is not None:
        fig.apply(tex)
    return fig


def _pose_figure(tex: Image, centre: tuple[float, float], p: Params, rng: np.random.Generator,
                 windows_mask: Image) -> Figure | None:
    colour = tuple(int(v) for v in rng.integers(30, 220, 3))
    bx, by = _box_origin(centre)
    roi = tex[by:by + windows_mask.shape[0], bx:bx + windows_mask.shape[1]]
    labels = [v for v in np.unique(windows_mask) if v]
    areas = {v: max(1, int(np.count_nonzero(windows_mask == v))) for v in labels}
    for _ in range(20):
        ang = float(rng.uniform(0, 180))
        ax = (round(float(rng.uniform(12, 22)) * TEX_PPM),
              round(float(rng.uniform(4, 8)) * TEX_PPM))
        off = (float(rng.uniform(-6, 6)), float(rng.uniform(-6, 4)))
        cx = round((centre[0] + off[0]) * TEX_PPM) - bx
        cy = round((centre[1] + off[1]) * TEX_PPM) - by
        mask = np.zeros(roi.shape[:2], np.uint8)
        cv2.ellipse(mask, (cx, cy), ax, ang, 0, 360, 255, -1)
        hidden = windows_mask[mask > 0]
        if all(int(np.count_nonzero(hidden == v)) / areas[v] <= p.occlusion for v in labels):
            break
    else:
        return None  # no pose hides little enough: the figure was lifted for the photo
    blank = np.zeros(roi.shape[:2], np.float32)
    d = round(p.shadow_offset_mm * TEX_PPM)
    cv2.ellipse(blank, (cx + d, cy + d), ax, ang, 0, 360, 1.0, -1)
    sh = np.asarray(cv2.GaussianBlur(blank, (0, 0), 2.5 * TEX_PPM), np.float32)
    return Figure((bx, by), mask, sh, colour)


BOX_MM = 50.0  # half the side of the box drawn around a dock


def _box_origin(centre: tuple[float, float]) -> tuple[int, int]:
    return (max(0, round((centre[0] - BOX_MM) * TEX_PPM)),
            max(0, round((centre[1] - BOX_MM) * TEX_PPM)))


@dataclass
class Drawn:
    """A tray drawn and its optics drawn, before the sensor: what a live scene keeps."""

    tex: Image
    seats: dict[int, np.ndarray]  # dock -> seat affine (base mm -> texture px)
    figures: dict[int, Figure]
    optics: Optics
    rng: np.random.Generator  # where the draws stand: the photograph's noise comes next
    truth: dict[int, dict[str, Any]]


def draw_tray(layout: Layout, docks: Mapping[int, DockSpec], p: Params, seed: int,
              size: tuple[int, int] = (1280, 720),
              seats: Mapping[int, tuple[float, float, float]] | None = None) -> Drawn:
    """Everything of a photograph but its sensor (``render_tray`` adds that). ``seats``
    overrides a dock's seat error (degrees, mm, mm), the scene otherwise as the seed draws it."""
    rng = np.random.default_rng(seed)
    tw, th = round(layout.width * TEX_PPM), round(layout.height * TEX_PPM)
    tex = np.empty((th, tw, 3), np.uint8)
    tex[:] = (int(rng.integers(120, 160)), int(rng.integers(140, 175)),
              int(rng.integers(150, 190)))
    _draw_markers(tex, layout)
    truth: dict[int, dict[str, Any]] = {}
    affines: dict[int, np.ndarray] = {}
    figures: dict[int, Figure] = {}
    for dock in sorted(docks):  # docks, then holders (places HOLDER + dock)
        spec = docks[dock]
        bx, by = _box_origin(layout.places[dock])
        side = round(2 * BOX_MM * TEX_PPM)
        windows_mask = np.zeros((min(side, th - by), min(side, tw - bx)), np.uint8)
        affines[dock] = _draw_dock(tex, layout, dock, spec, p, rng, windows_mask,
                                   (seats or {}).get(dock))
        if p.figures and not is_card(layout.base_type(spec.base_type), dock):
            fig = _draw_figure(tex, layout.places[dock], p, rng, windows_mask)
            if fig is not None:
                figures[dock] = fig
        truth[dock] = {"figure": spec.figure, "base_type": spec.base_type,
                       "positions": dict(spec.positions)}
    return Drawn(tex, affines, figures, Optics.of(p, layout, size, rng), rng, truth)


def render_tray(layout: Layout, docks: Mapping[int, DockSpec], p: Params, seed: int,
                size: tuple[int, int] = (1280, 720)) -> Rendered:
    """A photograph of the tray with ``docks`` filled (others empty), and its ground truth."""
    d = draw_tray(layout, docks, p, seed, size)
    img = sensed(d.optics.expose(d.tex), p, d.rng)
    return Rendered(img, p, d.truth, d.optics.matrix, d.optics.dist)


def random_positions(spec_faces: Mapping[str, Sequence[Face]], rng: np.random.Generator,
                     between: float) -> dict[str, float]:
    """A click per dial; with probability ``between`` a dial is caught mid-turn (30-70 %)."""
    out: dict[str, float] = {}
    for name, faces in spec_faces.items():
        k = int(rng.integers(len(faces)))
        mid = float(rng.uniform(0.3, 0.7)) if rng.random() < between and len(faces) > 1 \
            else 0.0  # a one-click token does not turn
        out[name] = k + mid
    return out
