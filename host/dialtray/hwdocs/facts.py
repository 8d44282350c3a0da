"""Board facts, build assumptions and typed reads of the firmware config (dialrig.config):
the inputs every generated hardware document is computed from.

Why one module: the Pico's header and the electrical assumptions (cable capacitance, LED
currents) are the numbers a builder may need to change; they live here, once, and the
wiring table, the current budget and the bill of materials all read them.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, cast

rig: ModuleType = importlib.import_module("dialrig.config")
dice: ModuleType = importlib.import_module("dialrig.dice")  # pip order and brightness cap

Config = dict[str, Any]
"""A tray configuration as `dialrig.config.default_config()` builds it."""

# ---- Board facts (not wiring choices: the Pico's header, fixed by its PCB) ----------------------
# Header pin of each GPIO on a Raspberry Pi Pico. GP23, GP24, GP25 and GP29 are used on the board
# itself (GP25 drives the on-board LED) and reach no header pin.
PICO_HEADER_PIN: dict[int, int] = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}
PICO_VSYS_PIN = 39
PICO_VBUS_PIN = 40
PICO_3V3_PIN = 36
PICO_GND_PINS = (3, 8, 13, 18, 23, 28, 33, 38)
PIO_BLOCKS = 2
PIO_SMS_PER_BLOCK = 4
TCA9548A_BASE_ADDR = 0x70  # address = 0x70 | A2<<2 | A1<<1 | A0

# ---- Build assumptions (electrical budget inputs; change them here, regenerate) -----------------
I2C_RISE_MAX_NS = 300.0  # fast mode (400 kHz) limit on SDA/SCL rise time, 30 %..70 % VDD
I2C_SINK_MAX_MA = 3.0  # every I2C device must sink this at VOL = 0.4 V
I2C_VDD = 3.3
I2C_VOL = 0.4
RISE_MARGIN = 0.7  # use at most 70 % of the allowed rise time: cable capacitance is a guess
CABLE_PF_PER_M = 100.0  # ribbon or 4-core hook-up cable, SDA/SCL to neighbours and ground
DEVICE_PIN_PF = 10.0  # per device input (Pico, each TCA9548A, each AS5600)
STRAY_PF = 15.0  # breadboard / perfboard traces and connectors, per bus segment
MAIN_BUS_M = 0.15  # Pico to the two multiplexers
DOCK_CABLE_M = 0.40  # a multiplexer to the farthest dock's sensor board
MAIN_PULLUP_OHM = 4700  # on the Pico side of the multiplexers
E6_OHMS = (10000, 6800, 4700, 3300, 2200, 1500, 1000)

LED_CHANNEL_MA = 20.0  # WS2812B: each of R, G, B draws ~20 mA at 255
LED_IDLE_MA = 0.6  # each WS2812B's own controller, even when dark
AS5600_MA = 6.5  # supply current, normal power mode
PICO_MA = 25.0  # RP2040 running the firmware
LOGIC_MA = 10.0  # multiplexers, level shifter
USB_MA = 500.0  # what a USB 2.0 port promises: the tray must run on USB alone
PICO_3V3_BUDGET_MA = 300.0  # what the Pico's own 3.3 V regulator may supply to the outside
PSU_AMPS = 2.0  # the recommended wall supply (1 A would do; 2 A is the common size)
FUSE_HOLD_A = 1.1

PIP_POSITIONS = (
    "centre", "top left", "top right", "middle left", "middle right", "bottom left",
    "bottom right",
)
"""Pip i of a die sits at PIP_POSITIONS[i]: dialrig.dice's order (its docstring draws it)."""


# ---- Typed reads of the firmware config ---------------------------------------------------------
def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"dialrig.config: {what} must be an int, not {value!r}")
    return value


def pin(name: str) -> int:
    """The GPIO number of a single-pin signal in `dialrig.config.PINS`."""
    return _int(cast(dict[str, object], rig.PINS)[name], f"PINS[{name!r}]")


def quadrature_pairs() -> list[tuple[int, int]]:
    """The (A, B) GPIO pairs, in PIO state-machine order."""
    raw = cast(list[object], cast(dict[str, object], rig.PINS)["quadrature"])
    pairs = []
    for i, pair in enumerate(raw):
        a, b = cast(Sequence[object], pair)
        where = f"PINS['quadrature'][{i}]"
        pairs.append((_int(a, where + "[0]"), _int(b, where + "[1]")))
    return pairs


