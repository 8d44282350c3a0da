"""Calibration: the fit on synthetic captures, the file format, applying it, the target."""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import dialrig.config as rig
import pytest
from dialtray.builder import calibration
from dialtray.builder.calibration import (
    AS5600,
    QUADRATURE,
    CalibrationError,
    CalibrationFile,
    DialCalibration,
    click_of,
    fit_dial,
)
from dialtray.commands import hardware as hardware_command

REPO = Path(__file__).resolve().parent.parent


def dialtray(argv: list[str]) -> int:
    """Run `dialtray ARGV` through the command's own registration, as dialtray.cli does."""
    parser = argparse.ArgumentParser(prog="dialtray")
    hardware_command.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return int(args.func(args))


def as5600_capture(detents: int, first: float, direction: int = 1, noise: float = 0.0,
                   seed: int = 1, wobble: float = 0.0) -> list[int]:
    """Readings of one clockwise revolution, click 0 to click 0, like the tray streams them.

    `wobble` adds a once-per-turn error (an off-centre magnet), in counts.
    """
    rng = random.Random(seed)
    out = []
    for k in range(detents + 1):
        ideal = first + direction * k * 4096 / detents
        ideal += wobble * math.sin(2 * math.pi * k / detents)
        out.append(round(ideal + rng.gauss(0, noise)) % 4096)
    return out


def quad_capture(detents: int, pulses: int, start: int = 0, direction: int = 1,
                 jitter: int = 0, seed: int = 1) -> list[int]:
    rng = random.Random(seed)
    return [start + direction * k * 4 * pulses + rng.randint(-jitter, jitter)
            for k in range(detents + 1)]


def assert_every_click_reads_back(readings: list[int], cal: DialCalibration) -> None:
    assert [click_of(r, cal) for r in readings] == [k % cal.detents
                                                     for k in range(len(readings))]


# ---- the fit --------------------------------------------------------------------------------
@pytest.mark.parametrize("detents", [3, 6, 12, 16, 24, 64])
def test_fit_as5600_clean(detents: int) -> None:
    readings = as5600_capture(detents, first=1234)
    cal = fit_dial(readings, AS5600)
    assert (cal.sensor, cal.detents, cal.direction, cal.pulses) == (AS5600, detents, 1, 1)
    assert cal.residual < 0.01
    assert_every_click_reads_back(readings, cal)


def test_zero_is_the_centre_of_click_0() -> None:
    readings = as5600_capture(12, first=1000, noise=4)
    cal = fit_dial(readings, AS5600)
    assert abs(cal.zero - 1000) <= 4


@pytest.mark.parametrize("seed", range(20))
def test_fit_as5600_with_noise_and_wobble(seed: int) -> None:
    rng = random.Random(seed)
    detents = rng.choice([8, 12, 16])
    readings = as5600_capture(detents, first=rng.randrange(4096), noise=6, seed=seed,
                              wobble=25, direction=rng.choice([1, -1]))
    cal = fit_dial(readings, AS5600)
    assert cal.detents == detents
    assert 0.005 < cal.residual < 0.15
    assert_every_click_reads_back(readings, cal)


@pytest.mark.parametrize("first", [0, 5, 4090, 4095, 4096 - 170, 170])
def test_fit_handles_wrap_around_at_4096(first: int) -> None:
    readings = as5600_capture(12, first=first, noise=2, seed=first)
    # Somewhere the readings cross 4095 → 0: between two clicks, or between the two click 0s.
    assert any(b < a for a, b in itertools.pairwise(readings)) or \
        abs(readings[-1] - readings[0]) > 2048
    cal = fit_dial(readings, AS5600)
    assert 0 <= cal.zero < 4096
    assert cal.detents == 12
    assert_every_click_reads_back(readings, cal)


def test_fit_reversed_direction() -> None:
    readings = as5600_capture(12, first=300, direction=-1, noise=3)
    cal = fit_dial(readings, AS5600)
    assert cal.direction == -1
    assert abs(cal.zero - 300) <= 3
    assert_every_click_reads_back(readings, cal)


def test_as5600_two_click_dial_is_refused() -> None:
    # Half a turn a click: the angles cannot tell clockwise from anticlockwise.
    with pytest.raises(CalibrationError, match="180° apart"):
        fit_dial(as5600_capture(2, first=100), AS5600)


