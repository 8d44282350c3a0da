"""vision/ecc.py: the inverse-compositional ECC steps find the rotation and sub-pixel shift a
crop was made with, where OpenCV's own ECC finds it, and give up where OpenCV's does."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from dialtray.vision.align import Target, align, polished
from dialtray.vision.ecc import EuclideanECC
from dialtray.vision.scoring import unit

SIZE = (84, 54)  # a window's template (w, h) at 3 samples per mm
CROP = (102, 72)  # ... and its read crop, 9 px of search room each way


def _pattern(seed: int) -> np.ndarray:
    """A print-like texture: noise blurred to strokes of a few px, high-passed as the reader's
    crops are (zero mean)."""
    rng = np.random.default_rng(seed)
    g = cv2.GaussianBlur(rng.normal(0, 1, (SIZE[1] + 40, SIZE[0] + 40)).astype(np.float32),
                         (0, 0), 1.6)
    return np.asarray(g - cv2.GaussianBlur(g, (0, 0), 4.0), np.float32)


def _euclid(angle_deg: float, tx: float, ty: float, centre: tuple[float, float]
            ) -> np.ndarray:
    """Template px -> crop px: a turn about the template's centre, then a shift."""
    a = np.deg2rad(angle_deg)
    r = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    c = np.array(centre)
    return np.column_stack([r, c + np.array([tx, ty]) - r @ c]).astype(np.float32)


def _corners_apart(a: np.ndarray, b: np.ndarray) -> float:
    w, h = SIZE
    pts = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64).T
    return float(np.abs(a.astype(np.float64) @ pts - b.astype(np.float64) @ pts).max())


def _scene(seed: int, angle: float, tx: float, ty: float
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(template, crop, true warp): the crop made by turning and shifting the big pattern, the
    template its middle, the noise of a photo added to the crop."""
    big = _pattern(seed)
    template = np.ascontiguousarray(big[20:20 + SIZE[1], 20:20 + SIZE[0]])
    centre = ((SIZE[0] - 1) / 2, (SIZE[1] - 1) / 2)
    truth = _euclid(angle, tx, ty, centre)
    # crop px -> big px: the inverse of (template -> crop), then the template's offset in big
    inv = cv2.invertAffineTransform(truth)
    inv[:, 2] += 20
    crop = cv2.warpAffine(big, inv, CROP, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
    crop += np.random.default_rng(seed + 1).normal(0, 0.02, crop.shape).astype(np.float32)
    return template, np.asarray(crop, np.float32), truth


@pytest.mark.parametrize(("angle", "tx", "ty"), [(0.0, 9.3, 8.6), (2.0, 8.4, 9.7),
                                                 (-3.0, 10.2, 7.5)])
def test_the_steps_find_the_turn_and_shift_a_crop_was_made_with(angle: float, tx: float,
                                                                ty: float) -> None:
    template, crop, truth = _scene(7, angle, tx, ty)
    start = np.array([[1, 0, round(tx)], [0, 1, round(ty)]], np.float32)
    found = EuclideanECC(template).refine(crop, start, 12)
    assert found is not None
    assert _corners_apart(found, truth) < 0.15
    # one step of OpenCV's ECC after them lands where OpenCV's ECC alone does
    stop = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 12, 1e-3)
    _, theirs = cv2.findTransformECC(template, crop, start.copy(), cv2.MOTION_EUCLIDEAN, stop,
                                     None, 1)
    assert _corners_apart(polished(template, crop, found), theirs) < 0.05


def test_a_crop_that_is_not_the_template_gives_up_as_opencv_does() -> None:
    template, crop, _ = _scene(11, 0.0, 9.0, 9.0)
    start = np.array([[1, 0, 9], [0, 1, 9]], np.float32)
    with pytest.raises(cv2.error):  # OpenCV: "the correlation is going to be minimized"
        cv2.findTransformECC(template, -crop, start.copy(), cv2.MOTION_EUCLIDEAN,
                             (cv2.TERM_CRITERIA_COUNT, 12, 0), None, 1)
    assert EuclideanECC(template).refine(-crop, start, 12) is None


def test_a_flat_template_has_no_steps() -> None:
    flat = np.zeros((SIZE[1], SIZE[0]), np.float32)
    crop = np.zeros((CROP[1], CROP[0]), np.float32)
    assert EuclideanECC(flat).refine(crop, np.eye(2, 3, dtype=np.float32), 12) is None


@pytest.mark.parametrize(("angle", "tx", "ty"), [(0.0, 9.3, 8.6), (2.0, 8.4, 9.7),
                                                 (-3.0, 10.2, 7.5), (1.0, 5.6, 12.4)])
def test_a_search_at_half_size_ends_where_the_full_search_does(angle: float, tx: float,
                                                               ty: float) -> None:
    """align's coarse search (half size, even offsets, no match computed) and the ECC steps
    from there find the turn and shift the full-size search finds, and measure the match
    the aligned patch has (issue 35)."""
    template, crop, truth = _scene(7, angle, tx, ty)
    target = Target(template)
    full = align(crop, target, exact=False)
    coarse = align(crop, target, exact=False, coarse=True)
    assert coarse[3] is not None and full[3] is not None
    assert _corners_apart(coarse[3].warp, truth) < 0.15
    assert _corners_apart(coarse[3].warp, full[3].warp) < 0.02
    patch = coarse[0]
    assert coarse[2] == pytest.approx(float(unit(patch) @ target.unit), abs=1e-5)
    # the rim's match for a later hint, measured when asked: the patch's own
    assert coarse[3].score == pytest.approx(target.still(patch), abs=1e-6)
