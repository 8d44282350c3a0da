"""Photographs of this very scene: a dial's kept burst averages, one per click it was seen at,
and a test that excludes a rival click by its own photograph rather than by a model of it.

Why: on a burst left unsure, the synthesis (``synth.py``) usually names the right click, but
leads a rival by 1.0-1.6 units of the photo's noise where 1.5-2.5 are needed; more frames do
not lift it (``bench/vision_frames.py``): the limit is the model (its rendered looks differ
from this scene's photographs by more than the noise). But the camera has already
*photographed* many rival clicks of a dial in this scene: each burst whose open read named a
click leaves an average photograph of that window at that click (same light, blur, warp,
registration). The difference between two averages of the same scene is print difference and
sensor noise only, with a noise level the frames themselves measure.

``Album`` keeps those photographs (per window and click: the average grey crop and its frame
count), only of clicks an open read named, and forgets them when the scene may have changed
under them (``drop``: a re-registration, a re-seat asked for, a hand or a knock; bounded).

``judge`` is asked when a burst stays unsure of a dial the encoder says is at click ``c``: it
synthesises the burst's average; if ``c`` is the best look or within the needed lead of it
(``NEED``), every other look within that lead of the best (the best too, when it is not
``c``) must be a click whose own photograph is excluded: the burst's average minus that
photograph, projected on the direction in which the synthesis's fits of ``c`` and of the rival
differ, must exceed ``EXCLUDE`` times its noise (the frames' own, spatially correlated, of
both averages), and the two must not differ beyond noise on the window's rim (``RIM_MAX``: a
base moved, a figure knocked, the camera nudged: then nothing is excluded). A rival never
photographed here is excluded by its photograph as predicted from another click's
(``unseen_looks.py``), and only when ``c`` leads it by synthesis; a mid-turn one keeps the
synthesis's rule: the burst stays unsure. The
thresholds were chosen with the encoder wrong on purpose
(``bench/calibrate_scene_looks.py``, docs/vision.md).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from dialtray.vision.align import warped
from dialtray.vision.classify import DialClassifier
from dialtray.vision.colours import read_colours
from dialtray.vision.decision import CONFIDENCE_THRESHOLD
from dialtray.vision.noise_units import outside, sd_along
from dialtray.vision.reading import CLICK, UNKNOWN, DialRead
from dialtray.vision.register import BORDER_MM, SPP, Image, Registration
from dialtray.vision.synth import MAX_HIDDEN, Look, SynthRead
from dialtray.vision.synth_check import SYNTH_EXPLAINED, SYNTH_MARGIN
from dialtray.vision.unseen_looks import EXPLAINED, SHARE, predict_rival

F32 = npt.NDArray[np.float32]
Key = tuple[int, str]  # place, window (dial) name

NEED = SYNTH_MARGIN  # a rival leading less than this must be excluded by its photograph (the
# synthesis's own need for a click not agreed by the correlation: the strictest)
EXCLUDE = 12.0  # noise units a rival's photograph must be left behind by (docs/vision.md:
# on STRESS a dial 0.02 click off its detent left its own photograph behind by up to 8.9 where
# the rim matched; exactly on it, by up to 4.3; the right clicks' leads were 13.5-20.6)
RIM_MAX = 2.0  # the burst's difference from a rival's photograph on the window's rim, in
# units of the noise energy both carry: above it the two are not of the same scene (a base
# nudged, a figure knocked, the camera moved) and the photograph excludes nothing
SLIDE = 4.0  # px (template: 3 px a mm; a click is the window's width, 42-78 px) a
# photograph's print may slide to match (a dial off its detent by up to ~0.05-0.1 click)
SLIDE_STEP = 0.25  # px between the slides tried (the first order covers what is between)
SLIDE_EDGE = 5  # px of the print's box at either end left out (what slides in is unknown)
LAG = 3  # px: the lags over which the noise's covariance is summed
MOVED_PX = 3.0  # a new registration whose markers moved more than this (frame px) from those
# the photographs were taken under is a camera moved: they are forgotten. Less is the markers'
# own noise: a live loop re-registers every few frames on a noisy scene (held-back seeds 9943
# and 9971: 13 registrations in 40 frames, the corners within 2.1 px of the first's)
KEPT_WINDOWS = 64  # windows whose photographs are kept (a tray: 8 docks, 8 holders, 1-2 each)
MIN_FRAMES = 2  # a photograph is the average of at least this many still frames


@dataclass
class Photo:
    """A window's average grey crop at one click (crop px) of ``frames`` still frames."""

    click: int
    mean: F32
    frames: int


