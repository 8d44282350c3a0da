"""Rendered data sets for the tests and the benchmark: figures, their captured references, and
trays of them photographed under a profile, with ground truth and scoring.

The figures are the shipped catalogue samples of both games (their dials, colours and marks),
captured from rendered photographs exactly as ``dialtray capture --from-photos`` would; the
sets are then read through the same registration and classifier a user runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from dialtray.vision.classify import DialClassifier
from dialtray.vision.errors import VisionError
from dialtray.vision.faces import BASE_TYPE, Face, base_type_of, dial_faces, game_of
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.reading import BETWEEN, CLICK, UNKNOWN, DialRead
from dialtray.vision.refs import FigureRefs
from dialtray.vision.register import MarkerFinder, Registration, register
from dialtray.vision.render import DockSpec, Rendered, random_positions, render_tray
from dialtray.vision.render_profiles import Params, capture, train

DATA = Path(__file__).resolve().parents[1] / "data"


def sample_figures(game: str) -> dict[str, dict[str, Any]]:
    """The shipped figure documents of a game, by id."""
    d = DATA / ("airaction/figures" if game == "airaction" else "aces/figures")
    out = {}
    for p in sorted(d.glob("*.json")):
        doc = json.loads(p.read_text(encoding="utf-8"))
        out[doc["id"]] = doc
    return out


def sample_ace_cards() -> dict[str, dict[str, Any]]:
    """The shipped Air Action Ace cards (``data/airaction/aces``), by id: one dial each, read
    through the ``ace`` window of an ``airaction-ace`` card."""
    out = {}
    for p in sorted((DATA / "airaction" / "aces").glob("*.json")):
        doc = json.loads(p.read_text(encoding="utf-8"))
        out[doc["id"]] = doc
    return out


def all_sample_figures() -> dict[str, dict[str, Any]]:
    """The shipped figure documents of both games, by id."""
    return {**sample_figures("airaction"), **sample_figures("aces")}


def capture_photos(layout: Layout, figure: str, faces: dict[str, list[Face]], base_type: str,
                   dock: int, seed: int) -> Iterator[tuple[int, Rendered]]:
    """One photograph per click (every dial stepped together), as a person would take them."""
    n = max(len(f) for f in faces.values())
    rng = np.random.default_rng(seed)
    for i in range(n):
        pos = {d: float(i % len(f)) for d, f in faces.items()}
        spec = DockSpec(figure, base_type, faces, pos)
        yield i, render_tray(layout, {dock: spec}, capture(rng), seed * 1000 + i)


def capture_refs(layout: Layout, figure: str, doc: dict[str, Any], dock: int = 0,
                 seed: int = 7) -> FigureRefs:
    """References from rendered capture photos (registration + crop, as the CLI does)."""
    faces = dial_faces(doc)
    game = game_of(doc)
    bt = layout.base_type(base_type_of(doc))
    finder = MarkerFinder(layout)
    crops: dict[str, list[Any]] = {d: [None] * len(f) for d, f in faces.items()}
    for i, shot in capture_photos(layout, figure, faces, bt.name, dock, seed):
        reg = register(shot.image, finder)
        for d, fs in faces.items():
            if i < len(fs):
                crops[d][i] = reg.crop(shot.image, layout.places[dock], bt.windows[d],
                                       bt.name)
    return FigureRefs(figure, game, bt.name, faces, crops)


@dataclass
class Score:
    """Reads against the truth: exact, wrong (a confident read that is not the truth),
    unknown; per distortion label."""

    exact: int = 0
    wrong: int = 0
    unknown: int = 0
    wrong_values: int = 0  # of the wrong: a click that is not the truth (not just "mid-turn")
    wrong_cases: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.exact + self.wrong + self.unknown

    def add(self, read: DialRead, position: float, n: int, faces: list[Face], what: str) -> None:
        k = int(position) % n
        mid = position != int(position)
        if read.status == UNKNOWN:
            self.unknown += 1
            return
        j = (k + 1) % n
        if mid:  # "between" is right; the pair it names is the likeliest, not a confirmed read
            ok = read.status == BETWEEN or (
                read.status == CLICK and faces[k].key() == faces[j].key()
                and k in read.clicks)
        else:
            ok = read.status == CLICK and k in read.clicks
        if ok:
            self.exact += 1
        else:
            self.wrong += 1
            self.wrong_values += read.status == CLICK
            self.wrong_cases.append(f"{what}: truth {position:.2f}, read {read.to_dict()}")


def tray_sets(layout: Layout, figures: dict[str, dict[str, Any]], profile: Callable[..., Params],
              frames: int, seed: int, between: float = 0.1,
              only: str | None = None, first: int = 0
              ) -> Iterator[tuple[Rendered, dict[int, DockSpec]]]:
    """``frames`` photographs of 8 docks each, figures drawn at random from ``figures``; the
    ``first`` ones drawn but not rendered nor yielded (one photo of a set, made as the whole
    set makes it)."""
    rng = np.random.default_rng(seed)
    ids = sorted(figures)
    faces = {fid: dial_faces(figures[fid]) for fid in ids}
    for f in range(frames):
        docks = {}
        for dock in sorted(layout.docks):
            fid = ids[int(rng.integers(len(ids)))]
            game = game_of(figures[fid])
            docks[dock] = DockSpec(fid, BASE_TYPE[game], faces[fid],
                                   random_positions(faces[fid], rng, between))
        params = profile(rng, only) if only is not None else profile(rng)
        if f >= first:
            yield render_tray(layout, docks, params, seed * 100_000 + f), docks


@dataclass(frozen=True)
class Walk:
    """A tray whose dials are walked (``bench/calibrate_scene_looks.py``) as damage or
    healing walks them: every dial at its start click, turned ``step`` (1 either way) twice,
    then back once, off its detent by ``back`` of a click (a real dial's play)."""

    tray: int
    docks: dict[int, DockSpec]
    params: Params
    step: dict[tuple[int, str], int]
    back: dict[tuple[int, str], float]


def walk_trays(layout: Layout, figures: dict[str, dict[str, Any]], seed: int, trays: int,
               profile: Callable[..., Params], jitter: float = 0.0) -> Iterator[Walk]:
    """``trays`` walked trays of 8 docks, figures drawn at random from ``figures`` (a test
    rebuilds one of the bench's trays from its seed and number)."""
    rng = np.random.default_rng(seed)
    ids = sorted(figures)
    for t in range(trays):
        docks = {}
        for dock in sorted(layout.docks):
            fid = ids[int(rng.integers(len(ids)))]
            faces = dial_faces(figures[fid])
            docks[dock] = DockSpec(fid, base_type_of(figures[fid]), faces,
                                   {d: float(rng.integers(len(f))) for d, f in faces.items()})
        params = profile(rng)
        keys = [(d, k) for d, s in docks.items() for k in s.positions]
        step = {k: int(rng.choice([-1, 1])) for k in keys}
        back = {k: float(rng.uniform(-jitter, jitter)) for k in keys}
        yield Walk(t, docks, params, step, back)


def score_frame(reader: TrayReader, shot: Rendered, docks: dict[int, DockSpec], score: Score,
                what: str = "") -> None:
    reads = reader.read(shot.image, {d: s.figure for d, s in docks.items()})
    for dock, spec in docks.items():
        for dial, pos in spec.positions.items():
            faces = spec.faces[dial]
            score.add(reads[dock][dial], pos, len(faces), faces,
                      f"{what} dock {dock} {spec.figure} {dial}")


def window_reads(reader: TrayReader, shot: Rendered, docks: dict[int, DockSpec]
                 ) -> Iterator[tuple[int, DockSpec, str, float, DialClassifier, DialRead]]:
    """Each window of a photograph read on its own, by its classifier (whose state, e.g.
    ``last_synthesis``, belongs to that read): (dock, spec, dial, true position, classifier,
    read). Nothing for a photograph whose markers are lost."""
    try:
        reg = reader.register(shot.image)
    except VisionError:
        return
    for dock, spec in docks.items():
        bt = reader.layout.base_type(reader.refs[spec.figure].base_type)
        for dial, pos in spec.positions.items():
            c = reader.classifiers(spec.figure)[dial]
            yield dock, spec, dial, pos, c, c.read(
                reg.crop(shot.image, reader.layout.docks[dock], bt.windows[dial], bt.name))


def steady_frames(layout: Layout, figures: dict[str, dict[str, Any]], frames: int, seed: int
                  ) -> Iterator[tuple[Rendered, dict[int, DockSpec]]]:
    """One scene (camera, light, bases, figures: the same seed and parameters) photographed
    ``frames`` times while the dials turn: what a fixed camera sees during a game."""
    rng = np.random.default_rng(seed)
    ids = sorted(figures)
    faces = {fid: dial_faces(figures[fid]) for fid in ids}
    cast = {dock: ids[int(rng.integers(len(ids)))] for dock in sorted(layout.docks)}
    params = train(rng)
    for _ in range(frames):
        docks = {d: DockSpec(fid, BASE_TYPE[game_of(figures[fid])], faces[fid],
                             random_positions(faces[fid], rng, 0.1))
                 for d, fid in cast.items()}
        yield render_tray(layout, docks, params, seed), docks


class LiveScene:
    """One tray scene as a fixed webcam films it during a game: the same camera, light,
    shadows, bases and figures frame after frame, each frame with its own sensor noise and
    JPEG (a real sensor's noise changes every frame; ``steady_frames`` re-renders the same
    noise). Rendered without noise once per dial state; ``photo`` adds the renderer's last two
    steps afresh. Dials move only when ``turn`` says so."""

    def __init__(self, layout: Layout, figures: dict[str, dict[str, Any]], seed: int,
                 profile: Callable[..., Params] = train) -> None:
        rng = np.random.default_rng(seed)
        ids = sorted(figures)
        self.layout, self.figures, self.seed = layout, figures, seed
        self.faces = {f: dial_faces(figures[f]) for f in ids}
        self.cast = {d: ids[int(rng.integers(len(ids)))] for d in sorted(layout.docks)}
        self.params = profile(rng)
        self.clean = replace(self.params, noise=0.0, jpeg=100)
        self.pos = {d: {k: float(int(rng.integers(len(fs))))
                        for k, fs in self.faces[f].items()} for d, f in self.cast.items()}
        self.noise = np.random.default_rng(seed + 1)
        self._clean_image: Any = None

    def docks(self) -> dict[int, DockSpec]:
        return {d: DockSpec(f, BASE_TYPE[game_of(self.figures[f])], self.faces[f],
                            dict(self.pos[d])) for d, f in self.cast.items()}

    def render(self) -> Any:
        """The scene without sensor noise or JPEG, as its dials stand now."""
        if self._clean_image is None:
            self._clean_image = render_tray(self.layout, self.docks(), self.clean,
                                            self.seed).image
        return self._clean_image

    def photo(self, clean: Any = None) -> Any:
        """A frame: ``clean`` (default: the scene now) with this frame's own noise and JPEG
        (at least the noise and JPEG loss of a webcam: sigma 2, quality 90)."""
        base = self.render() if clean is None else clean
        noise = max(self.params.noise, 2.0)
        img = base.astype(np.float32) + self.noise.standard_normal(
            base.shape, dtype=np.float32) * np.float32(noise)
        out = np.clip(img, 0, 255).astype(np.uint8)
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, min(self.params.jpeg, 90)])
        return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)

    def turn(self, dock: int, dial: str, by: float = 1.0) -> None:
        """Turn a dial ``by`` clicks (a fraction leaves it mid-turn)."""
        n = len(self.faces[self.cast[dock]][dial])
        p = (self.pos[dock][dial] + by) % n
        self.pos[dock][dial] = float(round(p) % n) if abs(p - round(p)) < 1e-9 else p
        self._clean_image = None

    def window_box(self, reg: Registration, dock: int, dial: str) -> tuple[slice, slice]:
        """The frame pixels a dock's dial window is read from."""
        bt = self.layout.base_type(BASE_TYPE[game_of(self.figures[self.cast[dock]])])
        return reg.window_box(self.layout.docks[dock], bt.windows[dial], bt.name)

    def turnable(self) -> list[tuple[int, str]]:
        """(dock, dial) whose next click prints differently from the one shown."""
        out = []
        for d, f in self.cast.items():
            for k, fs in self.faces[f].items():
                c = int(self.pos[d][k])
                if len(fs) > 1 and fs[c].key() != fs[(c + 1) % len(fs)].key():
                    out.append((d, k))
        return out


