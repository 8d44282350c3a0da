# dialrig.sim_i2c — the simulated I2C hardware behind the virtual tray (hw_sim.Board.i2c).
"""A machine.I2C-like bus with TCA9548A multiplexers and AS5600 encoders that act like the parts.

Wiring it up (what hw_sim does)::

    bus = SimI2C()
    mux = bus.add_mux(0x70)                  # a TCA9548A straight on the bus
    dial = mux.attach(3, SimAS5600())        # an AS5600 (0x36) on its channel 3
    dial.angle = 1234.5                      # the magnet's angle, 0..4096 (float ok)

What the real hardware does, and so what the simulation does:

* Nobody ACKs the address: the RP2040's hardware I2C aborts the transfer and MicroPython's rp2
  port raises ``OSError(EIO)`` (machine_i2c.c maps every pico-sdk error but a timeout to EIO;
  only a zero-length write, which rp2 bit-bangs through SoftI2C, raises ``OSError(ENODEV)``).
  ``SimI2C(nodev_errno=errno.ENODEV)`` imitates a SoftI2C bus instead. A bus held stuck
  (``bus.stuck = True``) raises ``OSError(ETIMEDOUT)`` like the rp2 timeout.
* A data byte NAKed in a write is *not* an exception: ``writeto`` returns the number of bytes
  ACKed, and ``readfrom_mem_into`` returns silently with the buffer untouched when the register
  address is NAKed (that is what extmod/machine_i2c.c does; the AS5600 NAKs invalid registers).
* The TCA9548A control register is one byte, one bit per channel; several channels (or two
  multiplexers) may be on at once. Every AS5600 answers 0x36, so when two of them are visible
  they both drive SDA: the address is ACKed, and each byte read is the wired-AND of theirs.
* An AS5600 without its magnet clears STATUS.MD (and sets ML: the AGC runs out of gain) and its
  angle registers read noise. ``nak = True`` makes a chip stop answering (a loose wire).
* ``SimAS5600.jitter`` adds a deterministic ±1 LSB of noise, like a real sensor at rest.
* ``SimAS5600.set_gap(mm)`` puts the magnet ``mm`` above the chip: the field falls with the
  gap (a 6x2.5 mm diametric magnet: ~90 mT at 0.5 mm, ~30 mT at 3 mm), the AGC register
  follows it (0 at >= 90 mT: MH, too strong; 128 at <= 30 mT: ML, too weak; in between on a log
  scale, like the chip's gain loop at 3.3 V), and below ~8 mT (about 8 mm) MD clears: no magnet.

The read paths (``readfrom_into``, ``readfrom_mem_into``, ``writeto``) do not allocate: the
allocation benchmark runs them every sample.
"""

import errno

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from micropython import const
else:
    try:
        from micropython import const
    except ImportError:  # CPython (the host imports this module too)

        def const(x):
            return x


# AS5600 registers (datasheet v1-06, figure 21).
_ZMCO = const(0x00)
_CONF_LAST = const(0x08)  # 0x01..0x08: ZPOS, MPOS, MANG, CONF (read/write)
_STATUS = const(0x0B)
_RAW_ANGLE = const(0x0C)
_ANGLE = const(0x0E)
_AGC = const(0x1A)
_MAGNITUDE = const(0x1B)
_BURN = const(0xFF)

_MD = const(0x20)  # magnet detected
_ML = const(0x10)  # magnet too weak (AGC at maximum gain)
_MH = const(0x08)  # magnet too strong (AGC at minimum gain)

_MAX_RESPONDERS = const(16)

# The magnet-distance model (set_gap): field in mT = _FIELD_K / (gap_mm + _FIELD_C) ** 2, fitted
# through 90 mT at 0.5 mm and 30 mT at 3 mm (the datasheet's 0.5-3 mm air gap for its 30-90 mT
# range). Below _FIELD_MIN the chip sees no magnet at all.
_FIELD_K = 1049.0
_FIELD_C = 2.915
_FIELD_HIGH = 90.0  # AGC 0 at or above: STATUS.MH
_FIELD_LOW = 30.0  # AGC 128 at or below: STATUS.ML
_FIELD_MIN = 8.0  # STATUS.MD clears
AGC_MAX = 128  # the 3.3 V AGC range


