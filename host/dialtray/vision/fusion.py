"""Encoder + camera + rules -> the dial value the tracker may use (a pure function).

The encoder proposes a click; the camera confirms it. The tracker calls :func:`fuse` once per
dial whenever either source reports, with the last value it confirmed, and acts on the answer:

- ``confirmed``: both agree (or the encoder did not move and the camera sees that click): use
  ``click``, remember it as the last confirmed value.
- ``encoder-only`` / ``camera-only``: one source is missing (no camera, no encoder on that
  dial — a speed dial read by the camera alone): use ``click``, flagged as unconfirmed.
- ``unconfirmed``: the camera could not read the dial surely (``unknown``): ``click`` is the
  encoder's; the tracker may use it as it would without a camera.
- ``hold``: do **not** use the new value; ``click`` is the last confirmed one. ``reseat`` asks
  the player to re-seat the figure (camera and encoder disagree, or the camera sees the dial
  mid-turn); ``not_now`` says the rules do not move this dial at this moment (put it back).

Plausibility comes from the rules (``plausible``): only damage, fate and healing move a combat
dial (AA-M45/AA-M46 damage, AC-M50 fate/KO, healing), only the throttle phase moves a speed dial
(AA-M20 "Set Throttle"); the tracker knows which is happening and passes ``True`` when this
dial may move now. :func:`may_move` maps a dial kind and a cause to that answer.

No OpenCV, no tracker import: the tracker imports this module, never the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass

CONFIRMED, ENCODER_ONLY, CAMERA_ONLY, UNCONFIRMED, HOLD = (
    "confirmed", "encoder-only", "camera-only", "unconfirmed", "hold")

MOVES = {"combat": frozenset({"damage", "fate", "healing"}),
         "ace": frozenset({"damage", "fate", "healing"}),
         "speed": frozenset({"throttle"})}


@dataclass(frozen=True)
class CameraView:
    """What fusion needs of a camera read (``DialRead`` has these fields)."""

    status: str  # "click", "between" or "unknown"
    clicks: tuple[int, ...] = ()
    confidence: float = 0.0


@dataclass(frozen=True)
class Fused:
    state: str
    click: int | None
    reseat: bool = False
    not_now: bool = False
    reason: str = ""


def may_move(kind: str, cause: str | None) -> bool:
    """Whether the rules move a dial of ``kind`` for ``cause`` (``damage``, ``fate``,
    ``healing``, ``throttle``; None: nothing is happening)."""
    return cause is not None and cause in MOVES.get(kind, frozenset())


def fuse(last_confirmed: int | None, encoder_click: int | None, camera: CameraView | None,
         plausible: bool) -> Fused:
    """The dial value to use now; see the module docstring for each state."""
    moved = encoder_click is not None and encoder_click != last_confirmed
    if moved and not plausible and last_confirmed is not None:
        return Fused(HOLD, last_confirmed, not_now=True,
                     reason=f"the dial moved to click {encoder_click} but the rules do not "
                            "move it now: turn it back")
    if camera is None:
        if encoder_click is None:
            return Fused(HOLD, last_confirmed, reason="neither encoder nor camera reports")
        return Fused(ENCODER_ONLY, encoder_click)
    if camera.status == "between":
        return Fused(HOLD, last_confirmed, reseat=True,
                     reason=f"the camera sees the dial between clicks {camera.clicks[0]} and "
                            f"{camera.clicks[1]}: seat it on a click")
    if camera.status != "click":
        if encoder_click is None:
            return Fused(HOLD, last_confirmed, reseat=True,
                         reason="the camera cannot read the dial: re-seat the figure")
        return Fused(UNCONFIRMED, encoder_click, reason="the camera cannot read the dial")
    if encoder_click is None:  # a dial without an encoder: the camera alone
        if len(camera.clicks) == 1:
            moved_cam = camera.clicks[0] != last_confirmed
            if moved_cam and not plausible and last_confirmed is not None:
                return Fused(HOLD, last_confirmed, not_now=True,
                             reason=f"the camera sees click {camera.clicks[0]} but the rules "
                                    "do not move this dial now: turn it back")
            return Fused(CAMERA_ONLY, camera.clicks[0])
        if last_confirmed in camera.clicks:
            return Fused(CAMERA_ONLY, last_confirmed)
        return Fused(HOLD, last_confirmed,
                     reason=f"clicks {list(camera.clicks)} look alike and none is the last "
                            "confirmed one")
    if encoder_click in camera.clicks:
        return Fused(CONFIRMED, encoder_click)
    return Fused(HOLD, last_confirmed, reseat=True,
                 reason=f"the encoder says click {encoder_click}, the camera sees "
                        f"{' or '.join(str(c) for c in camera.clicks)}: re-seat the figure")
