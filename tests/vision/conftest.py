"""Shared fixtures: the sample layout and references captured from rendered photographs.

OpenCV is the `vision` extra; without it these tests are skipped (the CLI's own message is
tested in test_cli_vision.py).
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("cv2")

from dialtray.vision import testset
from dialtray.vision.layout import Layout, load_layout
from dialtray.vision.refs import FigureRefs

# a small cast covering both games, colour blocks, bullet holes, identical neighbouring clicks
# and a one-click token
FIGURES = ("sample-militia-fighter", "sample-loyle-crawford", "sample-genghis",
           "sample-charlie-steele", "sample-sergeant")


@pytest.fixture(scope="session")
def layout() -> Layout:
    return load_layout()


@pytest.fixture(scope="session")
def figures() -> dict[str, dict[str, Any]]:
    everything = testset.all_sample_figures()
    return {f: everything[f] for f in FIGURES}


@pytest.fixture(scope="session")
def refs(layout: Layout, figures: dict[str, dict[str, Any]]) -> dict[str, FigureRefs]:
    return {fid: testset.capture_refs(layout, fid, doc) for fid, doc in figures.items()}
