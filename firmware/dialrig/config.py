# dialrig.config — the one pin map and the tray's default configuration.
#
# Why one module: wiring docs, the bill of materials, both hardware backends and the host's
# `set dock config` command all read these tables. Nothing else in the firmware or the host may
# name a GPIO number. `hardware/wiring.md` and `hardware/bom.csv` are generated from this file and
# a test fails when they drift.
#
# Kept in the subset of Python that MicroPython and CPython both run: plain dicts, lists, ints.

FIRMWARE_VERSION = "0.1.0"

# USB identity of a Raspberry Pi Pico running MicroPython (host auto-discovery looks for it).
USB_VID = 0x2E8A
USB_PID = 0x0005

# ---- The pin map (RP2040 GPIO numbers) -----------------------------------------------------
# I2C0 carries every absolute sensor (AS5600) behind TCA9548A multiplexers.
# Quadrature encoders need their A and B pins adjacent (PIO `in pins, 2` reads base and base+1).
PINS = {
    "i2c_sda": 4,
    "i2c_scl": 5,
    "mux_reset": 3,  # TCA9548A RESET (active low), shared by both multiplexers
    "ws2812": 22,  # LED dice data line (through a 74AHCT125 level shifter to 5 V)
    "roll_button": 21,  # to ground, internal pull-up
    "status_led": 25,  # the Pico's own LED: heartbeat blink
    # (A, B) pairs, in order of PIO state machine use: SM0-2 of PIO0 then SM0-3 of PIO1.
    "quadrature": [(6, 7), (8, 9), (10, 11), (12, 13), (14, 15), (16, 17), (18, 19)],
}

I2C_FREQ = 400_000
AS5600_ADDR = 0x36
MUX_ADDRS = (0x70, 0x71)  # two TCA9548A: 16 channels, one per dial on an 8-dock tray

# PIO budget: 8 state machines; the WS2812 program takes one, so 7 quadrature dials at most.
MAX_QUADRATURE_DIALS = 7
MAX_DICE = 12
PIPS_PER_DIE = 7  # a die face is a 3x3 grid of which 7 positions can light (the centre + 6)
RING_LEDS = 10  # the d10 ring, after the last die on the LED chain (dialrig.dice)

SENSOR_AS5600 = "as5600"
SENSOR_QUADRATURE = "quadrature"
SENSOR_NONE = "none"

DIAL_COMBAT = "combat"
DIAL_SPEED = "speed"
DIAL_NAMES = (DIAL_COMBAT, DIAL_SPEED)
# The default wiring: the muxes' 8 channels each, one channel per dial.
MAX_DOCKS = len(MUX_ADDRS) * 8 // len(DIAL_NAMES)

# ---- Dock defaults ---------------------------------------------------------------------------
# Per dial: which sensor, where it is wired, and how it turns.
#   detents       clicks per full revolution of the clix dial
#   pulses        quadrature cycles per detent (each cycle = 4 counted transitions)
#   direction     +1 if a clockwise click raises the raw reading, -1 if it lowers it
#   zero          raw reading at the dial's click 0 (AS5600 angle units 0..4095, or counts)
DEFAULT_DETENTS = 12
DEFAULT_SETTLE_MS = 15
# sample_ms is the sampler's pause between two passes over every dial, not its period: a pass
# of the default tray (16 AS5600s) costs ~6.7 ms of MicroPython CPU on the RP2040 (measured on
# the emulated Pico, bench/bench_rp2040.py) plus ~3.2 ms of I2C0 at 400 kHz (50 transfers:
# a channel select and a 3-byte read per sensor, two mux switch-offs), so each dial is read
# every ~15 ms at 8 docks (~7 ms at 2). Plenty: a hand needs far longer to turn half a dial.
DEFAULT_SAMPLE_MS = 5
DEFAULT_DOCKS = 8


