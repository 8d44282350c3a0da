"""The tray layout: where the markers, docks and each base type's dial windows are (tray mm).

The camera only knows pixels; the layout file (``data/vision/tray_layout.json``) says what the
pixels mean once the corner markers have given the homography: the tray's size, each ArUco
marker's top-left corner, each dock's centre, and per base type the windows through which a
dial shows its current click (centre relative to the base centre, size, the dial's pitch — how
far the printed strip moves per click — the stat cells inside and any marks such as bullet
holes). Coordinates are millimetres, origin at the tray's top-left corner, y pointing down.

A dock has two readers (encoders): a plane's combat and speed dials sit over them. A piece
with one dial on a dock's *second* reader (an Air Action Ace card sharing a dock, a second
Aces figure sharing one) sits in the dock's **holder**: a card slot beside the dock, read like
a base whose centre is the holder's point (its window where a base's would be). The camera
code names such a seat by a *place* number: a dock's own seat is the dock number, its holder
``HOLDER + dock`` (``place_of``, ``places``, ``place_text``). A base type of shape ``card``
(an Ace card) is drawn as a card wherever it sits, as is anything in a holder.

No OpenCV here: the CLI and the tracker can read a layout without the ``vision`` extra.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

# The sample layout ships with the package (package data), so the camera commands work from
# an installed copy as from a clone; a user's own layout lives in the data directory.
SAMPLE_LAYOUT = Path(__file__).resolve().parents[1] / "data" / "vision" / "tray_layout.json"
SOURCE_LAYOUT = SAMPLE_LAYOUT  # the name older callers import
"""The sample layout in a source checkout (the rendered test tray)."""

HOLDER = 100  # a dock's holder is place HOLDER + dock (a dock's own seat: the dock number)
SHAPES = ("round", "card")


def place_of(dock: int, holder: bool) -> int:
    """The place number of ``dock``'s own seat (False) or of its holder (True)."""
    return HOLDER + dock if holder else dock


def place_text(place: int) -> str:
    """How a person is told of a place: ``dock 3`` or ``dock 0's holder``."""
    return f"dock {place - HOLDER}'s holder" if place >= HOLDER else f"dock {place}"


class LayoutError(ValueError):
    """A layout file that cannot be used: names the file and the field."""

    def __init__(self, file: str, field: str, message: str) -> None:
        super().__init__(f"{file}: {field}: {message}")
        self.file, self.field, self.message = file, field, message


@dataclass(frozen=True)
class Cell:
    """One printed stat inside a window: its name and rect (x, y, w, h) in window mm."""

    stat: str
    rect: tuple[float, float, float, float]


@dataclass(frozen=True)
class Window:
    """A dial window of a base: centre (base mm), size (w, h mm), pitch (mm per click)."""

    name: str
    centre: tuple[float, float]
    size: tuple[float, float]
    pitch: float
    cells: tuple[Cell, ...]
    marks: dict[str, tuple[float, float, float, float]]


@dataclass(frozen=True)
class BaseType:
    """A kind of base: ``round`` (a figure's base, the figure standing over it) or ``card``
    (an Ace card: a card around its windows, nothing standing over it)."""

    name: str
    game: str
    radius: float
    windows: dict[str, Window]
    shape: str = "round"


@dataclass(frozen=True)
class Layout:
    file: str
    width: float
    height: float
    dictionary: str
    marker_size: float
    marker_corners: dict[int, tuple[float, float]]
    docks: dict[int, tuple[float, float]]
    base_types: dict[str, BaseType]
    colours_bgr: dict[str, tuple[int, int, int]]
    holders: dict[int, tuple[float, float]] = field(default_factory=dict)  # dock -> point

    @cached_property
    def places(self) -> dict[int, tuple[float, float]]:
        """Every seat a piece can sit in, by place number (docks, then holders)."""
        return {**self.docks, **{place_of(d, True): c for d, c in self.holders.items()}}

    def marker_points(self, marker_id: int) -> list[tuple[float, float]]:
        """The marker's four corners in tray mm, in ArUco's order (clockwise from top-left)."""
        x, y = self.marker_corners[marker_id]
        s = self.marker_size
        return [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]

    def base_type(self, name: str) -> BaseType:
        if name not in self.base_types:
            known = ", ".join(sorted(self.base_types))
            raise LayoutError(self.file, "base_types", f"no base type {name!r} (known: {known})")
        return self.base_types[name]


def _num(v: Any, field: str, file: str, positive: bool = False) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise LayoutError(file, field, f"expected a number, got {v!r}")
    if positive and v <= 0:
        raise LayoutError(file, field, f"must be more than 0, got {v!r}")
    return float(v)


def _pair(v: Any, field: str, file: str, positive: bool = False) -> tuple[float, float]:
    if not isinstance(v, list) or len(v) != 2:
        raise LayoutError(file, field, f"expected [x, y], got {v!r}")
    return (_num(v[0], f"{field}[0]", file, positive), _num(v[1], f"{field}[1]", file, positive))


def _rect(v: Any, field: str, file: str) -> tuple[float, float, float, float]:
    if not isinstance(v, list) or len(v) != 4:
        raise LayoutError(file, field, f"expected [x, y, w, h], got {v!r}")
    x, y, w, h = (_num(a, f"{field}[{i}]", file) for i, a in enumerate(v))
    if w <= 0 or h <= 0:
        raise LayoutError(file, field, "width and height must be more than 0")
    return (x, y, w, h)


