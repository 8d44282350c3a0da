"""Fusion: the encoder proposes, the camera confirms, the rules say whether the dial may move."""

from __future__ import annotations

from dialtray.vision.fusion import (
    CAMERA_ONLY,
    CONFIRMED,
    ENCODER_ONLY,
    HOLD,
    UNCONFIRMED,
    CameraView,
    fuse,
    may_move,
)


def test_agreement_confirms() -> None:
    assert fuse(2, 3, CameraView("click", (3,), 0.9), True).state == CONFIRMED
    # identical-looking clicks: the encoder picks among what the camera allows
    f = fuse(0, 1, CameraView("click", (0, 1), 0.9), True)
    assert (f.state, f.click) == (CONFIRMED, 1)


def test_disagreement_or_mid_turn_holds_and_asks_to_reseat() -> None:
    f = fuse(2, 3, CameraView("click", (4,), 0.9), True)
    assert (f.state, f.click, f.reseat) == (HOLD, 2, True)
    assert "encoder says click 3, the camera sees 4" in f.reason
    f = fuse(2, 3, CameraView("between", (3, 4), 0.8), True)
    assert (f.state, f.click, f.reseat) == (HOLD, 2, True)


def test_rules_plausibility() -> None:
    """AA-M20 Set Throttle moves the speed dial; damage/fate/healing move a combat dial."""
    assert may_move("speed", "throttle") and not may_move("speed", "damage")
    assert may_move("combat", "damage") and may_move("combat", "fate")
    assert may_move("combat", "healing") and not may_move("combat", "throttle")
    assert not may_move("combat", None)
    f = fuse(2, 3, CameraView("click", (3,), 0.9), may_move("combat", "throttle"))
    assert (f.state, f.click, f.not_now) == (HOLD, 2, True)


def test_one_source_missing() -> None:
    assert fuse(1, 2, None, True) == fuse(1, 2, None, True)
    assert fuse(1, 2, None, True).state == ENCODER_ONLY
    assert fuse(1, 2, CameraView("unknown"), True).state == UNCONFIRMED
    f = fuse(4, None, CameraView("click", (5,), 0.7), True)  # speed dial without an encoder
    assert (f.state, f.click) == (CAMERA_ONLY, 5)
    assert fuse(4, None, CameraView("click", (5,), 0.7), False).state == HOLD
    assert fuse(4, None, CameraView("unknown"), True).reseat
    assert fuse(None, None, None, True).state == HOLD