@dataclass
class Frames:
    """The grey crops (float, crop px) of a still window's frames since its last change, and
    their BGR average (what the classifier reads)."""

    greys: list[F32] = field(default_factory=list)
    bgr_sum: npt.NDArray[np.float32] | None = None

    def add(self, bgr: Image) -> None:
        f = bgr.astype(np.float32)
        self.greys.append(np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), np.float32))
        self.bgr_sum = f if self.bgr_sum is None else self.bgr_sum + f

    def clear(self) -> None:
        self.greys, self.bgr_sum = [], None

    def copy(self) -> Frames:
        return Frames(list(self.greys), None if self.bgr_sum is None else self.bgr_sum.copy())

    @property
    def n(self) -> int:
        return len(self.greys)

    def mean(self) -> F32:
        return np.asarray(np.mean(self.greys, axis=0), np.float32)

    def average(self) -> Image:
        assert self.bgr_sum is not None
        return np.clip(np.round(self.bgr_sum / self.n), 0, 255).astype(np.uint8)


class Album:
    """The photographs of one registration (see the module docstring). Thread: the camera's."""

    def __init__(self, kept: int = KEPT_WINDOWS) -> None:
        self.kept = kept
        self._photos: OrderedDict[Key, dict[int, Photo]] = OrderedDict()
        self._corners: dict[int, npt.NDArray[np.float32]] = {}  # the markers they were taken at
        self._growing: dict[Key, tuple[int, Frames, int]] = {}  # photographs still growing

    def registered(self, reg: Registration) -> bool:
        """A new registration: the photographs are kept if its markers are where they were
        when the photographs were taken (within ``MOVED_PX``: a re-registration on the
        markers' noise), else forgotten. True if kept."""
        old = self._corners
        same = bool(old) and set(old) <= set(reg.corners) and all(
            float(np.max(np.abs(reg.corners[m] - pts))) <= MOVED_PX for m, pts in old.items())
        if not same:
            self.clear()
            self._corners = {m: np.asarray(p, np.float32) for m, p in reg.corners.items()}
        return same

    def keep(self, key: Key, click: int, frames: Frames) -> None:
        """``frames`` of ``key``'s window, which an open read named ``click``."""
        if frames.n < MIN_FRAMES:
            return
        mine = self._photos.setdefault(key, {})
        old = mine.get(click)
        if old is None or old.frames <= frames.n:  # the one of more frames
            mine[click] = Photo(click, frames.mean(), frames.n)
        self._photos.move_to_end(key)
        while len(self._photos) > self.kept:
            self._photos.popitem(last=False)

    def grow(self, key: Key, click: int, frames: Frames, most: int) -> None:
        """``key``'s photograph of ``click`` grows from ``frames`` with each still frame
        (``add``) up to ``most`` frames, until ``stop``."""
        self._growing[key] = (click, frames.copy(), most)

    def add(self, key: Key, crop: Image) -> None:
        """A still frame of ``key``'s window, added to its photograph if it is growing."""
        growing = self._growing.get(key)
        if growing is None:
            return
        click, frames, most = growing
        frames.add(crop)
        if frames.n % 4 == 0 or frames.n >= most:
            self.keep(key, click, frames)
        if frames.n >= most:
            del self._growing[key]

    def growing(self, key: Key) -> bool:
        return key in self._growing

    def stop(self, key: Key | None = None) -> None:
        """The window changed (``None``: every window): its photograph grows no more."""
        if key is None:
            self._growing.clear()
        else:
            self._growing.pop(key, None)

    def photos(self, key: Key) -> dict[int, Photo]:
        return dict(self._photos.get(key, {}))

    def drop(self, key: Key) -> None:
        """The window's scene may have changed (a re-seat, a hand, a knock)."""
        self._photos.pop(key, None)
        self._growing.pop(key, None)

    def clear(self) -> None:
        """The camera moved: every window's pixels moved."""
        self._photos.clear()
        self._growing.clear()
        self._corners = {}

    def __len__(self) -> int:
        return sum(len(v) for v in self._photos.values())


@dataclass(frozen=True)
class Excluded:
    """How one close rival fared: ``z`` its photograph left behind (noise units), ``fit``
    the two averages' difference energy in units of their noise's."""

    clicks: tuple[int, ...]
    lead: float  # the synthesis's lead over it
    z: float
    fit: float
    rim: float
    # never photographed here: its photograph predicted from that of click ``source``
    # (``unseen_looks.py``), the burst ``share`` of the way from it to the encoder's click's
    source: int | None = None
    share: float = 0.0


