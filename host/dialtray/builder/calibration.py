"""Dial calibration: fit detents, direction and zero from one captured revolution, and keep it.

Why a fit and not a typed-in table: clix dials differ (clicks per turn, which way the numbers
run), a magnet is glued on at whatever angle it landed, and an encoder's pulses per detent are
rarely printed on it. One slow revolution, click by click, measures all of it; the same
capture also proves the sensor sees every click, which is what the game depends on.

Capture convention (what `fit_dial` expects): the dial starts on click 0, the raw reading is
taken once the dial has settled, the dial is turned clockwise one click at a time with a reading
at each, and the capture ends back on click 0. So a 12-click dial gives 13 readings, the first
and the last both at click 0.

Conversion convention (what the firmware does with the result, in dialrig.dials, and what
`click_of` mirrors): `zero` is the raw reading at the *centre* of click 0, and a reading belongs
to the nearest detent:
    click = round(((raw - zero) * direction mod counts_per_rev) * detents / counts_per_rev)
for an absolute sensor (mod detents), and round((raw - zero) * direction / (4 * pulses)) for a
quadrature counter. Fitting `zero` from every click of the revolution, rather than taking the
first reading, puts each settled click as near the middle of its bin as the dial allows: the
firmware only accepts a reading within its dead band of a detent's centre.

This module also owns the calibration file format (its JSON Schema is `SCHEMA`;
calibration/schema.json is generated from it) and the printable zeroing target.
"""

from __future__ import annotations

import copy
import importlib
import itertools
import json
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import jsonschema

rig: ModuleType = importlib.import_module("dialrig.config")

AS5600: str = rig.SENSOR_AS5600
QUADRATURE: str = rig.SENSOR_QUADRATURE
AS5600_COUNTS = 4096  # 12-bit angle per revolution
COUNTS_PER_CYCLE = 4  # a quadrature counter counts every edge of A and B
DEFAULT_DETENTS: int = rig.DEFAULT_DETENTS
DIAL_NAMES: tuple[str, ...] = tuple(rig.DIAL_NAMES)
MIN_DETENTS, MAX_DETENTS = 2, 64  # as dialrig.config.validate_dial
MAX_PULSES = 16
MAX_DOCKS = 16
STEP_TOLERANCE = 0.25
"""A click may be at most this fraction of a detent away from where a regular dial puts it.

A quarter of a detent is far beyond sensor noise and magnet eccentricity (a few degrees) and
far below the half-detent error that would read as the neighbouring click.
"""
CALIBRATED_KEYS = ("detents", "direction", "zero", "pulses")
FORMAT_VERSION = 1

if not set(CALIBRATED_KEYS) <= set(rig.DIAL_KEYS):  # fail at import, not in a player's game
    raise ImportError("dialrig.config.DIAL_KEYS no longer has " + ", ".join(CALIBRATED_KEYS))