def _get(d: Any, key: str, field: str, file: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise LayoutError(file, f"{field}.{key}" if field else key, "missing")
    return d[key]


def _window(name: str, d: Any, field: str, file: str) -> Window:
    size = _pair(_get(d, "size", field, file), f"{field}.size", file, positive=True)
    cells = []
    for i, c in enumerate(_get(d, "cells", field, file)):
        f = f"{field}.cells[{i}]"
        stat = _get(c, "stat", f, file)
        if not isinstance(stat, str) or not stat:
            raise LayoutError(file, f"{f}.stat", "expected a stat name")
        rect = _rect(_get(c, "rect", f, file), f"{f}.rect", file)
        if rect[0] < 0 or rect[1] < 0 or rect[0] + rect[2] > size[0] + 1e-9 or \
                rect[1] + rect[3] > size[1] + 1e-9:
            raise LayoutError(file, f"{f}.rect", "lies outside the window")
        cells.append(Cell(stat, rect))
    marks = {k: _rect(v, f"{field}.marks.{k}", file) for k, v in dict(d.get("marks", {})).items()}
    return Window(
        name,
        _pair(_get(d, "centre", field, file), f"{field}.centre", file),
        size,
        _num(_get(d, "pitch", field, file), f"{field}.pitch", file, positive=True),
        tuple(cells),
        marks,
    )


def parse_layout(doc: Any, file: str) -> Layout:
    """A validated layout from its JSON document; every problem names its field."""
    if _get(doc, "format", "", file) != 1:
        raise LayoutError(file, "format", "only format 1 is known")
    tray = _get(doc, "tray", "", file)
    width = _num(_get(tray, "width", "tray", file), "tray.width", file, positive=True)
    height = _num(_get(tray, "height", "tray", file), "tray.height", file, positive=True)
    markers = _get(doc, "markers", "", file)
    dictionary = _get(markers, "dictionary", "markers", file)
    if not isinstance(dictionary, str) or not dictionary.startswith("DICT_"):
        raise LayoutError(file, "markers.dictionary", "expected an ArUco name such as DICT_4X4_50")
    msize = _num(_get(markers, "size", "markers", file), "markers.size", file, positive=True)
    corners: dict[int, tuple[float, float]] = {}
    for k, v in dict(_get(markers, "corners", "markers", file)).items():
        if not str(k).isdigit():
            raise LayoutError(file, f"markers.corners.{k}", "marker ids are whole numbers")
        corners[int(k)] = _pair(v, f"markers.corners.{k}", file)
    if len(corners) < 3:
        raise LayoutError(file, "markers.corners", "at least 3 markers are needed")
    docks: dict[int, tuple[float, float]] = {}
    holders: dict[int, tuple[float, float]] = {}
    for i, d in enumerate(_get(doc, "docks", "", file)):
        n = _get(d, "dock", f"docks[{i}]", file)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0 or n >= HOLDER or n in docks:
            raise LayoutError(file, f"docks[{i}].dock",
                              f"expected a new dock number below {HOLDER}, got {n!r}")
        docks[n] = _pair(_get(d, "centre", f"docks[{i}]", file), f"docks[{i}].centre", file)
        if "holder" in d:
            holders[n] = _pair(d["holder"], f"docks[{i}].holder", file)
    base_types: dict[str, BaseType] = {}
    for name, b in dict(_get(doc, "base_types", "", file)).items():
        f = f"base_types.{name}"
        windows = {w: _window(w, wd, f"{f}.windows.{w}", file)
                   for w, wd in dict(_get(b, "windows", f, file)).items()}
        if not windows:
            raise LayoutError(file, f"{f}.windows", "every base has a window")
        shape = b.get("shape", "round")
        if shape not in SHAPES:
            raise LayoutError(file, f"{f}.shape", f"expected one of {', '.join(SHAPES)}, "
                              f"got {shape!r}")
        base_types[name] = BaseType(name, str(_get(b, "game", f, file)),
                                    _num(_get(b, "radius", f, file), f"{f}.radius", file, True),
                                    windows, shape)
    colours: dict[str, tuple[int, int, int]] = {}
    for name, v in dict(_get(doc, "colours_bgr", "", file)).items():
        if not isinstance(v, list) or len(v) != 3 or not all(
                isinstance(c, int) and 0 <= c <= 255 for c in v):
            raise LayoutError(file, f"colours_bgr.{name}", "expected [b, g, r], each 0-255")
        colours[name] = (v[0], v[1], v[2])
    if "none" not in colours:
        raise LayoutError(file, "colours_bgr.none", "missing (the plain dial colour)")
    return Layout(file, width, height, dictionary, msize, corners, docks, base_types, colours,
                  holders)


def load_layout(path: str | Path | None = None) -> Layout:
    """The layout at ``path`` (default: the sample layout shipped with the package)."""
    p = Path(path) if path is not None else SOURCE_LAYOUT
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LayoutError(str(p), "(file)", "no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise LayoutError(str(p), "(whole document)", f"not valid JSON: {e}") from None
    return parse_layout(doc, str(p))