@dataclass(frozen=True)
class Verdict:
    confirmed: bool
    reason: str
    rivals: tuple[Excluded, ...] = ()
    synth: SynthRead | None = None


def judge(classifier: DialClassifier, frames: Frames, photos: dict[int, Photo], c: int,
          exclude: float = EXCLUDE, rim_max: float = RIM_MAX, share: float = SHARE
          ) -> Verdict:
    """Is the dial at ``c`` (the encoder's click)? See the module docstring. Costs one
    synthesis (5-25 ms): the caller runs it off the frame thread."""
    if frames.n < MIN_FRAMES:
        return Verdict(False, "too few still frames")
    r = classifier.synthesise(frames.average())
    if r is None or r.warp is None:
        return Verdict(False, "no synthesis")
    if r.unexplained > MAX_HIDDEN or r.explained < SYNTH_EXPLAINED:
        return Verdict(False, "no look explains the window", synth=r)
    groups = classifier.click_groups

    def clicks_of(look: Look) -> tuple[int, ...]:
        return groups.clicks(look.a) if look.kind == CLICK else ()

    def same(a: Look, b: Look) -> bool:  # (a look's picture is an array: not compared)
        return (a.kind, a.a, a.b, a.cut) == (b.kind, b.a, b.b, b.cut)

    if c in clicks_of(r.best):
        mine, to_c = r.best, np.zeros_like(r.rivals[0].difference) if r.rivals else None
        c_lead = 0.0
    else:  # c close behind the best: the best must be excluded too (by its photograph)
        near = [rv for rv in r.rivals if c in clicks_of(rv.look) and rv.z < NEED]
        if not near:
            return Verdict(False, f"click {c} is not among the synthesis's close looks",
                           synth=r)
        mine, to_c, c_lead = near[0].look, near[0].difference, near[0].z
    if to_c is None:
        return Verdict(False, "the synthesis has no other look", synth=r)
    if len(groups.groups[mine.a]) > 1:  # clicks alike in grey: the colour blocks tell
        # them apart, read as the synthesis reads them (synth_check.py)
        avg = frames.average()
        offset = (round(float(r.warp[0, 2])), round(float(r.warp[1, 2])))
        seen = read_colours(avg, offset, classifier.window, classifier.hues)
        members, why = groups.by_colour(mine.a, seen)
        if c not in members:
            return Verdict(False, f"the colour blocks do not name click {c} ({why})",
                           synth=r)
    # every other look within NEED of the best, each with the direction from it to c's
    # (rival.difference = fit of the best - fit of the rival; the best's own: 0)
    close = [(rv.look, rv.z, rv.difference - to_c) for rv in r.rivals
             if rv.z < NEED and not same(rv.look, mine)]
    if not same(mine, r.best):
        close.insert(0, (r.best, 0.0, -to_c))
    if not close:
        return Verdict(False, "the synthesis leads every look: unsure for another reason",
                       synth=r)
    size = (classifier.mean_template.shape[1], classifier.mean_template.shape[0])
    mean = frames.mean()
    noise = _noise_maps(frames, mean, r.warp, size)
    out: list[Excluded] = []
    for look, lead, direction in close:
        if look.kind != CLICK:
            return Verdict(False, f"a mid-turn look ({look.a}-{look.b}) within "
                           f"{NEED} of it", tuple(out), r)
        clicks = groups.clicks(look.a)
        shot = max((photos[k] for k in clicks if k in photos), key=lambda p: p.frames,
                   default=None)
        if shot is None:  # predicted from another click's photograph (unseen_looks.py)
            if lead <= c_lead:  # (a prediction is a model's: it never overrules the synthesis)
                return Verdict(False, f"click {'/'.join(map(str, clicks))}, never "
                               f"photographed here, leads it by synthesis", tuple(out), r)
            e, why = _unseen(classifier, frames, mean, photos, (mine, look, lead), r.warp,
                             size, noise, (exclude, rim_max, share))
            if e is None or why:
                return Verdict(False, why or f"click {'/'.join(map(str, clicks))} (lead "
                               f"{lead:.1f}) never photographed here",
                               tuple(out) + ((e,) if e else ()), r)
            out.append(e)
            continue
        z, fit, rim = exclusion(mean, frames.n, shot, direction, r.warp, size, noise,
                                print_box(classifier))
        out.append(Excluded(clicks, lead, z, fit, rim))
        if rim > rim_max:
            return Verdict(False, f"its photograph of click {shot.click} differs from it on "
                           f"the window's rim ({rim:.1f} times the noise): the base or the "
                           "camera moved since", tuple(out), r)
        if z < exclude:
            return Verdict(False, f"its photograph of click {shot.click} left behind by only "
                           f"{z:.1f} noise units (needs {exclude})", tuple(out), r)
    return Verdict(True, "; ".join(_said(e) for e in out), tuple(out), r)


