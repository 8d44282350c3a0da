"""The committed wiring table and bill of materials can never drift from dialrig.config."""

from __future__ import annotations

import argparse
import csv
import io
import re
from pathlib import Path

import dialrig.config as rig
import dialrig.dice as dice
import pytest
from dialtray.builder import hardware_docs
from dialtray.commands import hardware as hardware_command

REPO = Path(__file__).resolve().parent.parent


def dialtray(argv: list[str]) -> int:
    """Run `dialtray ARGV` through the command's own registration, as dialtray.cli does."""
    parser = argparse.ArgumentParser(prog="dialtray")
    hardware_command.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return int(args.func(args))
HARDWARE = REPO / "hardware"


def bom_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def qty(text: str, part: str) -> int:
    """Total quantity of BOM rows whose part name starts with `part`."""
    return sum(int(r["qty"]) for r in bom_rows(text) if r["part"].startswith(part))


@pytest.mark.parametrize("name", [hardware_docs.WIRING_FILE, hardware_docs.BOM_FILE])
def test_committed_file_is_the_generators_output(name: str) -> None:
    committed = (HARDWARE / name).read_text(encoding="utf-8")
    assert committed == hardware_docs.generate()[name], (
        f"hardware/{name} is stale: run `dialtray hardware docs` and commit it")


def test_generation_is_deterministic() -> None:
    assert hardware_docs.generate() == hardware_docs.generate()


def test_every_pin_appears_in_the_wiring_table() -> None:
    wiring = hardware_docs.render_wiring()
    for key, value in rig.PINS.items():
        assert f"`{key}`" in wiring or f"`{key}[0]`" in wiring, key
        pins = [value] if isinstance(value, int) else [p for pair in value for p in pair]
        for gp in pins:
            assert re.search(rf"\bGP{gp}\b", wiring), f"{key}: GP{gp} missing"


def test_every_quadrature_pair_has_its_own_state_machine() -> None:
    wiring = hardware_docs.render_wiring()
    machines = set()
    for i, (a, b) in enumerate(rig.PINS["quadrature"]):
        assert b == a + 1, "PIO reads A and B with one `in pins, 2`"
        row = next(line for line in wiring.splitlines() if line.startswith(f"| {i} | GP{a} "))
        machine = re.search(r"PIO\d SM\d", row)
        assert machine
        machines.add(machine.group())
    assert len(machines) == rig.MAX_QUADRATURE_DIALS
    ws = "PIO{} SM{}".format(*hardware_docs.ws2812_state_machine())
    assert ws not in machines


def test_mux_channels_and_straps_follow_the_default_config() -> None:
    wiring = hardware_docs.render_wiring()
    assert "| U2 | 0x70 | GND | GND | GND | yes |" in wiring
    assert "| U3 | 0x71 | GND | GND | 3V3 | yes |" in wiring
    for d, dock in enumerate(rig.default_config()["docks"]):
        for i, dial in enumerate(dock):
            name = rig.DIAL_NAMES[i]
            expected = (f"| {d} | {name} | U{2 + rig.MUX_ADDRS.index(dial['mux'])} "
                        f"(0x{dial['mux']:02x}) | {dial['channel']} |")
            assert expected in wiring


def test_wiring_explains_the_vsys_diode() -> None:
    wiring = hardware_docs.render_wiring()
    assert "Schottky" in wiring and "VSYS" in wiring and "ring log" in wiring


def test_bom_columns() -> None:
    rows = bom_rows(hardware_docs.render_bom())
    assert list(rows[0]) == list(hardware_docs.BOM_COLUMNS)
    refs = [r["ref"] for r in rows]
    assert len(refs) == len(set(refs))


@pytest.mark.parametrize("docks", [1, 4, 8])
def test_bom_quantities_follow_an_as5600_config(docks: int) -> None:
    cfg = rig.default_config(docks)
    bom = hardware_docs.render_bom(cfg)
    dials = docks * len(rig.DIAL_NAMES)
    assert qty(bom, "AS5600") == dials
    assert qty(bom, "NdFeB") == dials
    assert qty(bom, "TCA9548A") == len({d["mux"] for dock in cfg["docks"] for d in dock})
    assert qty(bom, "WS2812B") == cfg["dice"] * rig.PIPS_PER_DIE + dice.RING_LEDS
    assert qty(bom, "printed dock") == docks
    assert qty(bom, "incremental rotary encoder") == 0


def test_four_docks_need_one_multiplexer() -> None:
    bom = hardware_docs.render_bom(rig.default_config(4))
    assert qty(bom, "TCA9548A") == 1
    assert qty(bom, "AS5600") == 8


def test_bom_quantities_follow_a_quadrature_config() -> None:
    cfg = rig.quadrature_config(4)
    bom = hardware_docs.render_bom(cfg)
    assert qty(bom, "incremental rotary encoder") == rig.MAX_QUADRATURE_DIALS
    assert qty(bom, "AS5600") == 0
    assert qty(bom, "TCA9548A") == 0