class CalibrationError(ValueError):
    """A capture or a calibration file that must not be used; `problems` lists every reason."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class DialCalibration:
    """What calibration measured for one dial, in dialrig.config's dial keys."""

    sensor: str
    detents: int
    direction: int  # +1: a clockwise click raises the raw reading
    zero: int  # raw reading at the centre of click 0 (see the module docstring)
    pulses: int = 1  # quadrature cycles per detent; 1 for an AS5600
    residual: float = 0.0  # RMS distance of the clicks from a regular dial, in detents

    def to_json(self) -> dict[str, Any]:
        return {"sensor": self.sensor, "detents": self.detents, "direction": self.direction,
                "zero": self.zero, "pulses": self.pulses, "residual": round(self.residual, 4)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DialCalibration:
        return cls(sensor=str(data["sensor"]), detents=int(data["detents"]),
                   direction=int(data["direction"]), zero=int(data["zero"]),
                   pulses=int(data["pulses"]), residual=float(data["residual"]))


# ---- The fit ------------------------------------------------------------------------------------
def fit_dial(readings: list[int], sensor: str, counts_per_rev: int = AS5600_COUNTS, *,
             where: str = "dial") -> DialCalibration:
    """Fit one dial from the readings of one clockwise revolution (see the module docstring).

    `readings` are AS5600 angles (0..counts_per_rev-1) or quadrature counts. `counts_per_rev`
    is the absolute sensor's resolution; a quadrature counter does not wrap, so it is unused
    there and the revolution is the capture itself. `where` ("dock 3 speed") starts every error
    message. Raises CalibrationError when the capture is not one clean revolution.
    """
    if sensor not in (AS5600, QUADRATURE):
        raise CalibrationError([f"{where}: cannot calibrate sensor {sensor!r} "
                                f"(only {AS5600} or {QUADRATURE})"])
    if len(readings) < MIN_DETENTS + 1:
        raise CalibrationError([f"{where}: {len(readings)} readings: a capture needs click 0, "
                                "every click of one revolution, and click 0 again"])
    absolute = sensor == AS5600
    if absolute:
        bad = [r for r in readings if not 0 <= r < counts_per_rev]
        if bad:
            raise CalibrationError([f"{where}: reading {bad[0]} is outside 0..{counts_per_rev - 1}"
                                    f": not an {AS5600} angle"])
    unit = _Units(absolute, counts_per_rev)
    steps = [unit.wrap(b - a) for a, b in itertools.pairwise(readings)]
    nominal = statistics.median(abs(s) for s in steps)
    if nominal == 0:
        raise CalibrationError([f"{where}: the readings did not change: is the magnet in place "
                                "and the dial turning?"])
    direction = 1 if sum(steps) > 0 else -1
    if absolute:
        if nominal > counts_per_rev * (0.5 - STEP_TOLERANCE / 3):
            raise CalibrationError([
                f"{where}: the clicks are about 180° apart: the angles of a 2-click dial cannot "
                "tell which way it turns; set its direction by hand"])
        detents = round(counts_per_rev / nominal)
        pulses = 1
        detent = counts_per_rev / detents if detents else float(counts_per_rev)
    else:
        if nominal < COUNTS_PER_CYCLE * (1 - STEP_TOLERANCE):
            raise CalibrationError([
                f"{where}: the clicks are {nominal:g} counts apart, less than one quadrature "
                f"cycle ({COUNTS_PER_CYCLE} counts): the firmware counts whole cycles per click "
                "(`pulses`), so this encoder's half-cycle detents cannot be read reliably"])
        pulses = max(1, round(nominal / COUNTS_PER_CYCLE))
        detent = float(COUNTS_PER_CYCLE * pulses)
        detents = len(steps)
    _check_steps(steps, direction, detent, unit, where)
    clicks = len(steps)
    if absolute and clicks != detents:
        raise CalibrationError([
            f"{where}: the clicks are {unit.show(detent)} apart, so a full turn is {detents} "
            f"clicks, but the capture has {clicks}: it must end back on click 0 after exactly "
            "one revolution"])
    if not MIN_DETENTS <= detents <= MAX_DETENTS:
        raise CalibrationError([f"{where}: {detents} clicks per revolution is outside "
                                f"{MIN_DETENTS}..{MAX_DETENTS}"])
    if pulses > MAX_PULSES:
        raise CalibrationError([f"{where}: {pulses} pulses per click is outside 1..{MAX_PULSES}"])

    # Least squares with a known slope: click 0's centre is the mean of what each reading says
    # it is; the residuals are what is left of each click's distance from a regular dial.
    says = [unit.wrap(r - readings[0] - direction * k * detent) for k, r in enumerate(readings)]
    mean = statistics.fmean(says)
    residuals = [s - mean for s in says]
    worst = max(range(len(residuals)), key=lambda k: abs(residuals[k]))
    if abs(residuals[worst]) > STEP_TOLERANCE * detent:
        raise CalibrationError([
            f"{where}: click {worst % detents} is {unit.show(abs(residuals[worst]))} from where "
            f"a regular {detents}-click dial puts it: the magnet or encoder is loose or "
            "off-centre"])
    zero = readings[0] + mean
    return DialCalibration(
        sensor=sensor, detents=detents, direction=direction,
        zero=round(zero) % counts_per_rev if absolute else round(zero), pulses=pulses,
        residual=math.sqrt(statistics.fmean(r * r for r in residuals)) / detent,
    )


@dataclass(frozen=True)
class _Units:
    """Wrap-around and human units of one sensor's raw readings."""

    absolute: bool
    counts_per_rev: int

    def wrap(self, delta: float) -> float:
        """A difference of two readings, taken the short way round for an absolute sensor."""
        if not self.absolute:
            return delta
        half = self.counts_per_rev / 2
        return (delta + half) % self.counts_per_rev - half

    def show(self, delta: float) -> str:
        if self.absolute:
            return f"{abs(delta) * 360 / self.counts_per_rev:.0f}°"
        return f"{abs(delta):.0f} counts"


def _check_steps(steps: Sequence[float], direction: int, detent: float, unit: _Units,
                 where: str) -> None:
    """Every click must move one detent the same way: name the first that does not."""
    for k, step in enumerate(steps, start=1):
        said = f"{where}: click {k} is {unit.show(step)} from click {k - 1}"
        if abs(step) < STEP_TOLERANCE * detent:
            raise CalibrationError([f"{said}: it was captured twice, or the dial did not turn"])
        if step * direction < 0:
            raise CalibrationError([f"{said} the other way: turn clockwise only, one click at "
                                    "a time"])
        if abs(abs(step) - detent) > STEP_TOLERANCE * detent:
            raise CalibrationError([f"{said} but a detent is {unit.show(detent)}: the dial "
                                    "slipped or a click was missed"])


def click_of(raw: int, cal: DialCalibration, counts_per_rev: int = AS5600_COUNTS) -> int:
    """The click (0..detents-1) a raw reading means under `cal`: nearest detent, as the firmware.

    Same integer arithmetic as dialrig.dials (`_angle_position`, `_quad_position`), without its
    dead band: a test holds the two together.
    """
    if cal.sensor == AS5600:
        scaled = (raw - cal.zero) * cal.direction % counts_per_rev
        return (scaled * cal.detents + counts_per_rev // 2) // counts_per_rev % cal.detents
    per_detent = COUNTS_PER_CYCLE * cal.pulses
    return ((raw - cal.zero) * cal.direction + per_detent // 2) // per_detent % cal.detents


# ---- Calibration files --------------------------------------------------------------------------
def _dial_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "description": "One dial's fitted calibration (dialrig.config dial keys).",
        "required": ["sensor", "detents", "direction", "zero", "pulses", "residual"],
        "additionalProperties": False,
        "properties": {
            "sensor": {"enum": [AS5600, QUADRATURE]},
            "detents": {"type": "integer", "minimum": MIN_DETENTS, "maximum": MAX_DETENTS,
                        "description": "clicks per full revolution"},
            "direction": {"enum": [1, -1],
                          "description": "+1 if a clockwise click raises the raw reading"},
            "zero": {"type": "integer",
                     "description": "raw reading at the centre of click 0 (AS5600 angle "
                                    "0..4095, or quadrature count)"},
            "pulses": {"type": "integer", "minimum": 1, "maximum": MAX_PULSES,
                       "description": "quadrature cycles per detent (1 for as5600)"},
            "residual": {"type": "number", "minimum": 0, "maximum": 0.5,
                         "description": "RMS distance of the captured clicks from a regular "
                                        "dial, in detents"},
        },
        "if": {"properties": {"sensor": {"const": AS5600}}},
        "then": {"properties": {"zero": {"minimum": 0, "maximum": AS5600_COUNTS - 1},
                                "pulses": {"const": 1}}},
    }


SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "dialtray calibration",
    "description": "Per-dial calibration of one tray, written by the calibration tool and "
                   "applied to the tray's config. "
                   "Generated from host/dialtray/builder/calibration.py.",
    "type": "object",
    "required": ["format", "board_uid", "date", "docks"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT_VERSION},
        "board_uid": {"type": "string", "pattern": "^[0-9a-f]{16}$",
                      "description": "the Pico's 8-byte unique id, lower-case hex: a "
                                     "calibration belongs to the tray it was measured on"},
        "date": {"type": "string",
                 "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)?$",
                 "description": "when it was measured, UTC: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ"},
        "firmware": {"type": "string", "description": "firmware version at the time"},
        "docks": {
            "type": "array", "maxItems": MAX_DOCKS,
            "items": {
                "type": "object",
                "required": ["dock"],
                "additionalProperties": False,
                "properties": {
                    "dock": {"type": "integer", "minimum": 0, "maximum": MAX_DOCKS - 1},
                    "name": {"type": "string", "minLength": 1, "maxLength": 40,
                             "description": "what the players call this dock (shown by "
                                            "dialtray monitor), e.g. the figure on it"},
                    **{name: {"$ref": "#/$defs/dial"} for name in DIAL_NAMES},
                },
            },
        },
    },
    "$defs": {"dial": _dial_schema()},
}