def _said(e: Excluded) -> str:
    name = "/".join(map(str, e.clicks))
    if e.source is None:
        return (f"click {name} excluded by its photograph here ({e.z:.1f} noise units, "
                f"rim {e.rim:.1f})")
    return (f"click {name} (never photographed) excluded by its photograph predicted from "
            f"click {e.source}'s here ({e.share:.2f} of the way, {e.z:.1f} noise units, "
            f"rim {e.rim:.1f})")


def _unseen(classifier: DialClassifier, frames: Frames, mean: F32, photos: dict[int, Photo],
            looks: tuple[Look, Look, float], warp: npt.NDArray[np.float32],
            size: tuple[int, int], noise: F32, need: tuple[float, float, float]
            ) -> tuple[Excluded | None, str]:
    """A close rival never photographed here, excluded by its photograph as predicted from
    the photograph of another click (``unseen_looks.py``): (how it fared, why not: "" when
    excluded), or (None, "") when no other click's photograph can predict it."""
    mine, look, lead = looks
    exclude, rim_max, share = need
    clicks = classifier.click_groups.clicks(look.a)
    box = print_box(classifier)
    made = predict_rival(classifier, mean, frames.n, photos, (mine, look), warp, size, noise,
                         box, lambda p: _nuisance(p, box))
    if made is None:
        return None, ""
    got, shot = made
    rim = got.rim
    e = Excluded(clicks, lead, got.z, got.explained, rim, shot, got.share)
    name = "/".join(map(str, clicks))
    if rim > rim_max:
        return e, (f"click {shot}'s photograph differs from it on the window's rim "
                   f"({rim:.1f} times the noise): the base or the camera moved since")
    if got.explained < EXPLAINED:
        return e, (f"click {name} never photographed here, and click {shot}'s "
                   f"photograph explains too little to predict it ({got.explained:.2f})")
    if got.share < share or got.z < exclude:
        return e, (f"click {name} never photographed here: its photograph predicted from "
                   f"click {shot}'s left behind by only {got.share:.2f} of the way "
                   f"({got.z:.1f} noise units; needs {share} and {exclude})")
    return e, ""


def read_by_photos(classifier: DialClassifier, photos: dict[int, Photo], c: int,
                   frames: Frames) -> DialRead:
    """``judge`` as a read (what a burst's worker job returns): click ``c`` (and the clicks
    that print exactly as it does) when confirmed, else unknown saying why."""
    v = judge(classifier, frames, photos, c)
    if not v.confirmed:
        return DialRead(classifier.dial, UNKNOWN, reason=f"by this scene's photographs: "
                        f"{v.reason}")
    groups = classifier.click_groups
    members = groups.classes[groups.class_of[c]]
    face = classifier.faces[c]
    return DialRead(classifier.dial, CLICK, tuple(members), dict(face.values),
                    dict(face.colours), confidence=CONFIDENCE_THRESHOLD,
                    reason=f"by this scene's photographs: {v.reason}")


def _noise_maps(frames: Frames, mean: F32, warp: npt.NDArray[np.float32],
                size: tuple[int, int]) -> F32:
    """The single frame's noise covariance at lags up to ``LAG`` (per pixel, template px):
    from each frame's departure from the average, seen through the synthesis's alignment."""
    k = LAG
    acc: F32 | None = None
    for g in frames.greys:
        e = warped(g - mean, warp, size)
        padded = cv2.copyMakeBorder(e, k, k, k, k, cv2.BORDER_CONSTANT, value=0)
        cov = np.asarray(cv2.matchTemplate(padded, e, cv2.TM_CCORR), np.float32)
        acc = cov if acc is None else acc + cov
    assert acc is not None
    th, tw = size[1], size[0]
    return np.asarray(acc / (max(frames.n - 1, 1) * th * tw), np.float32)