def test_fewer_dice_fewer_leds() -> None:
    cfg = rig.default_config()
    cfg["dice"] = 5
    assert qty(hardware_docs.render_bom(cfg), "WS2812B") == 5 * rig.PIPS_PER_DIE + dice.RING_LEDS
    cfg["dice"] = 0  # no dice panel: no ring either
    assert qty(hardware_docs.render_bom(cfg), "WS2812B") == 0


def test_pullups_meet_fast_mode_and_get_stronger_for_long_cables() -> None:
    short = hardware_docs.choose_pullups(0.2)
    long = hardware_docs.choose_pullups(1.0)
    for pu in (short, long):
        assert pu.rise_ns <= hardware_docs.I2C_RISE_MAX_NS
        assert pu.sink_ma <= hardware_docs.I2C_SINK_MAX_MA
    assert long.channel_ohm < short.channel_ohm


def test_led_budget_counts_every_pip_and_fits_usb() -> None:
    pb = hardware_docs.power_budget(rig.default_config())
    assert pb.leds == rig.MAX_DICE * rig.PIPS_PER_DIE + dice.RING_LEDS
    assert pb.led_idle_a < pb.led_play_a < pb.led_uncapped_a
    # The wiring promises the tray runs from USB alone; the firmware's cap makes that true.
    assert pb.play_a * 1000 <= hardware_docs.USB_MA


def test_pip_positions_match_the_firmware_faces() -> None:
    positions = hardware_docs.PIP_POSITIONS
    assert len(positions) == rig.PIPS_PER_DIE

    def lit(face: int) -> set[str]:
        return {positions[p] for p in range(rig.PIPS_PER_DIE) if dice.FACE_PIPS[face] >> p & 1}

    corners = {"top left", "top right", "bottom left", "bottom right"}
    assert lit(1) == {"centre"}
    assert lit(2) in ({"top left", "bottom right"}, {"top right", "bottom left"})
    assert lit(3) == lit(2) | {"centre"}
    assert lit(4) == corners
    assert lit(5) == corners | {"centre"}
    assert lit(6) == corners | {"middle left", "middle right"}


def test_cli_check_passes_on_the_committed_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert dialtray(["hardware", "docs", "--check", "--out", str(HARDWARE)]) == 0


def test_cli_check_fails_with_a_diff_when_stale(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert dialtray(["hardware", "docs", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "bom.csv").read_text() == hardware_docs.render_bom()
    wiring = tmp_path / "wiring.md"
    wiring.write_text(wiring.read_text().replace("GP22", "GP2"))
    capsys.readouterr()
    assert dialtray(["hardware", "docs", "--check", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "--- " in out and "+++ " in out and "+| `ws2812` | GP22" in out


def test_cli_docks_option_writes_a_smaller_bom(tmp_path: Path) -> None:
    assert dialtray(["hardware", "docs", "--docks", "4", "--out", str(tmp_path)]) == 0
    assert qty((tmp_path / "bom.csv").read_text(), "AS5600") == 8


def test_cli_docks_option_never_overwrites_the_committed_files(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert dialtray(["hardware", "docs", "--docks", "4"]) == 2
    assert "--docks needs --out" in capsys.readouterr().err


def test_the_cli_discovers_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    from dialtray import cli

    assert cli.main(["hardware", "docs", "--check", "--out", str(HARDWARE)]) == 0
    assert "match the pin map" in capsys.readouterr().out


def test_the_d10_ring_follows_the_dice_on_the_chain_and_in_the_budget() -> None:
    """Issue 15: the ring's LEDs are the chain's last, numbered as dialrig.dice draws a d10."""
    wiring = hardware_docs.render_wiring()
    first = rig.MAX_DICE * rig.PIPS_PER_DIE
    assert f"| d10 ring | LED{first + 1}-LED{first + dice.RING_LEDS} |" in wiring
    assert "### The d10 ring" in wiring
    d = dice.DiceDisplay(rig.MAX_DICE)
    assert d.ring_at == 3 * first, "the firmware writes the ring right after the last die"
    for face in range(1, dice.RING_LEDS + 1):
        d.set_ring(face, dice.MISS)
        # the last lit ring LED is the one the wiring table puts beside the numeral `face`
        row = f"| {face - 1} | {first + face - 1} | {face} |"
        assert row in wiring
        last = max(k for k in range(dice.RING_LEDS) if d.buffer[d.ring_at + 3 * k + 1])
        assert last == face - 1
    # The brightest d10 roll (ring full, pairs five and five) stays within the d6 worst case.
    assert hardware_docs.power_budget(rig.default_config()).play_a * 1000 <= hardware_docs.USB_MA
