# dialrig.hw_sim — the simulated tray: the hardware boundary for the MicroPython unix port.
#
# This is the only fake in the system, and it fakes only what sits below the firmware: the
# physical dials, the PIO counters, the I2C parts, the button, the LEDs, the watchdog. It behaves
# like the hardware, faults included:
#   - a dial turn takes time; quadrature contacts bounce (the count flickers by ±1 while moving
#     and for a few ms after) — the PIO program still counts every transition;
#   - AS5600 sensors (dialrig.sim_i2c) read the physical angle with noise, report a missing
#     magnet, or stop answering (NAK);
#   - the physical position of every dial survives a reboot (the controller passes it in
#     DIALRIG_SIM_STATE), but PIO counters start from zero, so quadrature dials lose track exactly
#     as real incremental encoders do;
#   - the watchdog is external, as in silicon: the controller process restarts the firmware when
#     feeds stop;
#   - each dial moves on its own clock (Board.dial_clock), which runs on only while the firmware
#     looks at that dial: real time between two reads of its sensor, but never more than
#     sample_ms + UNSEEN_SLACK_MS, nor so much that the dial moved over half a detent. A Pico
#     reads every dial every millisecond or so and sees each detent; a MicroPython process on a
#     busy computer can be off the CPU for a tenth of a second between two reads of one dial,
#     and a dial that went on moving meanwhile would make a whole turn unseen (an absolute
#     sensor cannot tell it from none) or more than half of one (read the short way round,
#     backwards: the firmware follows a dial from one on-detent reading to the next, so reads
#     that land between detents widen the gap). The dial waits for the firmware instead, as
#     the world waits for an emulated chip whose time is paused.
#
# Control channel: the controller (host/dialtray/virtual) writes text lines to the FIFO named by
# DIALRIG_SIM_CTRL and reads the FIFO named by DIALRIG_SIM_OUT. Lines in:
#   turn K DELTA [MS]   turn dial K (= dock*2+dial) by DELTA detents over MS milliseconds
#   pos K TICKS         set dial K's physical position (1000 ticks = 1 detent), instantly
#   magnet K 0|1        remove / refit the magnet under dial K
#   nak K 0|1           make dial K's AS5600 stop / resume answering on I2C
#   muxnak ADDR 0|1     the TCA9548A at ADDR (decimal or 0x..) loses / regains its power: it
#                       stops answering and its channels go off
#   gap K MM|-          the air gap between dial K's magnet and its AS5600 in mm (float; "-":
#                       no gap model, the magnet is simply in range): sim_i2c.SimAS5600.set_gap
#   button 0|1          the roll button released / held
#   bounce 0|1          contact bounce on quadrature dials off / on
#   hang MS             block the event loop for MS ms (a firmware bug: the watchdog must bite)
# Lines out: `at K TICKS` when the firmware finds dial K somewhere new (its physical position as
# the firmware's last look at it saw it, mid-turn too: the virtual camera films the same dial,
# on the same clock, so camera and encoder never see two different motions), `leds HEX` when
# the LED frame changes (the whole chain as the panel would light it:
# the dice's pips, then the d10 ring; dialrig.dice.shown_face / shown_ring read a die's face and
# the ring's d10 back from it, as a person reads the panel), `wdt MS` when the watchdog starts
# (0 when disabled), `feed`, `reset REASON` before the process exits for a reset.
import asyncio
import os
import sys
import time
from array import array

from dialrig import config, proto
from dialrig.sim_i2c import SimAS5600, SimI2C

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module; the names serve type comments only
    from typing import Any  # noqa: F401

TICKS_PER_DETENT = 1000
DEFAULT_TURN_MS = 8  # a brisk click of a clix dial
BOUNCE_TAIL_MS = 3
# How far a dial's clock runs on past the firmware's last read of it, beyond the sampling pause:
# room for the scheduling delays of a process that runs (a sampler wakes a few ms late), far
# less than half a turn at the fastest pace a test turns a dial (6 detents of 6 ms).
UNSEEN_SLACK_MS = 20
# The most a dial moves between two reads of it. Less than a detent, and not one: the firmware
# takes a reading only in the middle 70 % of a detent's bin (dialrig.dials), and a dial moving
# a whole detent a read lands in the gap at every read once it did at one.
HALF_DETENT = TICKS_PER_DETENT // 2
RESET_EXIT_CODE = 75


