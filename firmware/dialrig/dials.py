# dialrig.dials — from raw sensor readings to settled dial clicks.
#
# A clix dial clicks into detents, but the sensor under it sees everything in between: contact
# bounce on a quadrature encoder, ±1 LSB noise and the travel between detents on an AS5600. As
# PicoChess waits for a DGT board to settle before judging a move, a click is reported only when
# the dial has rested on a new detent for `settle_ms`; one report carries the signed number of
# clicks since the last one (a fast spin of three clicks is one event with delta 3).
#
# An AS5600 only knows the angle within one revolution, so an absolute dial is followed detent by
# detent between samples (the short way round from the last detent read, which at one sample a
# millisecond is always right): a spin of more than half a turn before it settles is reported
# with its true delta (+7 on a 12-detent dial), not the short way back from where it started (−5).
#
# Faults are reported once when they start and once when they clear; a faulted sensor is retried
# every RETRY_MS rather than every sample, so a dead sensor costs no bus time and raises no
# exception per sample.
#
# sample() is the hot path: it runs every sample_ms and must not allocate. All per-dial state
# lives in preallocated arrays; integer arithmetic only (floats are boxed on the RP2040 port).
import errno
import time
from array import array

import micropython

from dialrig import config, proto
from dialrig.as5600 import AS5600
from dialrig.tca9548a import MuxBus

RETRY_MS = 250
ANGLE_RANGE = 4096
# An AS5600 reading counts as "on a detent" only within the middle 70% of the detent's bin;
# between bins the dial is travelling and the settle timer restarts.
DEAD_BAND = ANGLE_RANGE * 35 // 100

K_NONE = 0
K_AS5600 = 1
K_QUAD = 2
_KIND = {config.SENSOR_NONE: K_NONE, config.SENSOR_AS5600: K_AS5600,
         config.SENSOR_QUADRATURE: K_QUAD}


