# dialrig.as5600 — the AS5600 12-bit magnetic rotary encoder (one per clix dial) over I2C.
"""Read a dial's absolute angle from an AS5600 sitting behind a TCA9548A channel.

read_angle() reads STATUS (0x0B) and RAW ANGLE (0x0C, 0x0D) in one 3-byte burst every sample.
The three registers are adjacent, so checking the magnet costs one more byte in the same
transfer: 9 bit times, 22.5 us at 400 kHz, against ~145 us for the 3-byte read with its two
address phases (START + addr + reg + repeated START + addr + 3 data + STOP = 57 bits) and
~50 us for a channel select (one more for the other mux when a pass crosses from 0x70 to 0x71).
A pass over 16 sensors is therefore about 16 x (145 + 50) + 2 x 50 us = 3.2 ms of bus time
(plus MicroPython's call overhead), of which STATUS is 0.36 ms. (That is more than the default
2 ms sample period; the TCA9548A tops out at 400 kHz, so 16 sensors need >= 4 ms per pass.)
Reading STATUS only every Nth sample would save that but would, for up to N samples, turn the
noise of a lifted magnet into phantom clicks; a separate STATUS transaction would cost ~100 us.
So: every time.

RAW ANGLE rather than ANGLE: the dial's zero and direction live in the firmware config, and
RAW ANGLE does not depend on ZPOS/MPOS that someone may have burnt into the OTP.

When the hardware fails:
  * no magnet (lost or lifted off the dial): the chip still answers, STATUS.MD is 0 and the
    angle registers hold noise. read_angle() returns -1 instead of the noise.
  * magnet too weak / too strong (wrong air gap): STATUS.ML / MH set, MD still set and the
    angle is still usable but noisier. read_angle() returns the angle; magnet_status() (or
    magnet_state(sensor.status) after a read) tells which.
  * the chip or its multiplexer does not answer (loose cable, dead part, mux reset): machine.I2C
    raises OSError (EIO on rp2). read_angle() lets it propagate, after telling the MuxBus to
    forget its selection, so the next read rewrites the multiplexers (a mux that lost its
    control byte in a brown-out is the commonest cause of a NAK, and this heals it).
  * two sensors visible at once (both muxes on): undetectable here, prevented by MuxBus.
  * the register address byte NAKed (not an AS5600 at 0x36): machine.I2C's readfrom_mem_into
    returns without an error and without reading; STATUS is cleared before every read, so
    read_angle() returns -1 instead of the previous sample's angle.

read_angle() does not allocate: preallocated buffer, readfrom_mem_into.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from micropython import const
else:
    try:
        from micropython import const
    except ImportError:  # CPython (the host imports this module too)

        def const(x):
            return x


_STATUS = const(0x0B)
_AGC = const(0x1A)
_MAGNITUDE = const(0x1B)
_MD = const(0x20)
_ML = const(0x10)
_MH = const(0x08)

# magnet_status() / magnet_state() results.
MAGNET_NONE = 0  # STATUS.MD clear: no magnet, the angle is noise
MAGNET_OK = 1
MAGNET_WEAK = 2  # STATUS.ML: AGC at maximum gain, magnet too far or too weak
MAGNET_STRONG = 3  # STATUS.MH: AGC at minimum gain, magnet too close or too strong
MAGNET_NAMES = ("none", "ok", "weak", "strong")


def magnet_state(status):
    """Decode an AS5600 STATUS byte into MAGNET_NONE / OK / WEAK / STRONG."""
    if not status & _MD:
        return MAGNET_NONE
    if status & _ML:
        return MAGNET_WEAK
    if status & _MH:
        return MAGNET_STRONG
    return MAGNET_OK


class AS5600:
    """The AS5600 at addr on channel `channel` of the multiplexer at mux_addr.

    mux is a tca9548a.MuxBus shared by every sensor (or None for a sensor straight on the bus).
    ``status`` holds the STATUS byte of the last successful read_angle().
    """

    def __init__(self, i2c, mux, mux_addr, channel, addr=0x36):
        self.i2c = i2c
        self.mux = mux
        self.mux_addr = mux_addr
        self.channel = channel
        self.addr = addr
        self.status = 0
        self._buf = bytearray(3)  # STATUS, RAW ANGLE high, RAW ANGLE low
        self._one = bytearray(1)
        self._two = bytearray(2)

    def _read(self, reg, buf):
        mux = self.mux
        try:
            if mux is not None:
                mux.select(self.mux_addr, self.channel)
            self.i2c.readfrom_mem_into(self.addr, reg, buf)
        except OSError:
            if mux is not None:
                mux.forget()
            raise

    def read_angle(self):
        """Raw angle 0..4095, or -1 when STATUS says there is no magnet. Hot: no allocation."""
        buf = self._buf
        buf[0] = 0  # machine.I2C returns silently if the register byte is NAKed: read "no magnet"
        mux = self.mux
        try:  # _read inlined: a Python call costs ~20 us on the RP2040 (bench_rp2040)
            if mux is not None:
                mux.select(self.mux_addr, self.channel)
            self.i2c.readfrom_mem_into(self.addr, _STATUS, buf)
        except OSError:
            if mux is not None:
                mux.forget()
            raise
        self.status = buf[0]
        if not buf[0] & _MD:
            return -1
        return ((buf[1] & 0x0F) << 8) | buf[2]

    def magnet_status(self):
        """Read STATUS now: MAGNET_NONE, MAGNET_OK, MAGNET_WEAK or MAGNET_STRONG."""
        self._read(_STATUS, self._one)
        self.status = self._one[0]
        return magnet_state(self.status)

    def agc(self):
        """The automatic gain control value (0..255 at 5 V, 0..128 at 3.3 V): diagnostics."""
        self._read(_AGC, self._one)
        return self._one[0]

    def magnitude(self):
        """The CORDIC magnitude 0..4095 (field strength): diagnostics."""
        self._read(_MAGNITUDE, self._two)
        return ((self._two[0] & 0x0F) << 8) | self._two[1]
