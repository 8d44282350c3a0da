"""Drawing a dial's printed strip: what moves past a window, click by click (test data).

A clix dial is a disc printed with one sector per click; through a base's window a few
millimetres of it show. Over so small a window the turn is close to a slide, so the renderer
draws the dial *unrolled*: a strip of ``pitch`` mm per click (left to right in click order),
and the window shows the ``size[0]`` mm of strip starting at ``(click + fraction) * pitch`` —
mid-turn it shows the end of one click and the start of the next. The strip wraps (a dial is
a circle).

Digits are drawn in real fonts: DejaVu TrueType faces (Debian ``fonts-dejavu-core``) through
OpenCV's ``FontFace`` when present, otherwise OpenCV's Hershey vector fonts.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.faces import Face
from dialtray.vision.layout import Layout, Window

Image = npt.NDArray[np.uint8]

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
TTF_FONTS = ("DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSerif-Bold.ttf",
             "DejaVuSansMono-Bold.ttf", "DejaVuSans.ttf")
HERSHEY_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX)


@dataclass(frozen=True)
class DialStyle:
    """How one figure's dial is printed: a font (TTF path or Hershey id), digit height as a
    share of the cell, ink and plastic colours (BGR)."""

    font: str | int
    digit_scale: float
    ink: tuple[int, int, int]
    plastic: tuple[int, int, int]

    @staticmethod
    def for_figure(figure_id: str) -> DialStyle:
        """A figure's print is fixed (the same on every photo of it): chosen from its id."""
        rng = np.random.default_rng(zlib.crc32(figure_id.encode()))
        fonts: list[str | int] = [str(FONT_DIR / f) for f in TTF_FONTS
                                  if (FONT_DIR / f).exists()]
        fonts += list(HERSHEY_FONTS)
        font = fonts[int(rng.integers(len(fonts)))]
        ink = tuple(int(v) for v in rng.integers(10, 50, 3))
        grey = int(rng.integers(70, 110))
        return DialStyle(font, float(rng.uniform(0.62, 0.78)), (ink[0], ink[1], ink[2]),
                         (grey, grey, grey + 5))


def physical_colour(layout: Layout, name: str | None) -> tuple[int, int, int]:
    """The printed colour of a catalogue colour name: the layout's palette entry, or for a
    rules name (``sample-sharpshooter``) a palette colour chosen from the name."""
    if name is None:
        return layout.colours_bgr["none"]
    if name in layout.colours_bgr:
        return layout.colours_bgr[name]
    names = sorted(k for k in layout.colours_bgr if k != "none")
    return layout.colours_bgr[names[zlib.crc32(name.encode()) % len(names)]]


_FACES: dict[str, Any] = {}


def _draw_text(img: Image, text: str, centre: tuple[float, float], height: float,
               style: DialStyle, colour: tuple[int, int, int]) -> None:
    """Centre ``text`` at ``centre`` with digits ``height`` px tall, in the style's font."""
    cx, cy = centre
    if isinstance(style.font, str):
        face = _FACES.get(style.font)
        if face is None:
            face = _FACES[style.font] = cv2.FontFace(style.font)
        size = max(4, round(height * 1.38))  # digit cap height is ~0.73 of the em size
        box = cv2.getTextSize((img.shape[1], img.shape[0]), text, (0, 0), face, size, 600)
        x, y, w, h = box
        org = (round(cx - w / 2 - x), round(cy + h / 2 - (y + h)))
        cv2.putText(img, text, org, colour, face, size, 600)
        return
    scale = cv2.getFontScaleFromHeight(style.font, max(2, round(height)), 2)
    thick = max(1, round(height / 9))
    (w, h), _ = cv2.getTextSize(text, style.font, scale, thick)
    cv2.putText(img, text, (round(cx - w / 2), round(cy + h / 2)), style.font, scale, colour,
                thick, cv2.LINE_AA)


def render_click(window: Window, face: Face, style: DialStyle, layout: Layout,
                 ppm: float) -> Image:
    """One click of the strip: ``pitch`` x window height mm at ``ppm`` px per mm."""
    w, h = round(window.pitch * ppm), round(window.size[1] * ppm)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = style.plastic
    for cell in window.cells:
        x, y, cw, ch = (v * ppm for v in cell.rect)
        bg = physical_colour(layout, face.colours.get(cell.stat))
        pad = 0.35 * ppm
        cv2.rectangle(img, (round(x + pad), round(y + pad)),
                      (round(x + cw - pad), round(y + ch - pad)), bg, -1, cv2.LINE_AA)
        if cell.stat in face.values:
            _draw_text(img, str(face.values[cell.stat]), (x + cw / 2, y + ch / 2),
                       ch * style.digit_scale, style, style.ink)
    holes = window.marks.get("bullet_holes")
    if holes is not None:
        x, y, mw, mh = (v * ppm for v in holes)
        n = int(face.marks.get("bullet_holes", 0))
        for i in range(n):
            cx = x + mw * (i + 1) / (n + 1)
            cv2.circle(img, (round(cx), round(y + mh / 2)), max(1, round(mh * 0.4)),
                       (20, 20, 20), -1, cv2.LINE_AA)
    ko = window.marks.get("ko")  # an Ace card's knocked-out click: a red bar lettered KO
    if ko is not None and face.marks.get("ko"):
        x, y, mw, mh = (v * ppm for v in ko)
        cv2.rectangle(img, (round(x), round(y)), (round(x + mw), round(y + mh)), (30, 30, 200),
                      -1, cv2.LINE_AA)
        _draw_text(img, "KO", (x + mw / 2, y + mh / 2), mh * 0.7, style, (235, 235, 235))
    red = window.marks.get("red_line")
    if red is not None and face.marks.get("red_line"):
        x, y, mw, mh = (v * ppm for v in red)
        cv2.rectangle(img, (round(x), round(y)), (round(x + mw), round(y + mh)), (30, 30, 200),
                      -1)
    return img


def render_strip(window: Window, faces: list[Face], style: DialStyle, layout: Layout,
                 ppm: float) -> Image:
    """The whole unrolled dial: every click side by side, in click order."""
    return np.concatenate([render_click(window, f, style, layout, ppm) for f in faces], axis=1)


def window_view(strip: Image, window: Window, position: float, ppm: float) -> Image:
    """What the window shows with the dial at ``position`` clicks (a fraction: mid-turn)."""
    total = strip.shape[1]
    start = round(position * window.pitch * ppm) % total
    width = round(window.size[0] * ppm)
    idx = (np.arange(width) + start) % total
    return np.ascontiguousarray(strip[:, idx])