class Dials:
    """Every dial on the tray: dial k = dock * 2 + (0 combat, 1 speed)."""

    def __init__(self, cfg, board, ring):
        self.board = board
        self.ring = ring
        self.n = len(cfg["docks"]) * 2
        n = self.n
        self.settle_ms = cfg["settle_ms"]
        self.mux = MuxBus(board.i2c)
        self.kind = bytearray(n)
        self.quad = bytearray(n)
        self.detents = bytearray(n)
        self.pulses = bytearray(n)
        self.direction = array("b", bytes(n))
        self.zero = array("i", bytes(4 * n))
        self.reported = array("i", bytes(4 * n))
        self.last = array("i", bytes(4 * n))  # AS5600: the last detent read (0..detents-1)
        self.moved = array("i", bytes(4 * n))  # AS5600: clicks followed since the last report
        self.candidate = array("i", bytes(4 * n))
        self.since = array("i", bytes(4 * n))
        self.retry_at = array("i", bytes(4 * n))
        self.raw = array("i", bytes(4 * n))
        self.status = bytearray(n)
        self.known = bytearray(n)
        self.sensors = [None] * n  # type: list
        for d in range(len(cfg["docks"])):
            for i in range(2):
                self.configure(d * 2 + i, cfg["docks"][d][i])

    def configure(self, k, dial):
        """(Re)configure dial k from a validated config dict. Position tracking restarts."""
        self.kind[k] = _KIND[dial["sensor"]]
        self.detents[k] = dial["detents"]
        self.pulses[k] = dial["pulses"]
        self.direction[k] = dial["direction"]
        self.zero[k] = dial["zero"]
        self.known[k] = 0
        self.reported[k] = 0
        self.candidate[k] = 0
        self.last[k] = 0
        self.moved[k] = 0
        self.since[k] = time.ticks_ms()  # type: ignore[call-overload]
        self.sensors[k] = None
        if self.kind[k] == K_AS5600:
            self.sensors[k] = AS5600(self.board.i2c, self.mux, dial["mux"], dial["channel"])
            self.status[k] = proto.ST_OK
        elif self.kind[k] == K_QUAD:
            # An incremental encoder only knows how far it moved since power-up: whatever
            # happened while the tray was off is invisible, so it starts "lost track" and its
            # positions are relative to boot until the host confirms the dial.
            self.quad[k] = dial["quad"]
            self.status[k] = proto.ST_LOST_TRACK
            self.known[k] = 1
        else:
            self.status[k] = proto.ST_NONE

    def announce_boot(self, now):
        """Log what every dial knows at boot: quadrature dials say they lost track."""
        for k in range(self.n):
            if self.kind[k] == K_QUAD:
                self.ring.append(now, proto.EV_FAULT, k >> 1, k & 1, proto.ST_LOST_TRACK, 0)

    @micropython.native
    def sample(self, now):
        """Read every dial once; log settled clicks and fault changes. Hot path: no allocation."""
        for k in range(self.n):
            kind = self.kind[k]
            if kind == K_NONE:
                continue
            st = self.status[k]
            if (st == proto.ST_NAK or st == proto.ST_NO_MAGNET) and \
                    time.ticks_diff(now, self.retry_at[k]) < 0:
                continue
            if kind == K_QUAD:
                raw = self.board.quad_count(self.quad[k])
                self.raw[k] = raw
                self._settle(k, self._quad_position(k, raw), now)
                continue
            try:
                raw = self.sensors[k].read_angle()
            except OSError as e:
                if e.errno == errno.ETIMEDOUT:
                    # SCL held low (a part wedged mid-transfer; machine.I2C timed out): the
                    # muxes' RESET cuts every channel off the bus and frees it. Without it
                    # every later transfer times out too and every AS5600 dial stays faulted.
                    self.board.mux_reset()
                self._fault(k, proto.ST_NAK, now)
                continue
            if raw < 0:
                self._fault(k, proto.ST_NO_MAGNET, now)
                continue
            self.raw[k] = raw
            if st == proto.ST_NAK or st == proto.ST_NO_MAGNET:
                self.status[k] = proto.ST_OK
                self.ring.append(now, proto.EV_FAULT_CLEARED, k >> 1, k & 1, st, 0)
            pos = self._angle_position(k, raw)
            if pos < 0:
                self.since[k] = now  # travelling between detents: not settled
                continue
            if not self.known[k]:
                # First good reading after boot or a fault at boot: this is where the dial is.
                self.known[k] = 1
                self.reported[k] = pos
                self.candidate[k] = pos
                self.last[k] = pos
                self.moved[k] = 0
                continue
            # Follow the dial the short way from the last detent read (small ints: no allocation).
            n = self.detents[k]
            step = (pos - self.last[k]) % n
            if step > n // 2:
                step -= n
            self.moved[k] += step
            self.last[k] = pos
            self._settle(k, pos, now)

    @micropython.native
    def _settle(self, k, pos, now):
        if pos != self.candidate[k]:
            self.candidate[k] = pos
            self.since[k] = now
            return
        absolute = self.kind[k] == K_AS5600
        if time.ticks_diff(now, self.since[k]) < self.settle_ms or \
                (self.moved[k] == 0 if absolute else pos == self.reported[k]):
            return
        if absolute:
            # The clicks followed since the last report (a whole turn too), not pos − reported
            # the short way round, which is wrong for a spin of more than half a turn.
            delta = self.moved[k]
            self.moved[k] = 0
        else:
            delta = pos - self.reported[k]
        self.reported[k] = pos
        self.ring.append(now, proto.EV_CLICK, k >> 1, k & 1, pos, delta)

    def _fault(self, k, code, now):
        self.retry_at[k] = time.ticks_add(now, RETRY_MS)
        if self.status[k] != code:
            self.status[k] = code
            self.ring.append(now, proto.EV_FAULT, k >> 1, k & 1, code, 0)

    def _quad_position(self, k, raw):
        per_detent = 4 * self.pulses[k]
        v = (raw - self.zero[k]) * self.direction[k]
        return (v + (per_detent >> 1)) // per_detent

    @micropython.native
    def _angle_position(self, k, raw):
        """Detent index 0..detents-1 for an AS5600 angle, or -1 between detents."""
        scaled = ((raw - self.zero[k]) * self.direction[k]) % ANGLE_RANGE
        x = scaled * self.detents[k] + ANGLE_RANGE // 2
        off = x % ANGLE_RANGE - ANGLE_RANGE // 2
        if off > DEAD_BAND or off < -DEAD_BAND:
            return -1
        return (x // ANGLE_RANGE) % self.detents[k]

    def faulted_mask(self):
        """Bitmask of dials whose sensor is faulted now (self-test report)."""
        m = 0
        for k in range(self.n):
            if self.status[k] == proto.ST_NAK or self.status[k] == proto.ST_NO_MAGNET:
                m |= 1 << k
        return m