def test_slipped_click_is_rejected_with_degrees() -> None:
    readings = as5600_capture(12, first=1000)
    readings[5] = (readings[5] + round(11 * 4096 / 360)) % 4096  # 41° from click 4, not 30°
    with pytest.raises(CalibrationError) as err:
        fit_dial(readings, AS5600, where="dock 3 speed")
    assert str(err.value) == ("dock 3 speed: click 5 is 41° from click 4 but a detent is 30°: "
                              "the dial slipped or a click was missed")


def test_missed_click_is_rejected() -> None:
    readings = as5600_capture(12, first=2000)
    del readings[7]
    with pytest.raises(CalibrationError, match=r"dock 0 combat: click 7 is 60° from click 6 "
                                               r"but a detent is 30°"):
        fit_dial(readings, AS5600, where="dock 0 combat")


def test_click_captured_twice_is_rejected() -> None:
    readings = as5600_capture(12, first=2000)
    readings.insert(4, readings[3] + 1)
    with pytest.raises(CalibrationError, match=r"click 4 .* captured twice"):
        fit_dial(readings, AS5600)


def test_turning_back_is_rejected() -> None:
    readings = as5600_capture(12, first=2000)
    readings[6] = readings[4]
    with pytest.raises(CalibrationError, match="other way"):
        fit_dial(readings, AS5600)


def test_capture_must_end_on_click_0() -> None:
    readings = as5600_capture(12, first=2000)[:-1]  # stopped on click 11
    with pytest.raises(CalibrationError, match="12 clicks, but the capture has 11"):
        fit_dial(readings, AS5600)


def test_two_revolutions_are_rejected() -> None:
    readings = as5600_capture(12, first=100) + as5600_capture(12, first=100)[1:]
    with pytest.raises(CalibrationError, match="one revolution"):
        fit_dial(readings, AS5600)


def test_no_magnet_is_rejected() -> None:
    with pytest.raises(CalibrationError, match="did not change"):
        fit_dial([0] * 13, AS5600, where="dock 1 combat")


def test_as5600_reading_out_of_range() -> None:
    with pytest.raises(CalibrationError, match=r"4096 is outside 0\.\.4095"):
        fit_dial([0, 1000, 2000, 3000, 4096], AS5600)


def test_consistent_drift_is_caught_by_the_fit() -> None:
    # Six clicks 22 % long then six 22 % short: every single step passes the per-step check
    # and the turn closes, but clicks 3..9 sit far from where a regular dial puts them.
    step = 4096 / 12
    sizes = [1.22 * step] * 6 + [0.78 * step] * 6
    readings = [round(sum(sizes[:k])) % 4096 for k in range(13)]
    with pytest.raises(CalibrationError, match="from where a regular 12-click dial puts it"):
        fit_dial(readings, AS5600, where="dock 2 combat")


@pytest.mark.parametrize(("pulses", "direction"), [(1, 1), (2, -1), (4, 1), (16, -1)])
def test_fit_quadrature(pulses: int, direction: int) -> None:
    readings = quad_capture(12, pulses, start=-37, direction=direction)
    cal = fit_dial(readings, QUADRATURE)
    assert (cal.detents, cal.pulses, cal.direction) == (12, pulses, direction)
    assert cal.residual == 0
    assert_every_click_reads_back(readings, cal)


def test_fit_quadrature_with_jitter() -> None:
    readings = quad_capture(20, pulses=4, start=1000, jitter=2, seed=3)
    cal = fit_dial(readings, QUADRATURE)
    assert (cal.detents, cal.pulses) == (20, 4)
    assert_every_click_reads_back(readings, cal)


def test_quadrature_missed_click_in_counts() -> None:
    readings = quad_capture(12, pulses=2)
    del readings[3]
    with pytest.raises(CalibrationError, match="click 3 is 16 counts from click 2 but a detent "
                                               "is 8 counts"):
        fit_dial(readings, QUADRATURE)


def test_quadrature_half_cycle_detents_are_refused() -> None:
    readings = [2 * k for k in range(21)]  # 2 counts a click: an encoder with 30 detents/15 PPR
    with pytest.raises(CalibrationError, match="less than one quadrature cycle"):
        fit_dial(readings, QUADRATURE)


