"""Colour blocks read only when a decision asks (vision/seen_colours.py, issue 35): a grey read
sure of a click that the grey alone tells from every other is not checked against its colours,
a less sure one still is, and a click told from others only by colour always reads them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader
from dialtray.vision.reading import CLICK
from dialtray.vision.refs import FigureRefs
from dialtray.vision.seen_colours import COLOUR_SURE, SeenColours


class _Untouchable(Mapping[str, str]):
    """Colours a decision must not look at."""

    def __getitem__(self, key: str) -> str:
        raise AssertionError("the colours were read")

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("the colours were read")

    def __len__(self) -> int:
        raise AssertionError("the colours were read")


def _classifiers(layout: Layout, refs: dict[str, FigureRefs]):  # type: ignore[no-untyped-def]
    reader = TrayReader(layout, refs)
    for figure in sorted(refs):
        for dial, c in reader.classifiers(figure).items():
            yield figure, dial, c


def test_a_sure_grey_read_of_a_one_class_group_never_reads_the_colours(
        layout: Layout, refs: dict[str, FigureRefs]) -> None:
    figure, dial, c = next(f for f in _classifiers(layout, refs) if len(f[2].label_list) > 1)
    groups = c.click_groups
    one = next(g for g, members in enumerate(groups.groups) if len(members) == 1)
    assert groups.by_colour(one, _Untouchable(), sure=True) == (groups.classes[groups.groups[
        one][0]], "")
    with pytest.raises(AssertionError, match="colours were read"):
        groups.by_colour(one, _Untouchable())  # not sure: checked against the reference
    # a reference photo read at full confidence: its colours are read only when asked, and
    # then they are the reference's own
    click = groups.classes[groups.groups[one][0]][0]
    read = c.read(refs[figure].crops[dial][click])
    assert read.status == CLICK and read.confidence >= COLOUR_SURE and click in read.clicks
    assert isinstance(read.colours_seen, SeenColours) and not read.colours_seen.was_read
    want = {k: v for k, v in groups.ref_colours[click].items() if v != "unknown"}
    assert {k: read.colours_seen[k] for k in want} == want


def test_a_click_told_apart_only_by_colour_reads_the_colours(
        layout: Layout, refs: dict[str, FigureRefs]) -> None:
    figure, dial, c = next(f for f in _classifiers(layout, refs)
                           if any(len(m) > 1 for m in f[2].click_groups.groups))
    groups = c.click_groups
    many = next(g for g, members in enumerate(groups.groups) if len(members) > 1)
    with pytest.raises(AssertionError, match="colours were read"):
        groups.by_colour(many, _Untouchable(), sure=True)
    click = groups.classes[groups.groups[many][0]][0]
    read = c.read(refs[figure].crops[dial][click])
    assert read.status == CLICK and click in read.clicks
    assert isinstance(read.colours_seen, SeenColours) and read.colours_seen.was_read
