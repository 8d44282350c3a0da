"""The renderer's camera: the flat tray texture photographed through a tilted pinhole camera
with lens distortion, uneven light, cast shadows, blur and motion (``Optics``), then the
sensor's noise, 8 bits and JPEG (``sensed``).

``Optics.of`` draws everything a photograph's optics need once (the maps from frame pixels to
texture pixels, the light field with its shadows, the motion kernel); ``expose`` then takes a
texture through them, the whole frame or only a box of it. A live scene (``scene.py``) keeps
one ``Optics`` and exposes again only the frame pixels a changed window reaches: every step
but the two blurs is per pixel, and the blurs are made exact by a margin of their own radius.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from dialtray.vision.layout import Layout
from dialtray.vision.render_dial import Image
from dialtray.vision.render_profiles import Params

TEX_PPM = 4.0  # tray texture resolution, px per mm (render.py draws at this scale)
TEX_BLUR = 0.6  # the texture's own softness, texture px
BORDER = (60, 70, 80)  # what the camera sees past the tray's edge
Box = tuple[slice, slice]


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


@dataclass
class Optics:
    """One photograph's optics, drawn once (see the module docstring)."""

    params: Params
    size: tuple[int, int]
    matrix: Any
    dist: Any
    mx: Image  # float32, frame px -> texture x
    my: Image
    light: Image  # (h, w), float64 as drawn: uneven light, vignette and cast shadows
    motion: Any  # the motion blur's kernel (float32), or None

    @staticmethod
    def of(p: Params, layout: Layout, size: tuple[int, int], rng: np.random.Generator) -> Optics:
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
        # uneven light (a gradient across the frame, a vignette) and cast shadows (soft dark
        # polygons from things off the tray): smooth, so drawn at 1/4 size and scaled up
        q = 4
        yy, xx = np.mgrid[0:h // q, 0:w // q].astype(np.float32) * q
        ang = np.deg2rad(p.light_angle)
        g = ((xx - w / 2) * np.cos(ang) + (yy - h / 2) * np.sin(ang)) / (w / 2)
        light = 1.0 - p.light * (0.5 + 0.5 * np.clip(g, -1, 1))
        light *= 1.0 - p.vignette * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2) * 2
        for _ in range(p.shadows):
            poly = rng.uniform([0, 0], [w / q, h / q],
                               (int(rng.integers(3, 6)), 2)).astype(np.int32)
            m = np.zeros(light.shape, np.float32)
            cv2.fillPoly(m, [poly], 1.0)
            m = cv2.GaussianBlur(m, (0, 0), float(rng.uniform(1, 4)))
            light *= 1.0 - p.shadow_strength * m
        light = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)
        kern = None
        if p.motion_px > 0:
            n = max(1, round(p.motion_px))
            line = np.zeros((n, n), np.float32)
            line[n // 2, :] = 1.0 / n
            rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), float(rng.uniform(0, 180)),
                                          1)
            kern = np.asarray(cv2.warpAffine(line, rot, (n, n)), np.float32)
        return Optics(p, size, k, dist, mx, my, np.asarray(light), kern)

    def margin(self) -> int:
        """Frame px a change spreads by (the image blur and the motion kernel)."""
        m = math.ceil(4 * self.params.blur) + 2 if self.params.blur > 0 else 1
        return m + (self.motion.shape[0] if self.motion is not None else 0)

    def expose(self, tex: Image, box: Box | None = None) -> Image:
        """The light reaching the sensor (float32 BGR): the whole frame, or only ``box``."""
        if box is None:
            return self._expose(tex, slice(0, self.size[1]), slice(0, self.size[0]))
        m = self.margin()
        h, w = self.size[1], self.size[0]
        ys = slice(max(box[0].start - m, 0), min(box[0].stop + m, h))
        xs = slice(max(box[1].start - m, 0), min(box[1].stop + m, w))
        out = self._expose(tex, ys, xs)
        return out[box[0].start - ys.start:box[0].stop - ys.start,
                   box[1].start - xs.start:box[1].stop - xs.start]

    def _expose(self, tex: Image, ys: slice, xs: slice) -> Image:
        mx, my = self.mx[ys, xs], self.my[ys, xs]
        th, tw = tex.shape[:2]
        pad = 4  # the texture blur's radius and the bilinear sample's neighbour
        tx0 = int(max(math.floor(float(mx.min())) - pad, 0))
        ty0 = int(max(math.floor(float(my.min())) - pad, 0))
        tx1 = int(min(math.ceil(float(mx.max())) + pad + 1, tw))
        ty1 = int(min(math.ceil(float(my.max())) + pad + 1, th))
        whole = (tx0, ty0, tx1, ty1) == (0, 0, tw, th)
        if tx1 <= tx0 or ty1 <= ty0:  # all of it off the tray
            img = np.empty((ys.stop - ys.start, xs.stop - xs.start, 3), np.float32)
            img[:] = BORDER
        else:
            src = cv2.GaussianBlur(tex if whole else tex[ty0:ty1, tx0:tx1], (0, 0), TEX_BLUR)
            img = cv2.remap(src, mx - np.float32(tx0), my - np.float32(ty0), cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT,
                            borderValue=BORDER).astype(np.float32)
            if not whole:  # samples past the tray's edge see the border, not a clipped copy
                off = (mx < -1) | (my < -1) | (mx > tw) | (my > th)
                if off.any():
                    full = cv2.remap(cv2.GaussianBlur(tex, (0, 0), TEX_BLUR), mx, my,
                                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                     borderValue=BORDER).astype(np.float32)
                    img = full
        p = self.params
        img *= self.light[ys, xs][:, :, None] * np.array(p.white_balance, np.float32)
        if p.blur > 0:
            img = np.asarray(cv2.GaussianBlur(img, (0, 0), p.blur), np.float32)
        if self.motion is not None:
            img = np.asarray(cv2.filter2D(img, -1, self.motion), np.float32)
        return img


def sensed(img: Any, p: Params, rng: np.random.Generator) -> Image:
    """What the camera makes of the light ``img`` (float, BGR): its sensor noise, 8 bits and
    JPEG. Also how the benches draw fresh noise for one scene (bench/ideal_observer.py,
    bench/vision_frames.py)."""
    if p.noise > 0 and getattr(img, "dtype", None) == np.float32:
        # in place (a virtual camera makes one a frame): the same numbers as below
        noisy = rng.standard_normal(img.shape, dtype=np.float32)
        noisy *= np.float32(p.noise)
        noisy += img
        out = np.asarray(np.clip(noisy, 0, 255, out=noisy), np.float32).astype(np.uint8)
    else:
        if p.noise > 0:
            img = img + rng.standard_normal(img.shape, dtype=np.float32) * np.float32(p.noise)
        out = np.asarray(np.clip(img, 0, 255), np.float32).astype(np.uint8)
    if p.jpeg < 100:
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, p.jpeg])
        out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return out
