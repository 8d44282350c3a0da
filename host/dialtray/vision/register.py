"""Registration: the tray's corner markers -> homography -> every dial window as a small crop.

OpenCV does the work: ``cv2.aruco.ArucoDetector`` finds the markers (on a quarter-size copy of
the frame, or a half-size one when any is missing there; ``cv2.cornerSubPix`` refines the
corners at full size — a 1280x720 frame's markers cost ~1 ms instead of ~15 at full size),
``cv2.findHomography`` maps tray millimetres to pixels, and per window one
``cv2.remap`` samples a canonical crop (``SPP`` samples per mm) whose maps are computed once
per registration. With a calibrated camera (``camera.py``) the corners are undistorted before
the fit and the window maps go back through the lens model, so straight tray lines stay
straight in the crops.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.camera import CameraModel
from dialtray.vision.errors import VisionError
from dialtray.vision.layout import Layout, Window

SPP = 3.0  # crop samples per mm
BORDER_MM = 1.0  # the window's rim, part of every template
MARGIN_MM = 3.0  # search room around it for a base seated off or a registration error
MIN_SIZE = (640, 360)
MAX_RMS_PX = 4.0

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class CropGeometry:
    """A window's crop: template size (window + rim) and read size (+ search margin), px."""

    template: tuple[int, int]
    read: tuple[int, int]
    margin: int

    @staticmethod
    def of(window: Window) -> CropGeometry:
        tw = round((window.size[0] + 2 * BORDER_MM) * SPP)
        th = round((window.size[1] + 2 * BORDER_MM) * SPP)
        m = round(MARGIN_MM * SPP)
        return CropGeometry((tw, th), (tw + 2 * m, th + 2 * m), m)


@dataclass
class Registration:
    """Tray mm -> image px (undistorted when a camera model is given), and what it rests on."""

    homography: Floats
    markers: tuple[int, ...]
    rms_px: float
    image_size: tuple[int, int]
    camera: CameraModel | None = None
    corners: dict[int, Floats] = field(default_factory=dict)  # px, as found (distorted)
    _maps: dict[tuple[float, float, str, str], tuple[Any, Any]] = field(default_factory=dict)
    _boxes: dict[tuple[float, float, str, str], tuple[slice, slice]] = field(
        default_factory=dict)
    mosaics: dict[Any, Any] = field(default_factory=dict)  # mosaic.py's, made once

    def window_maps(self, centre: tuple[float, float], window: Window,
                    key: str) -> tuple[Any, Any]:
        """remap() maps for a window of a base at ``centre`` (tray mm), computed once."""
        k = (centre[0], centre[1], key, window.name)
        if k not in self._maps:
            self._maps[k] = _maps_for(self, centre, window)
        return self._maps[k]

    def window_box(self, centre: tuple[float, float], window: Window,
                   key: str) -> tuple[slice, slice]:
        """The frame pixels (rows, columns) ``crop`` samples that window from, computed once."""
        k = (centre[0], centre[1], key, window.name)
        if k not in self._boxes:
            self._boxes[k] = frame_box(self.window_maps(centre, window, key)[0], self.image_size)
        return self._boxes[k]

    def crop(self, image: Image, centre: tuple[float, float], window: Window,
             key: str) -> Image:
        """The canonical read crop of ``window`` (base centred on ``centre``): BGR."""
        mx, my = self.window_maps(centre, window, key)
        return np.asarray(cv2.remap(image, mx, my, cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE), np.uint8)


def _maps_for(reg: Registration, centre: tuple[float, float], window: Window) -> tuple[Any, Any]:
    g = CropGeometry.of(window)
    w, h = g.read
    off = BORDER_MM + MARGIN_MM
    xs = (np.arange(w, dtype=np.float64) + 0.5) / SPP - off - window.size[0] / 2
    ys = (np.arange(h, dtype=np.float64) + 0.5) / SPP - off - window.size[1] / 2
    gx = (xs + centre[0] + window.centre[0])[None, :]
    gy = (ys + centre[1] + window.centre[1])[:, None]
    hm = reg.homography  # the grid is separable: each row of H by broadcasting, no meshgrid
    # (the constant added on an axis first: one sum over the grid, not two; one division)
    inv = 1.0 / ((hm[2, 0] * gx + hm[2, 2]) + hm[2, 1] * gy)
    u = ((hm[0, 0] * gx + hm[0, 2]) + hm[0, 1] * gy) * inv
    v = ((hm[1, 0] * gx + hm[1, 2]) + hm[1, 1] * gy) * inv
    if reg.camera is not None:
        uv = reg.camera.distort_pixels(np.column_stack([u.ravel(), v.ravel()]))
        u, v = uv[:, 0].reshape(h, w), uv[:, 1].reshape(h, w)
    mx = np.asarray(u, np.float32)
    my = np.asarray(v, np.float32)
    return cv2.convertMaps(mx, my, cv2.CV_16SC2)  # fixed point: remap twice as fast


