"""bom.csv: the parts a tray built as a config needs, quantities following the config."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import cast

from dialtray.hwdocs.electrical import choose_pullups
from dialtray.hwdocs.facts import (
    DOCK_CABLE_M,
    FUSE_HOLD_A,
    PSU_AMPS,
    Config,
    count_sensors,
    led_count,
    muxes_used,
    rig,
    ring_leds,
    sensed_of,
)
from dialtray.hwdocs.markdown import ohms

BOM_COLUMNS = ("ref", "qty", "part", "value/package", "purpose", "notes")


@dataclass(frozen=True)
class BomLine:
    prefix: str  # reference designator letters ("R"); numbered in order of appearance
    qty: int
    part: str
    value: str
    purpose: str
    notes: str = ""


def bom_lines(cfg: Config) -> list[BomLine]:
    """The parts a tray built as `cfg` needs; quantities follow the config."""
    as5600 = count_sensors(cfg, rig.SENSOR_AS5600)
    quad = count_sensors(cfg, rig.SENSOR_QUADRATURE)
    muxes = len(muxes_used(cfg))
    leds = led_count(cfg)
    ring = ring_leds(cfg)
    docks = len(cast(list[object], cfg["docks"]))
    pu = choose_pullups()
    lines = [
        BomLine("U", 1, "Raspberry Pi Pico", "RP2040, MicroPython", "the tray's controller",
                "Pico H (headers fitted) is easiest"),
        BomLine("U", muxes, "TCA9548A I2C multiplexer breakout", "8 channels, 3.3 V",
                "one bus channel per AS5600", "address straps: see wiring.md"),
        BomLine("U", 1 if leds else 0, "74AHCT125 quad buffer", "DIP-14",
                "lifts the LED data line from 3.3 V to the LEDs' supply", "74HCT125 also works"),
        BomLine("SEN", as5600, "AS5600 magnetic encoder breakout", "12-bit, I2C",
                "reads one dial's absolute angle", "run at 3.3 V"),
        BomLine("MAG", as5600, "NdFeB disc magnet, diametrically magnetised", "6 mm × 2.5 mm",
                "pressed into the dial's printed coupler", "axially magnetised discs do NOT work"),
        BomLine("ENC", quad, "incremental rotary encoder", "quadrature, A/B/C, D-shaft",
                "reads one dial by counting",
                "no detents of its own; pulses per revolution a whole multiple of the dial's "
                "clicks (e.g. 24 PPR for 12 clicks)"),
        BomLine("R", 2 * quad, "resistor", "10 kΩ 1/4 W", "encoder A/B pull-ups to 3V3"),
        BomLine("LED", leds - ring, "WS2812B addressable RGB LED",
                "5050 SMD on 10 mm round breakout", "one dice pip",
                "GRB order; not PL9823 (RGB order, swaps red and green)"),
        BomLine("LED", ring, "WS2812B addressable RGB LED", "5050 SMD on 10 mm round breakout",
                "the d10 ring, after the last die", "LED k beside the numeral k + 1"),
        BomLine("C", 1 if leds else 0, "electrolytic capacitor", "1000 µF 10 V",
                "bulk decoupling of the LED supply"),
        BomLine("C", leds + muxes + (1 if leds else 0), "ceramic capacitor", "100 nF X7R",
                "decoupling: one per WS2812B, per TCA9548A, one for the 74AHCT125",
                "skip the LED ones if your LED breakouts carry them"),
        BomLine("R", 2 if muxes else 0, "resistor", f"{ohms(pu.main_ohm)} 1/4 W",
                "I2C_SDA / I2C_SCL pull-ups to 3V3", "omit if the mux breakout fits them"),
        BomLine("R", 2 * as5600, "resistor", f"{ohms(pu.channel_ohm)} 1/4 W",
                "SDn / SCn pull-ups to 3V3, two per used mux channel",
                f"sized for {DOCK_CABLE_M * 100:g} cm dock cables"),
        BomLine("R", 1 if muxes else 0, "resistor", "10 kΩ 1/4 W",
                "MUX_RST pull-up: muxes run while the Pico boots"),
        BomLine("R", 1 if leds else 0, "resistor", "330 Ω 1/4 W",
                "series resistor in the LED data line", "at the first LED's DIN"),
        BomLine("D", 1, "Schottky diode", "1N5819 (1 A, 40 V) DO-41",
                "tray supply into VSYS: a USB unplug does not reset the Pico",
                "keeps the RAM click log; see wiring.md"),
        BomLine("F", 1, "PTC resettable fuse", f"{FUSE_HOLD_A:g} A hold",
                "protects the supply wiring"),
        BomLine("J", 1, "DC barrel jack", "5.5 × 2.1 mm, panel mount", "5 V supply input"),
        BomLine("PS", 1, "5 V regulated power supply", f"{PSU_AMPS:g} A, 5.5 × 2.1 mm plug",
                "keeps the tray running without USB (through D1)", "centre positive"),
        BomLine("SW", 1, "momentary push button", "12 mm, normally open", "roll the dice"),
        BomLine("W", as5600 + quad, "4-core cable with JST-XH 4-pin plugs",
                f"≤ {DOCK_CABLE_M * 100:g} cm", "sensor to multiplexer / Pico",
                "SDA, SCL, 3V3, GND (encoder: A, B, 3V3, GND)"),
        BomLine("P", docks, "printed dock", "hardware/parts/dock.scad",
                "holds a figure's clix base over its sensors", "PLA or PETG"),
        BomLine("P", docks, "printed anchor collar", "hardware/parts/dock.scad (part=collar)",
                "clips onto a figure's base; its tab sets the one way the base sits in a dock",
                "one per figure you play"),
        BomLine("P", sensed_of(cfg, rig.DIAL_COMBAT), "printed combat coupler",
                "hardware/parts/coupler.scad (part=combat)",
                "keyed to the dial ring; carries the magnet or sits on the encoder shaft",
                "print spares"),
        BomLine("P", sensed_of(cfg, rig.DIAL_SPEED), "printed speed cap",
                "hardware/parts/coupler.scad (part=speed)",
                "pushed onto the speed spindle; carries its magnet or encoder shaft",
                "print spares"),
        BomLine("P", sensed_of(cfg, rig.DIAL_SPEED), "printed speed arm",
                "hardware/parts/dock.scad (part=speed_arm)",
                "holds the speed dial's sensor above the spindle", "pegged into the dock"),
        BomLine("P", 1 if leds else 0, "printed dice panel", "hardware/parts/dice_panel.scad",
                f"holds {cfg['dice']} dice × {rig.PIPS_PER_DIE} pip LEDs and the d10 ring",
                "white or translucent top layer"),
    ]
    return [line for line in lines if line.qty > 0]


def ref_range(prefix: str, first: int, qty: int) -> str:
    return f"{prefix}{first}" if qty == 1 else f"{prefix}{first}-{prefix}{first + qty - 1}"


def render_bom(cfg: Config | None = None) -> str:
    """bom.csv for a tray built as `cfg` (default: the shipped configuration)."""
    cfg = cfg if cfg is not None else cast(Config, rig.default_config())
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(BOM_COLUMNS)
    next_number: dict[str, int] = {}
    for line in bom_lines(cfg):
        first = next_number.get(line.prefix, 1)
        next_number[line.prefix] = first + line.qty
        writer.writerow((ref_range(line.prefix, first, line.qty), line.qty, line.part,
                         line.value, line.purpose, line.notes))
    return out.getvalue()


def bom_quantities(bom_csv: str) -> dict[str, int]:
    """part + value → total qty, for tests and for shoppers comparing two builds."""
    totals: dict[str, int] = {}
    for row in csv.DictReader(io.StringIO(bom_csv)):
        key = f"{row['part']} ({row['value/package']})"
        totals[key] = totals.get(key, 0) + int(row["qty"])
    return totals


