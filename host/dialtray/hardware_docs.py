"""Generate the rig's wiring tables (hardware/wiring.md) and bill of materials (hardware/bom.csv).

Why generated: `dialrig.config` is the one pin map the firmware runs from. A hand-written wiring
table drifts the first time someone moves a pin; a generated one cannot, and
`dialtray hardware docs --check` (run by the tests) fails when the committed files are stale.

Everything here is pure: config in, text out, no clock and no filesystem, so the output is
byte-for-byte deterministic. The firmware config is untyped MicroPython-compatible Python; this
module reads it once, through small narrowing helpers, into typed values.
"""

from __future__ import annotations

import csv
import importlib
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, cast

rig: ModuleType = importlib.import_module("dialrig.config")
dice: ModuleType = importlib.import_module("dialrig.dice")  # pip order and brightness cap

Config = dict[str, Any]
"""A tray configuration as `dialrig.config.default_config()` builds it."""

WIRING_FILE = "wiring.md"
BOM_FILE = "bom.csv"
BOM_COLUMNS = ("ref", "qty", "part", "value/package", "purpose", "notes")

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


def led_count(cfg: Config) -> int:
    return _int(cfg["dice"], "dice") * _int(rig.PIPS_PER_DIE, "PIPS_PER_DIE")


def gpio(n: int) -> str:
    return f"GP{n}"


def header_pin(n: int) -> str:
    """'pin 6' for a header GPIO, 'on-board' for the ones that never leave the board."""
    return f"pin {PICO_HEADER_PIN[n]}" if n in PICO_HEADER_PIN else "on-board"


def net(dial: SensedDial, line: str) -> str:
    """Net name of a dial's signal: DOCK3_SPEED_SDA."""
    return f"DOCK{dial.dock}_{dial.dial.upper()}_{line}"


# ---- I2C pull-ups and power budgets -------------------------------------------------------------
@dataclass(frozen=True)
class PullUps:
    """Chosen pull-up values and the numbers that justify them."""

    main_ohm: int
    channel_ohm: int
    path_pf: float
    effective_ohm: float
    rise_ns: float
    sink_ma: float


def rise_time_ns(ohm: float, pf: float) -> float:
    """30 %..70 % rise time of an RC-loaded open-drain line: 0.8473 R C."""
    return 0.8473 * ohm * pf * 1e-3


def choose_pullups(cable_m: float = DOCK_CABLE_M) -> PullUps:
    """Pick the weakest channel pull-up that still meets fast-mode rise time with margin.

    When a TCA9548A channel is selected its pass gates join the Pico's bus to that channel, so
    the two buses' capacitance adds and their pull-ups act in parallel. Weakest-that-works keeps
    the sink current (and the ground bounce on long dock cables) low.
    """
    main_pf = MAIN_BUS_M * CABLE_PF_PER_M + DEVICE_PIN_PF * (1 + len(mux_addrs())) + STRAY_PF
    chan_pf = cable_m * CABLE_PF_PER_M + DEVICE_PIN_PF + STRAY_PF  # one AS5600 per channel
    path_pf = main_pf + chan_pf
    rp_min = (I2C_VDD - I2C_VOL) / I2C_SINK_MAX_MA * 1000.0
    for r in E6_OHMS:
        eff = MAIN_PULLUP_OHM * r / (MAIN_PULLUP_OHM + r)
        rise = rise_time_ns(eff, path_pf)
        if rise <= I2C_RISE_MAX_NS * RISE_MARGIN and eff >= rp_min:
            return PullUps(MAIN_PULLUP_OHM, r, path_pf, eff, rise, I2C_VDD / eff * 1000.0)
    raise ValueError(f"no pull-up meets 400 kHz on a {cable_m} m dock cable: shorten it")


def brightness_cap() -> int:
    """dialrig.dice's limit on R+G+B of one LED, whatever colour the app asks for."""
    return _int(dice.BRIGHTNESS_CAP, "dialrig.dice.BRIGHTNESS_CAP")


def max_pips_lit() -> int:
    """The most pips any face lights (a six), from dialrig.dice's face table."""
    return max(bin(face).count("1") for face in cast(bytes, dice.FACE_PIPS))


