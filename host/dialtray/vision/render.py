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
from dialtray.vision.layout import BaseType, Layout
from dialtray.vision.render_dial import DialStyle, Image, render_strip, window_view
from dialtray.vision.render_profiles import Params

TEX_PPM = 4.0  # tray texture resolution, px per mm
STRIP_PPM = 8.0


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


def _paste(tex: Image, patch: Image, m: np.ndarray) -> None:
    """Warp ``patch`` into ``tex`` with the 2x3 affine ``m`` (patch px -> texture px); only the
    patch's bounding box of the texture is touched."""
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


def _draw_dock(tex: Image, layout: Layout, dock: int, spec: DockSpec, p: Params,
               rng: np.random.Generator, windows_mask: Image) -> None:
    bt = layout.base_type(spec.base_type)
    angle = float(rng.uniform(-p.seat_deg, p.seat_deg))
    shift = (float(rng.uniform(-p.seat_mm, p.seat_mm)), float(rng.uniform(-p.seat_mm, p.seat_mm)))
    a = _base_to_tex(layout.docks[dock], angle, shift)
    centre = (round(a[0, 2]), round(a[1, 2]))
    grey = int(rng.integers(35, 60))
    cv2.circle(tex, centre, round(bt.radius * TEX_PPM), (grey, grey, grey + 4), -1, cv2.LINE_AA)
    for name, win in bt.windows.items():
        view = window_view(_strip(layout, spec, bt, name), win, spec.positions[name], STRIP_PPM)
        border = np.full((view.shape[0] + 8, view.shape[1] + 8, 3), 15, np.uint8)
        border[4:-4, 4:-4] = view  # the window's dark rim, 0.5 mm
        x0 = win.centre[0] - win.size[0] / 2 - 0.5
        y0 = win.centre[1] - win.size[1] / 2 - 0.5
        k = 1.0 / STRIP_PPM  # patch px -> base mm
        m = a @ np.array([[k, 0, x0], [0, k, y0], [0, 0, 1]])
        _paste(tex, border, m)
        corners = np.array([[[x0, y0], [x0 + win.size[0] + 1, y0],
                             [x0 + win.size[0] + 1, y0 + win.size[1] + 1],
                             [x0, y0 + win.size[1] + 1]]], np.float64)
        pts = cv2.transform(corners, a) - np.array(_box_origin(layout.docks[dock]))
        label = 1 + list(bt.windows).index(name)  # one label per window
        cv2.fillPoly(windows_mask, pts.astype(np.int32), label)


def _draw_figure(tex: Image, centre: tuple[float, float], p: Params, rng: np.random.Generator,
                 windows_mask: Image) -> None:
    """The plane or character standing over the base, and its shadow; it may hide a little of
    window (at most ``p.occlusion`` of each), never enough to hide the reading. Drawn in a
    box around the dock (``windows_mask`` labels that box's windows 1, 2, ...)."""
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
        return  # no pose hides little enough: the figure was lifted for the photo
    blank = np.zeros(roi.shape[:2], np.float32)
    d = round(p.shadow_offset_mm * TEX_PPM)
    cv2.ellipse(blank, (cx + d, cy + d), ax, ang, 0, 360, 1.0, -1)
    sh = np.asarray(cv2.GaussianBlur(blank, (0, 0), 2.5 * TEX_PPM), np.float32)
    roi[:] = (roi * (1.0 - 0.45 * sh[:, :, None])).astype(np.uint8)
    roi[mask > 0] = colour


BOX_MM = 50.0  # half the side of the box drawn around a dock


def _box_origin(centre: tuple[float, float]) -> tuple[int, int]:
    return (max(0, round((centre[0] - BOX_MM) * TEX_PPM)),
            max(0, round((centre[1] - BOX_MM) * TEX_PPM)))


def camera_for(p: Params, layout: Layout, size: tuple[int, int]) -> tuple[Any, Any, Any]:
    """Camera matrix, distortion and the tray-plane homography (tray mm -> normalised camera
    coordinates) for the pose in ``p``; the focal length is chosen so the tray fills the frame
    (``p.fill`` of it) whatever the tilt."""
    w, h = size
    rx, ry, rz = (np.deg2rad(v) for v in (p.tilt_x, p.tilt_y, p.roll))
    r = (cv2.Rodrigues(np.array([0.0, 0.0, rz]))[0] @ cv2.Rodrigues(np.array([rx, 0.0, 0.0]))[0]
         @ cv2.Rodrigues(np.array([0.0, ry, 0.0]))[0])
    c = np.array([layout.width / 2, layout.height / 2, 0.0])
    t = -r @ c + np.array([0.0, 0.0, 600.0])
    hn = np.column_stack([r[:, 0], r[:, 1], t])
    corners = np.array([[0, 0, 1], [layout.width, 0, 1], [layout.width, layout.height, 1],
                        [0, layout.height, 1]], float).T
    pr = hn @ corners
    xy = pr[:2] / pr[2]
    span = np.array([xy[0].max() - xy[0].min(), xy[1].max() - xy[1].min()])
    f = float(min(w * p.fill / span[0], h * p.fill / span[1]))
    mid = (xy.max(axis=1) + xy.min(axis=1)) / 2
    k = np.array([[f, 0, w / 2 - f * mid[0] + p.shift_px[0]],
                  [0, f, h / 2 - f * mid[1] + p.shift_px[1]], [0, 0, 1]])
    dist = np.array([p.k1, p.k2, 0.0, 0.0, 0.0])
    return k, dist, hn