def single_pin_names() -> list[str]:
    """Every PINS key that names one GPIO (all but the quadrature pair list), in config order."""
    return [k for k, v in cast(dict[str, object], rig.PINS).items() if isinstance(v, int)]


def mux_addrs() -> tuple[int, ...]:
    return tuple(_int(a, "MUX_ADDRS[]") for a in cast(Sequence[object], rig.MUX_ADDRS))


def dial_names() -> tuple[str, ...]:
    return tuple(str(n) for n in cast(Sequence[object], rig.DIAL_NAMES))


def quad_state_machine(n: int) -> tuple[int, int]:
    """(PIO block, state machine) of quadrature dial n: SM0-2 of PIO0, then SM0-3 of PIO1.

    The order is the one the PINS comment in dialrig.config states; PIO0 SM3 is left for the
    WS2812 program. Derived from MAX_QUADRATURE_DIALS so a change there moves the split.
    """
    max_quad = _int(rig.MAX_QUADRATURE_DIALS, "MAX_QUADRATURE_DIALS")
    if not 0 <= n < max_quad:
        raise ValueError(f"quadrature dial {n} out of range")
    on_pio0 = max_quad - PIO_SMS_PER_BLOCK  # PIO1 is all quadrature; the rest start on PIO0
    return (0, n) if n < on_pio0 else (1, n - on_pio0)


def ws2812_state_machine() -> tuple[int, int]:
    """The one state machine no quadrature dial uses."""
    used = {quad_state_machine(n) for n in range(_int(rig.MAX_QUADRATURE_DIALS, "MAX_QUAD"))}
    free = [(p, s) for p in range(PIO_BLOCKS) for s in range(PIO_SMS_PER_BLOCK)
            if (p, s) not in used]
    return free[0]


@dataclass(frozen=True)
class SensedDial:
    """One dial of a config, with where it is wired."""

    dock: int
    dial: str
    sensor: str
    mux: int
    channel: int
    quad: int


def sensed_dials(cfg: Config) -> list[SensedDial]:
    """Every dial of the config in dock order, sensors of all kinds (including none)."""
    out = []
    names = dial_names()
    for d, dock in enumerate(cast(list[list[dict[str, object]]], cfg["docks"])):
        for i, dial in enumerate(dock):
            out.append(SensedDial(
                dock=d, dial=names[i], sensor=str(dial["sensor"]),
                mux=_int(dial["mux"], "mux"), channel=_int(dial["channel"], "channel"),
                quad=_int(dial["quad"], "quad"),
            ))
    return out


def count_sensors(cfg: Config, sensor: str) -> int:
    return sum(1 for s in sensed_dials(cfg) if s.sensor == sensor)


def sensed_of(cfg: Config, dial: str) -> int:
    """How many docks sense their `dial` (combat or speed): each needs a coupler for it."""
    return sum(1 for s in sensed_dials(cfg) if s.dial == dial and s.sensor != rig.SENSOR_NONE)


def muxes_used(cfg: Config) -> list[int]:
    """Multiplexer addresses some AS5600 dial of the config needs, in MUX_ADDRS order."""
    used = {s.mux for s in sensed_dials(cfg) if s.sensor == rig.SENSOR_AS5600}
    return [a for a in mux_addrs() if a in used]


def ring_leds(cfg: Config) -> int:
    """The d10 ring's LEDs (dialrig.dice.RING_LEDS) on a tray with a dice panel, else 0."""
    return _int(dice.RING_LEDS, "dialrig.dice.RING_LEDS") if _int(cfg["dice"], "dice") else 0


def led_count(cfg: Config) -> int:
    """Every WS2812B on the chain: the dice's pips, then the d10 ring."""
    return _int(cfg["dice"], "dice") * _int(rig.PIPS_PER_DIE, "PIPS_PER_DIE") + ring_leds(cfg)


def gpio(n: int) -> str:
    return f"GP{n}"


def header_pin(n: int) -> str:
    """'pin 6' for a header GPIO, 'on-board' for the ones that never leave the board."""
    return f"pin {PICO_HEADER_PIN[n]}" if n in PICO_HEADER_PIN else "on-board"


def net(dial: SensedDial, line: str) -> str:
    """Net name of a dial's signal: DOCK3_SPEED_SDA."""
    return f"DOCK{dial.dock}_{dial.dial.upper()}_{line}"