@dataclass(frozen=True)
class PowerBudget:
    """Worst-case currents of a tray, in amps, with the firmware's brightness cap and without."""

    leds: int
    led_idle_a: float  # every LED dark
    led_play_a: float  # every die showing six at the firmware's brightness cap
    led_uncapped_a: float  # every die showing six in full white, were there no cap
    logic_a: float  # Pico, multiplexers, level shifter, sensors
    sensors_3v3_ma: float  # the part of logic_a on the Pico's 3.3 V regulator

    @property
    def play_a(self) -> float:
        return self.led_play_a + self.logic_a


def power_budget(cfg: Config) -> PowerBudget:
    leds = led_count(cfg)
    lit = _int(cfg["dice"], "dice") * max_pips_lit()
    idle = leds * LED_IDLE_MA / 1000.0
    per_lit_ma = brightness_cap() * LED_CHANNEL_MA / 255  # R+G+B <= cap, 20 mA per 255
    sensors = count_sensors(cfg, rig.SENSOR_AS5600) * AS5600_MA + LOGIC_MA
    return PowerBudget(
        leds=leds,
        led_idle_a=idle,
        led_play_a=idle + lit * per_lit_ma / 1000.0,
        led_uncapped_a=idle + lit * 3 * LED_CHANNEL_MA / 1000.0,
        logic_a=(PICO_MA + sensors) / 1000.0,
        sensors_3v3_ma=sensors,
    )


# ---- Markdown helpers ---------------------------------------------------------------------------
def table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return [*lines, ""]


def ohms(r: float) -> str:
    return f"{r / 1000:.3g} kΩ" if r >= 1000 else f"{r:.3g} Ω"


def strap(addr: int) -> tuple[str, str, str]:
    """(A2, A1, A0) levels that give a TCA9548A this address."""
    bits = addr - TCA9548A_BASE_ADDR
    if not 0 <= bits <= 7:
        raise ValueError(f"0x{addr:02x} is not a TCA9548A address (0x70..0x77)")
    a2, a1, a0 = ("3V3" if bits >> b & 1 else "GND" for b in (2, 1, 0))
    return a2, a1, a0


# ---- wiring.md ----------------------------------------------------------------------------------
def render_wiring(cfg: Config | None = None, quad_cfg: Config | None = None) -> str:
    """The whole wiring.md for a tray built as `cfg`, with `quad_cfg` as the quadrature option."""
    cfg = cfg if cfg is not None else cast(Config, rig.default_config())
    quad_cfg = quad_cfg if quad_cfg is not None else cast(Config, rig.quadrature_config())
    sections = [
        _intro(cfg), _pin_summary(), _power(cfg), _i2c_bus(), _multiplexers(cfg),
        _sensor_boards(), _quadrature(quad_cfg), _leds(cfg), _button_and_status(),
        _budget(cfg),
    ]
    return "\n".join(line for section in sections for line in section).rstrip("\n") + "\n"


def _intro(cfg: Config) -> list[str]:
    docks = len(cast(list[object], cfg["docks"]))
    return [
        "# dialtray wiring",
        "",
        "<!-- Generated by `dialtray hardware docs` from firmware/dialrig/config.py. Do not edit:",
        "     change the pin map there and regenerate; a test fails when this file is stale. -->",
        "",
        f"Firmware {rig.FIRMWARE_VERSION}. This build: {docks} docks, "
        f"{count_sensors(cfg, rig.SENSOR_AS5600)} AS5600 dials behind "
        f"{len(muxes_used(cfg))} TCA9548A multiplexers, {cfg['dice']} LED dice of "
        f"{rig.PIPS_PER_DIE} pips, one roll button, USB to the host.",
        "",
        "Pin names: `GPn` is the RP2040 GPIO number the firmware uses, `pin n` the Raspberry Pi",
        "Pico header pin (pin 1 is GP0, at the USB end, beside the pin-1 mark). Net names are the",
        "labels to write on the wires.",
        "",
    ]


