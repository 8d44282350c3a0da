"""Colour blocks (vision/colours.py): each coloured pixel of a cell votes for the palette
colour nearest its hue. An average of the hues drifted between the block's colour and a
figure's leaning over it (a red block under a green wing read orange on the held-back set; an
orange one here read yellow): a third colour, which could name a click that is not there."""

from __future__ import annotations

import cv2
import numpy as np
from dialtray.vision.colours import CellChroma, closest_colours, read_colours
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.refs import FigureRefs
from dialtray.vision.register import BORDER_MM, SPP


def _cell_box(c, stat: str) -> tuple[int, int, int, int]:
    """The cell's rect in crop px (the reference crops start their template at the margin)."""
    x, y, w, h = next(cl.rect for cl in c.window.cells if cl.stat == stat)
    m = c.geometry.margin
    return (m + round((BORDER_MM + x) * SPP), m + round((BORDER_MM + y) * SPP),
            round(w * SPP), round(h * SPP))


def test_a_figure_over_part_of_a_block_never_makes_a_colour_between(
        layout: Layout, refs: dict[str, FigureRefs]) -> None:
    """A bright green wing over a third, then half, of an orange block: the block reads
    orange, or the wing's green, or unknown (a clash or no majority: the read is unknown),
    never yellow, the hue between them."""
    figure = "sample-militia-fighter"
    c = TrayReader(layout, refs).classifiers(figure)["combat"]
    crop = refs[figure].crops["combat"][3]  # click 3: piloting on an orange block
    assert c.read(crop).colours_seen["piloting"] == "orange"
    x, y, w, h = _cell_box(c, "piloting")
    for part in (3, 2):
        covered = crop.copy()
        cv2.rectangle(covered, (x + w - w // part, y), (x + w, y + h), (60, 250, 40), -1)
        share = np.mean(np.all(covered[y:y + h, x:x + w] == (60, 250, 40), axis=2))
        assert 0.9 / part <= share <= 1.2 / part, share
        seen = c.read(covered).colours_seen
        assert seen["piloting"] in ("orange", "green", "unknown"), (part, seen)


def test_a_figure_over_part_of_a_plain_cell_leaves_it_plain(
        layout: Layout, refs: dict[str, FigureRefs]) -> None:
    """A small wing over a plain cell: a minority of its background, the cell stays none."""
    figure = "sample-militia-fighter"
    c = TrayReader(layout, refs).classifiers(figure)["combat"]
    crop = refs[figure].crops["combat"][0].copy()
    x, y, w, h = _cell_box(c, "piloting")
    cv2.rectangle(crop, (x + w - w // 6, y), (x + w, y + h), (60, 250, 40), -1)
    assert c.read(crop).colours_seen["piloting"] == "none"


def test_the_pixels_a_figure_covers_can_be_left_out_of_a_cells_colour(
        layout: Layout, refs: dict[str, FigureRefs]) -> None:
    """A wing of a palette colour over a third of a plain cell makes its colour unknown; read
    again without the pixels the synthesis found the figure on (``ignore``), the cell is
    plain, and a cell mostly under the figure stays unknown (too little left to name)."""

    figure = "sample-militia-fighter"
    c = TrayReader(layout, refs).classifiers(figure)["combat"]
    crop = refs[figure].crops["combat"][0].copy()
    x, y, w, h = _cell_box(c, "piloting")
    m = c.geometry.margin
    cv2.rectangle(crop, (x + w - w // 3, y - 8), (x + w + 4, y + h), (40, 215, 235), -1)
    offset = (m, m)  # the reference crops start their template at the margin
    assert read_colours(crop, offset, c.window, c.hues)["piloting"] == "unknown"
    th, tw = c.mean_template.shape
    over = np.zeros((th, tw), bool)
    over[y - m - 8:y - m + h, x - m + w - w // 3 - 1:] = True  # the figure, as synth finds it
    seen = read_colours(crop, offset, c.window, c.hues, over)
    assert seen["piloting"] == "none", seen
    mostly = np.zeros((th, tw), bool)
    mostly[y - m - 8:y - m + h, x - m + w // 5:] = True
    assert read_colours(crop, offset, c.window, c.hues, mostly)["piloting"] == "unknown"


def test_clicks_told_apart_by_chroma_need_the_photo_clearly_nearer_one_reference() -> None:
    """``closest_colours``: a cell's chroma nearest one click's reference, far past half-way
    and near the line between the two, names that click; half-way, too noisy, or a third
    colour off the line names none (and says why)."""
    def cell(a: float, b: float, spread: float = 3.0, count: int = 200) -> CellChroma:
        return CellChroma(np.array([a, b]), spread, count)
    plain, orange = {"gunnery": cell(0, 5)}, {"gunnery": cell(30, 45)}
    refs = {0: plain, 1: orange}
    assert closest_colours({"gunnery": cell(29, 43)}, refs) == (1, "")
    assert closest_colours({"gunnery": cell(2, 8)}, refs) == (0, "")
    best, why = closest_colours({"gunnery": cell(15, 25)}, refs)  # half-way
    assert best is None and "of the way" in why
    best, why = closest_colours({"gunnery": cell(26, 39)}, refs)  # 0.86 of the way: too
    assert best is None and "0.86 of the way" in why  # little, however sure of its mean
    best, why = closest_colours({"gunnery": cell(29, 43, spread=60.0, count=8)}, refs)
    assert best is None and "noise" in why  # near orange, but a few very noisy pixels
    best, why = closest_colours({"gunnery": cell(-20, 60)}, refs)  # green: neither
    assert best is None and "off the line" in why
    # a cell both references print alike does not tell them apart
    best, why = closest_colours({"speed": cell(0, 5)}, {0: {"speed": cell(0, 5)},
                                                        1: {"speed": cell(1, 5)}})
    assert best is None and "tells clicks" in why


def test_a_block_too_dark_to_name_is_told_by_its_own_references_chroma(
        layout: Layout, refs: dict[str, FigureRefs]) -> None:
    """Clicks 0 and 1 of the sample Loyle Crawford print alike but for an orange block
    under front gunnery. In a photo so dark and noisy that the block's colour cannot be
    named, the block is still far nearer click 1's reference than click 0's: the click
    is told by chroma; click 0's plain cell, darkened alike, stays click 0."""
    figure = "sample-loyle-crawford"
    c = TrayReader(layout, refs).classifiers(figure)["combat"]
    groups = c.click_groups
    group = groups.group_of[groups.class_of[1]]
    assert groups.group_of[groups.class_of[0]] == group  # one grey look, two clicks
    m = c.geometry.margin
    rng = np.random.default_rng(0)
    named = []
    for click in (0, 1):
        crop = refs[figure].crops["combat"][click].astype(np.float32) * 0.15
        crop = np.clip(crop + rng.normal(0, 6.0, crop.shape), 0, 255).astype(np.uint8)
        seen = read_colours(crop, (m, m), c.window, c.hues)
        named.append(seen["front_gunnery"])
        assert groups.by_chroma(group, crop, (m, m), None, seen, "why") == (
            groups.classes[groups.class_of[click]], ""), (click, seen)
    assert "unknown" in named, named  # the rescue is needed: naming the colour failed