def _photograph(tex: Image, p: Params, layout: Layout, size: tuple[int, int],
                rng: np.random.Generator) -> tuple[Image, Any, Any]:
    w, h = size
    k, dist, hn = camera_for(p, layout, size)
    step = 8
    # a coarse grid, at the points cv2.resize (pixel centres) puts its samples when scaling
    # by ``step``: x = step * i + (step - 1) / 2
    c = (step - 1) / 2
    gx, gy = np.meshgrid(np.arange(0, w + step, step, dtype=np.float32) + c,
                         np.arange(0, h + step, step, dtype=np.float32) + c)
    pts = np.stack([gx.ravel(), gy.ravel()], axis=1).reshape(-1, 1, 2)
    und = cv2.undistortPoints(pts, k, dist).reshape(-1, 2)  # distorted px -> ideal rays
    tray = np.linalg.inv(hn) @ np.column_stack([und, np.ones(len(und))]).T
    tx = (tray[0] / tray[2] * TEX_PPM).reshape(gx.shape).astype(np.float32)
    ty = (tray[1] / tray[2] * TEX_PPM).reshape(gx.shape).astype(np.float32)
    mx = cv2.resize(tx, (gx.shape[1] * step, gx.shape[0] * step))[:h, :w]
    my = cv2.resize(ty, (gx.shape[1] * step, gx.shape[0] * step))[:h, :w]
    src = cv2.GaussianBlur(tex, (0, 0), 0.6)
    img = cv2.remap(src, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=(60, 70, 80)).astype(np.float32)
    # uneven light (a gradient across the frame, a vignette) and cast shadows (soft dark
    # polygons from things off the tray): smooth, so drawn at 1/4 size and scaled up
    q = 4
    yy, xx = np.mgrid[0:h // q, 0:w // q].astype(np.float32) * q
    ang = np.deg2rad(p.light_angle)
    g = ((xx - w / 2) * np.cos(ang) + (yy - h / 2) * np.sin(ang)) / (w / 2)
    light = 1.0 - p.light * (0.5 + 0.5 * np.clip(g, -1, 1))
    light *= 1.0 - p.vignette * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2) * 2
    for _ in range(p.shadows):
        poly = rng.uniform([0, 0], [w / q, h / q], (int(rng.integers(3, 6)), 2)).astype(np.int32)
        m = np.zeros(light.shape, np.float32)
        cv2.fillPoly(m, [poly], 1.0)
        m = cv2.GaussianBlur(m, (0, 0), float(rng.uniform(1, 4)))
        light *= 1.0 - p.shadow_strength * m
    light = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)
    img *= light[:, :, None] * np.array(p.white_balance, np.float32)
    if p.blur > 0:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), p.blur), np.float32)
    if p.motion_px > 0:
        n = max(1, round(p.motion_px))
        kern = np.zeros((n, n), np.float32)
        kern[n // 2, :] = 1.0 / n
        rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), float(rng.uniform(0, 180)), 1)
        img = np.asarray(cv2.filter2D(img, -1, cv2.warpAffine(kern, rot, (n, n))), np.float32)
    return sensed(img, p, rng), k, dist


def sensed(img: Any, p: Params, rng: np.random.Generator) -> Image:
    """What the camera makes of the light ``img`` (float, BGR): its sensor noise, 8 bits and
    JPEG. Also how the benches draw fresh noise for one scene (bench/ideal_observer.py,
    bench/vision_frames.py)."""
    if p.noise > 0:
        img = img + rng.standard_normal(img.shape, dtype=np.float32) * np.float32(p.noise)
    out = np.asarray(np.clip(img, 0, 255), np.float32).astype(np.uint8)
    if p.jpeg < 100:
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, p.jpeg])
        out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return out


def render_tray(layout: Layout, docks: Mapping[int, DockSpec], p: Params, seed: int,
                size: tuple[int, int] = (1280, 720)) -> Rendered:
    """A photograph of the tray with ``docks`` filled (others empty), and its ground truth."""
    rng = np.random.default_rng(seed)
    tw, th = round(layout.width * TEX_PPM), round(layout.height * TEX_PPM)
    tex = np.empty((th, tw, 3), np.uint8)
    tex[:] = (int(rng.integers(120, 160)), int(rng.integers(140, 175)),
              int(rng.integers(150, 190)))
    _draw_markers(tex, layout)
    truth: dict[int, dict[str, Any]] = {}
    for dock in sorted(docks):
        spec = docks[dock]
        bx, by = _box_origin(layout.docks[dock])
        side = round(2 * BOX_MM * TEX_PPM)
        windows_mask = np.zeros((min(side, th - by), min(side, tw - bx)), np.uint8)
        _draw_dock(tex, layout, dock, spec, p, rng, windows_mask)
        if p.figures:
            _draw_figure(tex, layout.docks[dock], p, rng, windows_mask)
        truth[dock] = {"figure": spec.figure, "base_type": spec.base_type,
                       "positions": dict(spec.positions)}
    img, k, dist = _photograph(tex, p, layout, size, rng)
    return Rendered(img, p, truth, k, dist)


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
