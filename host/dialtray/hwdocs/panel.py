"""wiring.md's LED panel sections: the WS2812B chain of the dice and the d10 ring, the level
shifter, the roll button and the current budget."""

from __future__ import annotations

from dialtray.hwdocs.electrical import brightness_cap, max_leds_lit, max_pips_lit, power_budget
from dialtray.hwdocs.facts import (
    LED_CHANNEL_MA,
    PICO_3V3_BUDGET_MA,
    PIP_POSITIONS,
    PSU_AMPS,
    USB_MA,
    Config,
    _int,
    gpio,
    header_pin,
    muxes_used,
    pin,
    rig,
    ring_leds,
)
from dialtray.hwdocs.markdown import table


def _leds(cfg: Config) -> list[str]:
    dice = _int(cfg["dice"], "dice")
    per = _int(rig.PIPS_PER_DIE, "PIPS_PER_DIE")
    n = gpio(pin("ws2812"))
    muxes = len(muxes_used(cfg))
    rows = [(f"die {d}", f"LED{d * per + 1}-LED{d * per + per}",
             f"{d * per}..{d * per + per - 1}") for d in range(dice)]
    ring = ring_leds(cfg)
    first = dice * per
    if ring:
        rows.append(("d10 ring", f"LED{first + 1}-LED{first + ring}",
                     f"{first}..{first + ring - 1}"))
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
        *_ring(cfg),
    ]


def _ring(cfg: Config) -> list[str]:
    ring = ring_leds(cfg)
    if not ring:
        return []
    first = _int(cfg["dice"], "dice") * _int(rig.PIPS_PER_DIE, "PIPS_PER_DIE")
    return [
        "### The d10 ring",
        "",
        f"FASA's Crimson Skies rolls one d10 per check, and a die of 7 pips cannot draw the "
        f"digits legibly, so {ring} more WS2812B sit in a circle below the dice, last on the "
        f"chain: the last die's pip 6 DOUT goes to ring LED 0's DIN (chain index {first}). "
        "Ring LED k sits beside the numeral k + 1, engraved clockwise from the top "
        "(`hardware/parts/dice_panel.scad`). A d10 face f lights ring LEDs 0..f-1: the lit arc "
        "ends at the numeral f and its length reads at a glance (a full ring is 10). Every d10 "
        "of a roll is also shown on a pair of dice counted in fives (die 2k: five pips at most, "
        "die 2k+1: the rest; 7 is five and two). A natural 10 is gold, like a natural six. A "
        "tray built without the ring loses nothing else: its bytes fall off the chain's end.",
        "",
        *table(("ring LED", "chain index", "numeral beside it"),
               [(k, first + k, k + 1) for k in range(ring)]),
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
        f"lights at most {max_pips_lit()} pips (a six). The brightest roll lights "
        f"{max_leds_lit(cfg)} LEDs: every die a six, or every d10 a ten (the full ring and every "
        "pip pair five and five), whichever lights more.",
        "",
        *table(("load", "rail", "worst case"), [
            (f"{pb.leds} WS2812B, all dark", "VSYS", f"{pb.led_idle_a * 1000:.0f} mA"),
            ("the brightest roll, at the brightness cap", "VSYS",
             f"{pb.led_play_a * 1000:.0f} mA"),
            ("Pico, multiplexers, level shifter, AS5600s", "VSYS",
             f"{pb.logic_a * 1000:.0f} mA"),
            ("of which on the Pico's 3V3 regulator", "3V3",
             f"{pb.sensors_3v3_ma:.0f} mA (limit {PICO_3V3_BUDGET_MA:g} mA)"),
            ("**tray total in play**", "VSYS", f"**{pb.play_a * 1000:.0f} mA**"),
            ("(that roll in full white, without the cap)", "VSYS",
             f"({pb.led_uncapped_a:.1f} A)"),
        ]),
        f"The total {fits} the {USB_MA:g} mA a USB port promises, so the tray also works on "
        f"USB alone; the {PSU_AMPS:g} A wall supply has ample headroom. The last line is why "
        "the cap exists: never raise it without a bigger supply, a separate LED feed and "
        "thicker wires.",
    ]


