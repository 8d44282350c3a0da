"""The synthesis' references made consistent (vision/prints.py): two clicks differ in their
pictures exactly where their prints differ, so a lead between them is not spent on two
captures' light and noise."""

from __future__ import annotations

import numpy as np
from dialtray.vision import prints
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.refs import FigureRefs
from dialtray.vision.regions import region_rects


def _references(layout: Layout, refs: dict[str, FigureRefs], figure: str) -> tuple:
    c = TrayReader(layout, refs).classifiers(figure)["combat"]
    return c, c.synthesis().references


def test_clicks_alike_get_one_picture_and_others_differ_only_in_their_cells(
        layout: Layout, refs: dict[str, FigureRefs]) -> None:
    c, pics = _references(layout, refs, "sample-militia-fighter")
    faces = c.faces
    assert faces[0].key() == faces[1].key()
    assert np.array_equal(pics[0], pics[1])  # one print, one picture
    changed = [k for k in faces[1].values if faces[1].values[k] != faces[2].values[k]]
    assert changed == ["piloting"]
    cell = next(r for r, cl in zip(region_rects(c.window), c.window.cells, strict=False)
                if cl.stat == "piloting")
    x0, y0, x1, y1 = prints._px(cell)
    diff = np.abs(pics[1] - pics[2])
    inside = np.zeros(diff.shape, bool)
    inside[y0:y1, x0:x1] = True
    assert float(diff[~inside].max()) == 0.0  # the same everywhere but that cell
    assert float(diff[inside].max()) > 50  # where the digit changes


def test_consistency_can_be_turned_off(layout: Layout, refs: dict[str, FigureRefs],
                                       monkeypatch) -> None:
    monkeypatch.setattr(prints, "CONSISTENT", False)
    _, pics = _references(layout, refs, "sample-militia-fighter")
    assert not np.array_equal(pics[0], pics[1])  # two captures of one print