def _pin_summary() -> list[str]:
    purpose = {
        "i2c_sda": ("I2C_SDA", "both TCA9548A SDA (I2C0 data, every AS5600 behind the muxes)"),
        "i2c_scl": ("I2C_SCL", "both TCA9548A SCL (I2C0 clock)"),
        "mux_reset": ("MUX_RST", "both TCA9548A RESET (active low), 10 kΩ pull-up to 3V3"),
        "ws2812": ("LED_DIN_3V3", "74AHCT125 input 1A; its output drives the LED dice chain"),
        "roll_button": ("ROLL_BTN", "roll button to GND (internal pull-up)"),
        "status_led": ("-", "the Pico's own green LED (heartbeat); nothing to wire"),
    }
    rows: list[tuple[object, ...]] = []
    for key in single_pin_names():
        n = pin(key)
        net_name, goes_to = purpose.get(key, ("-", "see dialrig.config"))
        rows.append((f"`{key}`", gpio(n), header_pin(n), net_name, goes_to))
    for i, (a, b) in enumerate(quadrature_pairs()):
        p, s = quad_state_machine(i)
        rows.append((f"`quadrature[{i}]`", f"{gpio(a)} / {gpio(b)}",
                     f"{header_pin(a)} / {header_pin(b)}", f"QUAD{i}_A / QUAD{i}_B",
                     f"quadrature option only: encoder {i} A/B, PIO{p} SM{s}"))
    return ["## Pico pin map", "", *table(
        ("`PINS` key", "GPIO", "Pico pin", "net", "goes to"), rows)]


def _power(cfg: Config) -> list[str]:
    ring = cfg["ring_size"]
    gnds = ", ".join(str(p) for p in PICO_GND_PINS)
    play = power_budget(cfg).play_a
    return [
        "## Power",
        "",
        "Everything runs from the Pico's VSYS node, which two sources feed: the USB cable "
        "(VBUS, through the Pico's own diode) and the tray's own 5 V supply J1, through the "
        f"Schottky diode D1 into VSYS (pin {PICO_VSYS_PIN}). The LED chain and the level "
        f"shifter hang off VSYS too: with the firmware's brightness cap the whole tray draws "
        f"at most {play:.2f} A (see the current budget), so it also runs from USB alone.",
        "",
        *table(("from", "to", "net", "notes"), [
            ("J1 +5 V (centre pin)", f"F1, {FUSE_HOLD_A:g} A resettable fuse", "+5V_IN", ""),
            ("F1", f"D1 anode; D1 cathode to Pico VSYS (pin {PICO_VSYS_PIN})", "+5V_EXT",
             "1N5819 Schottky, cathode band towards the Pico"),
            (f"Pico VSYS (pin {PICO_VSYS_PIN})", "LED chain VDD, 74AHCT125 VCC, C1 +", "VSYS",
             "22 AWG or heavier to the dice panel"),
            (f"Pico 3V3(OUT) (pin {PICO_3V3_PIN})",
             "TCA9548A VIN, every AS5600 VCC, I2C and encoder pull-ups", "3V3",
             f"the Pico's regulator: keep the load under {PICO_3V3_BUDGET_MA:g} mA"),
            ("J1 −", f"Pico GND (any of pins {gnds}), every board's GND", "GND",
             "one ground, starred at the Pico"),
            (f"Pico VBUS (pin {PICO_VBUS_PIN})", "nothing", "-",
             "never feed the supply into VBUS: it would push current back into the host's "
             "USB port"),
        ]),
        "**Why the diode.** The firmware keeps a ring log of click events in RAM (the last "
        f"{ring} events, `ring_size`), so a host that reconnects can ask for every click it "
        "missed while it was away. RAM does not survive a power cut. With the tray's own "
        "supply feeding VSYS, pulling the USB cable (or the host's laptop going to sleep and "
        "cutting its ports) leaves the Pico running and the log intact. The diode is what lets "
        "two supplies share VSYS: whichever is higher powers the board and neither can push "
        "current into the other (the Pico has the same kind of diode from VBUS). A Schottky "
        "drops only about 0.3 V, so VSYS stays near 4.7 V, well inside its 1.8-5.5 V range.",
        "",
        "**Decoupling.** C1 1000 µF / 10 V electrolytic across VSYS and GND where the supply "
        "enters the dice panel (it absorbs the LED chain's current steps); 100 nF ceramic "
        "beside every WS2812B (between its VDD and GND), beside each TCA9548A and the "
        "74AHCT125; AS5600 breakout boards already carry their own. Never hot-plug the dice "
        "panel's data wire without its ground.",
        "",
    ]