def test_unknown_sensor() -> None:
    with pytest.raises(CalibrationError, match="cannot calibrate sensor 'none'"):
        fit_dial([1, 2, 3], rig.SENSOR_NONE)


def fake_dials(cal: DialCalibration) -> SimpleNamespace:
    """The per-dial arrays dialrig.dials.Dials keeps, holding one calibrated dial."""
    return SimpleNamespace(zero=[cal.zero], direction=[cal.direction], detents=[cal.detents],
                           pulses=[cal.pulses])


@pytest.mark.parametrize(("detents", "first", "direction"),
                         [(12, 1000, 1), (12, 4090, -1), (16, 30, 1), (7, 2222, -1)])
def test_firmware_reads_every_fitted_click_as_its_own(detents: int, first: int,
                                                      direction: int) -> None:
    from dialrig.dials import Dials

    readings = as5600_capture(detents, first, direction, noise=5, wobble=20, seed=detents)
    cal = fit_dial(readings, AS5600)
    fw = fake_dials(cal)
    # Every settled click lands inside the firmware's dead band, on the right detent...
    assert [Dials._angle_position(fw, 0, r) for r in readings] == \
        [k % detents for k in range(detents + 1)]
    # ...and click_of agrees with the firmware wherever the firmware names a detent.
    for raw in range(0, 4096, 3):
        pos = Dials._angle_position(fw, 0, raw)
        if pos != -1:
            assert pos == click_of(raw, cal)


def test_firmware_reads_every_fitted_quadrature_click() -> None:
    from dialrig.dials import Dials

    readings = quad_capture(12, pulses=2, start=-500, direction=-1, jitter=1)
    cal = fit_dial(readings, QUADRATURE)
    positions = [Dials._quad_position(fake_dials(cal), 0, r) for r in readings]
    assert positions == list(range(13))
    assert [click_of(r, cal) for r in readings] == [p % 12 for p in positions]


def test_fit_tolerance_is_inside_the_firmware_dead_band() -> None:
    from dialrig.dials import ANGLE_RANGE, DEAD_BAND

    assert calibration.STEP_TOLERANCE * ANGLE_RANGE < DEAD_BAND


# ---- files ----------------------------------------------------------------------------------
def sample_file() -> CalibrationFile:
    return CalibrationFile(
        board_uid="e6614104034b5a2f", date="2026-11-21", firmware=rig.FIRMWARE_VERSION,
        docks={
            0: {"combat": fit_dial(as5600_capture(12, 10), AS5600),
                "speed": fit_dial(as5600_capture(8, 3000, -1), AS5600)},
            3: {"speed": fit_dial(as5600_capture(16, 4000), AS5600)},
        })


def test_committed_schema_is_generated_from_the_code() -> None:
    assert (REPO / "calibration" / "schema.json").read_text(encoding="utf-8") == \
        calibration.schema_json()


def test_schema_is_a_valid_json_schema() -> None:
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(calibration.SCHEMA)


def test_save_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    cal = sample_file()
    calibration.save_calibration(path, cal)
    loaded = calibration.load_calibration(path)
    assert loaded.to_json() == cal.to_json()
    assert loaded.docks[0]["speed"].direction == -1


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(data))
    return path


def test_schema_error_names_file_and_field(tmp_path: Path) -> None:
    data = sample_file().to_json()
    data["docks"][1]["speed"]["detents"] = 70
    path = write(tmp_path, data)
    with pytest.raises(CalibrationError) as err:
        calibration.load_calibration(path)
    assert str(err.value) == f"{path}: docks[1].speed.detents: 70 is greater than the maximum of 64"


def test_missing_field_is_named(tmp_path: Path) -> None:
    data = sample_file().to_json()
    del data["docks"][0]["combat"]["zero"]
    with pytest.raises(CalibrationError, match=r"docks\[0\]\.combat\.zero: missing"):
        calibration.load_calibration(write(tmp_path, data))


def test_misspelt_field_is_named(tmp_path: Path) -> None:
    data = sample_file().to_json()
    data["docks"][0]["combat"]["detent"] = 12
    with pytest.raises(CalibrationError, match=r"docks\[0\]\.combat\.detent: unknown field"):
        calibration.load_calibration(write(tmp_path, data))