def exclusion(mean: F32, n: int, shot: Photo, difference: F32, warp: npt.NDArray[np.float32],
              size: tuple[int, int], cov: F32, inside: tuple[int, int, int, int] | None = None
              ) -> tuple[float, float, float]:
    """(z, fit, rim): the burst's average minus the rival's photograph along ``difference`` (the
    synthesis's fit of the best look minus the rival's), in units of that projection's
    noise; and what is left of the difference, in units of the noise energy the two
    averages carry (1: the same scene, the same print). What the photograph may differ by
    without the print being another is taken out of both first: a gain and an offset (the
    light drifted) and the print slid along the strip (a dial resting a little off its
    detent: a real dial's play; ``inside``: the print's box, x0, x1, y0, y1 in template px),
    by up to ``SLIDE`` px (the slide that leaves the least, then its first order). ``rim``:
    what is left on the window's rim alone (the base's plastic, the same at every click), in
    the same units: a base moved, a figure knocked over it, a camera nudged since the
    photograph was taken leave it well above 1."""
    a = warped(mean, warp, size)
    p = warped(shot.mean, warp, size)
    w = difference != 0
    if w.sum() < 0.5 * w.size:
        w = np.ones_like(w)
    slides = [0.0]
    if inside is not None:
        x0, x1, y0, y1 = inside
        w = w.copy()  # the print's edge columns: what slides in there is not in the photo
        w[y0:y1, x0:x0 + SLIDE_EDGE] = False
        w[y0:y1, x1 - SLIDE_EDGE:x1] = False
        slides = [i * SLIDE_STEP for i in range(-round(SLIDE / SLIDE_STEP),
                                                 round(SLIDE / SLIDE_STEP) + 1)]
    best: tuple[float, npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None
    for dx in slides:
        q = _nuisance(_slid(p, dx, inside), inside)[:, w].T.astype(np.float64)
        q, _ = np.linalg.qr(q)  # pixels x k, orthonormal
        d = (a - _slid(p, dx, inside))[w].astype(np.float64)
        d -= q @ (q.T @ d)
        left = float(d @ d)
        if best is None or left < best[0]:
            best = (left, d, q)
    assert best is not None
    left, d, q = best
    u_flat = difference[w].astype(np.float64)
    u_flat -= q @ (q.T @ u_flat)
    u = np.zeros(difference.shape, np.float32)
    u[w] = u_flat / max(float(np.sqrt(u_flat @ u_flat)), 1e-9)
    scale = 1.0 / n + 1.0 / shot.frames
    z = float(d @ u[w]) / sd_along(u, cov, scale)
    unit = float(cov[LAG, LAG]) * scale
    fit = left / max(unit * (float(w.sum()) - q.shape[1]), 1e-9)
    rim = fit
    if inside is not None:
        on_rim = outside(w.shape, inside)[w]
        if on_rim.sum() > 20:
            rim = float(np.mean(d[on_rim] ** 2)) / max(unit, 1e-9)
    return z, fit, rim


def _slid(p: F32, dx: float, inside: tuple[int, int, int, int] | None) -> F32:
    """``p`` with its print's box slid ``dx`` px along the strip (the rim stays)."""
    if inside is None or dx == 0.0:
        return p
    x0, x1, y0, y1 = inside
    moved = np.asarray(cv2.warpAffine(p, np.array([[1, 0, dx], [0, 1, 0]], np.float32),
                                      (p.shape[1], p.shape[0]), flags=cv2.INTER_CUBIC,
                                      borderMode=cv2.BORDER_REPLICATE), np.float32)
    out = p.copy()
    out[y0:y1, x0:x1] = moved[y0:y1, x0:x1]
    return out


def _nuisance(p: F32, inside: tuple[int, int, int, int] | None) -> F32:
    """The ways a photograph of the same click may differ from another of it: its gain, an
    offset, and (inside the print's box) the print slid a little along the strip (first
    order, within a slide step)."""
    out = [p, np.ones_like(p),  # ... and the whole window a fraction of a pixel off (the
           # registrations of the two differ by the markers' noise)
           np.asarray(cv2.Sobel(p, cv2.CV_32F, 1, 0, ksize=3), np.float32),
           np.asarray(cv2.Sobel(p, cv2.CV_32F, 0, 1, ksize=3), np.float32)]
    if inside is not None:
        x0, x1, y0, y1 = inside
        m = np.zeros_like(p)
        m[y0:y1, x0:x1] = 1.0
        out.append(np.asarray(cv2.Sobel(p, cv2.CV_32F, 1, 0, ksize=3), np.float32) * m)
    return np.stack(out)


def print_box(classifier: DialClassifier) -> tuple[int, int, int, int]:
    """Where the dial's print shows in the template (x0, x1, y0, y1): inside the rim."""
    th, tw = classifier.mean_template.shape
    b = round(BORDER_MM * SPP)
    return b, min(tw, b + round(classifier.window.size[0] * SPP)), b, th - b


__all__ = [
    "EXCLUDE",
    "NEED",
    "RIM_MAX",
    "Album",
    "Excluded",
    "Frames",
    "Photo",
    "Verdict",
    "exclusion",
    "judge",
    "print_box", "read_by_photos",
]
