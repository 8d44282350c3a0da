"""Photograph parameters for the renderer, and the profiles they are drawn from.

``CAPTURE`` is how a person photographs a figure for its reference crops (camera above the
tray, even light). ``TRAIN`` is the range the classifier's confidence threshold was tuned on.
``HELD_BACK`` lies outside ``TRAIN`` on every axis it has (steeper tilt, pincushion instead of
barrel distortion, light from the other side, more blur, noise and JPEG loss, bases seated
further off, more of the window hidden): the acceptance test reads it, never tunes on it.
``STRESS`` is where the reader's two safety thresholds are chosen: each distortion from
``TRAIN`` or from beyond ``HELD_BACK``, never from ``HELD_BACK``'s own ranges.
Each distortion type can also be drawn alone (``only``) for the benchmark's accuracy table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

NO_DISTORTION: dict[str, object] = {}


@dataclass(frozen=True)
class Params:
    """One photograph's conditions (0 = off)."""

    tilt_x: float = 0.0  # camera tilt, degrees (perspective)
    tilt_y: float = 0.0
    roll: float = 0.0  # the tray turned in the picture
    fill: float = 0.9  # share of the frame the tray fills
    shift_px: tuple[float, float] = (0.0, 0.0)
    k1: float = 0.0  # radial lens distortion (Brown-Conrady)
    k2: float = 0.0
    light: float = 0.0  # uneven light: darkening across the frame
    light_angle: float = 0.0
    vignette: float = 0.0
    shadows: int = 0
    shadow_strength: float = 0.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    blur: float = 0.0  # Gaussian sigma, px
    motion_px: float = 0.0
    noise: float = 0.0  # sensor noise sigma, grey levels
    jpeg: int = 100  # JPEG quality (100: none)
    seat_deg: float = 0.0  # bases seated this many degrees off (uniform +-)
    seat_mm: float = 0.0
    occlusion: float = 0.0  # at most this share of a window hidden by the figure
    figures: bool = True
    shadow_offset_mm: float = 3.0


DISTORTION_TYPES = ("perspective", "lens", "light", "shadow", "blur", "jpeg", "noise",
                    "occlusion", "seat")


