"""Acceptance (issue 14): read the held-back set — photographs whose distortions lie outside
everything the confidence threshold was chosen on — and count exact, wrong and unknown reads.

Sized to run in about half a minute (40 trays x 8 docks, ~500 dials); bench/bench_vision.py
reads a bigger set and breaks it down by distortion type.
"""

from __future__ import annotations

import pytest
from dialtray.vision import render_profiles as rp
from dialtray.vision import testset
from dialtray.vision.classify import CONFIDENCE_THRESHOLD
from dialtray.vision.layout import Layout
from dialtray.vision.reader import TrayReader

FRAMES = 40


@pytest.fixture(scope="module")
def held_back_score(layout: Layout, figures: dict, refs: dict) -> testset.Score:
    reader = TrayReader(layout, refs)
    score = testset.Score()
    for shot, docks in testset.tray_sets(layout, figures, rp.held_back, FRAMES, seed=2026):
        testset.score_frame(reader, shot, docks, score)
    return score


def test_no_wrong_read_above_the_confidence_threshold(held_back_score: testset.Score) -> None:
    """Wrong-but-confident = 0: a read the camera is not sure of is `unknown`, never a guess."""
    s = held_back_score
    assert s.total >= 400
    assert s.wrong == 0, "\n".join(s.wrong_cases)
    assert CONFIDENCE_THRESHOLD > 0


@pytest.mark.xfail(strict=True, reason="NOT MET YET: about 94-96 % of held-back dials read "
                                       "exactly, the rest are `unknown` (issue 14 asks 99.9 %)")
def test_at_least_999_per_mille_read_exactly(held_back_score: testset.Score) -> None:
    s = held_back_score
    assert s.exact / s.total >= 0.999, f"{s.exact}/{s.total} exact, {s.unknown} unknown"


def test_the_training_profile_reads_nearly_everything(layout: Layout, figures: dict,
                                                      refs: dict) -> None:
    """On photographs like those the threshold was chosen on, nearly every dial reads."""
    reader = TrayReader(layout, refs)
    score = testset.Score()
    for shot, docks in testset.tray_sets(layout, figures, rp.train, 10, seed=77):
        testset.score_frame(reader, shot, docks, score)
    assert score.wrong == 0, "\n".join(score.wrong_cases)
    assert score.exact / score.total >= 0.97, (score.exact, score.unknown, score.total)