def frame_box(map1: Any, size: tuple[int, int]) -> tuple[slice, slice]:
    """The frame pixels a window's ``remap`` reads (rows, columns), from its fixed-point
    map (``CV_16SC2``: the integer pixel left of / above each sample; bilinear also reads
    the next one), clipped to the frame ``size`` (w, h)."""
    xs, ys = map1[..., 0], map1[..., 1]
    x0, x1 = max(int(xs.min()), 0), min(int(xs.max()) + 2, size[0])
    y0, y1 = max(int(ys.min()), 0), min(int(ys.max()) + 2, size[1])
    return slice(y0, max(y1, y0 + 1)), slice(x0, max(x1, x0 + 1))


class MarkerFinder:
    """ArUco detection for one layout (the detector is built once)."""

    def __init__(self, layout: Layout) -> None:
        try:
            d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.dictionary))
        except AttributeError:
            raise VisionError(f"{layout.file}: markers.dictionary: OpenCV has no ArUco "
                              f"dictionary {layout.dictionary}") from None
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        # Speed (issue 35): the markers' black border is ~6 px wide at half size, so the
        # default 3 px thresholding window only adds candidates (the dials' print boxes), and
        # a marker's perimeter is >= 0.2 of the frame's width (0.08 leaves room for a tray
        # filling only part of the frame). Detection 3.0 -> 1.9 ms at 640x360; every marker
        # of 120 held-back frames (each distortion alone and all together) found as before.
        params.adaptiveThreshWinSizeMin = 13
        params.adaptiveThreshWinSizeMax = 23
        params.minMarkerPerimeterRate = 0.08
        self.layout = layout
        self.detector = cv2.aruco.ArucoDetector(d, params)
        # First looked for at quarter size (a marker's border ~3 px there: one 7 px
        # thresholding window): 1.9 -> 0.5 ms. It found 793 of 800 markers in 200 held-back
        # frames; a frame where any of the layout's markers is not found there is searched
        # at half size as before, so no frame registers on fewer markers than it did.
        quick = cv2.aruco.DetectorParameters()
        quick.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        quick.adaptiveThreshWinSizeMin = quick.adaptiveThreshWinSizeMax = 7
        quick.minMarkerPerimeterRate = params.minMarkerPerimeterRate
        self.quick = cv2.aruco.ArucoDetector(d, quick)

    def find(self, gray: Image) -> dict[int, Floats]:
        """Marker id -> its 4 corners (px, full size) for the layout's markers in view: at
        quarter size (corners refined at half size, then full), else at half size."""
        half = np.asarray(cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                                     interpolation=cv2.INTER_AREA), np.uint8)
        quarter = np.asarray(cv2.resize(half, (half.shape[1] // 2, half.shape[0] // 2),
                                        interpolation=cv2.INTER_AREA), np.uint8)
        found = self._refined(gray, self.quick, quarter, 4.0, half)
        if len(found) == len(self.layout.marker_corners):
            return found
        return self._refined(gray, self.detector, half, 2.0)

    def _refined(self, gray: Image, detector: Any, searched: Image, scale: float,
                 half: Image | None = None) -> dict[int, Floats]:
        """The layout's markers ``detector`` finds in ``searched`` (``gray`` shrunk by
        ``scale``), corners refined at full size; first at half size (``half``) when
        found at quarter size, where a corner may be 2 px off: refined at full size from
        there, one in 800 went to the next corner of the marker's print (5.9 px off)."""
        corners, ids, _ = detector.detectMarkers(searched)
        out: dict[int, Floats] = {}
        if ids is None:
            return out
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
        for c, i in zip(corners, ids.ravel(), strict=True):
            if int(i) not in self.layout.marker_corners or int(i) in out:
                continue
            if half is not None:
                pts = (c.reshape(4, 2) * (scale / 2) + (scale / 2 - 1.0) / 2.0).astype(
                    np.float32)
                cv2.cornerSubPix(half, pts, (3, 3), (-1, -1), crit)
                pts = pts * 2 + 0.5
            else:
                pts = (c.reshape(4, 2) * scale + (scale - 1.0) / 2.0).astype(np.float32)
            cv2.cornerSubPix(gray, pts, (5, 5), (-1, -1), crit)
            out[int(i)] = pts.astype(np.float64)
        return out


def check_image(image: Image | None, what: str, camera: CameraModel | None = None) -> Image:
    """A decoded BGR frame of a usable size (or a VisionError saying why not)."""
    if image is None or image.ndim != 3 or image.shape[2] != 3:
        raise VisionError(f"{what}: not a colour image OpenCV can decode")
    h, w = image.shape[:2]
    if w < MIN_SIZE[0] or h < MIN_SIZE[1]:
        raise VisionError(f"{what}: the image is {w}x{h}; dials need at least "
                          f"{MIN_SIZE[0]}x{MIN_SIZE[1]}")
    if camera is not None and (w, h) != camera.size:
        raise VisionError(f"{what}: the image is {w}x{h} but the camera was calibrated at "
                          f"{camera.size[0]}x{camera.size[1]} (recalibrate, or set the camera "
                          "back to that size)")
    return image


def register(image: Image, finder: MarkerFinder, camera: CameraModel | None = None,
             what: str = "image") -> Registration:
    """The homography from tray mm to this frame, from the corner markers in view (>= 3)."""
    gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    found = finder.find(gray)
    h, w = image.shape[:2]
    return _fit(found, finder.layout, (w, h), camera, what)


def _fit(found: dict[int, Floats], layout: Layout, size: tuple[int, int],
         camera: CameraModel | None, what: str) -> Registration:
    if len(found) < 3:
        want = ", ".join(str(i) for i in sorted(layout.marker_corners))
        seen = ", ".join(str(i) for i in sorted(found)) or "none"
        raise VisionError(f"{what}: tray markers not found (need 3 of ids {want} from "
                          f"{layout.dictionary}; saw {seen}): is the whole tray in view and lit?")
    src = np.array([p for i in sorted(found) for p in layout.marker_points(i)], np.float64)
    dst = np.concatenate([found[i] for i in sorted(found)])
    if camera is not None:
        dst = camera.undistort_pixels(dst)
    hom, _ = cv2.findHomography(src, dst, 0)
    if hom is None:
        raise VisionError(f"{what}: the markers do not fit a flat tray (no homography)")
    proj = cv2.perspectiveTransform(src.reshape(-1, 1, 2), hom).reshape(-1, 2)
    rms = float(np.sqrt(np.mean(np.sum((proj - dst) ** 2, axis=1))))
    if rms > MAX_RMS_PX:
        raise VisionError(f"{what}: the markers do not fit the tray layout ({rms:.1f} px "
                          f"off; is {layout.file} this tray's layout?)")
    return Registration(np.asarray(hom, np.float64), tuple(sorted(found)), rms, size, camera,
                        dict(found))


STEADY_PX = 0.5  # markers that moved less than this (px) leave the registration as it was
ROI_PAD_PX = 12  # room around a marker's corners for refining them again


def follow(image: Image, finder: MarkerFinder, last: Registration | None,
           camera: CameraModel | None = None, what: str = "image") -> Registration:
    """The registration of a frame from a fixed camera, cheaply: each marker corner of
    ``last`` is refined again where it was (``cv2.cornerSubPix`` on a small patch around
    each marker, no detection); if every one is back within ``STEADY_PX`` the ``last``
    registration itself is returned (its window maps and the readers' alignments stay
    valid); if anything moved the whole frame is searched again (``register``)."""
    if last is None or not last.corners or last.image_size != (image.shape[1], image.shape[0]):
        return register(image, finder, camera, what)
    h, w = image.shape[:2]
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    for pts in last.corners.values():
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        x0, y0 = max(int(lo[0]) - ROI_PAD_PX, 0), max(int(lo[1]) - ROI_PAD_PX, 0)
        x1, y1 = min(int(hi[0]) + ROI_PAD_PX, w), min(int(hi[1]) + ROI_PAD_PX, h)
        roi = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        again = (pts - np.array([x0, y0])).astype(np.float32)
        try:
            cv2.cornerSubPix(roi, again, (5, 5), (-1, -1), crit)
        except cv2.error:
            return register(image, finder, camera, what)
        if float(np.max(np.abs(again + np.array([x0, y0]) - pts))) > STEADY_PX:
            return register(image, finder, camera, what)
    return last