# What can change a window while its dial stays put (the live loop must read it again)

def covered(img: Any, box: tuple[slice, slice]) -> Any:
    """A fingertip over a small part of the window's middle (skin colour)."""
    out = img.copy()
    ys, xs = box
    cx, cy = (xs.start + xs.stop) // 2, (ys.start + ys.stop) // 2
    cv2.ellipse(out, (cx, cy), (max((xs.stop - xs.start) // 14, 2),
                                max((ys.stop - ys.start) // 8, 2)), 0, 0, 360,
                (120, 150, 200), -1)
    return out


def shadowed(img: Any, box: tuple[slice, slice], strength: float = 0.2) -> Any:
    """The window ``strength`` darker under a soft shadow (no edge in it: a hand's shadow, a
    lamp dimmed)."""
    ys, xs = box
    mask = np.zeros(img.shape[:2], np.float32)
    mask[ys, xs] = 1.0
    mask = cv2.GaussianBlur(mask, (0, 0), 12.0)
    mask = np.minimum(mask / mask[ys, xs].min(), 1.0)
    out = img.astype(np.float32) * (1.0 - strength * mask[:, :, None])
    return np.clip(out, 0, 255).astype(np.uint8)


def nudged(img: Any, box: tuple[slice, slice]) -> Any:
    """The base moved by one pixel (about 0.3 mm)."""
    out = img.copy()
    ys, xs = box
    out[ys, xs.start + 1:xs.stop] = img[ys, xs.start:xs.stop - 1]
    return out


def write_sample_refs(directory: Path) -> list[Path]:
    """Capture every shipped sample figure's references (as ``capture_refs``) into
    ``directory``: how ``data/vision/refs`` is made."""
    from dialtray.vision.layout import load_layout
    from dialtray.vision.refs import save_refs

    layout = load_layout()
    out = []
    for game in ("airaction", "aces"):
        pieces = {**sample_figures(game), **(sample_ace_cards() if game == "airaction" else {})}
        for fid, doc in pieces.items():
            path = directory / game / f"{fid}.npz"
            save_refs(path, capture_refs(layout, fid, doc))
            out.append(path)
    return out


def sample_refs(figures: Iterable[str], game: str) -> dict[str, FigureRefs]:
    """The shipped references of a game's sample ``figures`` (what ``capture_refs`` makes,
    saved)."""
    from dialtray.vision.refs import SAMPLE_REFS, load_refs

    return {fid: load_refs(SAMPLE_REFS / game / f"{fid}.npz") for fid in figures}


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="write the shipped sample figures' references")
    ap.add_argument("--write-sample-refs", type=Path, metavar="DIR", required=True)
    for written in write_sample_refs(ap.parse_args().write_sample_refs):
        print("wrote", written)