def _xorshift16(x):
    # A 16-bit xorshift: stays a small int on every port (no bignum, no allocation).
    x ^= (x << 7) & 0xFFFF
    x ^= x >> 9
    x ^= (x << 8) & 0xFFFF
    return x


class SimAS5600:
    """One AS5600 magnetic encoder at address 0x36.

    Attributes the simulation sets:
      angle    the magnet's angle in sensor units, any number (wrapped into 0..4095; float ok)
      magnet   False: no magnet on the dial (STATUS.MD=0, ML=1, the angle reads as noise)
      field    0 in range, -1 too weak (STATUS.ML), +1 too strong (STATUS.MH); MD stays set
      nak      True: the chip does not answer its address at all
      jitter   True: each read adds -1, 0 or +1 LSB (deterministic, from a 16-bit xorshift)
      gap      None, or the air gap in mm set by set_gap() (then it decides STATUS and AGC,
               and ``field`` is derived from it)

    Registers: ZMCO, ZPOS/MPOS/MANG/CONF (stored, 0x01..0x08), STATUS, RAW ANGLE, ANGLE (RAW
    ANGLE minus ZPOS; MPOS/MANG scaling is not modelled), AGC (3.3 V range 0..128), MAGNITUDE,
    BURN (accepted, ignored). Other register addresses are NAKed on write and read as 0, and the
    address pointer auto-increments, except that a pointer set to the high byte of RAW ANGLE,
    ANGLE or MAGNITUDE returns to it after the low byte (re-reads need no new address).
    """

    def __init__(self, angle=0, addr=0x36, seed=0xACE1):
        self.addr = addr
        self.angle = angle
        self.magnet = True
        self.field = 0
        self.nak = False
        self.jitter = False
        self.gap = None  # type: Any
        self._gap_agc = -1  # AGC from the gap model; -1: the gap model is off (use `field`)
        self._gap_far = False  # the magnet is too far away to be detected at all
        self._gap_mag = 0
        self.reads = 0  # read transactions answered (tests use it to see bus traffic)
        # Called as a read transaction begins (the virtual board moves the magnet to where its
        # dial is at that moment: dialrig.hw_sim); None: the angle is whatever was set.
        self.on_read = None  # type: Any
        self._rng = (seed & 0xFFFF) or 1
        self._regs = bytearray(_CONF_LAST + 1)
        self._ptr = 0
        self._hold = False  # the pointer was set to a special register's high byte
        self._first = False  # next byte of a write transaction is the word address
        self._raw = 0  # 12-bit output latched at the start of a read transaction
        self._mag = 0

    def set_gap(self, mm):
        """Put the magnet mm (float ok) above the chip; None: back to the ``field`` attribute.
        Not a hot path: the floats are worked out here once, reads use the integers."""
        self.gap = mm
        if mm is None:
            self._gap_agc = -1
            self._gap_far = False
            self.field = 0
            return
        import math

        b = _FIELD_K / (max(0.0, mm) + _FIELD_C) ** 2
        self._gap_far = b < _FIELD_MIN
        self.field = 1 if b >= _FIELD_HIGH else (-1 if b <= _FIELD_LOW else 0)
        if b >= _FIELD_HIGH:
            agc = 0
        elif b <= _FIELD_LOW:
            agc = AGC_MAX
        else:
            agc = round(AGC_MAX * math.log(_FIELD_HIGH / b) / math.log(_FIELD_HIGH / _FIELD_LOW))
        self._gap_agc = int(agc)
        # The gain loop holds the magnitude near 2000 while it can; outside it follows the field.
        mag = 2000 * b / _FIELD_HIGH if b >= _FIELD_HIGH else (
            2000 * b / _FIELD_LOW if b <= _FIELD_LOW else 2000)
        self._gap_mag = min(4095, int(mag))

    def field_mt(self):
        """The field at the chip in mT under the gap model (None without one): diagnostics."""
        if self.gap is None:
            return None
        return _FIELD_K / (max(0.0, self.gap) + _FIELD_C) ** 2

    # -- the device side of the simulated bus (SimI2C calls these) -----------------------------
    def acks(self):
        return not self.nak

    def start(self, read):
        if not read:
            self._first = True
            return
        self.reads += 1
        if self.on_read is not None:
            self.on_read()
        rng = _xorshift16(self._rng)
        self._rng = rng
        if not self.magnet or self._gap_far:
            self._raw = rng & 0xFFF
            self._mag = rng & 0x1F
            return
        raw = round(self.angle)
        if self.jitter:
            raw += rng % 3 - 1
        self._raw = raw & 0xFFF
        if self._gap_agc >= 0:
            self._mag = self._gap_mag
        else:
            self._mag = 300 if self.field < 0 else (4000 if self.field > 0 else 2000)

    def write(self, byte):
        if self._first:
            self._first = False
            self._ptr = byte
            self._hold = byte in (_RAW_ANGLE, _ANGLE, _MAGNITUDE)
            return _valid(byte)
        ptr = self._ptr
        self._ptr = (ptr + 1) & 0xFF
        if 0 < ptr <= _CONF_LAST:
            self._regs[ptr] = byte
            return True
        return ptr == _BURN

    def read(self):
        ptr = self._ptr
        v = self._reg(ptr)
        if self._hold and (ptr == _RAW_ANGLE + 1 or ptr == _ANGLE + 1 or ptr == _MAGNITUDE + 1):
            self._ptr = ptr - 1
        else:
            self._ptr = (ptr + 1) & 0xFF
        return v

    def _reg(self, r):
        if r == _STATUS:
            if not self.magnet or self._gap_far:
                return _ML
            if self.field < 0:
                return _MD | _ML
            if self.field > 0:
                return _MD | _MH
            return _MD
        if r == _RAW_ANGLE:
            return self._raw >> 8
        if r == _RAW_ANGLE + 1:
            return self._raw & 0xFF
        if r == _ANGLE or r == _ANGLE + 1:
            zpos = ((self._regs[1] & 0x0F) << 8) | self._regs[2]
            a = (self._raw - zpos) & 0xFFF
            return a >> 8 if r == _ANGLE else a & 0xFF
        if r == _AGC:
            if self._gap_agc >= 0 and self.magnet and not self._gap_far:
                return self._gap_agc
            if not self.magnet or self.field < 0:
                return 128
            return 0 if self.field > 0 else 64
        if r == _MAGNITUDE:
            return self._mag >> 8
        if r == _MAGNITUDE + 1:
            return self._mag & 0xFF
        if r <= _CONF_LAST:
            return self._regs[r] if r else 0
        return 0