def schema_json() -> str:
    """calibration/schema.json, exactly as committed."""
    return json.dumps(SCHEMA, indent=2, ensure_ascii=False) + "\n"


@dataclass
class CalibrationFile:
    """One tray's calibration: dock number → dial name → DialCalibration."""

    board_uid: str
    date: str
    docks: dict[int, dict[str, DialCalibration]] = field(default_factory=dict)
    firmware: str | None = None
    names: dict[int, str] = field(default_factory=dict)  # dock → what the players call it

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT_VERSION, "board_uid": self.board_uid,
                               "date": self.date}
        if self.firmware is not None:
            out["firmware"] = self.firmware
        out["docks"] = [
            {"dock": d, **({"name": self.names[d]} if d in self.names else {}),
             **{n: self.docks.get(d, {})[n].to_json() for n in DIAL_NAMES
                if n in self.docks.get(d, {})}}
            for d in sorted(set(self.docks) | set(self.names))
        ]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CalibrationFile:
        docks = {int(entry["dock"]): {n: DialCalibration.from_json(entry[n])
                                      for n in DIAL_NAMES if n in entry}
                 for entry in data["docks"]}
        firmware = data.get("firmware")
        names = {int(entry["dock"]): str(entry["name"]) for entry in data["docks"]
                 if "name" in entry}
        return cls(board_uid=str(data["board_uid"]), date=str(data["date"]), docks=docks,
                   firmware=None if firmware is None else str(firmware), names=names)