def _i2c_bus() -> list[str]:
    pu = choose_pullups()
    return [
        "## I2C bus and pull-ups",
        "",
        f"I2C0 runs at {rig.I2C_FREQ // 1000} kHz: `i2c_sda` {gpio(pin('i2c_sda'))} "
        f"({header_pin(pin('i2c_sda'))}) and `i2c_scl` {gpio(pin('i2c_scl'))} "
        f"({header_pin(pin('i2c_scl'))}) go to SDA and SCL of both multiplexers. Every AS5600 "
        f"answers at 0x{rig.AS5600_ADDR:02x} and the address cannot be changed, so each sensor "
        "sits on its own multiplexer channel.",
        "",
        *table(("segment", "pull-up (to 3V3)", "count", "why"), [
            ("Pico ↔ multiplexers (I2C_SDA, I2C_SCL)", ohms(pu.main_ohm), 2,
             f"{MAIN_BUS_M * 100:g} cm of wire, {len(mux_addrs())} muxes and the Pico"),
            ("each used mux channel (SDn, SCn)", ohms(pu.channel_ohm), "2 per dial",
             f"up to {DOCK_CABLE_M * 100:g} cm of cable to the dock's sensor"),
        ]),
        f"With a channel selected the two segments join: about {pu.path_pf:g} pF "
        f"({CABLE_PF_PER_M:g} pF/m of cable, {DEVICE_PIN_PF:g} pF per device, "
        f"{STRAY_PF:g} pF stray per segment) behind {ohms(round(pu.effective_ohm))} "
        f"({ohms(pu.main_ohm)} ∥ {ohms(pu.channel_ohm)}) gives a rise time of "
        f"{pu.rise_ns:.0f} ns against the {I2C_RISE_MAX_NS:g} ns fast-mode limit, and "
        f"{pu.sink_ma:.1f} mA sink current against the {I2C_SINK_MAX_MA:g} mA every device "
        "guarantees. Many breakout boards already fit pull-ups (often 10 kΩ): measure between "
        "SDA and 3V3 with the power off and count them in; do not go below the sink-current "
        f"limit ({ohms(round((I2C_VDD - I2C_VOL) / I2C_SINK_MAX_MA * 1000))} overall). Longer "
        f"dock cables than {DOCK_CABLE_M * 100:g} cm: change `DOCK_CABLE_M` in "
        "host/dialtray/hardware_docs.py and regenerate for a stronger value.",
        "",
    ]


def _multiplexers(cfg: Config) -> list[str]:
    used = muxes_used(cfg)
    mux_ref = {addr: f"U{2 + i}" for i, addr in enumerate(used)}  # U1 is the Pico
    rows = []
    for addr in mux_addrs():
        a2, a1, a0 = strap(addr)
        rows.append((mux_ref.get(addr, "-"), f"0x{addr:02x}", a2, a1, a0,
                     "yes" if addr in used else "not fitted"))
    lines = [
        "## Multiplexers (TCA9548A)",
        "",
        "Both boards: VIN to 3V3, GND to GND, SDA to I2C_SDA, SCL to I2C_SCL, RST to MUX_RST "
        f"({gpio(pin('mux_reset'))}, {header_pin(pin('mux_reset'))}) with one 10 kΩ pull-up from "
        "MUX_RST to 3V3 so both stay out of reset while the Pico boots (its pins start as "
        "inputs with weak pull-downs). Address straps: tie each A pin hard to GND or 3V3; a "
        "floating A pin can read either way.",
        "",
        *table(("ref", "address", "A2", "A1", "A0", "fitted"), rows),
        "Which channel carries which dial (`default_config()`: dock n's combat dial on "
        "channel 2n, speed on 2n+1, counting across both muxes):",
        "",
    ]
    rows2 = []
    for s in sensed_dials(cfg):
        if s.sensor != rig.SENSOR_AS5600:
            continue
        rows2.append((s.dock, s.dial, f"{mux_ref[s.mux]} (0x{s.mux:02x})", s.channel,
                      f"SD{s.channel} / SC{s.channel}", f"{net(s, 'SDA')} / {net(s, 'SCL')}"))
    return lines + table(("dock", "dial", "mux", "channel", "mux pins", "nets"), rows2)