def _valid(r):
    return (r <= _CONF_LAST or _STATUS <= r <= _ANGLE + 1 or _AGC <= r <= _MAGNITUDE + 1
            or r == _BURN)


class SimMux:
    """A TCA9548A: one control byte, bit n connects downstream channel n to the bus.

    A write stores the last byte received; a read returns the control byte. ``nak = True``
    makes the multiplexer stop answering its own address (what is already switched on stays
    on); ``reset()`` is its RESET pin: every channel off.
    """

    def __init__(self, addr):
        self.addr = addr
        self.control = 0
        self.nak = False
        self.writes = 0  # control bytes written (tests count bus traffic with it)
        self.channels: list[list[Any]] = [[] for _ in range(8)]

    def attach(self, channel, device):
        """Put device (e.g. a SimAS5600) on downstream channel 0..7; returns the device."""
        if not 0 <= channel <= 7:
            raise ValueError("TCA9548A channel must be 0..7")
        self.channels[channel].append(device)
        return device

    def reset(self):
        self.control = 0

    def acks(self):
        return not self.nak

    def start(self, read):
        pass

    def write(self, byte):
        self.control = byte
        self.writes += 1
        return True

    def read(self):
        return self.control


class SimI2C:
    """machine.I2C-like bus: writeto, readfrom_into, readfrom_mem_into, writeto_mem, scan.

    ``transfers`` and ``bits`` count the traffic (bits include START/STOP and ACK bits), and
    ``bus_time_us()`` turns it into time at ``freq``, so tests can check the cost of a sample.
    """

    def __init__(self, freq=400_000, nodev_errno=errno.EIO):
        self.freq = freq
        self.nodev_errno = nodev_errno
        self.stuck = False
        self.transfers = 0
        self.bits = 0
        self._top: list[Any] = []  # devices straight on the bus
        self._muxes: list[SimMux] = []
        self._resp: list[Any] = [None] * _MAX_RESPONDERS
        self._n = 0

    # -- wiring ---------------------------------------------------------------------------------
    def add_mux(self, addr):
        mux = SimMux(addr)
        self._muxes.append(mux)
        self._top.append(mux)
        return mux

    def add_device(self, device):
        """Put a device (anything with addr/acks/start/write/read) straight on the bus."""
        self._top.append(device)
        return device

    def mux_reset(self):
        """The shared TCA9548A RESET line: every multiplexer switches all channels off."""
        for mux in self._muxes:
            mux.reset()

    def bus_time_us(self):
        return self.bits * 1_000_000 // self.freq

    # -- bus mechanics --------------------------------------------------------------------------
    def _find(self, addr):
        # Collect every device that would ACK addr right now into the preallocated _resp list.
        resp = self._resp
        n = 0
        for dev in self._top:
            if dev.addr == addr and dev.acks() and n < _MAX_RESPONDERS:
                resp[n] = dev
                n += 1
        for mux in self._muxes:
            control = mux.control
            if not control:
                continue
            for ch in range(8):
                if control & (1 << ch):
                    for dev in mux.channels[ch]:
                        if dev.addr == addr and dev.acks() and n < _MAX_RESPONDERS:
                            resp[n] = dev
                            n += 1
        self._n = n
        return n

    def _address(self, addr, read, nbytes):
        # START (or repeated START) + address byte + ACK; raises like rp2 when nobody answers.
        if self.stuck:
            raise OSError(errno.ETIMEDOUT)
        self.transfers += 1
        self.bits += 10
        n = self._find(addr)
        if not n:
            raise OSError(errno.ENODEV if nbytes == 0 else self.nodev_errno)
        resp = self._resp
        for j in range(n):
            resp[j].start(read)
        return n

    def _write_bytes(self, n, buf, count):
        # Send count bytes of buf to the n responders; returns how many were ACKed.
        resp = self._resp
        acked = 0
        for i in range(count):
            b = buf[i]
            ack = False
            for j in range(n):
                if resp[j].write(b):
                    ack = True
            self.bits += 9
            if not ack:
                break
            acked += 1
        return acked

    def _read_bytes(self, n, buf):
        resp = self._resp
        for i in range(len(buf)):
            v = 0xFF  # open drain: any device driving a 0 wins (wired-AND)
            for j in range(n):
                v &= resp[j].read()
            buf[i] = v
        self.bits += 9 * len(buf) + 1  # + STOP

    # -- the machine.I2C API --------------------------------------------------------------------
    def writeto(self, addr, buf, stop=True):
        n = self._address(addr, False, len(buf))
        acked = self._write_bytes(n, buf, len(buf))
        self.bits += 1
        return acked

    def readfrom_into(self, addr, buf, stop=True):
        n = self._address(addr, True, len(buf))
        self._read_bytes(n, buf)

    def readfrom(self, addr, nbytes, stop=True):
        buf = bytearray(nbytes)
        self.readfrom_into(addr, buf, stop)
        return bytes(buf)

    def _memaddr(self, addr, memaddr, addrsize):
        """Address the device for writing and send the register address; returns how many
        responders took it, or -1 when the register byte was not acknowledged (then the
        transfer ends with STOP and, as machine.I2C does, without an error)."""
        n = self._address(addr, False, 1)
        resp = self._resp
        shift = addrsize - 8
        while shift >= 0:
            b = (memaddr >> shift) & 0xFF
            ack = False
            for j in range(n):
                if resp[j].write(b):
                    ack = True
            self.bits += 9
            if not ack:
                self.bits += 1  # STOP
                return -1
            shift -= 8
        return n

    def readfrom_mem_into(self, addr, memaddr, buf, addrsize=8):
        if self._memaddr(addr, memaddr, addrsize) < 0:
            return
        n = self._address(addr, True, len(buf))
        self._read_bytes(n, buf)

    def readfrom_mem(self, addr, memaddr, nbytes, addrsize=8):
        buf = bytearray(nbytes)
        self.readfrom_mem_into(addr, memaddr, buf, addrsize)
        return bytes(buf)

    def writeto_mem(self, addr, memaddr, buf, addrsize=8):
        n = self._memaddr(addr, memaddr, addrsize)
        if n < 0:
            return
        self._write_bytes(n, buf, len(buf))
        self.bits += 1

    def scan(self):
        found = []
        for addr in range(0x08, 0x78):
            if not self.stuck and self._find(addr):
                found.append(addr)
        return found