def field_path(parts: Sequence[object]) -> str:
    """['docks', 2, 'speed', 'zero'] → 'docks[2].speed.zero'."""
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


def validate_calibration(data: object, source: str = "calibration") -> list[str]:
    """Every problem of a parsed calibration file, as 'source: field: what is wrong'."""
    validator = jsonschema.Draft202012Validator(SCHEMA)
    problems = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        path = list(err.absolute_path)
        message = err.message
        instance = err.instance
        if err.validator == "required" and isinstance(instance, dict):
            missing = [k for k in cast(list[str], err.validator_value) if k not in instance]
            path.append(missing[0])
            message = "missing"
        elif err.validator == "additionalProperties" and isinstance(instance, dict):
            known = cast(dict[str, Any], err.schema).get("properties", {})
            path.append(next(k for k in instance if k not in known))
            message = "unknown field (a typo?)"
        problems.append(f"{source}: {field_path(path)}: {message}")
    if not problems and isinstance(data, dict):
        seen: set[int] = set()
        for i, entry in enumerate(cast(list[dict[str, Any]], data["docks"])):
            if entry["dock"] in seen:
                problems.append(f"{source}: docks[{i}].dock: dock {entry['dock']} is listed twice")
            seen.add(entry["dock"])
    return problems


def load_calibration(path: str | Path) -> CalibrationFile:
    """Read and validate a calibration file; CalibrationError names the file and the field."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise CalibrationError([f"{path}: not valid JSON: line {e.lineno} column {e.colno}: "
                                f"{e.msg}"]) from e
    problems = validate_calibration(data, str(path))
    if problems:
        raise CalibrationError(problems)
    return CalibrationFile.from_json(data)


def save_calibration(path: str | Path, cal: CalibrationFile) -> None:
    """Write a calibration file, refusing one that would not load back."""
    data = cal.to_json()
    problems = validate_calibration(data, str(path))
    if problems:
        raise CalibrationError(problems)
    Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def apply_calibration(cfg: Mapping[str, Any], cal: CalibrationFile,
                      source: str = "calibration") -> dict[str, Any]:
    """A copy of tray config `cfg` with every calibrated dial's detents/direction/zero/pulses.

    Refuses (CalibrationError) a calibration of a dock the config lacks or of a dial measured
    with another sensor than the config names: either means the file belongs to another build.
    The result passes dialrig.config.validate, or this raises with its problems.
    """
    out = copy.deepcopy(dict(cfg))
    docks = cast(list[list[dict[str, Any]]], out["docks"])
    problems = []
    for d, dials in sorted(cal.docks.items()):
        if d >= len(docks):
            problems.append(f"{source}: dock {d} is calibrated but the config has "
                            f"{len(docks)} docks")
            continue
        for name, dial_cal in dials.items():
            dial = docks[d][DIAL_NAMES.index(name)]
            if dial["sensor"] != dial_cal.sensor:
                problems.append(f"{source}: dock {d} {name}: calibrated as {dial_cal.sensor} but "
                                f"the config has {dial['sensor']}")
                continue
            for key in CALIBRATED_KEYS:
                dial[key] = getattr(dial_cal, key)
    problems += [f"{source}: {p}" for p in cast(list[str], rig.validate(out))]
    if problems:
        raise CalibrationError(problems)
    return out


# ---- The printable zeroing target ---------------------------------------------------------------
TARGET_DIAMETER_MM = 70.0
TICK_MM = 5.0
LABEL_MM = 4.0


def render_target(detents: int = DEFAULT_DETENTS, diameter_mm: float = TARGET_DIAMETER_MM) -> str:
    """An SVG ring of `detents` numbered ticks, click 0 at the top, numbers running clockwise.

    Set it under a dial while calibrating and line the dial's click-0 mark up with tick 0: the
    ticks show where each click should land, so a slipping dial or a missed click is visible
    before the fit rejects it. Sizes are in millimetres; a 10 mm bar checks the print scale.
    """
    if not MIN_DETENTS <= detents <= MAX_DETENTS:
        raise ValueError(f"detents must be {MIN_DETENTS}..{MAX_DETENTS}, not {detents}")
    if not 30 <= diameter_mm <= 200:
        raise ValueError(f"diameter must be 30..200 mm, not {diameter_mm:g}")
    r_out = diameter_mm / 2
    width = diameter_mm + 10
    height = diameter_mm + 18  # room for the arrow above and the caption and scale bar below
    cx, cy = width / 2, r_out + 5
    r_in = r_out - TICK_MM
    r_label = r_in - LABEL_MM

    def at(radius: float, k: float) -> tuple[str, str]:
        a = math.radians(k * 360 / detents)
        return f"{cx + radius * math.sin(a):.2f}", f"{cy - radius * math.cos(a):.2f}"

    font = max(2.0, min(4.0, 2 * math.pi * r_label / detents * 0.45))
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" height="{height:g}mm" '
        f'viewBox="0 0 {width:g} {height:g}">',
        f"<title>dialtray zeroing target: {detents} clicks, clockwise</title>",
        '<g fill="none" stroke="black" stroke-width="0.3">',
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{r_out:g}"/>',
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{r_in:g}"/>',
        f'<path d="M{cx - 3:g},{cy:g} H{cx + 3:g} M{cx:g},{cy - 3:g} V{cy + 3:g}"/>',
    ]
    for k in range(detents):
        (x1, y1), (x2, y2) = at(r_in, k), at(r_out, k)
        heavy = ' stroke-width="0.8"' if k == 0 else ""
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"{heavy}/>')
    # The arrow between ticks 0 and 1 shows which way to turn.
    (ax, ay), (bx, by) = at(r_out + 2, 0.25), at(r_out + 2, 0.75)
    parts += [
        f'<path d="M{ax},{ay} A{r_out + 2:g},{r_out + 2:g} 0 0 1 {bx},{by}"/>',
        "</g>",
        f'<g font-family="sans-serif" font-size="{font:.2f}" text-anchor="middle" '
        'dominant-baseline="central">',
    ]
    for k in range(detents):
        x, y = at(r_label, k)
        weight = ' font-weight="bold"' if k == 0 else ""
        parts.append(f'<text x="{x}" y="{y}"{weight}>{k}</text>')
    parts += [
        "</g>",
        f'<polygon points="{bx},{by} {float(bx) - 1.2:.2f},{float(by) - 1.2:.2f} '
        f'{float(bx) - 1.6:.2f},{float(by) + 0.6:.2f}"/>',
        f'<g font-family="sans-serif" font-size="2.5">'
        f'<text x="2" y="{height - 5:g}">dialtray: {detents} clicks, turn clockwise</text>'
        f'<text x="{width - 12:g}" y="{height - 5:g}">10 mm</text></g>',
        f'<path d="M{width - 12:g},{height - 2:g} h10" stroke="black" stroke-width="0.5"/>',
        "</svg>",
    ]
    return "\n".join(parts) + "\n"
