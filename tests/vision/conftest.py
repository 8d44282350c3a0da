"""Shared fixtures: the sample layout and references captured from rendered photographs.

OpenCV is the `vision` extra; without it these tests are skipped (the CLI's own message is
tested in test_cli_vision.py).

Capturing a figure's references renders and registers one photo per click (~0.5-1 s a
figure); several modules need the same figures, on both xdist workers. Each figure's capture
is made once per run and kept under pytest's base temporary directory (shared by the
workers), written atomically under a lock: the other worker, or a later test, loads the very
same crops (``refs.to_bytes`` is lossless: uint8 arrays and the faces' JSON).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("cv2")

from dialtray.vision import testset
from dialtray.vision.layout import Layout, load_layout
from dialtray.vision.refs import FigureRefs, load_refs, save_refs

# a small cast covering both games, colour blocks, bullet holes, identical neighbouring clicks
# and a one-click token
FIGURES = ("sample-militia-fighter", "sample-loyle-crawford", "sample-genghis",
           "sample-charlie-steele", "sample-sergeant")


class CapturedRefs:
    """``testset.capture_refs`` made once per run per figure (and per document, dock, seed),
    shared by every test and worker of the run through files under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self._mine: dict[str, FigureRefs] = {}

    def get(self, layout: Layout, figure: str, doc: dict[str, Any]) -> FigureRefs:
        doc_key = json.dumps(doc, sort_keys=True).encode() + str(layout.file).encode()
        key = f"{figure}-{hashlib.sha256(doc_key).hexdigest()[:16]}"
        if key not in self._mine:
            path = self.root / f"{key}.npz"
            with open(self.root / f"{key}.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # the other worker may be capturing it
                if path.exists():
                    self._mine[key] = load_refs(path)
                else:
                    self._mine[key] = testset.capture_refs(layout, figure, doc)
                    save_refs(path, self._mine[key])
        return self._mine[key]


@pytest.fixture(scope="session")
def layout() -> Layout:
    return load_layout()


@pytest.fixture(scope="session")
def captured_refs(tmp_path_factory: pytest.TempPathFactory) -> CapturedRefs:
    # this run's own directory: an xdist worker's base temp is inside it, shared by the workers
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent
    return CapturedRefs(run / "captured-refs")


@pytest.fixture(scope="session")
def figures() -> dict[str, dict[str, Any]]:
    everything = testset.all_sample_figures()
    return {f: everything[f] for f in FIGURES}


@pytest.fixture(scope="session")
def refs(layout: Layout, figures: dict[str, dict[str, Any]],
         captured_refs: CapturedRefs) -> dict[str, FigureRefs]:
    return {fid: captured_refs.get(layout, fid, doc) for fid, doc in figures.items()}


@pytest.fixture(scope="session")
def all_refs(layout: Layout, captured_refs: CapturedRefs) -> dict[str, FigureRefs]:
    """References of every shipped sample figure (``testset.all_sample_figures``)."""
    return {fid: captured_refs.get(layout, fid, doc)
            for fid, doc in testset.all_sample_figures().items()}
