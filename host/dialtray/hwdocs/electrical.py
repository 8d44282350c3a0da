"""I2C pull-up values and the tray's current budget, computed from the build assumptions
(hwdocs.facts) and the firmware's LED limits (dialrig.dice)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from dialtray.hwdocs.facts import (
    AS5600_MA,
    CABLE_PF_PER_M,
    DEVICE_PIN_PF,
    DOCK_CABLE_M,
    E6_OHMS,
    I2C_RISE_MAX_NS,
    I2C_SINK_MAX_MA,
    I2C_VDD,
    I2C_VOL,
    LED_CHANNEL_MA,
    LED_IDLE_MA,
    LOGIC_MA,
    MAIN_BUS_M,
    MAIN_PULLUP_OHM,
    PICO_MA,
    RISE_MARGIN,
    STRAY_PF,
    Config,
    _int,
    count_sensors,
    dice,
    led_count,
    mux_addrs,
    rig,
)


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


def max_leds_lit(cfg: Config) -> int:
    """The most LEDs one roll lights, counted on the firmware's own rendering
    (dialrig.dice.DiceDisplay.show_roll): every die a six, or every d10 a ten (the full ring and
    every pip pair five and five)."""
    n = _int(cfg["dice"], "dice")
    most = 0
    for sides in (6, 10):
        display = dice.DiceDisplay(n)
        display.show_roll(bytes([sides] * n), n, sides)
        buf = cast(bytearray, display.buffer)
        most = max(most, sum(1 for k in range(0, len(buf), 3) if any(buf[k:k + 3])))
    return most


@dataclass(frozen=True)
class PowerBudget:
    """Worst-case currents of a tray, in amps, with the firmware's brightness cap and without."""

    leds: int
    led_idle_a: float  # every LED dark
    led_play_a: float  # the brightest roll (max_leds_lit) at the firmware's brightness cap
    led_uncapped_a: float  # that roll in full white, were there no cap
    logic_a: float  # Pico, multiplexers, level shifter, sensors
    sensors_3v3_ma: float  # the part of logic_a on the Pico's 3.3 V regulator

    @property
    def play_a(self) -> float:
        return self.led_play_a + self.logic_a


def power_budget(cfg: Config) -> PowerBudget:
    leds = led_count(cfg)
    lit = max_leds_lit(cfg)
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