def _sensor_boards() -> list[str]:
    return [
        "## AS5600 sensor boards (one per dial)",
        "",
        *table(("AS5600 board pin", "connect to", "why"), [
            ("VCC", "3V3", "3.3 V operation: the bus levels match the Pico, no shifting"),
            ("GND", "GND", ""),
            ("SDA", "its mux channel's SDn (DOCKn_DIAL_SDA)", "see the channel table"),
            ("SCL", "its mux channel's SCn (DOCKn_DIAL_SCL)", ""),
            ("DIR", "GND", "angle rises clockwise seen from the magnet side; calibration "
             "measures the direction anyway"),
            ("GPO / PGO", "leave open", "internal pull-up; grounding it enables OTP programming"),
            ("OUT", "leave open", "analog/PWM output, unused: the firmware reads I2C"),
        ]),
        "Some boards have a jumper or pad to select 3.3 V (VDD5V bridged to VDD3V3): bridge it "
        "when you power the board from 3V3.",
        "",
    ]


def _quadrature(quad_cfg: Config) -> list[str]:
    by_quad = {s.quad: s for s in sensed_dials(quad_cfg) if s.sensor == rig.SENSOR_QUADRATURE}
    rows = []
    for i, (a, b) in enumerate(quadrature_pairs()):
        p, s = quad_state_machine(i)
        used = by_quad.get(i)
        who = f"dock {used.dock} {used.dial}" if used else "spare"
        rows.append((i, f"{gpio(a)} ({header_pin(a)})", f"{gpio(b)} ({header_pin(b)})",
                     f"PIO{p} SM{s}", f"QUAD{i}_A / QUAD{i}_B", who))
    p, s = ws2812_state_machine()
    docks = len(cast(list[object], quad_cfg["docks"]))
    return [
        "## Quadrature option (incremental encoders instead of AS5600)",
        "",
        f"A tray built with incremental encoders counts each in its own PIO state machine, so at "
        f"most {rig.MAX_QUADRATURE_DIALS} dials ({rig.MAX_QUADRATURE_DIALS} of the 8 state "
        f"machines; PIO{p} SM{s} runs the WS2812 program). A and B of one encoder must be on "
        "adjacent GPIOs, A on the lower one: the PIO program reads both with one `in pins, 2`. "
        "No multiplexers, AS5600 boards or magnets are needed. The 'used by' column is "
        f"`quadrature_config()` ({docks} docks); dials beyond the state machines are "
        "`none` (not sensed).",
        "",
        *table(("encoder", "A", "B", "state machine", "nets", "used by"), rows),
        "Each encoder: common pin C to GND, A and B each with a 10 kΩ pull-up to 3V3 (the "
        "RP2040's internal pull-ups are about 50 kΩ, too weak for a cable). A mechanical "
        "encoder's contact bounce needs no filter: the PIO counts every transition, and a "
        "bounce counts up then down again. Choose encoders with one or more whole quadrature "
        "cycles per detent (pulses per revolution = detents, or a multiple): the config's "
        "`pulses` counts whole cycles, and calibration refuses half-cycle detents.",
        "",
    ]