def test_as5600_zero_must_be_an_angle(tmp_path: Path) -> None:
    data = sample_file().to_json()
    data["docks"][0]["combat"]["zero"] = 5000
    with pytest.raises(CalibrationError, match=r"docks\[0\]\.combat\.zero: 5000 is greater"):
        calibration.load_calibration(write(tmp_path, data))


def test_every_problem_is_listed(tmp_path: Path) -> None:
    data = sample_file().to_json()
    data["board_uid"] = "E6-61"
    data["docks"][0]["combat"]["direction"] = 0
    with pytest.raises(CalibrationError) as err:
        calibration.load_calibration(write(tmp_path, data))
    fields = [p.split(": ")[1] for p in err.value.problems]
    assert fields == ["board_uid", "docks[0].combat.direction"]


def test_duplicate_dock(tmp_path: Path) -> None:
    data = sample_file().to_json()
    data["docks"][1]["dock"] = 0
    with pytest.raises(CalibrationError, match=r"docks\[1\]\.dock: dock 0 is listed twice"):
        calibration.load_calibration(write(tmp_path, data))


def test_not_json(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    path.write_text('{"format": 1,')
    with pytest.raises(CalibrationError, match=rf"{path}: not valid JSON: line 1"):
        calibration.load_calibration(path)


def test_save_refuses_an_invalid_file(tmp_path: Path) -> None:
    cal = sample_file()
    cal.board_uid = "not hex"
    with pytest.raises(CalibrationError, match="board_uid"):
        calibration.save_calibration(tmp_path / "cal.json", cal)
    assert not (tmp_path / "cal.json").exists()


# ---- applying to a config -------------------------------------------------------------------
def test_apply_sets_the_calibrated_keys_only() -> None:
    cfg = rig.default_config()
    cal = sample_file()
    out = calibration.apply_calibration(cfg, cal)
    speed3 = out["docks"][3][1]
    fitted = cal.docks[3]["speed"]
    assert (speed3["detents"], speed3["direction"], speed3["zero"]) == \
        (fitted.detents, fitted.direction, fitted.zero)
    assert speed3["mux"] == cfg["docks"][3][1]["mux"]
    assert out["docks"][2] == cfg["docks"][2]
    assert cfg == rig.default_config(), "the input config is not modified"
    assert set(speed3) == set(rig.DIAL_KEYS)
    assert rig.validate(out) == []


def test_apply_refuses_a_sensor_mismatch() -> None:
    with pytest.raises(CalibrationError, match="dock 0 combat: calibrated as as5600 but the "
                                               "config has quadrature"):
        calibration.apply_calibration(rig.quadrature_config(), sample_file(), "cal.json")


def test_apply_refuses_a_missing_dock() -> None:
    with pytest.raises(CalibrationError, match="dock 3 is calibrated but the config has 2 docks"):
        calibration.apply_calibration(rig.default_config(2), sample_file())


def test_apply_quadrature() -> None:
    cfg = rig.quadrature_config()
    cal = CalibrationFile(board_uid="0011223344556677", date="2026-11-21T10:00:00Z",
                          docks={1: {"combat": fit_dial(quad_capture(10, 2), QUADRATURE)}})
    out = calibration.apply_calibration(cfg, cal)
    assert (out["docks"][1][0]["pulses"], out["docks"][1][0]["detents"]) == (2, 10)


# ---- the zeroing target ---------------------------------------------------------------------
@pytest.mark.parametrize("detents", [12, 7, 64])
def test_target_has_one_numbered_tick_per_click(detents: int) -> None:
    svg = calibration.render_target(detents)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    labels = [t.text for t in root.iter(f"{ns}text")]
    assert labels[:detents] == [str(k) for k in range(detents)]
    assert len(list(root.iter(f"{ns}line"))) == detents
    assert root.get("width") == "80mm"  # 70 mm ring plus margins: printed at true size


def test_target_is_deterministic_and_committed() -> None:
    assert calibration.render_target() == calibration.render_target()
    committed = REPO / "calibration" / "targets" / "target_12.svg"
    assert committed.read_text(encoding="utf-8") == calibration.render_target(12)


def test_target_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="detents"):
        calibration.render_target(1)


def test_cli_target(tmp_path: Path) -> None:
    out = tmp_path / "t.svg"
    assert dialtray(["hardware", "target", "--detents", "16", "--out", str(out)]) == 0
    assert out.read_text() == calibration.render_target(16)
