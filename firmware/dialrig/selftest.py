# dialrig.selftest — the self-test a builder runs on demand (the host's `dialtray selftest`).
#
# What a builder needs to know about each part, and how it is found out:
#   AS5600     the multiplexer answers, the chip answers behind its channel, and its STATUS
#              register: MD (magnet detected), ML (too weak: the magnet is too far), MH (too
#              strong: too close), with the AGC (0..128 at 3.3 V: how hard the chip must amplify)
#              and the CORDIC magnitude. One EV_SENSOR event per dial carries all of it, plus the
#              mux and channel, so the host can say which cable to check.
#   encoder    a quadrature counter cannot be probed: only turning it tells whether it counts.
#              Its EV_SENSOR carries the count now; the host asks the builder to turn the dials
#              and watches the clicks.
#   LEDs       WS2812s cannot be read back: the lamp test lights every LED of each die in turn
#              in red, then green, then blue (a dead colour channel shows as a missing colour,
#              a dead LED breaks the chain after it), and a person watches.
# The run ends with EV_SELFTEST (value = dials failing, extra = dice walked), the same event as
# the boot self-test, so the host knows the report is complete.
#
# Never blocks the event loop: every probe is one short I2C transfer, and the lamp walk sleeps
# between frames. Not a hot path: it runs when asked, so it may allocate.
import asyncio
import time

from dialrig import as5600, dice, proto
from dialrig.dials import K_AS5600, K_QUAD

LAMP_MS = 120  # each colour on each die: long enough for a person to see
LAMP_LEVEL = 40  # per channel: within dice.BRIGHTNESS_CAP (48) for one colour
_LAMP_GRB = ((0, LAMP_LEVEL, 0), (LAMP_LEVEL, 0, 0), (0, 0, LAMP_LEVEL))  # red, green, blue
_CHECKS = {as5600.MAGNET_NONE: proto.SENSE_NO_MAGNET, as5600.MAGNET_OK: proto.SENSE_OK,
           as5600.MAGNET_WEAK: proto.SENSE_WEAK, as5600.MAGNET_STRONG: proto.SENSE_STRONG}
_FAILED = (proto.SENSE_NO_MAGNET, proto.SENSE_WEAK, proto.SENSE_STRONG, proto.SENSE_NAK,
           proto.SENSE_MUX_NAK)


def probe(dials, cfg, k):
    """(check, value) for dial k = dock*2+dial: one EV_SENSOR's SENSE_* code and value."""
    kind = dials.kind[k]
    setting = cfg["docks"][k >> 1][k & 1]
    if kind == K_QUAD:
        return proto.SENSE_COUNTER, dials.board.quad_count(dials.quad[k])
    if kind != K_AS5600:
        return proto.SENSE_NONE, 0
    mux_addr = setting["mux"]
    channel = setting["channel"]
    where = (channel & 7) << 20 | (mux_addr & 0x7F) << 23
    try:
        dials.mux.select(mux_addr, channel)
    except OSError:
        return proto.SENSE_MUX_NAK, where
    sensor = dials.sensors[k]
    try:
        state = sensor.magnet_status()
        agc = sensor.agc()
        magnitude = sensor.magnitude()
    except OSError:
        return proto.SENSE_NAK, where
    return _CHECKS[state], where | (agc & 0xFF) | (magnitude & 0xFFF) << 8


def sensors(app, now):
    """Log one EV_SENSOR per dial; returns the mask of dials that failed."""
    dials = app.dials
    failed = 0
    for k in range(dials.n):
        check, value = probe(dials, app.cfg, k)
        if check in _FAILED:
            failed |= 1 << k
        app.ring.append(now, proto.EV_SENSOR, k >> 1, k & 1, value,
                        check | dials.kind[k] << 8)
    return failed


async def lamps(app):
    """Walk every die, then the d10 ring (dialrig.dice): all their LEDs red, green, blue in
    turn. Returns the dice walked (the ring is not a die: it is lit, not counted)."""
    display = app.display
    buf = display.buffer
    per_die = dice.PIPS * 3
    walked = 0
    for i in range(display.n_dice + 1):
        if i < display.n_dice:
            start, end = i * per_die, (i + 1) * per_die
        else:
            start, end = display.ring_at, len(buf)  # the ring, last on the chain
        for g, r, b in _LAMP_GRB:
            display.clear()
            for p in range(start, end, 3):
                buf[p] = g
                buf[p + 1] = r
                buf[p + 2] = b
            app.board.show_leds(buf)
            await asyncio.sleep_ms(LAMP_MS)
        if i < display.n_dice:
            walked += 1
    display.clear()
    app.board.show_leds(buf)
    app.display_taken = False  # the dice shown before the test are gone
    return walked


async def run(app, with_lamps):
    """The whole self-test: sensors, then the lamp test when asked, then EV_SELFTEST."""
    try:
        # A host that connects during boot may ask before the boot self-test has ended: its
        # EV_SELFTEST must come before this run's EV_SENSORs, never inside this run's report.
        while app.boot_test_running:
            await asyncio.sleep_ms(10)
        failed = sensors(app, time.ticks_ms())
        walked = await lamps(app) if with_lamps else 0
        app.ring.append(time.ticks_ms(), proto.EV_SELFTEST, 0, 0, failed, walked)
    finally:
        app.selftest_running = False