def _leds(cfg: Config) -> list[str]:
    dice = _int(cfg["dice"], "dice")
    per = _int(rig.PIPS_PER_DIE, "PIPS_PER_DIE")
    n = gpio(pin("ws2812"))
    muxes = len(muxes_used(cfg))
    rows = [(f"die {d}", f"LED{d * per + 1}-LED{d * per + per}",
             f"{d * per}..{d * per + per - 1}") for d in range(dice)]
    return [
        "## LED dice (WS2812B chain) and level shifter",
        "",
        f"{n} ({header_pin(pin('ws2812'))}) drives the chain at 3.3 V; a WS2812B powered from "
        f"VSYS (about 4.7 V) wants 0.7 × VDD = 3.3 V for a high, no margin at all, so a "
        f"74AHCT125 (U{2 + muxes}, powered from VSYS, whose inputs read 2 V as high) lifts the "
        "signal to the LEDs' own supply.",
        "",
        *table(("74AHCT125 pin", "connect to", "net"), [
            ("1 (1OE)", "GND: buffer 1 always on", "GND"),
            ("2 (1A)", f"Pico {n} ({header_pin(pin('ws2812'))})", "LED_DIN_3V3"),
            ("3 (1Y)", "330 Ω series resistor, then DIN of LED1 (die 0 pip 0)", "LED_DIN_5V"),
            ("4, 10, 13 (2OE, 3OE, 4OE)", "VSYS: unused buffers off", "VSYS"),
            ("5, 9, 12 (2A, 3A, 4A)", "GND: no floating inputs", "GND"),
            ("7 (GND)", "GND", "GND"),
            ("14 (VCC)", "VSYS, 100 nF to GND beside the pin", "VSYS"),
        ]),
        f"Chain order: die 0 pip 0 first, then onwards: LED index = die × {per} + pip, and "
        "each LED's DOUT goes to the next one's DIN. Within a die the pips are numbered as "
        "dialrig.dice numbers them: centre first, then the six others in reading order "
        "(top middle and bottom middle are never lit by a die face, so they have no LED):",
        "",
        *table(("pip", "position on the face"), list(enumerate(PIP_POSITIONS))),
        *table(("die", "LEDs (BOM refs)", "chain indexes"), rows),
    ]


def _button_and_status() -> list[str]:
    b = pin("roll_button")
    s = pin("status_led")
    return [
        "## Roll button and status LED",
        "",
        f"- Roll button SW1: one leg to {gpio(b)} ({header_pin(b)}, net ROLL_BTN), the other to "
        "GND. The firmware enables the internal pull-up and the app debounces, so no resistor "
        "or capacitor is needed.",
        f"- Status LED: {gpio(s)} drives the Pico's own on-board LED, which blinks the "
        "heartbeat. Nothing to wire.",
        "",
    ]


def _budget(cfg: Config) -> list[str]:
    pb = power_budget(cfg)
    cap = brightness_cap()
    fits = "fits" if pb.play_a * 1000 <= USB_MA else "does NOT fit"
    return [
        "## Current budget",
        "",
        f"dialrig.dice caps every LED at R+G+B ≤ {cap} (of 765), so a lit pip draws at most "
        f"{cap * LED_CHANNEL_MA / 255:.1f} mA whatever colour the host asks for, and a die "
        f"lights at most {max_pips_lit()} pips (a six).",
        "",
        *table(("load", "rail", "worst case"), [
            (f"{pb.leds} WS2812B, all dark", "VSYS", f"{pb.led_idle_a * 1000:.0f} mA"),
            ("every die showing six, at the brightness cap", "VSYS",
             f"{pb.led_play_a * 1000:.0f} mA"),
            ("Pico, multiplexers, level shifter, AS5600s", "VSYS",
             f"{pb.logic_a * 1000:.0f} mA"),
            ("of which on the Pico's 3V3 regulator", "3V3",
             f"{pb.sensors_3v3_ma:.0f} mA (limit {PICO_3V3_BUDGET_MA:g} mA)"),
            ("**tray total in play**", "VSYS", f"**{pb.play_a * 1000:.0f} mA**"),
            ("(every die six in full white, without the cap)", "VSYS",
             f"({pb.led_uncapped_a:.1f} A)"),
        ]),
        f"The total {fits} the {USB_MA:g} mA a USB port promises, so the tray also works on "
        f"USB alone; the {PSU_AMPS:g} A wall supply has ample headroom. The last line is why "
        "the cap exists: never raise it without a bigger supply, a separate LED feed and "
        "thicker wires.",
    ]


# ---- bom.csv ------------------------------------------------------------------------------------
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
        BomLine("LED", leds, "WS2812B addressable RGB LED", "5050 SMD on 10 mm round breakout",
                "one dice pip", "GRB order; not PL9823 (RGB order, swaps red and green)"),
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
                f"holds {cfg['dice']} dice × {rig.PIPS_PER_DIE} pip LEDs",
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


def generate(cfg: Config | None = None) -> dict[str, str]:
    """File name → contents of every generated hardware document."""
    return {WIRING_FILE: render_wiring(cfg), BOM_FILE: render_bom(cfg)}


__all__ = [
    "BOM_FILE", "WIRING_FILE", "Config", "bom_quantities", "choose_pullups", "generate",
    "power_budget", "render_bom", "render_wiring",
]