def _u(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def _sign(rng: np.random.Generator) -> float:
    return 1.0 if rng.random() < 0.5 else -1.0


def capture(rng: np.random.Generator) -> Params:
    return Params(tilt_x=_u(rng, -4, 4), tilt_y=_u(rng, -4, 4), light=_u(rng, 0, 0.1),
                  noise=_u(rng, 0, 1.5), jpeg=95, blur=_u(rng, 0, 0.4), seat_deg=0.5,
                  seat_mm=0.2, figures=False)


def train(rng: np.random.Generator, only: str | None = None) -> Params:
    parts: dict[str, dict[str, object]] = {
        "perspective": dict(tilt_x=_sign(rng) * _u(rng, 0, 14), tilt_y=_sign(rng) * _u(rng, 0, 10),
                            roll=_u(rng, -4, 4)),
        "lens": dict(k1=_u(rng, -0.10, 0.0), k2=_u(rng, 0.0, 0.02)),
        "light": dict(light=_u(rng, 0, 0.35), light_angle=_u(rng, 0, 180),
                      vignette=_u(rng, 0, 0.2),
                      white_balance=(_u(rng, 0.9, 1.05), 1.0, _u(rng, 0.9, 1.05))),
        "shadow": dict(shadows=int(rng.integers(0, 3)), shadow_strength=_u(rng, 0, 0.35)),
        "blur": dict(blur=_u(rng, 0, 0.8), motion_px=_u(rng, 0, 2)),
        "jpeg": dict(jpeg=int(rng.integers(70, 96))),
        "noise": dict(noise=_u(rng, 0, 4)),
        "occlusion": dict(occlusion=_u(rng, 0, 0.04)),
        "seat": dict(seat_deg=_u(rng, 0, 2.5), seat_mm=_u(rng, 0, 0.7)),
    }
    return _assemble(parts, only)


def train_hard(rng: np.random.Generator, only: str | None = None) -> Params:
    """The hard end of ``TRAIN`` (every range's upper part, all inside ``TRAIN``): where the
    reader's choices (normalisation, threshold) are compared, never on ``HELD_BACK``."""
    parts: dict[str, dict[str, object]] = {
        "perspective": dict(tilt_x=_sign(rng) * _u(rng, 10, 14), tilt_y=_sign(rng) * _u(rng, 7, 10),
                            roll=_sign(rng) * _u(rng, 2, 4)),
        "lens": dict(k1=_u(rng, -0.10, -0.07), k2=_u(rng, 0.01, 0.02)),
        "light": dict(light=_u(rng, 0.25, 0.35), light_angle=_u(rng, 0, 180),
                      vignette=_u(rng, 0.15, 0.2),
                      white_balance=(_u(rng, 0.9, 0.95), 1.0, _u(rng, 1.0, 1.05))),
        "shadow": dict(shadows=2, shadow_strength=_u(rng, 0.25, 0.35)),
        "blur": dict(blur=_u(rng, 0.6, 0.8), motion_px=_u(rng, 1.5, 2)),
        "jpeg": dict(jpeg=int(rng.integers(70, 80))),
        "noise": dict(noise=_u(rng, 3, 4)),
        "occlusion": dict(occlusion=_u(rng, 0.03, 0.04)),
        "seat": dict(seat_deg=_u(rng, 2, 2.5), seat_mm=_u(rng, 0.5, 0.7)),
    }
    return _assemble(parts, only)


def held_back(rng: np.random.Generator, only: str | None = None) -> Params:
    parts: dict[str, dict[str, object]] = {
        "perspective": dict(tilt_x=_sign(rng) * _u(rng, 14, 22),
                            tilt_y=_sign(rng) * _u(rng, 10, 16), roll=_sign(rng) * _u(rng, 4, 8)),
        "lens": dict(k1=_u(rng, 0.0, 0.08), k2=_u(rng, -0.03, 0.0)),
        "light": dict(light=_u(rng, 0.35, 0.5), light_angle=_u(rng, 180, 360),
                      vignette=_u(rng, 0.2, 0.35),
                      white_balance=(_u(rng, 1.05, 1.15), 1.0, _u(rng, 0.8, 0.9))),
        "shadow": dict(shadows=int(rng.integers(3, 5)), shadow_strength=_u(rng, 0.35, 0.5)),
        "blur": dict(blur=_u(rng, 0.8, 1.2), motion_px=_u(rng, 2, 3)),
        "jpeg": dict(jpeg=int(rng.integers(50, 70))),
        "noise": dict(noise=_u(rng, 4, 7)),
        "occlusion": dict(occlusion=_u(rng, 0.04, 0.08)),
        "seat": dict(seat_deg=_u(rng, 2.5, 4.0), seat_mm=_u(rng, 0.7, 1.0)),
    }
    return _assemble(parts, only)


def stress(rng: np.random.Generator) -> Params:
    """Where ``classify``'s two safety thresholds (``NOISE_MARGIN``, ``BETWEEN_THRESHOLD``)
    are chosen, so that ``HELD_BACK`` stays unseen: each distortion is drawn either from
    ``TRAIN`` or from *beyond* ``HELD_BACK`` (a coin per distortion), never from
    ``HELD_BACK``'s own ranges. Lens and light go the other way from ``HELD_BACK`` (stronger
    barrel distortion, light from ``TRAIN``'s side)."""
    beyond: dict[str, dict[str, object]] = {
        "perspective": dict(tilt_x=_sign(rng) * _u(rng, 22, 26),
                            tilt_y=_sign(rng) * _u(rng, 16, 19), roll=_sign(rng) * _u(rng, 8, 10)),
        "lens": dict(k1=_u(rng, -0.16, -0.10), k2=_u(rng, 0.02, 0.04)),
        "light": dict(light=_u(rng, 0.5, 0.6), light_angle=_u(rng, 0, 180),
                      vignette=_u(rng, 0.35, 0.45),
                      white_balance=(_u(rng, 0.8, 0.9), 1.0, _u(rng, 1.05, 1.15))),
        "shadow": dict(shadows=int(rng.integers(5, 7)), shadow_strength=_u(rng, 0.5, 0.6)),
        "blur": dict(blur=_u(rng, 1.2, 1.5), motion_px=_u(rng, 3, 4)),
        "jpeg": dict(jpeg=int(rng.integers(40, 50))),
        "noise": dict(noise=_u(rng, 7, 9)),
        "occlusion": dict(occlusion=_u(rng, 0.08, 0.11)),
        "seat": dict(seat_deg=_u(rng, 4.0, 5.0), seat_mm=_u(rng, 1.0, 1.2)),
    }
    p = train(rng)
    for kw in beyond.values():
        if rng.random() < 0.5:
            p = replace(p, **kw)  # type: ignore[arg-type]
    return p


def _assemble(parts: dict[str, dict[str, object]], only: str | None) -> Params:
    p = Params(figures=only in (None, "occlusion"))
    if only is not None:
        return replace(p, **parts[only])  # type: ignore[arg-type]
    for kw in parts.values():
        p = replace(p, **kw)  # type: ignore[arg-type]
    return p
