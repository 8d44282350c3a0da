"""Rendered data sets for the tests and the benchmark: figures, their captured references, and
trays of them photographed under a profile, with ground truth and scoring.

The figures are the shipped catalogue samples of both games (their dials, colours and marks),
captured from rendered photographs exactly as ``dialtray capture --from-photos`` would; the
sets are then read through the same registration and classifier a user runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dialtray.vision.faces import BASE_TYPE, Face, dial_faces, game_of
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.reading import BETWEEN, CLICK, UNKNOWN, DialRead
from dialtray.vision.refs import FigureRefs
from dialtray.vision.register import MarkerFinder, register
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
    bt = layout.base_type(BASE_TYPE[game])
    finder = MarkerFinder(layout)
    crops: dict[str, list[Any]] = {d: [None] * len(f) for d, f in faces.items()}
    for i, shot in capture_photos(layout, figure, faces, bt.name, dock, seed):
        reg = register(shot.image, finder)
        for d, fs in faces.items():
            if i < len(fs):
                crops[d][i] = reg.crop(shot.image, layout.docks[dock], bt.windows[d], bt.name)
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
              only: str | None = None) -> Iterator[tuple[Rendered, dict[int, DockSpec]]]:
    """``frames`` photographs of 8 docks each, figures drawn at random from ``figures``."""
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
        yield render_tray(layout, docks, params, seed * 100_000 + f), docks


def score_frame(reader: TrayReader, shot: Rendered, docks: dict[int, DockSpec], score: Score,
                what: str = "") -> None:
    reads = reader.read(shot.image, {d: s.figure for d, s in docks.items()})
    for dock, spec in docks.items():
        for dial, pos in spec.positions.items():
            faces = spec.faces[dial]
            score.add(reads[dock][dial], pos, len(faces), faces,
                      f"{what} dock {dock} {spec.figure} {dial}")


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