def default_dial(dock, dial_index, sensor=SENSOR_AS5600):
    """One dial's default settings: dock n's combat dial on mux channel 2n, speed on 2n+1."""
    channel = dock * 2 + dial_index
    return {
        "sensor": sensor,
        "mux": MUX_ADDRS[channel // 8],
        "channel": channel % 8,
        "quad": -1,
        "detents": DEFAULT_DETENTS,
        "pulses": 1,
        "direction": 1,
        "zero": 0,
    }


def default_config(docks=DEFAULT_DOCKS):
    """The tray as shipped: every dial on an AS5600 (absolute, survives power-off)."""
    cfg = {  # type: dict
        "docks": [],
        "settle_ms": DEFAULT_SETTLE_MS,
        "sample_ms": DEFAULT_SAMPLE_MS,
        "heartbeat_ms": 500,
        "host_timeout_ms": 2000,
        "watchdog_ms": 4000,
        "ring_size": 2048,  # 17 bytes each: 35 KB, ~6 s of non-stop clicking while unplugged
        "dice": MAX_DICE,
    }
    for d in range(docks):
        cfg["docks"].append([default_dial(d, i) for i in range(len(DIAL_NAMES))])
    return cfg


def quadrature_config(docks=3, rest=SENSOR_NONE):
    """A tray built with incremental encoders: its first 7 dials, one PIO state machine each.

    ``rest``: the sensor of the dials beyond the state machines — none (not sensed), or
    SENSOR_AS5600 for a mixed tray whose other dials keep their multiplexed AS5600s (enough
    readers for a whole game: `dialtray sim --quadrature`)."""
    cfg = default_config(docks)
    n = 0
    for dock in cfg["docks"]:
        for dial in dock:
            if n < MAX_QUADRATURE_DIALS:
                dial["sensor"] = SENSOR_QUADRATURE
                dial["quad"] = n
                dial["mux"] = -1
                dial["channel"] = -1
                n += 1
            elif rest != SENSOR_AS5600:
                dial["sensor"] = SENSOR_NONE
    return cfg


DIAL_KEYS = ("sensor", "mux", "channel", "quad", "detents", "pulses", "direction", "zero")


def validate(cfg):
    """Return a list of problems ("docks[2].speed.detents: must be 2..64"); empty when valid.

    The device refuses a config with problems rather than half-applying it, and the host shows
    the same messages, so the check is written once here.
    """
    problems = []
    docks = cfg.get("docks")
    if not isinstance(docks, list) or not 1 <= len(docks) <= 16:
        return ["docks: must be a list of 1..16 docks"]
    quads = {}  # type: dict
    muxed = {}  # type: dict
    for d, dock in enumerate(docks):
        if not isinstance(dock, list) or len(dock) != len(DIAL_NAMES):
            problems.append("docks[%d]: must list %d dials" % (d, len(DIAL_NAMES)))
            continue
        for i, dial in enumerate(dock):
            where = "docks[%d].%s" % (d, DIAL_NAMES[i])
            problems.extend(validate_dial(dial, where))
            if problems:
                continue
            if dial["sensor"] == SENSOR_QUADRATURE:
                if dial["quad"] in quads:
                    problems.append("%s.quad: state machine %d already used by %s"
                                    % (where, dial["quad"], quads[dial["quad"]]))
                quads[dial["quad"]] = where
            elif dial["sensor"] == SENSOR_AS5600:
                wired = (dial["mux"], dial["channel"])
                if wired in muxed:
                    problems.append("%s.channel: mux 0x%02x channel %d already used by %s"
                                    % (where, wired[0], wired[1], muxed[wired]))
                muxed[wired] = where
    for key, lo, hi in (("settle_ms", 0, 1000), ("sample_ms", 1, 100), ("ring_size", 16, 4096),
                        ("heartbeat_ms", 50, 10000), ("host_timeout_ms", 100, 60000),
                        ("watchdog_ms", 500, 8000), ("dice", 0, MAX_DICE)):
        v = cfg.get(key)
        if not isinstance(v, int) or not lo <= v <= hi:
            problems.append("%s: must be an integer %d..%d" % (key, lo, hi))
    return problems


def sensor_user(cfg, dock, dial, new):
    """The dial (dock * 2 + dial) other than this one that already reads the sensor `new`
    names (same quadrature state machine, or same mux and channel), or -1 if none does.

    Two dials on one sensor would silently report the same turns: SET_DIAL refuses it."""
    kind = new["sensor"]
    if kind != SENSOR_AS5600 and kind != SENSOR_QUADRATURE:
        return -1
    for d in range(len(cfg["docks"])):
        for i in range(len(DIAL_NAMES)):
            if d == dock and i == dial:
                continue
            other = cfg["docks"][d][i]
            if other["sensor"] != kind:
                continue
            if kind == SENSOR_QUADRATURE and other["quad"] == new["quad"]:
                return d * 2 + i
            if kind == SENSOR_AS5600 and other["mux"] == new["mux"] and \
                    other["channel"] == new["channel"]:
                return d * 2 + i
    return -1


def validate_dial(dial, where):
    """Problems with one dial's settings (see validate)."""
    if not isinstance(dial, dict):
        return [where + ": must be an object"]
    out = []
    for k in DIAL_KEYS:
        if k not in dial:
            out.append("%s.%s: missing" % (where, k))
    if out:
        return out
    sensor = dial["sensor"]
    if sensor not in (SENSOR_AS5600, SENSOR_QUADRATURE, SENSOR_NONE):
        out.append("%s.sensor: %r is not as5600, quadrature or none" % (where, sensor))
    if not isinstance(dial["detents"], int) or not 2 <= dial["detents"] <= 64:
        out.append(where + ".detents: must be an integer 2..64")
    if not isinstance(dial["pulses"], int) or not 1 <= dial["pulses"] <= 16:
        out.append(where + ".pulses: must be an integer 1..16")
    if dial["direction"] not in (1, -1):
        out.append(where + ".direction: must be 1 or -1")
    if not isinstance(dial["zero"], int):
        out.append(where + ".zero: must be an integer")
    if sensor == SENSOR_QUADRATURE and not (isinstance(dial["quad"], int)
                                            and 0 <= dial["quad"] < MAX_QUADRATURE_DIALS):
        out.append("%s.quad: must be 0..%d for a quadrature dial"
                   % (where, MAX_QUADRATURE_DIALS - 1))
    if sensor == SENSOR_AS5600:
        if dial["mux"] not in MUX_ADDRS:
            addrs = ", ".join("0x%02x" % a for a in MUX_ADDRS)
            out.append("%s.mux: must be one of %s" % (where, addrs))
        if not isinstance(dial["channel"], int) or not 0 <= dial["channel"] <= 7:
            out.append(where + ".channel: must be 0..7")
    return out