class Board:
    def __init__(self, cfg):
        self.cfg = cfg
        self.n = len(cfg["docks"]) * 2
        n = self.n
        self.uid = _uid()
        self.i2c = SimI2C()
        muxes = {}
        for addr in config.MUX_ADDRS:
            muxes[addr] = self.i2c.add_mux(addr)
        self.muxes = muxes  # the TCA9548As by address (the `muxnak` control line)
        self.sensors = [None] * n  # type: list
        self.detents = bytearray(n)
        self.pulses = bytearray(n)
        self.mount = array("i", bytes(4 * n))  # magnet angle at physical position 0
        self.quad_dial = bytearray(config.MAX_QUADRATURE_DIALS)
        self.quad_wired = bytearray(config.MAX_QUADRATURE_DIALS)
        for d in range(len(cfg["docks"])):
            for i in range(2):
                k = d * 2 + i
                dial = cfg["docks"][d][i]
                self.detents[k] = dial["detents"]
                self.pulses[k] = dial["pulses"]
                if dial["sensor"] == config.SENSOR_AS5600:
                    s = SimAS5600(seed=0xACE1 + k)  # independent noise per sensor
                    # It reads the magnet where the dial is at the moment of the read, as a
                    # real AS5600 does: that read is the firmware's look at the dial.
                    s.on_read = self._looker(k)
                    muxes[dial["mux"]].attach(dial["channel"], s)
                    self.sensors[k] = s
                    self.mount[k] = dial["zero"]
                elif dial["sensor"] == config.SENSOR_QUADRATURE:
                    self.quad_dial[dial["quad"]] = k
                    self.quad_wired[dial["quad"]] = 1
        # Physical motion of each dial, in ticks: linear from `start` at t0 to `target` at t1.
        self.start = array("i", bytes(4 * n))
        self.target = array("i", bytes(4 * n))
        self.t0 = array("i", bytes(4 * n))
        self.t1 = array("i", bytes(4 * n))
        self.at_boot = array("i", bytes(4 * n))  # where the dial was when the PIO started
        self.bounce = False
        self.held = False
        self.leds = b""
        self.wdt_ms = 0
        # The flash is slow to program: the virtual tray can stretch a save (ms per line) so a
        # test can cut the power in the middle of one.
        self.flash_ms = int(_env("DIALRIG_SIM_FLASH_MS", "0"))
        self._seed = 0
        # Each dial's clock (dial_clock) and the real time of the firmware's last look at it;
        # the dial's motion (t0, t1) is timed on its clock.
        self.clk = array("i", bytes(4 * n))
        self.looked = array("i", bytes(4 * n))
        real = time.ticks_ms()
        for k in range(n):
            self.clk[k] = real  # type: ignore[call-overload]
            self.looked[k] = real  # type: ignore[call-overload]
        self._restore_state()
        # Where the controller was last told each dial is (`at` lines): as restored, at first.
        self.shown = array("i", bytes(4 * n))
        for k in range(n):
            self.shown[k] = self.target[k]  # type: ignore[call-overload]
        self._ctrl = None  # type: Any
        self._out = None  # type: Any
        self._open_channels()
        self.physics(time.ticks_ms())

    # ---- the Board interface ----------------------------------------------------------------

    def quad_count(self, n):
        k = self.quad_dial[n]
        now = self._look(k, time.ticks_ms())  # (reading the PIO count is a look at the dial)
        ticks = self._position(k, now) - self.at_boot[k]
        count = ticks * 4 * self.pulses[k] // TICKS_PER_DETENT
        if self.bounce and time.ticks_diff(now, self.t1[k]) < BOUNCE_TAIL_MS and \
                time.ticks_diff(now, self.t0[k]) >= 0:
            # Contact bounce: the last transition flickers back and forth until it settles.
            # (small-int arithmetic only: this runs in the sampling loop and must not allocate)
            if ((now >> 1) ^ k) & 1:  # type: ignore[operator]
                count -= 1 if self.target[k] >= self.start[k] else -1
        return count

    def button(self):
        return self.held

    def show_leds(self, buf):
        if buf != self.leds:
            self.leds = bytes(buf)
            self._emit("leds " + _hex(self.leds))

    def entropy_into(self, buf):
        if self._seed:
            # A seeded run (tests) must be reproducible: xorshift32.
            x = self._seed
            for i in range(len(buf)):
                x ^= (x << 13) & 0xFFFFFFFF
                x ^= x >> 17
                x ^= (x << 5) & 0xFFFFFFFF
                buf[i] = x & 0xFF
            self._seed = x
        else:
            buf[:] = os.urandom(len(buf))

    def status_led(self, on):
        pass

    def boot_reason(self):
        return int(_env("DIALRIG_BOOT_REASON", "0"))

    def ensure_quad(self, n):
        return 0 <= n < config.MAX_QUADRATURE_DIALS and bool(self.quad_wired[n])

    def mux_reset(self):
        self.i2c.mux_reset()

    def watchdog_start(self, ms):
        self.wdt_ms = ms
        self._emit("wdt %d" % ms)

    def watchdog_feed(self):
        if self.wdt_ms:
            self._emit("feed")

    def background(self):
        return [self._control_task()] if self._ctrl is not None else []

    def set_ctrl_c(self, enabled):
        """kbd_intr, as on the Pico. The unix port turns kbd_intr(3) into a SIGINT handler and
        kbd_intr(-1) into none; the virtual tray's USB bridge raises SIGINT for a 0x03 only
        while the handler is there and otherwise hands the byte over as data, as the Pico's
        USB CDC does (host/dialtray/virtual/bridge.py). The pty itself has no signal
        characters at all."""
        import micropython

        micropython.kbd_intr(3 if enabled else -1)

    def deinit(self):
        self.set_ctrl_c(True)
        self.wdt_ms = 0
        self._emit("wdt 0")
        self.show_leds(bytes(len(self.leds)))

    def reset(self, reason=proto.BOOT_SOFT):
        self._emit("reset %d" % reason)
        sys.exit(RESET_EXIT_CODE)

    # ---- the physical world ------------------------------------------------------------------

    def turn(self, k, detents, ms=DEFAULT_TURN_MS):
        """A person turns dial k by `detents` clicks (signed), taking `ms` milliseconds.

        A turn that comes while the dial still moves follows the one before, at its own pace:
        turns the controller made apart but MicroPython reads together (it was not given the
        CPU in between) play back to back, as a Pico, reading its dials every millisecond,
        would have seen them, not as one impossibly fast spin squeezed into the last turn's
        `ms` (eight clicks in 6 ms, which no sampler could follow)."""
        now = self.clk[k]  # where the firmware last saw the dial: nothing moves it unseen
        left = time.ticks_diff(self.t1[k], now)  # of the motion under way, if there is one
        if left > time.ticks_diff(self.t1[k], self.t0[k]):
            left = 0  # t0/t1 of a dial never turned (0) or a motion long over, wrapped round
        self.start[k] = self._position(k, now)
        self.target[k] += detents * TICKS_PER_DETENT
        self.t0[k] = now  # type: ignore[call-overload]
        self.t1[k] = time.ticks_add(now, max(1, ms) + max(0, left))  # type: ignore[call-overload]

    def set_position(self, k, ticks):
        now = self.clk[k]
        self.start[k] = ticks
        self.target[k] = ticks
        self.t0[k] = now  # type: ignore[call-overload]
        self.t1[k] = now  # type: ignore[call-overload]

    def set_magnet(self, k, present):
        if self.sensors[k] is not None:
            self.sensors[k].magnet = present

    def set_nak(self, k, nak):
        if self.sensors[k] is not None:
            self.sensors[k].nak = nak

    def set_gap(self, k, mm):
        if self.sensors[k] is not None:
            self.sensors[k].set_gap(mm)

    def dial_clock(self, k, real):
        """Dial k's time at real time ``real`` (ticks_ms): real time since the firmware last
        read the dial, but at most sample_ms + UNSEEN_SLACK_MS of it, and never so much that
        the dial moved more than half a detent since that read (see the header). Hot."""
        now = self.clk[k]
        step = time.ticks_diff(real, self.looked[k])
        if step <= 0:
            return now
        limit = self.cfg["sample_ms"] + UNSEEN_SLACK_MS
        if step > limit:
            step = limit
        t1 = self.t1[k]
        if time.ticks_diff(t1, now) > 0:  # a motion under way (or about to begin)
            t0 = self.t0[k]
            dist = self.target[k] - self.start[k]
            if dist < 0:
                dist = -dist
            if dist > HALF_DETENT:  # linear from t0 to t1: half a detent takes this long
                ahead = time.ticks_diff(t0, now)
                most = (ahead if ahead > 0 else 0) + \
                    max(1, HALF_DETENT * time.ticks_diff(t1, t0) // dist)
                if step > most:
                    step = most
        return time.ticks_add(now, step)

    def _look(self, k, real):
        """The firmware reads dial k at real time ``real``: its clock moves on to then."""
        now = self.dial_clock(k, real)
        self.clk[k] = now  # type: ignore[call-overload]
        if time.ticks_diff(real, self.looked[k]) > 0:
            self.looked[k] = real  # type: ignore[call-overload]
        pos = self._position(k, now)
        if pos != self.shown[k]:  # (only while the dial moves: a line per look, no more)
            self.shown[k] = pos  # type: ignore[call-overload]
            if self._out is not None:  # (formatted only when someone listens: a board with
                self._emit("at %d %d" % (k, pos))  # no controller allocates nothing here)
        return now

    def _looker(self, k):
        """What dial k's simulated AS5600 calls as a read begins (made once per dial)."""
        def look():
            self._move_magnet(k, self._look(k, time.ticks_ms()))
        return look

    def _move_magnet(self, k, now):
        per_rev = self.detents[k] * TICKS_PER_DETENT
        turned = self._position(k, now) % per_rev * 4096 // per_rev
        self.sensors[k].angle = (self.mount[k] + turned) % 4096

    def physics(self, real):
        """Every AS5600's magnet where its dial is at real time ``real``: a look at every dial
        (the board at start-up; tests that step the dials themselves)."""
        for k in range(self.n):
            if self.sensors[k] is not None:
                self._move_magnet(k, self._look(k, real))

    def _position(self, k, now):
        t1 = self.t1[k]
        if time.ticks_diff(now, t1) >= 0:
            return self.target[k]
        t0 = self.t0[k]
        span = time.ticks_diff(t1, t0)
        done = time.ticks_diff(now, t0)
        if done <= 0:
            return self.start[k]
        return self.start[k] + (self.target[k] - self.start[k]) * done // span

    def _restore_state(self):
        """Physical positions and faults carried over from before the reboot (or power-off)."""
        seed = _env("DIALRIG_SEED", "")
        self._seed = (int(seed) & 0xFFFFFFFF) or 1 if seed else 0
        self.bounce = _env("DIALRIG_SIM_BOUNCE", "0") == "1"
        state = _env("DIALRIG_SIM_STATE", "")
        if not state:
            return
        for k, item in enumerate(state.split(",")):
            if k >= self.n or not item:
                continue
            parts = item.split(":")
            self.set_position(k, int(parts[0]))
            self.at_boot[k] = int(parts[0])
            if len(parts) > 1 and self.sensors[k] is not None:
                self.sensors[k].magnet = "m" not in parts[1]
                self.sensors[k].nak = "n" in parts[1]
            if len(parts) > 2 and parts[2] and self.sensors[k] is not None:
                self.sensors[k].set_gap(float(parts[2]))

    # ---- control channel -----------------------------------------------------------------------

    def _open_channels(self):
        ctrl = _env("DIALRIG_SIM_CTRL", "")
        out = _env("DIALRIG_SIM_OUT", "")
        if out:
            self._out = open(out, "w")
        if ctrl:
            self._ctrl = open(ctrl, "rb")  # asyncio's readline builds bytes

    def _emit(self, line):
        if self._out is not None:
            # MicroPython files are unbuffered; flush() would fsync, which a FIFO refuses.
            self._out.write(line + "\n")

    async def _control_task(self):
        # An asyncio stream wakes the moment the controller writes, so a turn starts on time;
        # the magnets are moved when they are read (LiveI2C), not by this task.
        reader = asyncio.StreamReader(self._ctrl)
        while True:
            line = await reader.readline()
            if not line:  # the controller is gone: the tray has lost power
                sys.exit(0)
            self.command(line.decode())

    def command(self, line):
        """Apply one control line; unknown or malformed lines are reported and ignored."""
        words = line.split()
        if not words:
            return
        try:
            op = words[0]
            if op == "turn":
                ms = int(words[3]) if len(words) > 3 else DEFAULT_TURN_MS * abs(int(words[2]))
                self.turn(int(words[1]), int(words[2]), ms)
            elif op == "pos":
                self.set_position(int(words[1]), int(words[2]))
            elif op == "magnet":
                self.set_magnet(int(words[1]), words[2] == "1")
            elif op == "nak":
                self.set_nak(int(words[1]), words[2] == "1")
            elif op == "muxnak":
                addr = int(words[1], 16) if words[1].startswith("0x") else int(words[1])
                if addr in self.muxes:  # a multiplexer that lost its power: channels off too
                    self.muxes[addr].nak = words[2] == "1"
                    if words[2] == "1":
                        self.muxes[addr].reset()
            elif op == "gap":
                self.set_gap(int(words[1]), None if words[2] == "-" else float(words[2]))
            elif op == "button":
                self.held = words[1] == "1"
            elif op == "bounce":
                self.bounce = words[1] == "1"
            elif op == "hang":
                time.sleep_ms(int(words[1]))
            else:
                self._emit("error unknown control line: " + line.strip())
        except (IndexError, ValueError):
            self._emit("error bad control line: " + line.strip())


def _env(name, default):
    v = os.getenv(name)
    return default if v is None else v


def _uid():
    h = _env("DIALRIG_UID", "5349cd7472617930")
    out = bytearray(8)
    for i in range(8):
        out[i] = int(h[2 * i : 2 * i + 2], 16)
    return bytes(out)


def _hex(b):
    return "".join("%02x" % x for x in b)
